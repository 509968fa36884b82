import type { CaseResult, Finding } from '../results/types.js';
import type { Analyser, AnalysisContext } from './analyser.js';
import { baselineUnavailable } from './baseline-unavailable.js';
import { noisy } from './noisy.js';
import { tooFast } from './too-fast.js';
import { outliers } from './outliers.js';
import { relaunched } from './relaunched.js';
import { noGc } from './no-gc.js';
import { meanRatio } from './mean-ratio.js';
import { baselineSlowed } from './baseline-slowed.js';
import { waits } from './waits.js';
import { clocksDisagree } from './clocks-disagree.js';
import { machineDrift } from './machine-drift.js';
import { launchStatesAnalyser } from './launch-states.js';

/**
 * Every analyser, in the order their findings are listed. Adding a finding is adding its file and one entry here.
 * Frozen, as each analyser is in its file: a config loaded in the host that assigns `.analyse = () => []`
 * or empties this list (hx5's analyser-off) gets a TypeError instead of switching findings off.
 */
export const analysers: readonly Analyser[] = Object.freeze([
  baselineUnavailable,
  noisy,
  tooFast,
  outliers,
  relaunched,
  noGc,
  meanRatio,
  baselineSlowed,
  waits,
  clocksDisagree,
  machineDrift,
  launchStatesAnalyser,
]);

/**
 * The findings about how far the ratio and the mean can be trusted, which say nothing more once the ratio is
 * unearned (`baseline-slowed`: the case is not ranked whatever its spread). hx9 saw a spinner's row carry
 * ⚠ ↻ ≠ ⇅ beside ⊘: four marks for one conclusion.
 */
const MOOT_WHEN_UNEARNED: ReadonlySet<Finding['code']> = Object.freeze(
  new Set<Finding['code']>(['noisy', 'mean-ratio', 'machine-drift', 'launch-states']),
);

/**
 * Runs every analyser on a finished case; returns its findings in {@link analysers} order, without those a
 * `baseline-slowed` finding makes moot ({@link MOOT_WHEN_UNEARNED}).
 */
export function analyseCase(c: CaseResult, context: AnalysisContext): Finding[] {
  const all = analysers.flatMap((a) => a.analyse(c, context));
  return all.some((f) => f.code === 'baseline-slowed' || f.code === 'waits' || f.code === 'clocks-disagree')
    ? all.filter((f) => !MOOT_WHEN_UNEARNED.has(f.code))
    : all;
}
