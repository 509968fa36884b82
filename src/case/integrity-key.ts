import { createHmac, randomBytes } from 'node:crypto';
import { constants, closeSync, fstatSync, linkSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { makeFolder } from './make-folder.js';

/**
 * This user's jsonbench key (32 random bytes, made on first use, mode 0600): what signs a results
 * file's sidecar (results/integrity.ts), a killed run's partial files (run/partial-mac.ts) and the
 * typia code cache (serializers/typia/runtime.ts). Here, on the ground floor, so that each of those
 * rooms can reach it. What it proves and what it cannot: results/integrity.ts.
 */

/** Functions taken when this module loads, before any user code (as results/io.ts `pristine`). */
const pristine = {
  createHmac,
  randomBytes,
  openSync,
  fstatSync,
  readSync,
  closeSync,
  writeFileSync,
  rmSync,
  linkSync,
} as const;

/**
 * Where this user's integrity key is: `$JSONBENCH_KEY_FILE` when set (tests, a CI job's own), else
 * `$XDG_STATE_HOME/jsonbench/key` (an absolute XDG_STATE_HOME only, as the XDG spec says), else
 * `~/.local/state/jsonbench/key`.
 */
export function integrityKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JSONBENCH_KEY_FILE?.trim()) return env.JSONBENCH_KEY_FILE;
  const state =
    env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'jsonbench', 'key');
}

/** The key in force, by path: read (or made) once per process. */
const keys = new Map<string, Buffer | { problem: string }>();

/** The key file's text: 64 hex digits (32 random bytes) and a newline. */
const KEY_TEXT = /^([0-9a-f]{64})\n?$/;

/**
 * The key at `path`: its 32 bytes, or `{ problem }` when it cannot be used — absent (and not to be
 * made), not a regular file, readable or writable by others than its owner (mode & 077), owned by
 * another user, or not 64 hex digits. Opened non-blocking (a FIFO never waits for a writer).
 */
function readKey(path: string): Buffer | { problem: string } {
  let fd: number;
  try {
    fd = pristine.openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return { problem: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'ENOENT' : (e as Error).message };
  }
  try {
    const st = pristine.fstatSync(fd);
    if (!st.isFile()) return { problem: `${path} is not a regular file` };
    if (st.mode & 0o077)
      return {
        problem: `${path} can be read or written by other users (mode ${(st.mode & 0o777).toString(8)}; make it 600)`,
      };
    if (typeof process.getuid === 'function' && st.uid !== process.getuid())
      return { problem: `${path} belongs to another user` };
    const buf = Buffer.alloc(Math.min(st.size, 256));
    const n = pristine.readSync(fd, buf, 0, buf.length, 0);
    const hex = KEY_TEXT.exec(buf.subarray(0, n).toString('latin1'))?.[1];
    return hex ? Buffer.from(hex, 'hex') : { problem: `${path} does not hold a jsonbench key (64 hex digits)` };
  } finally {
    pristine.closeSync(fd);
  }
}

/**
 * Makes the key at `path` when there is none: 32 random bytes written to an exclusive temp file of
 * mode 0600 in a folder of mode 0700, then linked to its name (a link never replaces a file: two
 * first runs at once keep one key, the first's). Returns the key in force then.
 */
function makeKey(path: string): Buffer | { problem: string } {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    // mode 0700, one mkdir a level: a recursive mkdir loops forever under /proc on Node 20
    // (hx9: XDG_STATE_HOME=/proc/nonexistent hung the run)
    makeFolder(dirname(path), 0o700);
    pristine.writeFileSync(tmp, pristine.randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
    try {
      pristine.linkSync(tmp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  } catch (e) {
    return { problem: `cannot make ${path}: ${(e as Error).message}` };
  } finally {
    pristine.rmSync(tmp, { force: true });
  }
  return readKey(path);
}

/** The key to sign with (made on first use) or to check with (never made: without one, nothing was signed by it). */
export function integrityKey(make: boolean): Buffer | { problem: string } {
  const path = integrityKeyPath();
  const known = keys.get(path);
  if (known && (Buffer.isBuffer(known) || !make)) return known;
  let key = readKey(path);
  if (!Buffer.isBuffer(key) && key.problem === 'ENOENT')
    key = make ? makeKey(path) : { problem: `there is no integrity key (${path})` };
  if (Buffer.isBuffer(key) || !make) keys.set(path, key);
  return key;
}

/** HMAC-SHA256 of `text` (its UTF-8 bytes) under `key`, lowercase hex. */
export function macOf(key: Buffer, text: string | Uint8Array): string {
  return pristine.createHmac('sha256', key).update(text).digest('hex');
}
