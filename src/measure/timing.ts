import type { MeasurePolicy } from '../case/policy.js';
import { cpuNowNs, helperThreadsCpuNs, nowNs, threadCpuNowNs, WallClockStopped, type ClockKind } from './clock.js';
import { armPick, drainSink, peekSink, pickedResult, pickedUnit, type Op } from './sink.js';
import { pickPositions, randomUint32, type PickedResult } from './check-schedule.js';
import { medianOf, medianRelativeError } from '../stats/median.js';
import type { RoundChange, SideChecks } from './timed-check.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * Receives a sample's last result and its ns/op after the timed loop (see timed-check.ts); throws to stop. `again`
 * runs the sample's last op once more and returns its result: called first thing, it follows the timed calls back to
 * back (a cache that forgets itself when calls are spaced out still answers it: timed-check.ts `roundEnd`).
 * `previous`: the result of the sample's one-before-last op, read inside the timed loop at the same call site
 * (undefined in a one-op sample): a parser handing out one object for two timed calls is a cache, whatever
 * it does for calls made elsewhere (timed-check.ts `quick`).
 */
export type SampleCheck = (
  last: unknown,
  nsPerOp: number,
  again: () => unknown,
  previous: unknown,
  picked: readonly PickedResult[],
) => void;

/**
 * The clock samples, warmup, pilot and the time cap are read on: the process CPU clock where the
 * runtime has one ({@link cpuNowNs}), else wall time. Wall time is read beside it for every sample.
 * {@link useClock} switches it (the worker: 'cpu' where available; tests of the stages on a fake
 * `performance.now`: 'wall').
 */
let clockKind: ClockKind = cpuNowNs ? 'cpu' : 'wall';
let clockNs: () => number = cpuNowNs ?? nowNs;

/** Chooses the measuring clock; `cpu` where the runtime has none falls back to wall. Returns the clock in use. */
export function useClock(kind: ClockKind): ClockKind {
  clockKind = kind === 'cpu' && cpuNowNs ? 'cpu' : 'wall';
  clockNs = clockKind === 'cpu' ? cpuNowNs! : nowNs;
  return clockKind;
}

/**
 * The measuring thread's own CPU clock ({@link threadCpuNowNs}) read around each side's samples beside the process
 * CPU clock, so a round tells how much CPU other threads burnt while a side ran ({@link SampleSet} `span`); undefined:
 * not read (no such clock here, or the measuring clock is wall time). {@link useThreadClock} replaces it (tests).
 */
let threadClockNs: (() => number) | undefined = threadCpuNowNs;
/** The CPU of the runtime's own other threads ({@link helperThreadsCpuNs}), read beside it; replaced with it. */
let helpersClockNs: (() => number) | undefined = helperThreadsCpuNs;

/**
 * Sets the measuring thread's clock read around each side's samples (undefined: none) and the runtime's own other
 * threads' (absent: none); returns the ones it replaced.
 */
export function useThreadClock(
  clock: (() => number) | undefined,
  helpers?: () => number,
): { clock: (() => number) | undefined; helpers: (() => number) | undefined } {
  const was = { clock: threadClockNs, helpers: helpersClockNs };
  threadClockNs = clock;
  helpersClockNs = helpers;
  return was;
}

/** The measuring clock in use ({@link useClock}). */
export function measuringClock(): ClockKind {
  return clockKind;
}

/** One sample's time per op (ns) by the measuring clock, and by wall time. */
export interface SampleTime {
  ns: number;
  wallNs: number;
}

/**
 * Runs `ops` iterations of an op; returns ns per op by the measuring clock and by wall time (the
 * same when the measuring clock is wall time). The sink is drained after the timed loop and its
 * last result handed to `check` (outside the timed loop).
 */
