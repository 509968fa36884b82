import { sigkill } from '../host/raw-kill.js';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Ends what a launch started outside its worker's process group (hostile tester hx2, security: a
 * serializer's prepare() started `sleep 300` with `detached: true`, a session and group of its own,
 * and it outlived the run; the group kill at the end of a launch, launch.ts, cannot reach it).
 *
 * Each launch's worker gets a random tag in its environment ({@link LAUNCH_TAG_VARIABLE}); every
 * process it starts inherits it, whatever group or session it moves to, and keeps it after its
 * parent exits and it is reparented. When the launch ends, {@link killTagged} reads
 * `/proc/<pid>/environ` of this user's processes and SIGKILLs those carrying the tag. Linux only
 * (`/proc`), about 5 ms per launch with a few hundred processes.
 *
 * A process started with an environment of its own choosing (`env: {}`) carries no tag (hx4
 * afterlife-noenv: it rewrote results.json after the run). While the worker lives, such a process is
 * still its descendant by parent pid: when the worker reports its stages ('round', 'done', 'error'),
 * the launch lists the worker's descendants ({@link descendantsOf}) and kills those still running at
 * its end ({@link killListed}). What neither sees (docs/limits.md): a process that left the tree
 * before a listing (a double fork whose middle process exited: reparented to init), or one under
 * another user; a cgroup or PR_SET_CHILD_SUBREAPER would, at the cost of native code or privileges.
 */

/** The environment variable carrying a launch's tag. */
export const LAUNCH_TAG_VARIABLE = 'JSONBENCH_LAUNCH_TAG';

/** A new tag for one launch: 16 random bytes, hex. */
export function newLaunchTag(): string {
  return randomBytes(16).toString('hex');
}

/**
 * SIGKILLs every process (but this one) whose environment holds `tag` as {@link LAUNCH_TAG_VARIABLE};
 * returns their pids. Never throws: without `/proc`, or for a process that is gone or not readable,
 * it does nothing.
 */
export function killTagged(tag: string): number[] {
  const needle = `${LAUNCH_TAG_VARIABLE}=${tag}\0`;
  const killed: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return killed;
  }
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!(environ + '\0').includes(needle)) continue;
    if (sigkill(pid)) killed.push(pid);
  }
  return killed;
}

/** A process found by {@link descendantsOf}: its pid and start time (clock ticks since boot), which tell it from a later process given the same pid. */
export interface ListedProcess {
  pid: number;
  start: number;
}

/** The parent pid and start time of `pid` from `/proc/<pid>/stat` (fields 4 and 22), or undefined. */
function statOf(pid: number): { ppid: number; start: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // the command name (field 2) may hold spaces and parentheses: the fields after its last ')'
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), start: Number(f[19]) };
}

/**
 * Every descendant of `root` now (children, their children, …, by parent pid in `/proc`), with its
 * start time. About 5 ms with a few hundred processes. Never throws: [] without `/proc`.
 */
export function descendantsOf(root: number): ListedProcess[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, ListedProcess[]>();
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    const s = statOf(pid);
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push({ pid, start: s.start });
    children.set(s.ppid, list);
  }
  const out: ListedProcess[] = [];
  const todo = [root];
  while (todo.length) {
    for (const c of children.get(todo.pop()!) ?? []) {
      if (c.pid === process.pid || out.some((o) => o.pid === c.pid)) continue;
      out.push(c);
      todo.push(c.pid);
    }
  }
  return out;
}

/** SIGKILLs the processes of `listed` still running with the start time listed (a pid reused since is left alone); returns their pids. Never throws. */
export function killListed(listed: readonly ListedProcess[]): number[] {
  const killed: number[] = [];
  for (const p of listed) {
    if (statOf(p.pid)?.start !== p.start) continue;
    if (sigkill(p.pid)) killed.push(p.pid);
  }
  return killed;
}
