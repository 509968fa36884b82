/**
 * Ends a worker whose host died without ending it (`kill -9` of the CLI, the OOM killer). A worker
 * leads its own process group (launch.ts, so Ctrl-C does not reach it), so it outlives its host;
 * one stuck in a serializer's synchronous infinite loop would then spin at 100% CPU for ever, since
 * its blocked event loop runs no handler (an IPC `disconnect`, a closed pipe) and no watchdog
 * inside it could be trusted not to perturb the timing (a worker thread costs ~65 ms of the
 * process CPU the rounds are timed by).
 *
 * Linux's `PR_SET_PDEATHSIG` needs native code; this is its POSIX stand-in, outside the worker: a
 * `sh` sentinel per launch, blocked in `read` on a pipe whose write end only the host holds (Node
 * opens it close-on-exec, so no worker inherits it). The kernel closes that end when the host dies
 * in any way; `read` returns at end of file and the sentinel kills the worker's process group with
 * SIGKILL at once. When the launch ends normally the host writes one line first and the sentinel
 * exits without killing. Cost: one `sh` start per launch (dash: ~1 ms), no CPU while it waits.
 * Not on Windows (no process groups, no `sh`): there the launch runs unguarded, as before.
 */
import { spawn } from 'node:child_process';
import { workerEnv } from '../case/startup.js';

/** Stops guarding: the launch ended and the host ends the worker itself. */
export type ReleaseGuard = () => void;

/**
 * The sentinel's script: `$1` is the worker's pid, which is its process group id. dash's `kill`
 * takes `-KILL` and a negative pid for a group (it refuses `--`).
 */
const SENTINEL = 'read -r line || kill -KILL -"$1" 2>/dev/null';

/**
 * Starts the sentinel for the worker `pid` (the leader of its own process group). Never throws:
 * without `sh` the launch runs unguarded. The sentinel leads its own group too (a terminal's
 * Ctrl-C does not end it before the host has killed the workers) and does not keep the host alive.
 */
export function guardOrphan(pid: number | undefined): ReleaseGuard {
  if (!pid || process.platform === 'win32') return () => {};
  let sentinel: ReturnType<typeof spawn>;
  try {
    sentinel = spawn('sh', ['-c', SENTINEL, 'jsonbench-orphan-guard', String(pid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: workerEnv(),
      detached: true,
    });
  } catch {
    return () => {};
  }
  sentinel.on('error', () => {
    /* no sh: unguarded */
  });
  sentinel.stdin!.on('error', () => {
    /* sentinel gone */
  });
  sentinel.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    sentinel.stdin!.end('done\n');
  };
}
