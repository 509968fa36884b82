import { isMeasured, type CaseResult, type LaunchRecord } from '../results/types.js';
import { medianOf } from '../stats/median.js';
import { formatNs, keptLaunches, type Analyser } from './analyser.js';

/**
 * The paired baseline is called slowed when the median of its samples beside a case (same launches,
 * same process) is more than this many times the median of the baseline's own case (same payload,
 * direction and target), on a JavaScript target. The baseline's own case runs in a group launch, a
 * process that never loads a config; a config's serializer runs beside its paired baseline in a
 * case launch of its own, so whatever the config changes there (a getter on `Object.prototype`, a
 * patched `JSON`, a wrapped library function the baseline's adapter calls: hx11's config wrapped
 * typebox's `TypeCompiler.Compile`) slows the baseline beside it only. Measured 2026-12-06 (load
 * 1.5–2.8): hx11's wrap read 1.35, 1.39, 1.56; honest configs 0.94–1.08 (a plain and a
 * structuredClone-heavy serializer, both directions, response.json and users · 1000 · list, on node,
 * node@22, bun and deno: 28 cases); every recorded paired case of the day whose paired and own
 * medians differ, 0.58–1.07 (1,105 node cases, p99 1.046). Was 2 until then. A heavy case slows
 * its baseline too, honestly: ajv-jtd on response.json (1.25 ms, ~200 KiB per call) 17× typebox,
 * with typebox 1.9–2.2× slower beside it (the V8 helper threads marking its heap run on the process
 * clock during both sides' samples); so the rule fires only on a case whose ratio interval reaches
 * below 1 (it could be called faster, or the same), where the slowdown changes the call.
 */
export const BASELINE_SLOWED_FACTOR = 1.2;

/**
 * {@link BASELINE_SLOWED_FACTOR} on a .NET target (dotnet, mono): no config runs there, and honest
 * .NET cases read up to 1.23 (studies26, orders · 100 deserialize).
 */
export const BASELINE_SLOWED_FACTOR_DOTNET = 2;

/** The factor for a case's target runtime. */
export function baselineSlowedFactor(runtime: string | undefined): number {
  return runtime === 'dotnet' || runtime === 'mono' ? BASELINE_SLOWED_FACTOR_DOTNET : BASELINE_SLOWED_FACTOR;
}

/**
 * The paired baseline is also called slowed when the share of the CPU its samples were timed on that threads started
 * after the worker (by the code measured: a `worker_threads` Worker) burnt — a round's `baselineSpan`: process CPU −
 * the measuring thread's − the worker's own other threads' (`helpersNs`: V8's GC and compiler workers), over the
 * process CPU; the median over the kept launches' rounds — beside a case is more than this many points (a fraction)
 * over the same median share in the baseline's own case (a process that never loads a config). The process CPU
 * clock the samples are timed on counts every thread (measure/clock.ts cpuNowNs), so a thread a config starts that
 * burns while the baseline's samples run is charged to the baseline (hx8 spinner: JSON.stringify plus a spinner,
 * "1.44× faster" than JSON.stringify). V8's own threads are left out: their bursts are the work of whichever side
 * allocated, and honest rounds read 0–54% of them (docs/limits.md). Spans without `helpersNs` (no list of the
 * worker's threads) count every other thread. Calibrated on honest serializers, docs/limits.md.
 */
export const OTHER_THREADS_EXCESS = 0.05;

/** Fewer rounds with spans than this on either side are too few to compare (the quick policy runs at least 5). */
const MIN_SPAN_ROUNDS = 5;

/** A round's CPU span of one side (results/types.ts CpuSpanSchema). */
type Span = { cpuNs: number; threadNs: number; helpersNs?: number };

/**
 * The share of each span's process CPU that threads started after the worker burnt ((cpu − thread − helpers) ÷ cpu,
 * at least 0; without `helpersNs`, every other thread's), their median, and how many spans it is read from;
 * undefined when there are none.
 */
export function otherThreadsShare(spans: readonly (Span | undefined)[]): { share: number; rounds: number } | undefined {
  const shares = spans
    .filter((s): s is Span => Boolean(s && s.cpuNs > 0))
    .map((s) => Math.max(0, s.cpuNs - s.threadNs - (s.helpersNs ?? 0)) / s.cpuNs);
  return shares.length ? { share: medianOf(shares), rounds: shares.length } : undefined;
}

/** The spans of one side of the kept launches' rounds timed on the process CPU clock. */
function spansOf(c: CaseResult, side: 'serializerSpan' | 'baselineSpan') {
  return keptLaunches(c)
    .filter((l: LaunchRecord) => l.clock === 'cpu')
    .flatMap((l) => l.rounds.map((r) => r[side]));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * `baseline-slowed`: the baseline ran more than {@link BASELINE_SLOWED_FACTOR}× (.NET: 2×) slower (median)
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
    const limit = baselineSlowedFactor(c.target?.runtime);
    // a case clearly slower than even its slowed baseline keeps its call ("slower"): its own load slowed the baseline
    const couldRankFaster = (c.ratioInterval?.[0] ?? c.ratio) < 1;
    if (factor > limit && couldRankFaster)
      return [
        {
          code: 'baseline-slowed',
          message: `its paired baseline ${base.serializer} ran ${factor.toFixed(2)}× slower beside it: median ${formatNs(paired)} per op in its process against ${formatNs(base.time.median)} in ${base.serializer}'s own case (more than ${limit}×), so its ratio ${c.ratio.toFixed(2)} measures how much it slowed the baseline (a getter on Object.prototype, a patched JSON or a library the baseline calls), not its speed; it is not ranked and not recommended`,
        },
      ];
    const there = otherThreadsShare(spansOf(c, 'baselineSpan'));
    const own = otherThreadsShare(spansOf(base, 'serializerSpan'));
    if (!there || !own || there.rounds < MIN_SPAN_ROUNDS || own.rounds < MIN_SPAN_ROUNDS) return [];
    if (!(there.share - own.share > OTHER_THREADS_EXCESS)) return [];
    return [
      {
        code: 'baseline-slowed',
        message: `its paired baseline ${base.serializer} was charged CPU other threads burnt beside it: ${pct(there.share)} of the process CPU its samples were timed on went to threads started after the worker (median of ${there.rounds} rounds), against ${pct(own.share)} in ${base.serializer}'s own case (more than ${(OTHER_THREADS_EXCESS * 100).toFixed(0)} points over), so its ratio ${c.ratio.toFixed(2)} measures work another thread did while the baseline ran (a thread its code started), not its speed; it is not ranked and not recommended`,
      },
    ];
  },
});
