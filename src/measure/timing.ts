import type { MeasurePolicy } from '../case/policy.js';
import { nowNs } from './clock.js';
import { drainSink, type Op } from './sink.js';
import { relativeError } from '../stats/estimate.js';
import type { SideChecks } from './timed-check.js';

/** Receives a sample's last result and its ns/op after the timed loop (see timed-check.ts); throws to stop. */
export type SampleCheck = (last: unknown, nsPerOp: number) => void;

/**
 * Runs `ops` iterations of an op; returns ns per op. The sink is drained after the timed loop and
 * its last result handed to `check` (outside the timed loop).
 */
export function runSample(op: Op, ops: number, check?: SampleCheck): number {
  const t0 = nowNs();
  for (let i = 0; i < ops; i++) op(i);
  const elapsed = nowNs() - t0;
  const last = drainSink();
  check?.(last, elapsed / ops);
  return elapsed / ops;
}

/**
 * Warmup: runs the op until both `warmupMinOps` ops and `warmupMinMs` have passed, stopping early
 * only at `warmupMaxMs` (after at least one op). The clock is read after every op (warmup is not
 * timed), so a slow op overshoots `warmupMaxMs` by less than one op. Returns ops run and ms spent.
 */
export function warmup(op: Op, policy: MeasurePolicy, checks?: SideChecks): { ops: number; ms: number } {
  const start = nowNs();
  let ops = 0;
  for (;;) {
    op(ops++);
    const ms = (nowNs() - start) / 1e6;
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
 * BenchmarkDotNet). Returns ops per sample (≥ 1). With `checks`, each sample's result gets the
 * quick check and the last one the full check.
 */
export function pilot(op: Op, policy: MeasurePolicy, checks?: SideChecks): number {
  let ops = 1;
  const done = (nsPerOp: number, n: number) => (nsPerOp * n) / 1e6 >= policy.sampleTargetMs || n >= 1 << 30;
  for (;;) {
    const n = ops;
    const nsPerOp = runSample(op, n, checks && ((last, ns) => (done(ns, n) ? checks.full(last, 'pilot') : checks.quick(last, 'pilot'))));
    const sampleMs = (nsPerOp * ops) / 1e6;
    if (done(nsPerOp, ops)) return ops;
    // jump close to the target when the sample was long enough to be read, else double
    ops = sampleMs > 0.5 ? Math.max(ops * 2, Math.ceil((ops * policy.sampleTargetMs * 1.1) / sampleMs)) : ops * 2;
  }
}

/** One side of a paired measurement, with the checks made between its samples (none in tests of timing alone). */
export interface TimedSide { op: Op; opsPerSample: number; checks?: SideChecks }

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
  const sample = (side: TimedSide, into: number[], round: number) => {
    gc();
    const xs: number[] = [];
    let spentMs = 0;
    const checks = side.checks;
    // only a side whose single op already outlasts the sample target (the pilot left it at one op per sample) cuts the round short
    const last = (ns: number) => xs.length + 1 >= policy.samplesPerRound || (side.opsPerSample === 1 && spentMs + (ns * side.opsPerSample) / 1e6 >= roundMs);
    // Every sample's result gets the quick check; the round's last one the full check and the
    // inputs' (within a budget): that work and its garbage fall just before the next GC, never inside a sample.
    const check = checks && ((result: unknown, ns: number) => {
      const where = `round ${round + 1}, sample ${xs.length + 1}`;
      if (last(ns)) checks.roundEnd(result, round, spentMs + (ns * side.opsPerSample) / 1e6, where); else checks.quick(result, where);
    });
    for (;;) {
      const ns = runSample(side.op, side.opsPerSample, check);
      const final = last(ns);
      xs.push(ns);
      spentMs += (ns * side.opsPerSample) / 1e6;
      if (final) break;
    }
    into.push(...xs);
    return xs;
  };
  for (let r = 0; r < policy.maxRounds; r++) {
    let s: number[];
    let b: number[] = [];
    if (!baseline) s = sample(serializer, allS, r);
    else if (r % 2 === 0) { s = sample(serializer, allS, r); b = sample(baseline, allB, r); }
    else { b = sample(baseline, allB, r); s = sample(serializer, allS, r); }
    onRound({ serializerNs: s, baselineNs: b }, r);
    if (r + 1 < policy.minRounds) continue;
    const precise = relativeError(allS, policy.confidence) < policy.targetRelativeError
      && (!baseline || relativeError(allB, policy.confidence) < policy.targetRelativeError);
    if (precise) return { noisy: false, rounds: r + 1 };
    if ((nowNs() - start) / 1e6 >= policy.timeCapMs) return { noisy: true, rounds: r + 1 };
  }
  return { noisy: true, rounds: policy.maxRounds };
}
