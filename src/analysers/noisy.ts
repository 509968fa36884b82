import { disagreeingPair } from '../stats/intervals.js';
import { isMeasured, type CaseResult } from '../results/types.js';
import { LAUNCHES_DISAGREE, ratioCall, unresolved } from '../results/decision.js';
import { type Analyser, type AnalysisContext } from './analyser.js';
import { keptReadings } from './launches-disagree.js';

/**
 * The two kept launches whose readings (analysers/launches-disagree.ts: each launch's ratio, the
 * median of its round ratios, for a paired case; else its mean time, as the intervals' launch
 * values; one round is enough, as for the stop rule) are furthest apart among those that disagree
 * beyond what the spread model predicts for two launches of one case (stats/intervals.ts disagreeingPair:
 * t·√(2·s² + se_a² + se_b²), s² the launch-to-launch variance `spread` with its df — the group's
 * without the case, moderated with the run's other groups' prior — at the policy's confidence;
 * without a spread, their own errors alone), or null when every pair agrees. A paired case
 * compares its per-launch ratios against the ratio's spread; one without a ratio its times
 * against the time's.
 */
export function disagreeingLaunches(
  c: CaseResult,
  confidence: number,
  spread?: NonNullable<AnalysisContext['launchSpread']>,
): { a: number; b: number; launches: number } | null {
  const paired = c.ratio !== null && c.ratio !== undefined;
  const readings = keptReadings(c.samples.launches, paired);
  const pair = disagreeingPair(
    readings.map((x) => x.value),
    readings.map((x) => x.se),
    confidence,
    paired ? spread?.ratio : spread?.time,
  );
  return pair ? { ...pair, launches: readings.length } : null;
}

/**
 * What a borderline ratio's `noisy` finding says, true wherever its interval's end facing 1 lies
 * (nu7: "ends so close to 1.00 that a rerun could call it no slower" of 1.02 [0.95–1.10], an
 * interval that already holds 1): short of 1, `clears 1.00 by only 1.0%: a rerun could call it no
 * faster`; at 1 (within 0.05%), `ends at 1.00`; past it, `holds 1.00 (its lower end 5.0% below
 * it)`: the run cannot call it slower, and a rerun could fall on either side.
 */
export function borderlineMessage(ratio: number, [lo, hi]: readonly [number, number]): string {
  const below = ratio < 1;
  const lean = below ? 'faster' : 'slower';
  const end = below ? hi : lo;
  const iv = `${lo.toFixed(2)}–${hi.toFixed(2)}`;
  const gap = `${(Math.abs(end - 1) * 100).toFixed(1)}%`;
  if (below ? end < 0.9995 : end > 1.0005)
    return `its ratio ${ratio.toFixed(2)} has an interval ${iv} that clears 1.00 by only ${gap}: a rerun could call it no ${lean} than the baseline`;
  const where =
    Math.abs(end - 1) < 0.0005
      ? 'ends at 1.00'
      : `holds 1.00 (its ${below ? 'upper' : 'lower'} end ${gap} ${below ? 'above' : 'below'} it)`;
  return `its ratio ${ratio.toFixed(2)} leans ${lean}, but its interval ${iv} ${where}: the run cannot call it ${lean} than the baseline, and a rerun could fall on either side`;
}

/**
 * `noisy` (⚠ noisy): the case's reading cannot carry the conclusion a reader draws from it
 * (issue 22: the old rule, "a launch reached its time cap", fired on 81% of case-runs and taught
 * readers to ignore it). It fires when
 * - its launches disagree beyond what the launch-to-launch spread of its group and of the run's
 *   other groups, with their own errors, predict ({@link disagreeingLaunches}; what the runner's
 *   third launch could not settle: the reading really moved between launches; message starts with
 *   {@link LAUNCHES_DISAGREE}). Before, their own errors alone were the yardstick, and ordinary
 *   launch-to-launch spread fired it; or
 * - its ratio's interval straddles the decision the takeaway makes: 1 lies within the border band of
 *   the interval's end (results/decision.ts `ratioCall` says `borderline`: a rerun could fall on
 *   the other side; one half-width, capped at 10%, since studies/border-band: 23 and 22 of the 116
 *   measured cases of the two recorded quiet default suites, against 12 and 12 at half a
 *   half-width), or the interval holds 1 and reaches beyond 0.8–1.25 (`unresolved`: "within
 *   noise of the baseline" would hide a difference that large).
 * The baseline's own row (ratio 1 by definition) is never flagged by its interval; a case without
 * a ratio only by its launches.
 */
export const noisy: Analyser = Object.freeze<Analyser>({
  id: 'noisy',
  analyse(c, context) {
    if (!isMeasured(c)) return [];
    const moved =
      c.serializer === c.baseline ? null : disagreeingLaunches(c, context.policy.confidence, context.launchSpread);
    if (moved) {
      const unit = c.ratio !== null ? (x: number) => `${x.toFixed(3)}` : (x: number) => `${x.toFixed(0)} ns`;
      return [
        {
          code: 'noisy',
          message: `${LAUNCHES_DISAGREE}: ${c.ratio !== null ? 'the ratio' : 'the time per op'} read ${unit(moved.a)} in one launch and ${unit(moved.b)} in another (of ${moved.launches}); further apart than its group's and the run's launches spread: the reading moved with the machine, so a rerun may differ`,
        },
      ];
    }
    if (c.ratio === null || c.serializer === c.baseline) return [];
    const interval = c.ratioInterval ?? null;
    // the reports' call (results/decision.ts ratioCall): a borderline one is said as such, one too wide as unresolved
    const verdict = ratioCall(c.ratio, interval);
    if (verdict === 'borderline' && interval)
      return [
        {
          code: 'noisy',
          message: borderlineMessage(c.ratio, interval),
        },
      ];
    if (unresolved(interval) && interval)
      return [
        {
          code: 'noisy',
          message: `its ratio's interval ${interval[0].toFixed(2)}–${interval[1].toFixed(2)} holds 1 but reaches beyond 0.80–1.25: "within noise of the baseline" could hide a difference that large`,
        },
      ];
    return [];
  },
});
