import { isMeasured } from '../results/types.js';
import { medianOf } from '../stats/median.js';
import { formatNs, keptLaunches, type Analyser } from './analyser.js';

/**
 * The paired baseline is called slowed when the median of its samples beside a case (same launches,
 * same process) is more than this many times the median of the baseline's own case (same payload,
 * direction and target). A factor of 2 is far beyond launch-to-launch drift of one serializer on one
 * payload (the runner relaunches a launch whose baseline runs `relaunchFactor` over the best seen),
 * and is what a serializer that slows the baseline on purpose (a getter on `Object.prototype`, a
 * patched `JSON`) produces: its ratio is then unearned.
 */
export const BASELINE_SLOWED_FACTOR = 2;

/**
 * `baseline-slowed`: the baseline ran more than {@link BASELINE_SLOWED_FACTOR}× slower (median)
 * beside this case than in its own case, so this case's ratio says how much it slowed the baseline,
 * not how fast it is. The takeaway and the recommendation refuse to rank such a case (they read
 * this finding); the reports print its message. The message starts with the short reason the
 * takeaway quotes, up to the first `:`.
 */
export const baselineSlowed: Analyser = Object.freeze<Analyser>({
  id: 'baseline-slowed',
  analyse(c, context) {
    const base = context.baseline;
    if (
      !isMeasured(c) ||
      c.ratio === null ||
      !base ||
      !isMeasured(base) ||
      base.serializer === c.serializer ||
      !(base.time.median > 0)
    )
      return [];
    const beside = keptLaunches(c).flatMap((l) => l.rounds.flatMap((r) => r.baselineNs));
    if (!beside.length) return [];
    const paired = medianOf(beside);
    const factor = paired / base.time.median;
    if (!(factor > BASELINE_SLOWED_FACTOR)) return [];
    return [
      {
        code: 'baseline-slowed',
        message: `its paired baseline ${base.serializer} ran ${factor.toFixed(2)}× slower beside it: median ${formatNs(paired)} per op in its process against ${formatNs(base.time.median)} in ${base.serializer}'s own case (more than ${BASELINE_SLOWED_FACTOR}×), so its ratio ${c.ratio.toFixed(2)} measures how much it slowed the baseline (a getter on Object.prototype, a patched JSON), not its speed; it is not ranked and not recommended`,
      },
    ];
  },
});