export function timeSample(op: Op, ops: number, check?: SampleCheck, change?: () => () => void): SampleTime {
  const w0 = nowNs();
  const c0 = clockKind === 'cpu' ? clockNs() : w0;
  let undo: (() => void) | undefined;
  // the last op on an input changed in place, right after the others (timed-check.ts roundChange): a few
  // property writes inside the sample, on both sides of a pair alike. Every timed op, the changed one
  // included, is called from this one call site, with or without a change: a serializer that reads its
  // caller's stack to answer timed calls from a cache and checks for real (hx6 callsite-cache, "5.71×
  // faster") cannot tell the checked op from the others.
  const lastAt = ops - 1;
  let previous: unknown;
  // the checked calls: random positions drawn per sample (check-schedule.ts), never the changed op; their results are
  // kept in preallocated slots until the sample ends, and each goes through the same call site as every other op
  const at = check ? pickPositions(change ? ops - 1 : ops) : [];
  const values: unknown[] = new Array(at.length);
  const units: number[] = new Array(at.length);
  const draws: number[] = at.map(() => randomUint32());
  let p = 0;
  let nextPick = at.length ? at[0] : -1;
  for (let i = 0; i < ops; i++) {
    const pick = i === nextPick;
    if (i === lastAt) {
      // a one-op sample has no result before its last (undefined: nothing to compare)
      if (i > 0) previous = peekSink();
      if (change) undo = change();
    }
    if (pick) armPick(draws[p]);
    op(i);
    if (pick) {
      values[p] = pickedResult();
      units[p] = pickedUnit();
      nextPick = ++p < at.length ? at[p] : -1;
    }
  }
  const c1 = clockKind === 'cpu' ? clockNs() : 0;
  const w1 = nowNs();
  undo?.();
  // a wall clock standing still under a CPU clock that moved is performance.now replaced (hx24 PG2): said, not looped on
  if (clockKind === 'cpu' && c1 - c0 >= 1e6 && !(w1 - w0 > 0)) throw new WallClockStopped((c1 - c0) / 1e6);
  const ns = (clockKind === 'cpu' ? c1 - c0 : w1 - w0) / ops;
  const last = drainSink();
  check?.(
    last,
    ns,
    () => {
      op(ops - 1);
      return drainSink();
    },
    previous,
    values.map((value, k) => ({ value, unit: units[k] })),
  );
  return { ns, wallNs: (w1 - w0) / ops };
}

/** {@link timeSample}'s ns/op by the measuring clock. */
export function runSample(op: Op, ops: number, check?: SampleCheck): number {
  return timeSample(op, ops, check).ns;
}

/**
 * Warmup: runs the op until both `warmupMinOps` ops and `warmupMinMs` have passed, stopping early
 * only at `warmupMaxMs` (after at least one op), all on the measuring clock (CPU time where there is
 * one: a loaded machine then warms up as much code, not as much waiting). The clock is read after
 * every op (warmup is not timed), so a slow op overshoots `warmupMaxMs` by less than one op.
 * Returns ops run and ms spent.
 */
export function warmup(op: Op, policy: MeasurePolicy, checks?: SideChecks): { ops: number; ms: number } {
  const start = clockNs();
  let ops = 0;
  for (;;) {
    op(ops++);
    const ms = (clockNs() - start) / 1e6;
    if ((ops >= policy.warmupMinOps && ms >= policy.warmupMinMs) || ms >= policy.warmupMaxMs) {
      const last = drainSink();
      checks?.full(last, 'end of warmup');
      checks?.inputs(-1, 'after warmup');
      return { ops, ms };
    }
  }
}

/**
 * Pilot: doubles ops per sample until one sample lasts at least `sampleTargetMs` (the pilot stage of
 * BenchmarkDotNet), then takes two more samples of as many ops, each of which must last at least
 * half the target (one, when one op per sample reached it: an op that long cannot be split): a
 * single sample lengthened by a one-off (a GC, a compile, a deoptimization) otherwise fixed a far
 * too short sample for the whole launch (seen on a quiet machine: 1 op per sample for a 1.5 µs op,
 * 128 or 444 ops where other launches of the same case took ~2,000 — and those launches' ratios were
 * off by 5–10%, since fewer ops per sample changes how many scavenges fall inside a sample). One
 * confirming sample was not enough: in 56 quiet-machine launches of weather-station serialize
 * (session 5), 5 still took 287–702 ops where the rest took ~2,000–3,000 (a scavenge lands in a
 * 0.3 ms sample of this op more often than not), ran to the time cap and read the ratio 0.66–0.69
 * where the others read 0.70–0.84 (median 0.77). When a confirming sample falls short, the pilot
 * goes on from its rate. A sample's length
 * is the lesser of its CPU and wall times (under load at 9–11, one-off-free pilots still picked
 * 273–1,137 ops where others picked ~2,500, by process CPU time alone). Returns ops per
 * sample (≥ 1). With `checks`, each sample's result gets the quick check and every sample that
 * reaches the target the full check.
 */
