import { isMeasured } from '../results/types.js';
import { ratioIntervalOf } from '../results/ratio.js';
import { meanOf } from '../stats/estimate.js';
import { formatNs, keptLaunches, type Analyser } from './analyser.js';

/**
 * The Mean column and the Ratio disagree when the means' quotient (this case's mean ÷ its
 * baseline's) is more than this many times the ratio, or less than its inverse, and lies outside
 * the ratio's interval. Both are honest numbers of different things — the ratio compares medians
 * of alternating rounds in one process, the means take every sample of separate cases — so a
 * factor of 2 between them is a story the reader must be told, not a rounding difference.
 */
export const DISAGREEMENT_FACTOR = 2;

/**
 * `mean-ratio`: a case's mean and its ratio tell different stories (the issue's ajv-jtd: mean
 * 302 µs against json's 170 µs, yet ratio 0.18). Says by how much, and what the samples suggest:
 * the medians agreeing with the ratio (a few slow samples pull the mean), or the baseline running
 * at another speed beside this serializer than in its own case.
 */
export const meanRatio: Analyser = {
  id: 'mean-ratio',
  analyse(c, context) {
    const base = context.baseline;
    if (!isMeasured(c) || c.ratio === null || !(c.ratio > 0) || !base || !isMeasured(base) || base.serializer === c.serializer || !(base.time.mean > 0)) return [];
    const byMeans = c.time.mean / base.time.mean;
    const interval = ratioIntervalOf(c);
    const outside = !interval || byMeans < interval[0] || byMeans > interval[1];
    if (!outside || (byMeans <= DISAGREEMENT_FACTOR * c.ratio && byMeans >= c.ratio / DISAGREEMENT_FACTOR)) return [];
    const why: string[] = [];
    const byMedians = base.time.median > 0 ? c.time.median / base.time.median : NaN;
    if (byMedians <= 1.5 * c.ratio && byMedians >= c.ratio / 1.5) why.push(`the medians (${formatNs(c.time.median)} against ${formatNs(base.time.median)}, ${byMedians.toFixed(2)}×) agree with the ratio: a few slow samples pull the mean`);
    const beside = keptLaunches(c).flatMap((l) => l.rounds.flatMap((r) => r.baselineNs));
    if (beside.length) {
      const m = meanOf(beside);
      if (m > 1.5 * base.time.mean || m < base.time.mean / 1.5) why.push(`beside it, ${base.serializer} took ${formatNs(m)} per op against ${formatNs(base.time.mean)} in its own case`);
    }
    const shown = interval ? ` [${interval[0].toFixed(2)}–${interval[1].toFixed(2)}]` : '';
    return [{
      code: 'mean-ratio',
      message: `mean ${formatNs(c.time.mean)} is ${byMeans.toFixed(2)}× ${base.serializer}'s ${formatNs(base.time.mean)}, yet the ratio is ${c.ratio.toFixed(2)}${shown}: the mean and the ratio disagree by more than ${DISAGREEMENT_FACTOR}×${why.length ? ` (${why.join('; ')})` : ''}. The ratio pairs alternating rounds in one process; rely on it for the ranking and rerun before quoting the mean`,
    }];
  },
};
