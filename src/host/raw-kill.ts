/**
 * SIGKILL without `process.kill`: Node's `process.kill` looks up `process._kill` at every call, so a
 * config's timer that replaced either after its guarded import left a hanging worker unkillable (hx13
 * LK2-hang: `process.kill = () => true` set from setImmediate and a `node:timers` interval; the case
 * timeout fired, nothing died, the run never ended). `process._kill` (the binding `process.kill`
 * calls: `(pid, signal number) → errno`) is taken when this module loads, before any user code; the
 * host guard still reports the replacement at its next check (config/user-config.ts).
 */
const binding = (process as unknown as { _kill?: (pid: number, signal: number) => number })._kill;
const rawKill = typeof binding === 'function' ? binding.bind(process) : undefined;
const fallback = process.kill.bind(process);

/**
 * Sends SIGKILL to `pid` (a negative pid: its process group). Returns whether it was sent; false
 * when the process is gone (ESRCH) or not ours. Never throws.
 */
export function sigkill(pid: number): boolean {
  try {
    if (rawKill) return rawKill(pid, 9) === 0;
    return fallback(pid, 'SIGKILL');
  } catch {
    return false;
  }
}
