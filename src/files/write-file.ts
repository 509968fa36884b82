import { closeSync, constants, lstatSync, openSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { fileSizeLimitSentence } from './file-size-limit.js';

/**
 * Writes that name their file when they fail (issue 25, hostile tester hx1, "unclear"): a full disk
 * gave `jsonbench: error: ENOSPC: no space left on device, write` with no path (Node names none for
 * a write on an open file), and left `results.json.tmp-NNNN` behind. These name the path, say what
 * the error code means, and leave no temp file.
 */

/** Plain words for the error codes a write on a full or read-only disk gives. */
const MEANING: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  // with a file-size limit set (ulimit -f), FileWriteError names it instead (files/file-size-limit.ts)
  EFBIG: 'the file would be larger than the file system allows',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EIO: 'an input/output error of the device',
  ELOOP: 'it is a symbolic link, and jsonbench never writes through one',
};

/**
 * Symbolic links planted in an output folder are never written through (hx3, issue 25: a
 * `results.partial.jsonl` link to another file had that file overwritten): a whole-file write
 * removes a link at its path first (the link, never its target) and opens with O_NOFOLLOW; an append
 * opens with O_NOFOLLOW and fails (ELOOP) on a link; a temp file is created exclusively. O_NOFOLLOW
 * is 0 where the platform has none (Windows).
 */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const REPLACE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW;
const APPEND = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NOFOLLOW;

/** Opens `path` with `flags` (numbers: O_NOFOLLOW has no letter) and writes `data` at the open position. */
function writeWith(path: string, flags: number, data: string | NodeJS.ArrayBufferView): void {
  const fd = openSync(path, flags, 0o666);
  try {
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** Removes `path` when it is a symbolic link (the link itself); nothing when it is anything else or absent. */
function unlinkIfLink(path: string): void {
  try {
    if (lstatSync(path).isSymbolicLink()) unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/**
 * A write that failed, naming the file: `cannot write <path>: no space left on the device (ENOSPC)`.
 * Keeps the Node error's `code` and `syscall`, so the CLI reads it as a file-system error on a path
 * the user gave (exit 2).
 */
export class FileWriteError extends Error {
  readonly code: string;
  readonly syscall: string;
  constructor(
    readonly path: string,
    cause: NodeJS.ErrnoException,
  ) {
    const code = cause.code ?? 'EIO';
    // EFBIG under a file-size limit is the process's limit, not the file system's (hx7 U2)
    const meaning = (code === 'EFBIG' ? fileSizeLimitSentence() : undefined) ?? MEANING[code];
    super(`cannot write ${path}: ${meaning ?? cause.message.replace(/^E[A-Z]+: /, '')} (${code})`, { cause });
    this.code = code;
    this.syscall = cause.syscall ?? 'write';
  }
}

/** True when `e` is a Node error of a system call (it has an `E…` code), which {@link named} wraps. */
const isErrno = (e: unknown): e is NodeJS.ErrnoException =>
  e instanceof Error &&
  typeof (e as NodeJS.ErrnoException).code === 'string' &&
  /^E[A-Z]+$/.test((e as NodeJS.ErrnoException).code!);

/** Runs `write` (a write of `path`); a system error it throws becomes a {@link FileWriteError} naming `path`. */
export function named<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    if (isErrno(e)) throw new FileWriteError(path, e);
    throw e;
  }
}

/** `writeFileSync(path, data)` replacing a symbolic link at `path` (never writing through it), failing with a {@link FileWriteError} naming `path`. */
export function writeFileNamed(path: string, data: string | NodeJS.ArrayBufferView): void {
  named(path, () => {
    unlinkIfLink(path);
    writeWith(path, REPLACE, data);
  });
}

/** `appendFileSync(path, data)`, failing with a {@link FileWriteError} naming `path` (ELOOP: `path` is a symbolic link). */
export function appendFileNamed(path: string, data: string): void {
  named(path, () => writeWith(path, APPEND, data));
}

/**
 * Writes `path` atomically: a temp file beside it, then a rename, so a reader never sees half a
 * file; on failure the temp file is removed and a {@link FileWriteError} names `path`.
 */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    named(path, () => {
      // exclusive: a link planted at the temp name is removed, never followed; the rename replaces a link at `path`
      rmSync(tmp, { force: true });
      writeFileSync(tmp, data, { flag: 'wx' });
      renameSync(tmp, path);
    });
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
