/**
 * Warnings about how two runs were scheduled (`run --jobs`): groups measured side by side share
 * the machine's memory bandwidth, caches and heat, and a pinned worker's V8 helper threads share
 * its core, so a case measured with `--jobs 2` is not measured as with `--jobs 1`. Compare still
 * gives its verdicts, and says so first.
 */
import type { ResultsFile } from '../results/types.js';

/** How a run was scheduled, in words: `1 group at a time`, `2 groups at once, pinned (taskset)`. */
export function describeExecution(r: ResultsFile): string {
  const e = r.execution ?? { jobs: 1, pinning: 'none' as const };
  return e.jobs === 1
    ? '1 group at a time'
    : `${e.jobs} groups at once, ${e.pinning === 'taskset' ? 'pinned (taskset)' : 'unpinned'}`;
}

/** The warnings for comparing `head` against `base` (empty when they were scheduled alike). A file without `execution` ran one group at a time. */
export function executionWarnings(base: ResultsFile, head: ResultsFile): string[] {
  const b = base.execution?.jobs ?? 1;
  const h = head.execution?.jobs ?? 1;
  const bp = base.execution?.pinning ?? 'none';
  const hp = head.execution?.pinning ?? 'none';
  if (b === h && (b === 1 || bp === hp)) return [];
  return [
    `⚠ The runs were scheduled differently: base ${describeExecution(base)}, head ${describeExecution(head)} (run --jobs). Parallel groups share memory bandwidth, caches and heat; time changes may come from that. Compare runs made with the same --jobs.`,
  ];
}
