/**
 * Pinning a worker to one CPU (`run --jobs N`, issue 13 item 6): with several groups measured at
 * once, each runs on its own core so two workers never take turns on one, and a case and its
 * baseline (one group, one slot) always share theirs. Linux's `taskset -c <cpu> <command…>`
 * (util-linux) sets the affinity and execs the command, so the worker keeps the pid the host
 * watches and leads its own process group as before. The whole process is pinned, V8's helper
 * threads (GC, compiler) included: they share the worker's core instead of spreading to others.
 * Where there is no taskset (macOS, Windows, a minimal container), launches run unpinned and the
 * results file says why.
 */
import { spawnSync } from 'node:child_process';

/** How this host pins workers: `taskset` with its version line, or `none` with the reason. */
export type CpuPinning = { tool: 'taskset'; version: string } | { tool: 'none'; reason: string };

let found: CpuPinning | undefined;

/** Finds taskset once (`taskset --version`, 5 s bound). Never throws. */
export function cpuPinning(): CpuPinning {
  if (found) return found;
  if (process.platform !== 'linux')
    return (found = { tool: 'none', reason: `taskset is Linux's; this host is ${process.platform}` });
  const r = spawnSync('taskset', ['--version'], { encoding: 'utf8', timeout: 5000 });
  if (r.error || r.status !== 0)
    return (found = {
      tool: 'none',
      reason: `taskset not found (${r.error ? ((r.error as NodeJS.ErrnoException).code ?? r.error.message) : `exit ${r.status}`}): install util-linux`,
    });
  return (found = { tool: 'taskset', version: r.stdout.trim().split('\n')[0] ?? 'taskset' });
}

/** `cmd` run under `taskset -c <cpu>` when a CPU is given and taskset is there; else `cmd` itself. */
export function pinnedCommand<C extends { command: string; args: string[] }>(cmd: C, cpu: number | undefined): C {
  if (cpu === undefined || cpuPinning().tool !== 'taskset') return cmd;
  return { ...cmd, command: 'taskset', args: ['-c', String(cpu), cmd.command, ...cmd.args] };
}

/** Parses a CPU list as taskset prints it (`0,1`, `0-3,8`). */
export function parseCpuList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    for (let c = Number(m[1]); c <= Number(m[2] ?? m[1]); c++) out.push(c);
  }
  return out;
}

/**
 * The CPUs of `jobs` slots: the last `jobs` of the CPUs this process may run on (`taskset -cp`),
 * leaving the first ones to the host and the system; null when workers cannot be pinned here, or
 * fewer CPUs are allowed than `jobs`. Never throws.
 */
export function slotCpus(jobs: number): number[] | null {
  if (cpuPinning().tool !== 'taskset') return null;
  const r = spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8', timeout: 5000 });
  const allowed = r.status === 0 ? parseCpuList(/:\s*([\d,\s-]+)\s*$/.exec(r.stdout)?.[1] ?? '') : [];
  return allowed.length >= jobs ? allowed.slice(allowed.length - jobs).reverse() : null;
}
