import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A worker stuck in a serializer's synchronous infinite loop does not outlive a CLI killed with
 * SIGKILL (runtimes/orphan-guard.ts): the fixture `spins` writes its worker's pid, then spins.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const config = fileURLToPath(new URL('../../../test/fixtures/misbehaving/spins.config.mjs', import.meta.url));
/** How long the worker may outlive its killed host (ms): the sentinel kills at once; the rest is slack for a loaded machine. */
const GONE_WITHIN_MS = 5000;
/** How long the CLI may take to start the worker (config compile, plan, payload) on a loaded machine (ms). */
const START_WITHIN_MS = 60_000;

/** Whether a process runs (Linux /proc; a zombie waiting for its reaper counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test(
  'a worker spinning in a serializer dies within seconds of a kill -9 of the CLI',
  { skip: process.platform !== 'linux' && 'reads /proc and process groups (Linux)' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsonbench-orphan-'));
    const pidFile = join(dir, 'worker.pid');
    const cli = spawn(
      process.execPath,
      [
        bin,
        'run',
        '--config',
        config,
        '--serializer',
        'spins',
        '--workload',
        'weather-station',
        '--direction',
        'serialize',
        '--policy',
        'quick',
        '--no-probes',
        '--no-ledger',
        '--out',
        join(dir, 'out'),
      ],
      {
        env: { ...process.env, JSONBENCH_TEST_SPIN_PID_FILE: pidFile, NO_COLOR: '1' },
        stdio: 'ignore',
      },
    );
    let worker: number | undefined;
    try {
      const t0 = Date.now();
      while (!existsSync(pidFile) && Date.now() - t0 < START_WITHIN_MS && cli.exitCode === null) await sleep(50);
      assert.ok(existsSync(pidFile), `the worker never reached spins' serialize (CLI exit ${cli.exitCode})`);
      worker = Number(readFileSync(pidFile, 'utf8'));
      assert.ok(running(worker), 'the worker spins before the CLI is killed');
      const exited = new Promise((r) => cli.once('exit', r));
      cli.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      while (running(worker) && Date.now() - killedAt < GONE_WITHIN_MS) await sleep(50);
      assert.equal(running(worker), false, `worker ${worker} still runs ${GONE_WITHIN_MS} ms after its CLI was killed`);
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
      if (worker !== undefined && running(worker))
        try {
          process.kill(-worker, 'SIGKILL');
        } catch {
          /* gone */
        }
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
