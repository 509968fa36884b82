import type { MeasurePolicy } from '../case/policy.js';
import type { CaseResult, Finding } from '../results/types.js';

/** What an analyser may read besides the case: the worker's settings, and what the runner saw. */
export interface AnalysisContext {
  policy: MeasurePolicy;
  /** why the case's baseline gave no ratio (it was unsupported, failed or incorrect in this group), when it did not */
  baselineProblem?: string;
}

/**
 * A finding after the run (BenchmarkDotNet's `IAnalyser`): reads a finished case, returns what a
 * reader should know about its numbers. Never changes a number, never hides one. One file per
 * analyser in src/analysers/, listed in analysers/index.ts.
 */
export interface Analyser {
  /** the finding code it emits */
  id: Finding['code'];
  analyse(c: CaseResult, context: AnalysisContext): Finding[];
}

/** The launches a case's statistics come from: not discarded, with at least one round. */
export function keptLaunches(c: CaseResult): CaseResult['samples']['launches'] {
  return c.samples.launches.filter((l) => !l.discarded && l.rounds.length > 0);
}
