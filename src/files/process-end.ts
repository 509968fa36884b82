import { readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';

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
  createHash,
  // Node's native exit (lib/internal/process/per_thread.js: process.exit → emit('exit') → reallyExit)
  reallyExit: (process as unknown as { reallyExit: (code: number) => never }).reallyExit.bind(process),
  stderrWrite: process.stderr.write.bind(process.stderr),
  on: process.on.bind(process),
};

const sealed = new Map<string, { sha256: string; bytes: Buffer }>();
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

function sha256(bytes: Buffer): string {
  return captured.createHash('sha256').update(bytes).digest('hex');
}

/**
 * Seals the file at `path` that jsonbench has just written (call it right after the synchronous
 * write): its bytes are kept, and {@link endProcess} puts them back if anything changes the file
 * before the process ends. A later call for the same path (results.json written again after the
 * probe pass) replaces the seal. A file that cannot be read is not sealed.
 */
export function sealWritten(path: string): void {
  try {
    const bytes = captured.readFileSync(path);
    sealed.set(path, { sha256: sha256(bytes), bytes });
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
  for (const [path, seal] of sealed) {
    let now: string | undefined;
    try {
      now = sha256(captured.readFileSync(path));
    } catch {
      now = undefined;
    }
    if (now === seal.sha256) continue;
    const tmp = `${path}.tmp-end-${process.pid}`;
    try {
      captured.rmSync(tmp, { force: true });
      captured.writeFileSync(tmp, seal.bytes, { flag: 'wx' });
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