export function pilot(op: Op, policy: MeasurePolicy, checks?: SideChecks): number {
  let ops = 1;
  const reaches = (nsPerOp: number, n: number) => (nsPerOp * n) / 1e6 >= policy.sampleTargetMs || n >= 1 << 30;
  const check = (n: number) =>
    checks &&
    ((last: unknown, ns: number, _again: () => unknown, _previous: unknown, picked: readonly PickedResult[]) => {
      if (reaches(ns, n)) checks.full(last, 'pilot');
      else checks.quick(last, 'pilot');
      checks.picked?.(picked, (ns * n) / 1e6, 'pilot');
    });
  /** the next ops per sample after a sample of `n` ops lasting `sampleMs`: close to the target when the sample was long enough to be read, else double */
  const next = (n: number, sampleMs: number) =>
    sampleMs > PILOT_RULE.readableMs
      ? Math.max(n * 2, Math.ceil((n * policy.sampleTargetMs * PILOT_RULE.overshoot) / sampleMs))
      : n * 2;
  // a sample's length by the lesser of its two clocks: the process CPU clock also counts V8's
  // background threads (compiles finishing right after warmup), wall time also counts preemption,
  // and neither belongs to the op; the lesser is closer to the op's own time on either kind of noise
  const length = (n: number) => {
    const t = timeSample(op, n, check(n));
    return Math.min(t.ns, t.wallNs);
  };
  for (;;) {
    const n = ops;
    const nsPerOp = length(n);
    if (!reaches(nsPerOp, n)) {
      ops = next(n, (nsPerOp * n) / 1e6);
      continue;
    }
    if (n >= 1 << 30) return n;
    // PILOT_RULE.confirmations more samples, each at least PILOT_RULE.confirmFraction of the target; one op outlasting
    // that once more cannot be split: no further op of a slow serializer
    let shortMs: number | undefined;
    for (let k = 0; k < (n === 1 ? 1 : PILOT_RULE.confirmations); k++) {
      const againMs = (length(n) * n) / 1e6;
      if (againMs < policy.sampleTargetMs * PILOT_RULE.confirmFraction) {
        shortMs = againMs;
        break;
      }
    }
    if (shortMs === undefined) return n;
    ops = next(n, shortMs);
  }
}

/**
 * The pilot's constants ({@link pilot}), shared by name with the .NET worker's port
 * (workers/dotnet/src/Timing.cs `Pilot`, constants `PilotConfirmations`, `PilotConfirmFraction`,
 * `PilotReadableMs`, `PilotOvershoot`; test/dotnet/pilot-rule.test.ts fails when the two differ):
 * confirming samples after the first that reaches the target, the share of the target each must
 * last, the length (ms) from which a sample is read to jump near the target, and how far past the
 * target that jump aims.
 */
export const PILOT_RULE = deepFreeze({
  confirmations: 2,
  confirmFraction: 0.5,
  readableMs: 0.5,
  overshoot: 1.1,
} as const);

/** One side of a paired measurement, with the checks made between its samples (none in tests of timing alone). */
export interface TimedSide {
  op: Op;
  opsPerSample: number;
  checks?: SideChecks;
}

/**
 * A finished round: raw samples (ns/op by the measuring clock) of both sides (baseline empty when
 * unpaired), and with the CPU clock the same samples by wall time.
 */
export interface Round {
  serializerNs: number[];
  baselineNs: number[];
  serializerWallNs?: number[];
  baselineWallNs?: number[];
  /** per side, the process's and the measuring thread's CPU over its samples ({@link SampleSet} `span`), where both clocks were read */
  serializerSpan?: CpuSpan;
  baselineSpan?: CpuSpan;
}

/**
 * One side's samples in one round, by two CPU clocks read from just before its first sample to just after its last
 * (the checks between its samples included): `cpuNs` the process CPU clock (every thread), `threadNs` the measuring
 * thread's alone ({@link threadCpuNowNs}); `cpuNs − threadNs` is the CPU other threads burnt meanwhile (V8's GC and
 * compiler helpers, and any thread user code started). Totals in ns, not per op.
 */
export interface CpuSpan {
  cpuNs: number;
  threadNs: number;
  /**
   * the CPU of the threads the worker had when it started, the measuring thread excepted ({@link helperThreadsCpuNs}):
   * `cpuNs − threadNs − helpersNs` is that of threads started later (by the code measured); absent: not read
   */
  helpersNs?: number;
}

