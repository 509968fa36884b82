import type { PlannedCase } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import type { AllocStats, CaseHeader, CaseResult, LaunchRecord, MismatchRecord, TimeStats } from '../results/types.js';
import { estimate, meanOf, medianOf, confidenceHalfWidth, medianRelativeError } from '../stats/estimate.js';
import {
  coverStates,
  launchPrior,
  launchStates,
  meanInterval,
  ratioInterval,
  withinVariance,
  type LaunchPrior,
} from '../stats/intervals.js';
import { analyseCase } from '../analysers/index.js';
import { roundRatios } from '../analysers/analyser.js';

/** How a case ended, as the runner decided it: measured (numbers follow from the launches), or why not. */
export type CaseEnd =
  | { status: 'measured' }
  | { status: 'incorrect'; reason: string; mismatch: MismatchRecord }
  | { status: 'unsupported' | 'failed' | 'timeout' | 'crashed' | 'not-run'; reason: string };

/** Everything the host gathered for one case before its statistics are computed. */
export interface CaseRecord {
  planned: PlannedCase;
  payload: PayloadFile;
  launches: LaunchRecord[];
  relaunches: number;
  end: CaseEnd;
  alloc?: AllocationMeasurement;
  /** paired with its baseline in every kept launch */
  paired: boolean;
  /** why the baseline gave no ratio in this group (set when pairing was dropped) */
  baselineProblem?: string;
  /** the version of the library the worker reported loading (`library` message; the .NET worker's assembly), which results record over the planned one */
  loadedVersion?: string;
}

/** Each kept launch's mean time (ns/op, every sample of its rounds): the unit the time interval is made of. */
export function launchMeansOf(kept: readonly LaunchRecord[]): number[] {
  return kept
    .map((l) => l.rounds.flatMap((r) => r.serializerNs))
    .filter((xs) => xs.length)
    .map(meanOf);
}

/** Each kept launch's ratio (the median of its per-round ratios) with its MAD-based relative standard error, for a paired case. */
export function launchRatiosOf(kept: readonly LaunchRecord[]): { value: number; se: number }[] {
  return kept
    .map(roundRatios)
    .filter((xs) => xs.length > 0)
    .map((xs) => ({ value: medianOf(xs), se: medianRelativeError(xs) }));
}

/** Each kept launch's relative standard error of its time: MAD-based, over its rounds' medians (stats/median.ts). */
function launchTimeErrors(kept: readonly LaunchRecord[]): number[] {
  return kept
    .map((l) => l.rounds.filter((r) => r.serializerNs.length).map((r) => medianOf(r.serializerNs)))
    .filter((xs) => xs.length)
    .map(medianRelativeError);
}

/** What the other cases of a case's group lend it (stats/intervals.ts launchPrior): a prior for its time and one for its ratio. */
export interface GroupPriors {
  time?: LaunchPrior;
  ratio?: LaunchPrior;
}

/**
 * The interval of one launch's mean from its rounds (each round's mean a value, t with rounds − 1
 * degrees of freedom): what a case measured in a single launch (policy quick) can say. It leaves out
 * the launch-to-launch variance, which one launch cannot show; the results record `basis: 'rounds'`.
 */
function roundsInterval(values: readonly number[], confidence: number, logScale: boolean): [number, number] | null {
  const xs = logScale ? values.filter((v) => v > 0).map(Math.log) : values;
  if (xs.length < 2) return null;
  const m = meanOf(xs);
  const h = confidenceHalfWidth(xs, confidence);
  if (!Number.isFinite(h)) return null;
  return logScale ? [Math.exp(m - h), Math.exp(m + h)] : [Math.max(0, m - h), m + h];
}

/**
 * Time statistics of the kept launches, by the launches' clock (`cpu` when every kept launch read
 * the process CPU clock, with the wall-time mean beside it); null with fewer than 2 samples.
 * `mean` is the mean of the launch means and `error` the half-width of its interval from the
 * launch means (stats/intervals.ts meanInterval: t with launches − 1 degrees of freedom, moderated
 * by the group's prior when given); with one launch and no prior, from that launch's round means
 * (`basis: 'rounds'`). When the launches fell into distinct states (stats/intervals.ts
 * launchStates), the interval is widened to cover every launch mean. `median` stays the median
 * across launches of each launch's median; stddev, min, max, n and outliers describe the pooled samples.
 */
