/**
 * Who owns a folder while a run goes on (issue 25):
 *
 * - the output folder's lock, `<out>/.jsonbench-run.lock`: one run per folder. A second run into
 *   it is refused with {@link RunLockError}, naming the folder and the owner (pid, host, start);
 *   a lock whose pid is dead on this host (a run killed with SIGKILL) is taken over.
 * - the build's holds, `build/.runs/<pid>.json`: scripts/build.mjs refuses to rebuild while a live
 *   process holds the build it runs from (it used to start with `rm -rf build`, deleting the code
 *   under the run). Many runs may hold one build at once.
 *
 * A lock file is JSON: `{ pid, host, startedAt, token, folder }`. A pid on another host cannot be
 * checked: such a lock is held until its owner removes it (the message says which file to remove).
 * A pid reused by another process after its run died keeps the lock held (the message names it).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** The output folder's lock file name. */
export const RUN_LOCK = '.jsonbench-run.lock';
/** The build's folder of holds (one file per run using the build). */
export const BUILD_HOLDS = '.runs';
/** An unreadable lock younger than this is one being written (ms); older, it is taken over. */
const FRESH_MS = 10_000;

/** What a lock file holds. */
export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
  folder: string;
}

/** A second run into a folder that a live run owns. Looks like a file-system error (`EBUSY`): the CLI exits 2 with its message. */
export class RunLockError extends Error {
  readonly code = 'EBUSY';
  readonly syscall = 'open';
  constructor(
    readonly path: string,
    readonly owner: Partial<LockOwner>,
    message: string,
  ) {
    super(message);
    this.name = 'RunLockError';
  }
}

/** Whether `pid` is a live process on this host (EPERM: alive, another user's). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): Partial<LockOwner> | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Partial<LockOwner>) : null;
  } catch {
    return null;
  }
}

/**
 * How long ago the lock file was last written (ms), from its modification time: a lock another run
 * has just created is empty or half-written until its write ends, so its text cannot say its age
 * (reading it gave Infinity, and a second run started at the same moment took over the first's
 * fresh lock as a dead run's: both wrote whole results into one folder, CI 2026-12-06).
 */
function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** A held lock of the output folder: `release()` removes it when it is still this run's (never throws). */
export interface FolderLock {
  path: string;
  owner: LockOwner;
  /** the dead run whose lock was taken over, if any */
  tookOver?: Partial<LockOwner>;
  release(): void;
}

/**
 * The live run that holds `folder`'s lock on this host (its pid alive), or undefined: none, a dead one's, another
 * host's (which cannot be told), or an unreadable lock. `jsonbench report` of a folder a run is still writing says
 * so (hx20 a15: it said "the run was killed" of a run that went on measuring).
 */
export function liveOwner(folder: string): Partial<LockOwner> | undefined {
  const held = readOwner(join(folder, RUN_LOCK));
  if (!held || held.host !== os.hostname() || typeof held.pid !== 'number' || held.pid === process.pid)
    return undefined;
  return pidAlive(held.pid) ? held : undefined;
}

/**
 * Takes the lock of output folder `folder` (which exists) for this process.
 * @throws RunLockError when a live run on this host, or a run on another host, holds it
 * @throws the file-system error of writing the lock file
 */
export function lockRunFolder(folder: string): FolderLock {
  const path = join(folder, RUN_LOCK);
  const owner: LockOwner = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
    folder,
  };
  const text = `${JSON.stringify(owner)}\n`;
  let tookOver: Partial<LockOwner> | undefined;
  try {
    writeFileSync(path, text, { flag: 'wx' });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    // the folder named by --out, not a bare ENOENT on a file the user never named (hx17 OUT-proc: `--out /proc/self/fd`)
    if (err.code !== 'EEXIST')
      throw Object.assign(
        new Error(
          `--out ${folder}: jsonbench cannot create its lock file there (${err.message}); give --out a folder of your own that jsonbench can write`,
        ),
        { code: err.code, syscall: err.syscall, path },
      );
    const held = readOwner(path);
    const refuse = (why: string): never => {
      throw new RunLockError(
        path,
        held ?? {},
        `${folder} is the output folder of another run (${why}): two runs into one folder would lose the first one's files; give this run another --out, or wait for that run to end`,
      );
    };
    if (!held) {
      if (ageMs(path) < FRESH_MS) refuse('its lock is being written');
    } else if (held.host !== owner.host)
      refuse(
        `pid ${held.pid} on host ${held.host}, since ${held.startedAt}; this host cannot tell whether it is alive: remove ${path} if it is not`,
      );
    else if (held.pid !== undefined && held.pid !== process.pid && pidAlive(held.pid))
      refuse(`pid ${held.pid} on this host, since ${held.startedAt}, is still running`);
    // a dead run's lock: taken over by a rename (atomic), then read back (of two takers, the last rename wins)
    tookOver = held ?? {};
    const tmp = `${path}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    writeFileSync(tmp, text, { flag: 'wx' });
    renameSync(tmp, path);
    if (readOwner(path)?.token !== owner.token) refuse('another run took its stale lock at the same moment');
  }
  return {
    path,
    owner,
    ...(tookOver ? { tookOver } : {}),
    release: () => {
      try {
        if (readOwner(path)?.token === owner.token) rmSync(path, { force: true });
      } catch {
        // the folder is gone: nothing to release
      }
    },
  };
}

/**
 * Registers this process as using the build at `buildDir` (`build/.runs/<pid>.json`), so
 * scripts/build.mjs refuses to rebuild under it. Returns the release (never throws); a build that
 * cannot be marked (read-only install) returns a no-op release.
 */
export function holdBuild(buildDir: string, folder: string): () => void {
  const dir = join(buildDir, BUILD_HOLDS);
  const path = join(dir, `${process.pid}.json`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path,
      `${JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), folder })}\n`,
    );
  } catch {
    return () => {};
  }
  return () => {
    try {
      rmSync(path, { force: true });
    } catch {
      // the build was removed under the run: nothing to release
    }
  };
}

/** The live holders of the build at `buildDir` on this host (stale holds of dead pids are removed). */
export function buildHolders(buildDir: string): LockOwner[] {
  const dir = join(buildDir, BUILD_HOLDS);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const live: LockOwner[] = [];
  for (const name of names) {
    const p = join(dir, name);
    const o = readOwner(p);
    if (o && o.host === os.hostname() && typeof o.pid === 'number' && pidAlive(o.pid) && o.pid !== process.pid)
      live.push(o as LockOwner);
    else if (o && o.host === os.hostname()) rmSync(p, { force: true });
  }
  return live;
}
