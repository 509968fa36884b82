import { isMeasured, type CaseResult } from '../results/types.js';
import { medianOf } from '../stats/median.js';
import { keptLaunches, type Analyser } from './analyser.js';
import { waits } from './waits.js';

/**
 * How far outside the ratio's interval (a factor) the same rounds' ratio by wall time may lie before the case's
 * clocks disagree. Calibrated on every results.json of 2026-12-07 under /tmp (677 files, 3,338 paired cases timed on
 * the CPU clock, quick and default policies, load 1–6, most beside hostile testers' runs): the wall ratio lay outside
 * the interval by more than 1.25× in 58 cases, 1.5× in 30, 2× in 12 (0.36%; the most honest ones beside a tester
 * attacking the machine), 3× in 6 — among them nu14's typia, 0.26 [0.21–0.32] on the CPU clock against 0.95 on the
 * wall clock, recommended "faster by 3.85×" where the next run and the default policy read 0.99 and 1.01.
 */
export const CLOCKS_FACTOR = 2;

/** Fewer rounds with wall times on both sides than this are too few to read (the quick policy runs at least 5). */
const MIN_ROUNDS = 5;

/**
 * The ratio by wall time over the case's kept rounds: per round the median of the serializer's wall samples over the
 * baseline's (as the CPU ratio's rounds are read, analyser.ts roundRatios), then their median on the log scale.
 */
function wallRatio(c: CaseResult): { ratio: number; rounds: number } | undefined {
  const per = keptLaunches(c)
    .flatMap((l) => l.rounds)
    .filter((r) => r.serializerWallNs?.length && r.baselineWallNs?.length)
    .map((r) => medianOf(r.serializerWallNs!) / medianOf(r.baselineWallNs!))
    .filter((x) => x > 0 && Number.isFinite(x));
  if (per.length < MIN_ROUNDS) return undefined;
  return { ratio: Math.exp(medianOf(per.map(Math.log))), rounds: per.length };
}

/**
 * `clocks-disagree`: the case's ratio, timed on the process CPU clock, and the ratio of the same rounds by wall time
 * are more than {@link CLOCKS_FACTOR}× apart (the wall ratio outside the ratio's interval by that factor). One op of
 * a single-threaded serializer cannot take more CPU time than wall time, nor much less unless it waits (the `waits`
 * finding, which this one leaves to): a side whose samples counted other threads' CPU (V8's garbage collector helpers,
 * whose work the kernel adds to the process clock in steps of a scheduler tick) made the ratio say what neither
 * serializer did (nu14: typia 0.26 [0.21–0.32] against typebox, 0.95 by wall time). Not ranked, not recommended.
 */
export const clocksDisagree: Analyser = Object.freeze<Analyser>({
  id: 'clocks-disagree',
  analyse(c, context) {
    if (!isMeasured(c) || c.ratio === null || c.serializer === c.baseline || c.time.clock !== 'cpu') return [];
    const interval = c.ratioInterval;
    if (!interval) return [];
    const wall = wallRatio(c);
    if (!wall) return [];
    const [lo, hi] = interval;
    const off = wall.ratio > hi ? wall.ratio / hi : wall.ratio < lo ? lo / wall.ratio : 1;
    if (!(off > CLOCKS_FACTOR) || waits.analyse(c, context).length) return [];
    const r = (x: number) => x.toFixed(2);
    return [
      {
        code: 'clocks-disagree',
        message: `its clocks disagree: its ratio is ${r(c.ratio)} [${r(lo)}–${r(hi)}] on the CPU clock and ${r(wall.ratio)} by wall time in the same rounds (median of ${wall.rounds}), ${off.toFixed(1)}× outside that interval: other threads' CPU (V8's garbage collector, the machine's load) landed unevenly in the two sides' samples, so neither number is the serializers' own; it is not ranked and not recommended (rerun, on a quieter machine)`,
      },
    ];
  },
});