function timeStats(kept: readonly LaunchRecord[], confidence: number, prior?: LaunchPrior): TimeStats | null {
  const pooled = kept.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
  if (pooled.length < 2) return null;
  const est = estimate(pooled, confidence);
  const launchMeans = launchMeansOf(kept);
  // the clock of the kept launches (all the same in one run: the target's); wall means beside CPU ones
  const clock = kept.every((l) => l.clock === 'cpu') ? 'cpu' : 'wall';
  const wallMeans =
    clock === 'cpu'
      ? kept
          .map((l) => l.rounds.flatMap((r) => r.serializerWallNs ?? []))
          .filter((xs) => xs.length)
          .map(meanOf)
      : [];
  const timeErrors = launchTimeErrors(kept);
  const iv = meanInterval(
    launchMeans,
    confidence,
    prior,
    withinVariance(timeErrors.map((se, i) => se * launchMeans[i])),
  );
  let mean: number;
  let interval: [number, number] | null;
  let basis: 'launches' | 'moderated' | 'rounds';
  let df: number;
  if (iv) {
    mean = iv.centre;
    interval = [iv.low, iv.high];
    basis = iv.basis;
    df = iv.df;
  } else {
    const roundMeans = kept.flatMap((l) =>
      l.rounds.filter((r) => r.serializerNs.length).map((r) => meanOf(r.serializerNs)),
    );
    mean = meanOf(launchMeans);
    interval = roundsInterval(roundMeans, confidence, false);
    basis = 'rounds';
    df = Math.max(0, roundMeans.length - 1);
  }
  const states = launchStates(launchMeans, timeErrors, confidence);
  interval = coverStates(interval, launchMeans, states);
  const error = interval ? Math.max(mean - interval[0], interval[1] - mean) : Infinity;
  return {
    mean,
    median: medianOf(kept.map((l) => medianOf(l.rounds.flatMap((r) => r.serializerNs)))),
    error: Number.isFinite(error) ? error : est.error,
    stddev: est.stddev,
    min: est.min,
    max: est.max,
    unit: 'ns/op',
    n: est.n,
    outliers: est.outliers,
    launchSpread: (Math.max(...launchMeans) - Math.min(...launchMeans)) / medianOf(launchMeans),
    clock,
    ...(wallMeans.length ? { wallMean: medianOf(wallMeans) } : {}),
    basis,
    df,
    launches: launchMeans.length,
  };
}

/** The allocation figure of the pass: the median window (or `n/a` with the runtime's reason); undefined when the pass gave no window. */
function allocStats(alloc: AllocationMeasurement | undefined): AllocStats | undefined {
  if (!alloc) return undefined;
  if (alloc.method === 'n/a') return { method: 'n/a', unit: 'bytes/op', note: alloc.how };
  if (!alloc.windowsBytesPerOp.length) return undefined;
  return {
    method: alloc.method,
    mean: medianOf(alloc.windowsBytesPerOp),
    unit: 'bytes/op',
    gcPerOp: alloc.gcPerOp,
    windows: alloc.windowsBytesPerOp,
    ...(alloc.method !== 'exact' ? { note: alloc.how } : {}),
  };
}

/** The longest reason or mismatch value a case records (characters); a longer one is cut with a note of its length. */
export const MAX_RECORDED_CHARS = 16_384;

/**
 * `text` cut to {@link MAX_RECORDED_CHARS} with `… (cut: N characters in all)` (issue 9: a
 * serializer threw a 50 MB message, which became a 50 MB results.json and a 351 MB report.html).
 */
export function capRecorded(text: string): string {
  if (text.length <= MAX_RECORDED_CHARS) return text;
  return `${text.slice(0, MAX_RECORDED_CHARS)}… (cut: ${text.length} characters in all)`;
}

