import { readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs';

/**
 * How a jsonbench command ends its process, leaving no window for user code after its last writes
 * (hx5's exit-rewrite: a config's `process.on('exit')` listener, loaded in this process, rewrote
 * results.json and appended to report.md after jsonbench had written them; a config's timer could
 * do the same while the command awaited its last steps).
 *
 * - The files a command wrote last are sealed as they are written ({@link sealWritten}: their
 *   bytes read back at once, synchronously, so no user code runs between the write and the seal).
 * - jsonbench's own clean-ups at exit (kill the launch groups still alive, remove a temp copy of a
 *   ledger) are registered here ({@link onProcessEnd}), not as `process.on('exit')` listeners.
 * - {@link endProcess} checks every sealed file against its bytes (one changed is written back and
 *   said on stderr), runs the clean-ups and exits through `process.reallyExit`, Node's own exit
 *   below `process.exit` (Node 20: `process.exit` emits 'exit' to every listener, then calls it):
 *   no 'exit' listener a config added runs, and no timer it left runs after the check.
 *
 * Everything called here is taken when this module loads: cli/main.ts imports it statically, before
 * any config, schema module or serializer is loaded in the host.
 */
const captured = {
  readFileSync,
  writeFileSync,
  renameSync,
  rmSync,
  // byte comparison without node:crypto (not loaded at start-up, issue 22)
  equals: Buffer.prototype.equals,
  apply: Reflect.apply,
  // Node's native exit (lib/internal/process/per_thread.js: process.exit → emit('exit') → reallyExit)
  reallyExit: (process as unknown as { reallyExit: (code: number) => never }).reallyExit.bind(process),
  stderrWrite: process.stderr.write.bind(process.stderr),
  on: process.on.bind(process),
};

const sealed = new Map<string, Buffer>();
const cleanups: (() => void)[] = [];
let cleaned = false;

function runCleanups(): void {
  if (cleaned) return;
  cleaned = true;
  for (const fn of cleanups.splice(0)) {
    try {
      fn();
    } catch {
      // a clean-up that fails (a group already gone, a temp folder removed) leaves the others to run
    }
  }
}

/**
 * Registers `fn` (synchronous) to run once when the process ends: by {@link endProcess}, or by any
 * other exit (`process.exit` on an error path, a signal handler's exit), through one 'exit'
 * listener registered here when this module loads.
 */
export function onProcessEnd(fn: () => void): void {
  cleanups.push(fn);
}
captured.on('exit', runCleanups);

/**
 * Seals the file at `path` that jsonbench has just written (call it right after the synchronous
 * write): its bytes are kept, and {@link endProcess} puts them back if anything changes the file
 * before the process ends. A later call for the same path (results.json written again after the
 * probe pass) replaces the seal. A file that cannot be read is not sealed.
 */
export function sealWritten(path: string): void {
  try {
    sealed.set(path, captured.readFileSync(path));
  } catch {
    sealed.delete(path);
  }
}

/**
 * Checks each sealed file: one whose bytes differ from what jsonbench wrote (or that is gone) is
 * written back (temp file, then rename) and named. Returns the lines to print (empty when every
 * file is as written). Synchronous: nothing else runs in this process meanwhile.
 */
export function restoreSealed(): string[] {
  const lines: string[] = [];
  for (const [path, bytes] of sealed) {
    let now: Buffer | undefined;
    try {
      now = captured.readFileSync(path);
    } catch {
      now = undefined;
    }
    if (now && captured.apply(captured.equals, bytes, [now])) continue;
    const tmp = `${path}.tmp-end-${process.pid}`;
    try {
      captured.rmSync(tmp, { force: true });
      captured.writeFileSync(tmp, bytes, { flag: 'wx' });
      captured.renameSync(tmp, path);
      lines.push(
        `jsonbench: warning: ${path} was ${now === undefined ? 'removed' : 'changed'} after jsonbench wrote it, by code running in this process (a config's exit listener, timer or promise): jsonbench wrote it back as it was`,
      );
    } catch (e) {
      captured.rmSync(tmp, { force: true });
      lines.push(
        `jsonbench: error: ${path} was changed after jsonbench wrote it, by code running in this process, and could not be written back (${(e as Error).message}): do not trust it`,
      );
    }
  }
  return lines;
}

/**
 * Ends the process with `code` once the command is over: sealed files checked (and written back),
 * jsonbench's clean-ups run, then Node's native exit, which runs no 'exit' listener. Output still
 * queued on stdout or stderr (a pipe whose reader is slow) is waited for, at most 2 s, and the files
 * are checked again after the wait. A file written back makes the exit code 1 when it was 0.
 */
export function endProcess(code: number): void {
  const finish = () => {
    const lines = restoreSealed();
    for (const line of lines) captured.stderrWrite(`${line}\n`);
    runCleanups();
    captured.reallyExit(lines.length && code === 0 ? 1 : code);
  };
  const pending = () => process.stdout.writableLength + process.stderr.writableLength > 0;
  if (!pending()) return finish();
  const started = Date.now();
  const wait = () => (pending() && Date.now() - started < 2000 ? setTimeout(wait, 10) : finish());
  wait();
}

/**
 * Node 20's bundled undici (fetch, Request, Headers, FormData) compiles and instantiates its HTTP parser,
 * llhttp, as WebAssembly when the module loads, and leaves the promise without a handler
 * (`llhttpPromise.catch()`, node:internal/deps/undici/undici). Under an address-space limit (`ulimit -v
 * 6000000`: V8 reserves guard regions for every Wasm memory) that promise rejects with "WebAssembly.instantiate():
 * Out of memory", and the unhandled rejection ended every command with Node's raw stack (hx5 C2). Nothing
 * in jsonbench uses fetch: undici is loaded only because a dependency reads the globals when it loads
 * (arktype's @ark/util lists FormData, Headers, Request and Response as built-in object kinds).
 *
 * {@link tolerateUndiciWasm} installs one 'unhandledRejection' listener that drops exactly that rejection
 * (a RangeError from WebAssembly whose stack names `lazyllhttp`) and throws anything else on, as Node does
 * without a listener (the process ends with the error).
 */

let tolerating = false;

/** Whether `reason` is undici's llhttp WebAssembly instance failing for want of address space. */
function isUndiciWasmFailure(reason: unknown): boolean {
  if (!(reason instanceof RangeError)) return false;
  return /WebAssembly/.test(reason.message) && /\blazyllhttp\b/.test(reason.stack ?? '');
}

/** Installs the listener (once per process). */
export function tolerateUndiciWasm(): void {
  // a worker may run on a runtime without Node's process events (QuickJS, a browser page)
  if (tolerating || typeof process === 'undefined' || typeof process.on !== 'function') return;
  tolerating = true;
  process.on('unhandledRejection', (reason) => {
    if (isUndiciWasmFailure(reason)) return;
    // out of file descriptors (`ulimit -n 150`: a lazy import's open fails, hx6): the limit named, not Node's stack
    const code = (reason as NodeJS.ErrnoException | null)?.code;
    if ((code === 'EMFILE' || code === 'ENFILE') && !process.env.JSONBENCH_DEBUG) {
      captured.stderrWrite(
        `jsonbench: error: too many open files (${code}): the limit of open files for this process (ulimit -n) is too low for jsonbench; raise it (e.g. ulimit -n 1024) and run again\n`,
      );
      runCleanups();
      captured.reallyExit(2);
    }
    throw reason;
  });
}
