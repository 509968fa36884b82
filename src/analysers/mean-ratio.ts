import { isMeasured } from '../results/types.js';
import { meansQuotientInterval, ratioIntervalOf } from '../results/ratio.js';
import { meanOf } from '../stats/estimate.js';
import { formatNs, keptLaunches, type Analyser } from './analyser.js';

/**
 * `mean-ratio` (the ≠ mark): a case's Mean column and its Ratio tell different stories (the
 * issue's ajv-jtd: mean 302 µs against json's 170 µs, yet ratio 0.18): a reader dividing the two
 * Mean cells gets a comparison the Ratio does not support. Both are honest numbers of different
 * things — the ratio compares medians of alternating rounds in one process, the means take every
 * sample of separate cases — so the mark fires when they differ by more than their own errors allow:
 * the means' quotient's interval ({@link meansQuotientInterval}, from the two means' interval ends) and the
 * ratio's interval (results/ratio.ts) do not overlap. No fixed factor: a 1.4× disagreement between
 * tight figures is flagged (a fixed 2× let it pass), a 2.5× one between means whose errors are ±60%
 * is not (the means cannot tell it). Says by how much, and what the samples suggest: the medians
 * agreeing with the ratio (a few slow samples pull the mean), or the baseline running at another
 * speed beside this serializer than in its own case.
 *
 * It also fires, whatever the errors, when the two **point opposite ways**: the ratio's whole
 * interval says slower (or faster) than the baseline while the Mean column says at least
 * {@link OPPOSITE_MARGIN} the other way (nu7: valibot's Mean 74.2 µs against zod's 88.7 µs, yet
 * ratio 1.21 [1.12–1.30]). Two launches give means errors so wide (df 1) that the quotient's
 * interval reached the ratio's, so the first rule stayed silent on the one disagreement that turns
 * a reader's conclusion around. On two recorded quiet default runs (test/fixtures/stats, 84 cases
 * each) it fires on one case in each, the same: valibot against zod (users-settings · 100 · many),
 * zod's mean 1.3× its median (a few slow samples), the medians agreeing with the ratio.
 */

/**
 * How far the means must point the other way for an opposite direction to be marked: the Mean
 * column at least 5% faster (or slower) than the baseline's, as compare's time threshold; closer
 * means read as a tie, which the ratio's interval does not contradict strongly enough to flag.
 */
const OPPOSITE_MARGIN = 1.05;

/** A mean this many times its median is pulled by a few slow samples (GC pauses, preemption). */
const SKEWED = 1.15;
export const meanRatio: Analyser = Object.freeze<Analyser>({
  id: 'mean-ratio',
  analyse(c, context) {
    const base = context.baseline;
    if (
      !isMeasured(c) ||
      c.ratio === null ||
      !(c.ratio > 0) ||
      !base ||
      !isMeasured(base) ||
      base.serializer === c.serializer ||
      !(base.time.mean > 0)
    )
      return [];
    const byMeans = c.time.mean / base.time.mean;
    const interval = ratioIntervalOf(c);
    const means = meansQuotientInterval(c.time, base.time);
    // a ratio without an interval (no error recorded) is held against the means as a point
    const iv = interval ?? [c.ratio, c.ratio];
    if (!means) return [];
    const beyondErrors = !(means[0] <= iv[1] && iv[0] <= means[1]);
    const opposite =
      (iv[0] > 1 && byMeans <= 1 / OPPOSITE_MARGIN) || (iv[1] < 1 && byMeans >= OPPOSITE_MARGIN)
        ? { means: byMeans < 1 ? 'faster' : 'slower', ratio: iv[0] > 1 ? 'slower' : 'faster' }
        : null;
    if (!beyondErrors && !opposite) return [];
    const why: string[] = [];
    for (const side of [c, base])
      if (side.time.median > 0 && side.time.mean / side.time.median >= SKEWED)
        why.push(
          `${side.serializer}'s mean is ${(side.time.mean / side.time.median).toFixed(2)}× its median ${formatNs(side.time.median)}: a few slow samples (GC pauses, preemption) pull it`,
        );
    const byMedians = base.time.median > 0 ? c.time.median / base.time.median : NaN;
    if (byMedians <= 1.5 * c.ratio && byMedians >= c.ratio / 1.5)
      why.push(
        `the medians (${formatNs(c.time.median)} against ${formatNs(base.time.median)}, ${byMedians.toFixed(2)}×) agree with the ratio${why.length ? '' : ': a few slow samples pull the mean'}`,
      );
    const beside = keptLaunches(c).flatMap((l) => l.rounds.flatMap((r) => r.baselineNs));
    if (beside.length) {
      const m = meanOf(beside);
      if (m > 1.5 * base.time.mean || m < base.time.mean / 1.5)
        why.push(
          `beside it, ${base.serializer} took ${formatNs(m)} per op against ${formatNs(base.time.mean)} in its own case`,
        );
    }
    const shown = interval ? ` [${interval[0].toFixed(2)}–${interval[1].toFixed(2)}]` : '';
    const said = opposite
      ? `Mean and ratio point opposite ways; trust the ratio: ratio ${c.ratio.toFixed(2)}${shown} says ${opposite.ratio} than ${base.serializer}, mean ${formatNs(c.time.mean)} (${byMeans.toFixed(2)}× ${base.serializer}'s ${formatNs(base.time.mean)}) says ${opposite.means}`
      : `mean ${formatNs(c.time.mean)} is ${byMeans.toFixed(2)}× ${base.serializer}'s ${formatNs(base.time.mean)}, yet the ratio is ${c.ratio.toFixed(2)}${shown}: the mean and the ratio disagree beyond their errors (the means' quotient, ${Number((context.policy.confidence * 100).toFixed(2))}% CI ${means[0].toFixed(2)}–${means[1].toFixed(2)} from the two means' intervals, does not reach the ratio's interval)`;
    return [
      {
        code: 'mean-ratio',
        message: `${said}${why.length ? ` (${why.join('; ')})` : ''}. The ratio pairs alternating rounds in one process; ${opposite ? 'the means come from separate cases and count every slow sample' : 'rely on it for the ranking and rerun before quoting the mean'}`,
      },
    ];
  },
});