function cappedEnd<E extends { reason?: string; mismatch?: { expected: string; actual: string; path: string } }>(
  end: E,
): E {
  const out = { ...end };
  if (typeof out.reason === 'string') out.reason = capRecorded(out.reason);
  if (out.mismatch)
    out.mismatch = {
      ...out.mismatch,
      path: capRecorded(out.mismatch.path),
      expected: capRecorded(out.mismatch.expected),
      actual: capRecorded(out.mismatch.actual),
    };
  return out;
}

/**
 * A paired case's ratio from its launches: the geometric mean of the launch ratios with its
 * interval on the log scale (stats/intervals.ts ratioInterval: t with launches − 1 degrees of
 * freedom, moderated by the group's prior when given); with one launch and no prior, the geometric
 * mean of that launch's per-round ratios with their t-interval (`basis: 'rounds'`, which leaves out
 * the launch-to-launch variance). Widened to cover every launch ratio when the launches fell into
 * distinct states (stats/intervals.ts launchStates; analysers/launch-states.ts says so).
 */
export function ratioOf(
  kept: readonly LaunchRecord[],
  confidence: number,
  prior?: LaunchPrior,
): { ratio: number; interval: [number, number] | null; basis: 'launches' | 'moderated' | 'rounds'; df: number } | null {
  const launches = launchRatiosOf(kept);
  if (!launches.length) return null;
  const values = launches.map((l) => l.value);
  const iv = ratioInterval(values, confidence, prior, withinVariance(launches.map((l) => l.se)));
  let out: { ratio: number; interval: [number, number] | null; basis: 'launches' | 'moderated' | 'rounds'; df: number };
  if (iv) out = { ratio: iv.centre, interval: [iv.low, iv.high], basis: iv.basis, df: iv.df };
  else {
    const rounds = kept.flatMap(roundRatios).filter((r) => r > 0 && Number.isFinite(r));
    const ratio = rounds.length ? Math.exp(meanOf(rounds.map(Math.log))) : values[0];
    out = {
      ratio,
      interval: roundsInterval(rounds, confidence, true),
      basis: 'rounds',
      df: Math.max(0, rounds.length - 1),
    };
  }
  const states = launchStates(
    values,
    launches.map((l) => l.se),
    confidence,
  );
  out.interval = coverStates(out.interval, values, states);
  return out;
}

/**
 * Turns a case's raw launches into its result: for a measured case, time statistics (timeStats),
 * the ratio with its log-scale interval ({@link ratioOf}), and allocation; for any case, its raw
 * samples (findings come after, in {@link assembleGroup}). `priors` are what the other cases of its
 * group lend it ({@link groupPriors}). A case the runner judged measured but with fewer than 2 time
 * samples is `failed` (no number is made up).
 */
export function assembleCase(rec: CaseRecord, policy: MeasurePolicy, priors: GroupPriors = {}): CaseResult {
  const p = rec.planned;
  const header: CaseHeader = {
    id: p.id,
    target: p.target,
    workload: p.workload,
    size: p.size,
    shape: p.shape,
    serializer: p.serializer,
    serializerVersion: rec.loadedVersion ?? p.serializerVersion,
    family: p.family,
    ...(p.platform && p.platform !== 'javascript' ? { platform: p.platform } : {}),
    direction: p.direction,
    class: p.caseClass,
    baseline: p.baseline,
    ...(p.code ? { code: p.code } : {}),
    ...(p.notes?.length ? { notes: p.notes } : {}),
    payload: { bytes: rec.payload.bytes, sha256: rec.payload.sha256 },
    findings: [],
    samples: { launches: rec.launches, relaunches: rec.relaunches },
  };
  const kept = keptOf(rec);
  let result: CaseResult;
  const time = rec.end.status === 'measured' ? timeStats(kept, policy.confidence, priors.time) : null;
  if (rec.end.status !== 'measured') result = { ...header, ...cappedEnd(rec.end) };
  else if (!time) result = { ...header, status: 'failed', reason: 'no time samples were recorded' };
  else {
    let ratio: number | null = null;
    let ratioError: number | null = null;
    let ratioInterval: [number, number] | null = null;
    let ratioBasis: 'launches' | 'moderated' | 'rounds' | undefined;
    let difference: { value: number; low: number; high: number } | undefined;
    if (p.baseline === p.serializer) {
      ratio = 1;
      ratioError = 0;
      ratioInterval = [1, 1];
    } else if (rec.paired && kept.length) {
      const r = ratioOf(kept, policy.confidence, priors.ratio);
      if (r) {
        ratio = r.ratio;
        ratioInterval = r.interval;
        ratioError = r.interval ? Math.max(r.ratio - r.interval[0], r.interval[1] - r.ratio) : null;
        ratioBasis = r.basis;
        // the baseline's mean beside this serializer (its samples in the same rounds), ns/op
        const beside = kept
          .map((l) => l.rounds.flatMap((x) => x.baselineNs))
          .filter((xs) => xs.length)
          .map(meanOf);
        if (beside.length && r.interval) {
          const b = meanOf(beside);
          difference = { value: (r.ratio - 1) * b, low: (r.interval[0] - 1) * b, high: (r.interval[1] - 1) * b };
        }
        // a ratio without an interval has no error either (results/validate.ts: both numbers, or both null)
        if (!r.interval) ratioError = null;
      }
    }
    const allocated = allocStats(rec.alloc);
    result = {
      ...header,
      status: 'measured',
      time,
      ratio,
      ratioError,
      ratioInterval,
      ...(ratioBasis ? { ratioBasis } : {}),
      ...(difference ? { difference } : {}),
      ...(allocated ? { allocated } : {}),
      allocRatio: null,
    };
  }
  return result;
}

