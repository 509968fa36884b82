import type { CaseResult, ResultsFile } from '../results/types.js';
import { LAUNCHES_DISAGREE } from '../results/decision.js';

/**
 * The machine counts as busy when the 1-minute load average before the run exceeds this share of
 * its cores (the run's own worker adds about 1 during it, so the start figure is the honest one).
 */
export const BUSY_LOAD_PER_CORE = 0.5;

/** The most cases the banner names; the rest are counted. */
const NAMED = 4;

/**
 * The measured cases whose reading moved with the machine: their launches disagree beyond their
 * own errors (the `noisy` finding that says so: analysers/noisy.ts) or ran in different machine
 * states (`machine-drift`).
 */
export function movedCases(run: Pick<ResultsFile, 'cases'>): CaseResult[] {
  return run.cases.filter(
    (c) =>
      c.status === 'measured' &&
      c.findings.some(
        (f) => f.code === 'machine-drift' || (f.code === 'noisy' && f.message.startsWith(LAUNCHES_DISAGREE)),
      ),
  );
}

/**
 * Why the load plausibly changed what the run concludes, or empty (issue 22: the banner that fired
 * whenever the start load exceeded half a core taught readers to ignore it). One reason, only when
 * both hold: the machine was busy when the run began ({@link BUSY_LOAD_PER_CORE}), and some
 * measured cases' readings moved between launches ({@link movedCases}), which it names. A busy
 * machine whose launches agreed changed nothing a reader concludes (the paired ratio cancels a
 * steady slowdown), so it gets no banner; its load is in the run's summary line.
 */
export function noiseReasons(run: ResultsFile): string[] {
  const e = run.environment;
  const start = e.loadAverage.start[0];
  if (!(start !== undefined && start > BUSY_LOAD_PER_CORE * e.cores)) return [];
  const moved = movedCases(run);
  if (!moved.length) return [];
  const names = moved
    .slice(0, NAMED)
    .map((c) => `${c.serializer} (${c.workload} ${c.direction}${c.class !== c.direction ? ` ${c.class}` : ''})`);
  const more = moved.length > NAMED ? ` and ${moved.length - NAMED} more` : '';
  return [
    `the 1-minute load average was ${start.toFixed(2)} on ${e.cores} cores when the run began, and the reading of ${names.join(', ')}${more} moved between launches beyond their errors (⚠ noisy or ⇅ in their rows): those takeaways may change on a quieter rerun`,
  ];
}
