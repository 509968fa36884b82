import { isMeasured, type CaseResult, type LaunchRecord } from '../results/types.js';
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
 * The paired baseline is also called slowed when the share of the CPU its samples were timed on that threads other
 * than the measuring one burnt (the rounds' `baselineSpan`: process CPU − the measuring thread's, over the process
 * CPU) beside a case is more than this many points (a fraction) over the same share in the baseline's own case. The
 * process CPU clock the samples are timed on counts every thread (measure/clock.ts cpuNowNs), so a thread a config
 * starts that burns while the baseline's samples run is charged to the baseline (hx8 spinner: JSON.stringify plus a
 * `worker_threads` spinner, "1.44× faster" than JSON.stringify). Calibrated on honest serializers, docs/limits.md.
 */
export const OTHER_THREADS_EXCESS = 0.08;

/** Spans summing to less than this much process CPU (ns) are too short to compare (a few rounds of a fast op). */
const MIN_SPAN_CPU_NS = 20e6;

/** The share of `spans`' process CPU that other threads burnt (Σ(cpu − thread) ÷ Σ cpu), and the CPU summed; undefined when there are none. */
export function otherThreadsShare(
  spans: readonly ({ cpuNs: number; threadNs: number } | undefined)[],
): { share: number; cpuNs: number } | undefined {
  let cpuNs = 0;
  let threadNs = 0;
  for (const s of spans)
    if (s) {
      cpuNs += s.cpuNs;
      threadNs += s.threadNs;
    }
  if (!(cpuNs > 0)) return undefined;
  return { share: Math.max(0, cpuNs - threadNs) / cpuNs, cpuNs };
}

/** The spans of one side of the kept launches' rounds timed on the process CPU clock. */
function spansOf(c: CaseResult, side: 'serializerSpan' | 'baselineSpan') {
  return keptLaunches(c)
    .filter((l: LaunchRecord) => l.clock === 'cpu')
    .flatMap((l) => l.rounds.map((r) => r[side]));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * `baseline-slowed`: the baseline ran more than {@link BASELINE_SLOWED_FACTOR}× slower (median)
 * beside this case than in its own case, or it was charged more CPU burnt by other threads than in
 * its own case (more than {@link OTHER_THREADS_EXCESS} of its CPU over), so this case's ratio says
 * how much it slowed the baseline, not how fast it is. The takeaway and the recommendation refuse to
 * rank such a case (they read this finding); the reports print its message. The message starts with
 * the short reason the takeaway quotes, up to the first `:`.
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
    if (factor > BASELINE_SLOWED_FACTOR)
      return [
        {
          code: 'baseline-slowed',
          message: `its paired baseline ${base.serializer} ran ${factor.toFixed(2)}× slower beside it: median ${formatNs(paired)} per op in its process against ${formatNs(base.time.median)} in ${base.serializer}'s own case (more than ${BASELINE_SLOWED_FACTOR}×), so its ratio ${c.ratio.toFixed(2)} measures how much it slowed the baseline (a getter on Object.prototype, a patched JSON), not its speed; it is not ranked and not recommended`,
        },
      ];
    const there = otherThreadsShare(spansOf(c, 'baselineSpan'));
    const own = otherThreadsShare(spansOf(base, 'serializerSpan'));
    if (!there || !own || there.cpuNs < MIN_SPAN_CPU_NS || own.cpuNs < MIN_SPAN_CPU_NS) return [];
    if (!(there.share - own.share > OTHER_THREADS_EXCESS)) return [];
    return [
      {
        code: 'baseline-slowed',
        message: `its paired baseline ${base.serializer} was charged CPU other threads burnt beside it: ${pct(there.share)} of the process CPU its samples were timed on went to threads other than the measuring one, against ${pct(own.share)} in ${base.serializer}'s own case (more than ${(OTHER_THREADS_EXCESS * 100).toFixed(0)} points over), so its ratio ${c.ratio.toFixed(2)} measures work another thread did while the baseline ran (a thread its code started), not its speed; it is not ranked and not recommended`,
      },
    ];
  },
});
