import type { MeasurePolicy } from '../case/policy.js';
import type { CaseResult, Finding, FindingCode, LaunchRecord } from '../results/types.js';
import type { LaunchState } from '../stats/intervals.js';
import { medianOf } from '../stats/median.js';

/** What an analyser may read besides the case: the worker's settings, and what the runner saw. */
export interface AnalysisContext {
  policy: MeasurePolicy;
  /** why the case's baseline gave no ratio (it was unsupported, failed or incorrect in this group), when it did not */
  baselineProblem?: string;
  /** the group's baseline case (same payload, class and target) as assembled, when there is one */
  baseline?: CaseResult;
  /**
   * The launch states the assembly read (run/assemble.ts, against the group's launch-to-launch
   * spread, which a results file alone does not carry), for the ratio and the time, and whether they
   * widened the reported interval; absent: the assembly read none.
   */
  launchStates?: {
    ratio?: { states: LaunchState[]; widened: boolean };
    time?: { states: LaunchState[]; widened: boolean };
  };
  /**
   * The launch-to-launch variance (log scale, with its df) the case's launches are judged against,
   * per measure (run/assemble.ts groupYardsticks: its group without it, moderated with the run's
   * other groups' prior); absent: nothing says how far two launches of the case may fall apart.
   */
  launchSpread?: {
    ratio?: { variance: number; df: number };
    time?: { variance: number; df: number };
  };
}

/**
 * A finding after the run (BenchmarkDotNet's `IAnalyser`): reads a finished case, returns what a
 * reader should know about its numbers. Never changes a number, never hides one. One file per
 * analyser in src/analysers/, listed in analysers/index.ts.
 */
export interface Analyser {
  /** the finding code it emits */
  id: FindingCode;
  analyse(c: CaseResult, context: AnalysisContext): Finding[];
}

/** A time in a finding's message, ns with 3 significant digits in ns, µs, ms or s (as the reports write times). */
export function formatNs(ns: number): string {
  const [v, unit] = ns < 1e3 ? [ns, 'ns'] : ns < 1e6 ? [ns / 1e3, 'µs'] : ns < 1e9 ? [ns / 1e6, 'ms'] : [ns / 1e9, 's'];
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`;
}

/** The launches a case's statistics come from: not discarded, with at least one round. */
export function keptLaunches(c: CaseResult): CaseResult['samples']['launches'] {
  return c.samples.launches.filter((l) => !l.discarded && l.rounds.length > 0);
}

/**
 * Per-round ratio: median of the serializer's samples / median of the baseline's, in one round.
 * Medians, because on a shared 2-core machine a sample preempted by another process reads up to
 * several times too long; the median of a round's samples ignores such a sample on either side
 * (seen here: per-round ratios of mean/mean ranged 0.09–1.05 under a load average of 5, where
 * the quiet machine gave 0.37 ± 0.02). The runner's estimates, the case's ratio and the analysers
 * read launches through it.
 */
export function roundRatios(launch: LaunchRecord): number[] {
  return launch.rounds
    .filter((r) => r.baselineNs.length && r.serializerNs.length)
    .map((r) => medianOf(r.serializerNs) / medianOf(r.baselineNs));
}
