import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { helperThreadsCpuNs, threadCpuNowNs } from '../../src/measure/clock.js';

/**
 * hx9: a serializer's prepare() replaced fs.readSync in the worker so that reads of
 * /proc/thread-self/schedstat returned numbers of its choosing, which hid the CPU its helper thread
 * burnt beside the baseline (JSON.parse "1.70× faster" than itself, no ⊘). The thread clocks take
 * fs.readSync and Atomics.wait when clock.ts loads, before any user code.
 */
const fsCjs = createRequire(import.meta.url)('node:fs') as typeof fs;

test(
  'the thread CPU clocks read /proc with the functions taken at load, whatever user code puts in fs later',
  {
    skip: threadCpuNowNs === undefined ? 'no /proc/thread-self/schedstat clock on this machine' : false,
  },
  () => {
    const clock = threadCpuNowNs!;
    const original = fsCjs.readSync;
    const originalWait = Atomics.wait;
    let fakeReads = 0;
    // the attack: every read returns "0 0 <n>", a thread that never ran
    fsCjs.readSync = ((fd: number, buf: Uint8Array) => {
      fakeReads++;
      const text = new TextEncoder().encode(`0 0 ${fakeReads}\n`);
      buf.set(text);
      return text.length;
    }) as typeof fs.readSync;
    Atomics.wait = (() => 'ok') as typeof Atomics.wait;
    try {
      const a = clock();
      const until = performance.now() + 20;
      while (performance.now() < until);
      const b = clock();
      assert.equal(fakeReads, 0, 'the patched fs.readSync was never called');
      assert.ok(b - a > 5e6, `20 ms of work advanced the thread clock by ${((b - a) / 1e6).toFixed(2)} ms`);
      if (helperThreadsCpuNs) helperThreadsCpuNs();
      assert.equal(fakeReads, 0, 'nor by the helper threads clock');
    } finally {
      fsCjs.readSync = original;
      Atomics.wait = originalWait;
    }
  },
);

/**
 * hx10: a prepare() closed the thread clock's file descriptor and opened a file reading "0 0 0" under its number
 * (every cost-check block then read 0 ns, and 0/0 passed the check), or pointed a helper thread's fd at its own
 * spinner's schedstat. Each read checks the fd still holds the file it opened. Run in a child process: the swap
 * cannot be undone in this one.
 */
test(
  'a thread clock whose file descriptor was replaced under its number throws ClockTampered, never reads the new file',
  {
    skip: threadCpuNowNs === undefined ? 'no /proc/thread-self/schedstat clock on this machine' : false,
  },
  async () => {
    const { execFileSync } = await import('node:child_process');
    const clockJs = new URL('../../src/measure/clock.js', import.meta.url).href;
    const child = `
      import * as fs from 'node:fs';
      const { threadCpuNowNs, helperThreadsCpuNs, ClockTampered } = await import(${JSON.stringify(clockJs)});
      const fake = '/tmp/jsonbench-fake-schedstat-' + process.pid;
      fs.writeFileSync(fake, '0 0 0\\n');
      const swap = (re) => {
        for (const fd of fs.readdirSync('/proc/self/fd').map(Number)) {
          let to = ''; try { to = fs.readlinkSync('/proc/self/fd/' + fd); } catch { continue; }
          if (re.test(to)) { fs.closeSync(fd); const again = fs.openSync(fake, 'r'); if (again !== fd) throw new Error('fd ' + again); return; }
        }
        throw new Error('no fd for ' + re);
      };
      const out = [];
      threadCpuNowNs();
      const own = fs.readlinkSync('/proc/thread-self').split('/').pop();
      swap(new RegExp('/task/' + own + '/schedstat$'));
      try { threadCpuNowNs(); out.push('read'); } catch (e) { out.push(e instanceof ClockTampered ? e.message : 'other: ' + e); }
      if (helperThreadsCpuNs) {
        swap(new RegExp('/task/(?!' + own + '/)\\\\d+/schedstat$'));
        try { helperThreadsCpuNs(); out.push('read'); } catch (e) { out.push(e instanceof ClockTampered ? e.message : 'other: ' + e); }
      }
      fs.rmSync(fake);
      console.log(JSON.stringify(out));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8' }),
    ) as string[];
    assert.ok(out.length >= 1);
    for (const line of out)
      assert.match(
        line,
        /^the thread CPU clock's file descriptor for \/proc\/.*schedstat was replaced during the case/,
      );
  },
);
