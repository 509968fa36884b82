import { isMeasured, type CaseResult } from '../results/types.js';
import { medianOf } from '../stats/median.js';
import { keptLaunches, type Analyser } from './analyser.js';

/**
 * A case "waits" when, over the same rounds, its wall time per op over its CPU time per op is more than this many
 * times its paired baseline's. The samples are timed on the process CPU clock, which does not count time the
 * process spends blocked: a serializer that sleeps, waits on a lock (`Atomics.wait`), on I/O or on another process
 * would read cheap while a caller waits for it (hx19 E03: 0.5 ms of `Atomics.wait` per call, "Mean 26.0 µs" against
 * 584 µs of wall time; E04: fast-json-stringify plus a 1 ms wait, "1.13 [0.37–3.46]", 12× json in wall time).
 * Both sides run in the same rounds of one process, so the machine's load (preemption stretches wall time) reaches
 * both: honest cases read 0.35–2.52 (168 measured cases of the day's runs at load 2.6–6, a third of them hostile
 * attempts that do not wait: median 1.00; the highest, ajv-jtd and typia deserialize at 2.5 and 2.4 against a
 * baseline whose CPU time outran its wall time with V8's helper threads); E04 read 8.85. A baseline's factor under 1
 * (its samples counted other threads' CPU) is read as 1: nu14's honest typia read 2.5 against 0.6, "waits" (4.2);
 * a ratio that other threads' CPU moved is the `clocks-disagree` finding's (analysers/clocks-disagree.ts).
 */
export const WAIT_FACTOR = 4;

/** Fewer rounds with wall times on either side than this are too few to read (the quick policy runs at least 5). */
const MIN_ROUNDS = 5;

/** The median of one side's wall time over its CPU time across the kept launches' rounds, or undefined. */
function wallOverCpu(c: CaseResult, side: 'serializer' | 'baseline'): { factor: number; rounds: number } | undefined {
  const rounds = keptLaunches(c)
    .flatMap((l) => l.rounds)
    .filter((r) => (side === 'serializer' ? r.serializerWallNs : r.baselineWallNs)?.length);
  const wall = rounds.flatMap((r) => (side === 'serializer' ? r.serializerWallNs : r.baselineWallNs) ?? []);
  const cpu = rounds.flatMap((r) => (side === 'serializer' ? r.serializerNs : r.baselineNs));
  if (rounds.length < MIN_ROUNDS || !wall.length || !cpu.length) return undefined;
  const w = medianOf(wall);
  const t = medianOf(cpu);
  return w > 0 && t > 0 ? { factor: w / t, rounds: rounds.length } : undefined;
}

/**
 * `waits`: the serializer's wall time per op over its CPU time is more than {@link WAIT_FACTOR}× its paired
 * baseline's in the same rounds: it spends time blocked that the CPU clock does not count, so its Mean and ratio
 * leave out what a caller waits for. The takeaway and the recommendation do not rank it (report/takeaway.ts
 * unrankedFinding); the message starts with its short reason, up to the first `:`.
 */
export const waits: Analyser = Object.freeze<Analyser>({
  id: 'waits',
  analyse(c) {
    if (!isMeasured(c) || c.ratio === null || c.serializer === c.baseline) return [];
    const mine = wallOverCpu(c, 'serializer');
    const base = wallOverCpu(c, 'baseline');
    // a baseline whose CPU time outran its wall time counted other threads' CPU, not less waiting: read as 1 (nu14: typia
    // "waits" at 2.5× against a baseline's 0.6×, on a loaded machine; the next two runs read it at 1×)
    if (!mine || !base || !(mine.factor / Math.max(1, base.factor) > WAIT_FACTOR)) return [];
    return [
      {
        code: 'waits',
        message: `it waits: its wall time per op is ${mine.factor.toFixed(1)}× its CPU time, its paired baseline's ${base.factor.toFixed(1)}× in the same rounds (medians of ${mine.rounds} rounds; more than ${WAIT_FACTOR}× apart), so it spends time blocked — a sleep, a lock, I/O or another process — that the CPU clock its Mean and ratio are read on does not count; a caller waits for it; it is not ranked and not recommended`,
      },
    ];
  },
});
