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
 * (`/proc`), about 5 ms per launch with a few hundred processes. What it cannot see (docs/limits.md):
 * a process started with an environment of its own choosing (`env: {}`), or under another user; a
 * cgroup or PR_SET_CHILD_SUBREAPER would see those, at the cost of native code or privileges.
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
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      /* gone already */
    }
  }
  return killed;
}
