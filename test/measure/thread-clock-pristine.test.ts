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
