import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin, cli, quickRunArgs } from './support.js';

/**
 * hx5 H1 (hang): a worker that sends SIGSTOP to the jsonbench process froze the run until an outside
 * timeout (rc 124). The supervisor (runtimes/supervisor.ts) continues a host stopped alone and the
 * launches that were running fail ("it stopped the jsonbench process"); a pause of the whole process
 * group (what Ctrl-Z does) stops the supervisor too and is left alone.
 */

const config = fileURLToPath(new URL('../../../test/fixtures/hostile/hx5/stop-parent.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-stop-parent-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const linux = process.platform === 'linux' ? false : 'needs /proc (Linux)';

test(
  'a worker stopping jsonbench no longer hangs the run: its case crashes naming it, the run ends',
  { skip: linux },
  async () => {
    const out = join(dir, 'stopped');
    const ran = await cli(quickRunArgs(config, 'json,parent-stopper', 'serialize', out), { timeoutMs: 120_000 });
    assert.equal(ran.signal, null, `ended by itself (${ran.ms.toFixed(0)} ms)`);
    assert.equal(ran.code, 0, ran.stderr);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      cases: { serializer: string; status: string; reason?: string }[];
    };
    const c = results.cases.find((x) => x.serializer === 'parent-stopper');
    assert.equal(c?.status, 'crashed');
    assert.match(c?.reason ?? '', /it stopped the jsonbench process/);
  },
);

test(
  'a pause of the whole process group (as Ctrl-Z) is not undone: the run stays stopped until continued, then measures',
  { skip: linux },
  async () => {
    const out = join(dir, 'paused');
    // the default policy: a run long enough to be stopped mid-way on a quiet machine (a quick run of this
    // workload can end before the pause: CI at load 0.7 found /proc/PID gone)
    const args = quickRunArgs(config, 'json,plain', 'serialize', out);
    args[args.indexOf('quick')] = 'default';
    const child = spawn(process.execPath, [bin, ...args], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, JSONBENCH_LEDGER: 'off' },
    });
    const pgid = child.pid!;
    const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const state = () => {
      const s = readFileSync(`/proc/${pgid}/stat`, 'utf8');
      return s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3);
    };
    try {
      // paused once the run has started measuring (its partial results file is there), never after it ended
      for (let waited = 0; !existsSync(join(out, 'run.partial.json')) && waited < 60_000; waited += 100)
        await new Promise((r) => setTimeout(r, 100));
      assert.ok(existsSync(join(out, 'run.partial.json')), 'the run started measuring');
      process.kill(-pgid, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, 3500));
      assert.equal(state(), 'T', 'still stopped after 3.5 s: the supervisor, stopped with it, did not continue it');
      process.kill(-pgid, 'SIGCONT');
      assert.equal(await ended, 0);
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { cases: { status: string }[] };
      assert.ok(
        results.cases.every((c) => c.status === 'measured'),
        JSON.stringify(results.cases.map((c) => c.status)),
      );
    } finally {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // ended
      }
    }
  },
);