/**
 * Paired rounds: each round runs a GC, up to `samplesPerRound` samples of one side (fewer when
 * samples run long; see below), a GC, the same of the other; the order alternates (ABBA…) so
 * neither side always follows the other, and a slow phase of the machine hits both, as the
 * on-device study alternated its serializers.
 *
 * Stop rule (on what is reported): after `minRounds`, stop once the relative standard error of the
 * launch's estimate ({@link medianRelativeError}) is under `targetRelativeError`: for a paired case
 * the median of its per-round ratios (each round's median ÷ the baseline's median), for a side alone
 * the median of its per-round medians. Else stop at `maxRounds` or once `timeCapMs` of the measuring
 * clock (CPU time where there is one) is spent, or 5 × that of wall time (a starved process), and
 * `noisy` is true. Why not a t-interval of the means: on a shared machine it rarely closed (most
 * launches ran to the cap), and the t-interval of per-round ratios (median SE 2.1%) was wider than
 * the real launch-to-launch spread (1.34%); the MAD-based error tracks launch-to-launch spread over
 * the first ~10 rounds (observed ÷ predicted 0.7–1.3 at load 8–19) and beyond that the spread stays
 * at a floor that only more launches lower (issue 13's study, benchmarks/engine/q2-analyze.mjs).
 */
export function measureRounds(
  serializer: TimedSide,
  baseline: TimedSide | undefined,
  policy: MeasurePolicy,
  gc: () => void,
  onRound: (round: Round, index: number) => void,
): { noisy: boolean; rounds: number } {
  const spent = spentClock(policy);
  const estimates: number[] = [];
  const withWall = clockKind === 'cpu';
  const sample = (side: TimedSide, round: number) => sampleSide(side, round, policy, gc);
  for (let r = 0; r < policy.maxRounds; r++) {
    let s: SampleSet;
    let b: SampleSet = { ns: [], wallNs: [] };
    if (!baseline) s = sample(serializer, r);
    else if (r % 2 === 0) {
      s = sample(serializer, r);
      b = sample(baseline, r);
    } else {
      b = sample(baseline, r);
      s = sample(serializer, r);
    }
    onRound(
      {
        serializerNs: s.ns,
        baselineNs: b.ns,
        ...(withWall ? { serializerWallNs: s.wallNs, baselineWallNs: b.wallNs } : {}),
        ...(s.span ? { serializerSpan: s.span } : {}),
        ...(b.span ? { baselineSpan: b.span } : {}),
      },
      r,
    );
    estimates.push(baseline ? medianOf(s.ns) / medianOf(b.ns) : medianOf(s.ns));
    if (r + 1 < policy.minRounds) continue;
    if (medianRelativeError(estimates) < policy.targetRelativeError) return { noisy: false, rounds: r + 1 };
    if (spent()) return { noisy: true, rounds: r + 1 };
  }
  return { noisy: true, rounds: policy.maxRounds };
}

/** A group round: the baseline's samples and each serializer's, in the order of `sides` (ns/op by the measuring clock, and by wall time). */
export interface GroupRound {
  baseline: SampleSet;
  sides: SampleSet[];
}
/** One side's samples in a round; `span`: both CPU clocks over them, where the measuring thread's clock was read ({@link CpuSpan}). */
export interface SampleSet {
  ns: number[];
  wallNs: number[];
  span?: CpuSpan;
}

/**
 * Group rounds: the baseline and several serializers of one class in one process, each round a GC
 * and the samples of each side in turn, the order reversed every other round (B S1 S2 …, … S2 S1 B)
 * so no side always follows another; each serializer's per-round ratio is its round median ÷ the
 * baseline's in the same round. Same sample and round-length rules as {@link measureRounds}.
 *
 * Stop rule: after `minRounds`, once every serializer's ratio and the baseline's own per-round
 * median have a relative standard error ({@link medianRelativeError}) under `targetRelativeError`;
 * else at `maxRounds` or the time cap (then `noisy`). Returns, per serializer, whether its own
 * ratio met the target (`precise`), as the cap may end a group in which some sides were precise.
 */
