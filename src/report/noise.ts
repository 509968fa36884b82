import type { ResultsFile } from '../results/types.js';

/**
 * The machine counts as busy when the 1-minute load average before the run exceeds this share of
 * its cores (the run's own worker adds about 1 during it, so the start figure is the honest one).
 */
export const BUSY_LOAD_PER_CORE = 0.5;

/** Why a run's numbers may be noisy: a busy machine, and cases that missed the error target. Empty when neither. */
export function noiseReasons(run: ResultsFile): string[] {
  const e = run.environment;
  const out: string[] = [];
  const start = e.loadAverage.start[0];
  if (start !== undefined && start > BUSY_LOAD_PER_CORE * e.cores)
    out.push(`the 1-minute load average was ${start.toFixed(2)} on ${e.cores} cores when the run began`);
  const measured = run.cases.filter((c) => c.status === 'measured');
  const noisy = measured.filter((c) => c.findings.some((f) => f.code === 'noisy'));
  if (noisy.length)
    out.push(
      `${noisy.length} of ${measured.length} measured cases did not reach the ${Number((run.policy.measure.targetRelativeError * 100).toPrecision(3))}% error target within the time cap`,
    );
  return out;
}
