import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';

/**
 * A serializer that starts a process in a session of its own (hostile tester hx2, security: a
 * detached `sleep 300` outlived the run; the worker's process group, killed at the end of each
 * launch, does not hold it). Each launch tags its worker's environment and kills what carries the
 * tag when it ends (runtimes/descendants.ts).
 */

const config = fileURLToPath(
  new URL('../../../test/fixtures/hostile/hostile3/detached-child.config.mjs', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-detached-'));
const pidDir = join(dir, 'pids');
mkdirSync(pidDir);
const pids = () => readdirSync(pidDir).map((f) => Number(readFileSync(join(pidDir, f), 'utf8')));
/** Whether `pid` runs (a zombie, killed but not yet reaped by its new parent, does not). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};
after(() => {
  for (const pid of pids()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test(
  'a detached grandchild started by a serializer is killed when its launch ends; the case is measured',
  { skip: process.platform !== 'linux' && 'needs /proc (Linux)' },
  async () => {
    const out = join(dir, 'run');
    const ran = await cli(quickRunArgs(config, 'detached-child', 'serialize', out), {
      env: { JSONBENCH_TEST_PID_DIR: pidDir },
      timeoutMs: 300_000,
    });
    assert.equal(ran.code, 0, ran.stderr);
    const started = pids();
    assert.ok(started.length >= 1, 'the fixture wrote its grandchild pid');
    // a killed process is reaped by init a moment later
    const deadline = Date.now() + 5_000;
    while (started.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(started.filter(alive), [], 'no grandchild outlives the run');
  },
);