export function measureGroupRounds(
  baseline: TimedSide,
  sides: readonly TimedSide[],
  policy: MeasurePolicy,
  gc: () => void,
  onRound: (round: GroupRound, index: number) => void,
): { noisy: boolean; rounds: number; precise: boolean[]; baselinePrecise: boolean } {
  const spent = spentClock(policy);
  const ratios: number[][] = sides.map(() => []);
  const baseMedians: number[] = [];
  const sample = (side: TimedSide, round: number) => sampleSide(side, round, policy, gc);
  const errors = () => ({
    ratio: ratios.map((xs) => medianRelativeError(xs)),
    baseline: medianRelativeError(baseMedians),
  });
  for (let r = 0; r < policy.maxRounds; r++) {
    const order = [-1, ...sides.map((_, i) => i)];
    if (r % 2 === 1) order.reverse();
    const got: SampleSet[] = new Array(sides.length);
    let base: SampleSet = { ns: [], wallNs: [] };
    for (const k of order) {
      if (k < 0) base = sample(baseline, r);
      else got[k] = sample(sides[k], r);
    }
    onRound({ baseline: base, sides: got }, r);
    const b = medianOf(base.ns);
    baseMedians.push(b);
    got.forEach((g, i) => ratios[i].push(medianOf(g.ns) / b));
    if (r + 1 < policy.minRounds) continue;
    const e = errors();
    const precise = e.ratio.map((x) => x < policy.targetRelativeError);
    const baselinePrecise = e.baseline < policy.targetRelativeError;
    if (precise.every(Boolean) && baselinePrecise) return { noisy: false, rounds: r + 1, precise, baselinePrecise };
    if (spent()) return { noisy: true, rounds: r + 1, precise, baselinePrecise };
  }
  const e = errors();
  return {
    noisy: true,
    rounds: policy.maxRounds,
    precise: e.ratio.map((x) => x < policy.targetRelativeError),
    baselinePrecise: e.baseline < policy.targetRelativeError,
  };
}

/**
 * The time cap of a launch's rounds, started now: true once `timeCapMs` of the measuring clock (CPU
 * time where there is one) is spent, or 5 × that of wall time (a starved process).
 */
function spentClock(policy: MeasurePolicy): () => boolean {
  const start = clockNs();
  const wallStart = nowNs();
  return () =>
    (clockNs() - start) / 1e6 >= policy.timeCapMs ||
    (clockKind === 'cpu' && (nowNs() - wallStart) / 1e6 >= 5 * policy.timeCapMs);
}

/**
 * One side's samples in one round: a GC, then up to `samplesPerRound` samples. A side's round lasts
 * about samplesPerRound × sampleTargetMs: when one op alone outlasts the sample target (a slow
 * serializer on a large payload: the pilot left it at one op per sample), the round stops once that
 * time is spent (at least one sample), so a 700 ms/op case does not spend 3.5 s per round. Every
 * sample's result gets the quick check; the round's last one the full check and the inputs' (within
 * a budget): that work and its garbage fall just before the next GC, never inside a sample.
 */
function sampleSide(side: TimedSide, round: number, policy: MeasurePolicy, gc: () => void): SampleSet {
  gc();
  // both CPU clocks around the side's samples (the thread's first in, last out: its span holds the process's)
  const thread = clockKind === 'cpu' ? threadClockNs : undefined;
  const helpers = thread ? helpersClockNs : undefined;
  const t0 = thread?.() ?? 0;
  const c0 = thread ? clockNs() : 0;
  const h0 = helpers?.() ?? 0;
  const spanOf = (): CpuSpan | undefined => {
    if (!thread) return undefined;
    const cpuNs = clockNs() - c0;
    const helpersNs = helpers ? helpers() - h0 : undefined;
    return { cpuNs, threadNs: thread() - t0, ...(helpersNs === undefined ? {} : { helpersNs }) };
  };
  const roundMs = policy.samplesPerRound * policy.sampleTargetMs;
  const ns: number[] = [];
  const wallNs: number[] = [];
  let spentMs = 0;
  const checks = side.checks;
  const last = (t: number) =>
    ns.length + 1 >= policy.samplesPerRound ||
    (side.opsPerSample === 1 && spentMs + (t * side.opsPerSample) / 1e6 >= roundMs);
  let changed: RoundChange | undefined;
  const check =
    checks &&
    ((result: unknown, t: number, again: () => unknown, previous: unknown, picked: readonly PickedResult[]) => {
      const where = `round ${round + 1}, sample ${ns.length + 1}`;
      checks.distinct?.(result, previous, where);
      if (last(t))
        checks.roundEnd(result, round, spentMs + (t * side.opsPerSample) / 1e6, where, again, changed?.change);
      else checks.quick(result, where);
      // after the sample's own checks (roundEnd's back-to-back call comes first): the calls drawn at random in it
      checks.picked?.(picked, (t * side.opsPerSample) / 1e6, where);
    });
  for (;;) {
    // the round's last sample (by count) runs its last op on a changed input (serialize; timed-check.ts roundChange)
    changed = ns.length + 1 >= policy.samplesPerRound ? checks?.roundChange?.(round) : undefined;
    const t = timeSample(side.op, side.opsPerSample, check, changed?.apply);
    const final = last(t.ns);
    ns.push(t.ns);
    wallNs.push(t.wallNs);
    spentMs += (t.ns * side.opsPerSample) / 1e6;
    if (final) {
      const span = spanOf();
      return span ? { ns, wallNs, span } : { ns, wallNs };
    }
  }
}