/** The launches a case's statistics come from: not discarded, with at least one round. */
function keptOf(rec: CaseRecord): LaunchRecord[] {
  return rec.launches.filter((l) => !l.discarded && l.rounds.length > 0);
}

/**
 * The priors each case of a group gets from the group's other measured cases (leave-one-out, so a
 * case's own launches never count twice): for time, every other case's launch means; for the
 * ratio, every other paired case's launch ratios (the baseline's own case, ratio 1, says nothing).
 * See stats/intervals.ts launchPrior (Smyth 2004's s₀², pooled over the others, and d₀ ≤ 4).
 */
export function groupPriors(recs: readonly CaseRecord[]): GroupPriors[] {
  const measured = recs.map((r) => r.end.status === 'measured');
  const times = recs.map((r) => launchMeansOf(keptOf(r)));
  const ratios = recs.map((r) =>
    r.paired && r.planned.baseline !== r.planned.serializer ? launchRatiosOf(keptOf(r)).map((l) => l.value) : [],
  );
  return recs.map((_, i) => {
    const others = (xs: number[][]) => xs.filter((_, j) => j !== i && measured[j]);
    const time = launchPrior(others(times));
    const ratio = launchPrior(others(ratios));
    return { ...(time ? { time } : {}), ...(ratio ? { ratio } : {}) };
  });
}

/**
 * Assembles the cases of one group ({@link assembleCase}, each with the priors its group lends it,
 * {@link groupPriors}), fills their allocation ratios, then
 * runs the analysers (src/analysers/) on each with the group's assembled baseline case.
 */
export function assembleGroup(recs: readonly CaseRecord[], policy: MeasurePolicy): CaseResult[] {
  const priors = groupPriors(recs);
  const out = recs.map((r, i) => assembleCase(r, policy, priors[i]));
  fillAllocRatios(out);
  out.forEach((c, i) => {
    const baseline = out.find((b) => b.serializer === c.baseline && b.target.id === c.target.id);
    c.findings = analyseCase(c, {
      policy,
      ...(recs[i].baselineProblem ? { baselineProblem: recs[i].baselineProblem } : {}),
      ...(baseline ? { baseline } : {}),
    });
  });
  return out;
}

/** Fills `allocRatio` of each measured case of a group from its baseline's allocation (same counting method, both with a figure). */
export function fillAllocRatios(group: CaseResult[]): void {
  for (const c of group) {
    if (c.status !== 'measured') continue;
    const base = group.find((b) => b.serializer === c.baseline && b.status === 'measured');
    const mine = c.allocated?.mean;
    const theirs = base?.allocated?.mean;
    const comparable = mine !== undefined && theirs !== undefined && c.allocated!.method === base!.allocated!.method;
    c.allocRatio = comparable && theirs > 0 ? mine / theirs : null;
  }
}
