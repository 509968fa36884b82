import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { onProcessEnd } from '../files/process-end.js';

/**
 * A supervisor for the jsonbench process while it runs launches (hx5 H1: a worker sent SIGSTOP to
 * `process.ppid` in its 500th call; the host, stopped, could fire none of its own timeouts and the run
 * froze until an outside timeout killed it).
 *
 * A small `sh` loop, started once in the host's own process group (not detached), reads the host's state
 * from /proc/PID/stat once a second; when it has been stopped (state T) at two reads in a row it prints
 * `stopped` on its stdout and sends SIGCONT to the host, which then fails the launches that were
 * running (launch.ts: "it stopped the jsonbench process"). Why this is sound against a user's pause:
 * job control (Ctrl-Z: SIGTSTP to the terminal's foreground process group; `kill -STOP -PGID`) stops
 * the whole group, the supervisor with it, so it never undoes that; workers lead process groups of
 * their own (launch.ts, detached) and are not in it. What it does not catch: a worker that stops the
 * host's whole process group, or kills or stops the supervisor first; `kill -STOP` of the jsonbench
 * process alone by its user is undone after about 2 s (docs/limits.md). Linux only (/proc).
 *
 * The loop's cost: one `sleep` process a second; it ends within a second of the host's end (its
 * /proc entry gone) and is killed at the host's end.
 */
const SCRIPT = `h=$1; n=0
while [ -r /proc/$h/stat ]; do
  read -r l < /proc/$h/stat || exit 0
  s=\${l##*) }; s=\${s%% *}
  if [ "$s" = T ]; then n=$((n+1)); else n=0; fi
  if [ $n -ge 2 ]; then echo stopped; kill -CONT $h; n=0; fi
  sleep 1
done`;

let supervisor: ChildProcess | undefined;

/**
 * Starts the supervisor once per process (later calls do nothing); `onStopped` runs in the host each
 * time the supervisor found it stopped and continued it. Does nothing where /proc or sh is missing.
 */
export function superviseHost(onStopped: () => void): void {
  if (supervisor || process.platform !== 'linux' || !existsSync(`/proc/${process.pid}/stat`)) return;
  try {
    supervisor = spawn('sh', ['-c', SCRIPT, 'jsonbench-supervisor', String(process.pid)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return;
  }
  const child = supervisor;
  child.on('error', () => {
    // no sh: the run goes on without a supervisor
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.trim() === 'stopped') onStopped();
  });
  // never what keeps the host alive
  child.unref();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  onProcessEnd(() => child.kill('SIGKILL'));
}
