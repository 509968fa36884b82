import { Worker } from 'node:worker_threads';

/**
 * Bounds host-side calls into a user's code that run synchronously on the host's main thread
 * (issue 9: a serializer whose `supports()` loops forever hung `list` and `run` with no way out;
 * a config whose top level loops does the same). A timer on the main thread cannot fire while it
 * spins, so a watchdog thread holds the deadline: when a guarded step outlasts it, the watchdog
 * writes `jsonbench: error: <step> did not return within N s…` to stderr, stops the main thread's
 * JavaScript (inspector `Runtime.terminateExecution`, the same stop as a worker's terminate()) and
 * the host exits 2 (process 'exit' hooks still run, so worker process groups are still killed).
 *
 * Steps nest (the host guard's check around a `--schema` module holds the module's own import
 * step: config/host-guard.ts around host/user-code.ts): the innermost step holds the deadline, and
 * when it ends the step around it is armed again with its whole bound, so every step stays bounded
 * and none is stopped early for the time an inner one took.
 */

interface Armed {
  seq: number;
  step: string;
  ms: number;
}

/** The watchdog thread: CommonJS text run with `eval` (no file to find next to build/). */
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let timer = null;
parentPort.on('message', (m) => {
  if (timer) { clearTimeout(timer); timer = null; }
  if (m.step === undefined) return;
  timer = setTimeout(() => {
    if (Atomics.load(workerData, 1) !== m.seq) return;
    Atomics.store(workerData, 0, 1);
    try { writeSync(2, 'jsonbench: error: ' + m.step + ' did not return within ' + (m.ms / 1000) + ' s (a loop that never ends?); stopped\\n'); } catch {}
    parentPort.postMessage('fired');
    try {
      const inspector = require('node:inspector');
      const s = new inspector.Session();
      s.connectToMainThread();
      // disconnected once done, or Node prints "Waiting for the debugger to disconnect..." at exit
      s.post('Runtime.terminateExecution', () => { try { s.disconnect(); } catch {} });
    } catch (e) { try { writeSync(2, 'jsonbench: the watchdog could not stop the main thread: ' + e.message + '\\n'); } catch {} }
  }, m.ms);
});
`;

let worker: Worker | undefined;
/** [0]: 1 once the watchdog fired; [1]: the sequence number of the step now guarded (0: none). */
let shared: Int32Array | undefined;
let seq = 0;
/** the steps guarded now, outermost first; the last one holds the deadline */
const active: Armed[] = [];

/** Makes `step` (or, when undefined, none) the one the watchdog thread times. */
function arm(w: { worker: Worker; shared: Int32Array }, step: Armed | undefined): void {
  Atomics.store(w.shared, 1, step ? step.seq : 0);
  w.worker.postMessage(step ?? { seq: 0 });
}

/** Starts guarding a step: it holds the deadline until it ends ({@link disarm}). */
function begin(w: { worker: Worker; shared: Int32Array }, step: string, ms: number): Armed {
  const mine: Armed = { seq: ++seq, step, ms };
  active.push(mine);
  arm(w, mine);
  return mine;
}

/** Ends a step; when it held the deadline, the step around it (if any) is armed again with its whole bound. */
function disarm(w: { worker: Worker; shared: Int32Array }, mine: Armed): void {
  const i = active.indexOf(mine);
  if (i < 0) return;
  active.splice(i, 1);
  if (i === active.length) arm(w, active.at(-1));
}

function watchdog(): { worker: Worker; shared: Int32Array } {
  if (!worker || !shared) {
    shared = new Int32Array(new SharedArrayBuffer(8));
    const flags = shared;
    worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: flags, execArgv: [], stdout: false, stderr: false });
    // terminating the watchdog first ends its inspector session (else Node prints "Waiting for the debugger to disconnect...")
    const w = worker;
    w.on('message', () => {
      void w.terminate().finally(() => process.exit(2));
    });
    worker.on('error', () => {
      worker = undefined;
    });
    // after the listeners: a 'message' listener refs the worker again, and the watchdog must never keep a process alive
    worker.unref();
    process.on('exit', () => {
      if (Atomics.load(flags, 0) === 1) process.exitCode = 2;
    });
  }
  return { worker, shared };
}

/**
 * Runs `fn` (a synchronous call into user code) with a deadline of `timeoutMs`; past it the process
 * ends with exit 2 and a line naming `step` (e.g. `supports() of serializer "x" (workload y, serialize)`).
 * Returns what `fn` returns; exceptions pass through.
 */
export function guardedCall<T>(step: string, timeoutMs: number, fn: () => T): T {
  const w = watchdog();
  const mine = begin(w, step, timeoutMs);
  try {
    return fn();
  } finally {
    disarm(w, mine);
  }
}

/**
 * Like {@link guardedCall} for an async step (importing a config): the deadline holds until the
 * Promise settles; a step that loops synchronously anywhere inside is stopped.
 */
export async function guardedAsync<T>(step: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const w = watchdog();
  const mine = begin(w, step, timeoutMs);
  try {
    return await fn();
  } finally {
    disarm(w, mine);
  }
}

/** How long one `supports()` answer may take (it is a predicate over a workload's description). */
export const SUPPORTS_TIMEOUT_MS = 10_000;

/**
 * The same bound for a built-in serializer's `supports()`, which may do real work: typia generates
 * its code for the workload there (TypeScript's compiler: 16–26 s was seen at load 13–16 for one
 * payload, past the 10 s bound, which stopped whole runs). Still a bound, in case of a bug.
 */
export const BUILTIN_SUPPORTS_TIMEOUT_MS = 300_000;
