import type { MeasurePolicy } from '../case/policy.js';
import { nowNs } from './clock.js';
import { drainSink, type Op } from './sink.js';
import { relativeError } from '../stats/estimate.js';

/** Runs `ops` iterations of an op; returns ns per op. The sink is drained after the timed loop. */
export function runSample(op: Op, ops: number): number {
  const t0 = nowNs();
  for (let i = 0; i < ops; i++) op(i);
  const elapsed = nowNs() - t0;
  drainSink();
  return elapsed / ops;
}

/**
 * Warmup: runs the op until both `warmupMinOps` ops and `warmupMinMs` have passed, stopping early
 * only at `warmupMaxMs` (after at least one op). The clock is read after every op (warmup is not
 * timed), so a slow op overshoots `warmupMaxMs` by less than one op. Returns ops run and ms spent.
 */
export function warmup(op: Op, policy: MeasurePolicy): { ops: number; ms: number } {
  const start = nowNs();
  let ops = 0;
  for (;;) {
    op(ops++);
    const ms = (nowNs() - start) / 1e6;
    if ((ops >= policy.warmupMinOps && ms >= policy.warmupMinMs) || ms >= policy.warmupMaxMs) {
      drainSink();
      return { ops, ms };
    }
  }
}

/**
 * Pilot: doubles ops per sample until one sample lasts at least `sampleTargetMs` (the pilot stage of
 * BenchmarkDotNet). Returns ops per sample (≥ 1).
 */
export function pilot(op: Op, policy: MeasurePolicy): number {
  let ops = 1;
  for (;;) {
    const nsPerOp = runSample(op, ops);
    const sampleMs = (nsPerOp * ops) / 1e6;
    if (sampleMs >= policy.sampleTargetMs || ops >= 1 << 30) return ops;
    // jump close to the target when the sample was long enough to be read, else double
    ops = sampleMs > 0.5 ? Math.max(ops * 2, Math.ceil((ops * policy.sampleTargetMs * 1.1) / sampleMs)) : ops * 2;
  }
}

/** One side of a paired measurement. */
export interface TimedSide { op: Op; opsPerSample: number }

/** A finished round: raw samples (ns/op) of both sides (baseline empty when unpaired). */
export interface Round { serializerNs: number[]; baselineNs: number[] }

/**
 * Paired rounds: each round runs a GC, up to `samplesPerRound` samples of one side (fewer when
 * samples run long; see below), a GC, the same of
 * the other; the order alternates (ABBA…) so neither side always follows the other, and a slow
 * phase of the machine hits both, as the on-device study alternated its serializers. Stops after
 * `minRounds` once the error of every side's mean is under `targetRelativeError`, or at
 * `maxRounds`/`timeCapMs` (then `noisy` is true).
 */
export function measureRounds(
  serializer: TimedSide,
  baseline: TimedSide | undefined,
  policy: MeasurePolicy,
  gc: () => void,
  onRound: (round: Round, index: number) => void,
): { noisy: boolean; rounds: number } {
  const start = nowNs();
  const allS: number[] = [];
  const allB: number[] = [];
  // A side's round lasts about samplesPerRound × sampleTargetMs: when one op alone outlasts the
  // sample target (a slow serializer on a large payload: one op per sample), the round stops once
  // that time is spent (at least one sample), so a 700 ms/op case does not spend 3.5 s per round.
  const roundMs = policy.samplesPerRound * policy.sampleTargetMs;
  const sample = (side: TimedSide, into: number[]) => {
    gc();
    const xs: number[] = [];
    let spentMs = 0;
    while (xs.length < policy.samplesPerRound) {
      const ns = runSample(side.op, side.opsPerSample);
      xs.push(ns);
      spentMs += (ns * side.opsPerSample) / 1e6;
      // only a side whose single op already outlasts the sample target (the pilot left it at one op per sample) cuts the round short
      if (side.opsPerSample === 1 && spentMs >= roundMs) break;
    }
    into.push(...xs);
    return xs;
  };
  for (let r = 0; r < policy.maxRounds; r++) {
    let s: number[];
    let b: number[] = [];
    if (!baseline) s = sample(serializer, allS);
    else if (r % 2 === 0) { s = sample(serializer, allS); b = sample(baseline, allB); }
    else { b = sample(baseline, allB); s = sample(serializer, allS); }
    onRound({ serializerNs: s, baselineNs: b }, r);
    if (r + 1 < policy.minRounds) continue;
    const precise = relativeError(allS, policy.confidence) < policy.targetRelativeError
      && (!baseline || relativeError(allB, policy.confidence) < policy.targetRelativeError);
    if (precise) return { noisy: false, rounds: r + 1 };
    if ((nowNs() - start) / 1e6 >= policy.timeCapMs) return { noisy: true, rounds: r + 1 };
  }
  return { noisy: true, rounds: policy.maxRounds };
}
