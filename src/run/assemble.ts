import type { PlannedCase } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import type { AllocStats, CaseHeader, CaseResult, LaunchRecord, MismatchRecord, TimeStats } from '../results/types.js';
import { estimate, meanOf, medianOf, confidenceHalfWidth, sampleVariance } from '../stats/estimate.js';
import {
  coverStates,
  medianRoundsInterval,
  mixtureInterval,
  varianceUpperBound,
  judgedSpread,
  launchPrior,
  launchStates,
  meanInterval,
  classPooledPrior,
  PRIOR_DF_MAX,
  PRIOR_DF_MAX_BY_MEASURE,
  ratioInterval,
  sharedLaunchVariance,
  withinVariance,
  interactionGuard,
  type GroupEstimate,
  type GroupSpread,
  type InteractionGuard,
  type LaunchState,
  type RunPrior,
} from '../stats/intervals.js';
import { analyseCase } from '../analysers/index.js';
import { roundRatios } from '../analysers/analyser.js';
import { launchRatioReadings, launchTimeReadings } from '../analysers/launches-disagree.js';

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

/** One kept launch's value of a case (its mean time, or its ratio) with its relative standard error and the process it ran in. */
export interface LaunchValue {
  value: number;
  /** relative standard error (analysers/launches-disagree.ts LaunchReading: from its rounds, else its samples; Infinity when neither says anything) */
  se: number;
  /** which process it ran in ({@link processKey}): equal keys across a group's cases, one process */
  key: string;
}

let ownProcess = 0;
/**
 * Which worker process a launch ran in, as a key: launches of a group's cases with equal keys ran in
 * one process (run/group-launch.ts), so they share its launch effect. A record with `grouped: true`
 * ran in its group's launch of that number (one such process per launch number and group); with
 * `grouped: false`, in a process of its own (a unique key). A file written before `grouped` was
 * recorded: by its launch number with its process's elapsed time and empty-loop cost, which the
 * cases of one group launch share to the last digit (each is the process's own measurement) and
 * separate processes do not.
 */
export function processKey(l: LaunchRecord): string {
  if (l.grouped === true) return `group launch ${l.launch}`;
  if (l.grouped === false) return `own process ${++ownProcess}`;
  return `launch ${l.launch} ${l.elapsedMs} ${l.emptyNsPerOp}`;
}

/** Each kept launch's mean time (ns/op) with its relative error and process (analysers/launches-disagree.ts launchTimeReadings): the unit the time interval is made of. */
function launchTimesOf(kept: readonly LaunchRecord[]): LaunchValue[] {
  return launchTimeReadings(kept).map((r) => ({ value: r.value, se: r.se, key: processKey(r.launch) }));
}

/**
 * Each kept launch's ratio (the median of its per-round ratios) with its relative error and process,
 * for a paired case (analysers/launches-disagree.ts launchRatioReadings).
 */
export function launchRatiosOf(kept: readonly LaunchRecord[]): LaunchValue[] {
  return launchRatioReadings(kept).map((r) => ({ value: r.value, se: r.se, key: processKey(r.launch) }));
}

/**
 * What a case's group lends it (stats/intervals.ts GroupSpread), for its time and for its ratio:
 * the spread its interval uses, and the same estimate without the case (`*Others`: the yardstick its
 * launch states and the heterogeneity guard are judged against, so a bimodal or noisy case does
 * not widen the yardstick it is measured by). See {@link groupSpreads}.
 */
export interface CaseSpreads {
  time?: GroupSpread;
  ratio?: GroupSpread;
  timeOthers?: StateSpread;
  ratioOthers?: StateSpread;
  /** the run's other groups' prior ({@link RunPriors}), moderating the case's interval and the yardstick its launches are judged against */
  timeRun?: RunPrior;
  ratioRun?: RunPrior;
}

/**
 * What the run's other groups lend a group (stats/intervals.ts RunPrior, per measure): Smyth's
 * s₀² and d₀ from the launch-to-launch variances of groups that ran in other processes
 * ({@link runPriorsFor}). Empty in a run of one group.
 */
export interface RunPriors {
  time?: RunPrior;
  ratio?: RunPrior;
}

/**
 * One group's launch-to-launch variance as the run's other groups borrow it ({@link groupLaunchSpread}):
 * what the group is (its target and class: the prior is matched on them) and its estimate per
 * measure (stats/intervals.ts GroupEstimate).
 */
export interface GroupLaunchSpread {
  target: string;
  caseClass: string;
  time?: GroupEstimate;
  ratio?: GroupEstimate;
}

/**
 * The group's launch-to-launch variance (log scale) and its df, for stats/intervals.ts launchStates;
 * with shared launches, the heterogeneity guard's interaction test of the case against the others
 * (stats/intervals.ts interactionGuard).
 */
export interface StateSpread {
  variance: number;
  df: number;
  guard?: InteractionGuard;
}

/** A launch-states reading of one case's values: its states and whether they widened the reported interval. */
export interface StatesReading {
  states: LaunchState[];
  widened: boolean;
}

/**
 * The interval of one launch's mean from its rounds (each round's mean a value, t with rounds − 1
 * degrees of freedom): what a case measured in a single launch (policy quick) can say. It leaves out
 * the launch-to-launch variance, which one launch cannot show; the results record `basis: 'rounds'`.
 */
function roundsInterval(values: readonly number[], confidence: number, logScale: boolean): [number, number] | null {
  const xs = logScale ? values.filter((v) => v > 0 && Number.isFinite(v)).map(Math.log) : values;
  if (xs.length < 2) return null;
  const m = meanOf(xs);
  const h = confidenceHalfWidth(xs, confidence);
  if (!Number.isFinite(h)) return null;
  return logScale ? [Math.exp(m - h), Math.exp(m + h)] : [Math.max(0, m - h), m + h];
}

/**
 * The states of launch values against a spread (stats/intervals.ts launchStates), and the interval
 * as the states leave it:
 * - one state: as it is;
 * - two states, and an interval of the launches (`se` given: not one launch's rounds): the union of
 *   it and the two-state mixture's interval of the same centre (stats/intervals.ts mixtureInterval:
 *   the share of each state bounded by its Wilson interval, the within-state noise by the spread;
 *   it shrinks with the launches, where the launches' range did not), with the mixture's standard
 *   error (`mixSe`, for the stop rule's precision: {@link ratioOf});
 * - three or more states (or no launch interval): widened to cover every launch (stats/intervals.ts
 *   coverStates), the standard error as it was.
 */
function withStates(
  interval: [number, number] | null,
  se: number | undefined,
  launches: readonly LaunchValue[],
  confidence: number,
  spread: StateSpread | undefined,
): { interval: [number, number] | null; se?: number; mixSe?: number; states: StatesReading } {
  const values = launches.map((l) => l.value);
  const states = launchStates(
    values,
    launches.map((l) => l.se),
    confidence,
    spread,
  );
  const mix = se !== undefined && interval ? mixtureInterval(values, states, confidence, spread) : null;
  const covered: [number, number] | null = mix
    ? [Math.min(interval![0], mix.low), Math.max(interval![1], mix.high)]
    : coverStates(interval, values, states);
  const widened = covered !== interval && (!interval || covered![0] < interval[0] || covered![1] > interval[1]);
  return {
    interval: covered,
    ...(se !== undefined ? { se } : {}),
    ...(mix ? { mixSe: mix.se } : {}),
    states: { states, widened },
  };
}

/** The geometric mean of positive finite values (exp of their logs' mean). */
function geometricMean(xs: readonly number[]): number {
  return Math.exp(meanOf(xs.map(Math.log)));
}

/**
 * A time's `error` (TimeStats) from its interval on the log scale: mean × the larger of ln(mean/low)
 * and ln(high/mean), so [mean·e^(−error/mean), mean·e^(error/mean)] covers the interval (it is the
 * interval when it is symmetric in log space, as exp(m ± h) is; wider on one side when launch
 * states widened it). For intervals a few % wide it is the linear half-width to a few parts in a
 * thousand of itself.
 */
function logHalfWidth(mean: number, interval: readonly [number, number]): number {
  return mean * Math.max(Math.log(mean / interval[0]), Math.log(interval[1] / mean), 0);
}

/**
 * Time statistics of the kept launches, by the launches' clock (`cpu` when every kept launch read
 * the process CPU clock, with the wall-time mean beside it); null with fewer than 2 samples.
 * `mean` is the geometric mean of the launch means and `interval` its confidence interval on the
 * log scale (stats/intervals.ts meanInterval: exp(m ± t·√(v/k)), t with launches − 1 degrees of
 * freedom, or with the group's spread; since branch `stats5`, before: the arithmetic mean ± a
 * linear half-width); `error` is mean × the interval's larger log half-width ({@link logHalfWidth}:
 * [mean·e^(−error/mean), mean·e^(error/mean)] covers `interval`, results/ratio.ts timeIntervalOf);
 * launch means that are not positive finite are left out. Without an interval from the launches
 * (one launch and no spread, or launches that agree exactly with no within-launch error), from the
 * round means (`basis: 'rounds'`, df rounds − 1, log scale), or with a single round from its
 * samples (df samples − 1): `error`, `interval`, `basis` and `df` always describe the same
 * interval. When the launches fell into distinct states (stats/intervals.ts launchStates against
 * `others`, the group without the case), the interval also holds the two-state mixture's of the
 * same centre (stats/intervals.ts mixtureInterval), or with three or more states every launch mean
 * ({@link withStates}).
 * `median` stays the median across launches of each launch's median; stddev, min, max, n and
 * outliers describe the pooled samples.
 */
function timeStats(
  kept: readonly LaunchRecord[],
  confidence: number,
  spread?: GroupSpread,
  others?: StateSpread,
  run?: RunPrior,
): { time: TimeStats; states: StatesReading } | null {
  const pooled = kept.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
  if (pooled.length < 2) return null;
  const est = estimate(pooled, confidence);
  const launches = launchTimesOf(kept).filter((l) => l.value > 0 && Number.isFinite(l.value));
  const launchMeans = launches.map((l) => l.value);
  // the clock of the kept launches (all the same in one run: the target's); wall means beside CPU ones
  const clock = kept.every((l) => l.clock === 'cpu') ? 'cpu' : 'wall';
  const wallMeans =
    clock === 'cpu'
      ? kept
          .map((l) => l.rounds.flatMap((r) => r.serializerWallNs ?? []))
          .filter((xs) => xs.length)
          .map(meanOf)
      : [];
  const iv = launchMeans.length
    ? meanInterval(launchMeans, confidence, spread, withinVariance(launches.map((l) => l.se * l.value)), others, run)
    : null;
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
    mean = launchMeans.length ? geometricMean(launchMeans) : est.mean;
    basis = 'rounds';
    if (roundMeans.length >= 2) {
      interval = roundsInterval(roundMeans, confidence, true);
      df = roundMeans.length - 1;
    } else {
      // a single round: its samples are the finest unit there is
      interval = roundsInterval(pooled, confidence, true) ?? [Math.max(0, est.mean - est.error), est.mean + est.error];
      df = est.n - 1;
    }
  }
  const covered = withStates(interval, iv?.se, launches, confidence, judgedSpread(others, run));
  interval = covered.interval;
  const error = interval && interval[0] > 0 && mean > 0 ? logHalfWidth(mean, interval) : Infinity;
  return {
    time: {
      mean,
      median: medianOf(kept.map((l) => medianOf(l.rounds.flatMap((r) => r.serializerNs)))),
      error: Number.isFinite(error) ? error : est.error,
      ...(interval && Number.isFinite(error) ? { interval } : {}),
      stddev: est.stddev,
      min: est.min,
      max: est.max,
      unit: 'ns/op',
      n: est.n,
      outliers: est.outliers,
      launchSpread: launchMeans.length
        ? (Math.max(...launchMeans) - Math.min(...launchMeans)) / medianOf(launchMeans)
        : 0,
      clock,
      ...(wallMeans.length ? { wallMean: medianOf(wallMeans) } : {}),
      basis,
      df,
      launches: launchMeans.length,
    },
    states: covered.states,
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

/** A paired case's ratio as assembled ({@link ratioOf}). */
export interface RatioReading {
  ratio: number;
  interval: [number, number] | null;
  basis: 'launches' | 'moderated' | 'rounds';
  df: number;
  /** the standard error of the ratio's log for the stop rule's precision ({@link precisionSe}); absent for one launch's rounds */
  se?: number;
  states: StatesReading;
}

/** The launches from which the stop rule's precision reads a case's own spread ({@link precisionSe}). */
const PRECISION_OWN_LAUNCHES = 4;

/** The one-sided level of the upper bound of a case's own launch variance the precision reads ({@link precisionSe}). */
const PRECISION_UPPER_LEVEL = 0.9;

/**
 * The standard error of a ratio's log that the stop rule's precision reads (run/stop-rule.ts
 * lacksPrecision): how far the centre moves from run to run. With at least
 * {@link PRECISION_OWN_LAUNCHES} launch ratios, the larger of the two-state mixture's (`mixSe`,
 * stats/intervals.ts mixtureInterval, where the launches were split into two states) and
 * √(s²_up/k), s²_up the {@link PRECISION_UPPER_LEVEL} upper confidence bound of the launch ratios'
 * own variance (stats/intervals.ts varianceUpperBound), which holds Δ²·p(1 − p) when two states lie
 * too close to split; with fewer, the interval's (`se`, from the variance moderated with the
 * group's and the run's, the only estimate with a few df). Why the bound: launches that happen to
 * agree (4 of 5 in one state) read a small s and stopped the case where its centre was furthest off
 * (simulated 6.4% apart, p = ½, 4,000 runs: the plain s/√k ≤ 1% gave a centre SD of 1.32% from 5
 * launches and 1.03% from 10; the 90% bound 1.07% and 0.86%, docs/intervals.md). Not the
 * interval's moderated variance once the case has launches of its own: a bimodal group's spread,
 * lent as the run's prior, would keep every quiet case of its run launching.
 */
function precisionSe(values: readonly number[], se: number, mixSe?: number): number {
  const logs = values.filter((v) => v > 0 && Number.isFinite(v)).map(Math.log);
  if (logs.length < PRECISION_OWN_LAUNCHES) return se;
  const up = varianceUpperBound(sampleVariance(logs), logs.length - 1, PRECISION_UPPER_LEVEL);
  return Math.max(Math.sqrt(up / logs.length), mixSe ?? 0);
}

/**
 * A paired case's ratio from its launches: the geometric mean of the launch ratios with its
 * interval on the log scale (stats/intervals.ts ratioInterval: t with launches − 1 degrees of
 * freedom, or with the group's spread); launch ratios that are not positive finite are left out.
 * Without an interval from the launches (`basis: 'rounds'`, which leaves out the launch-to-launch
 * variance and never resolves: stats/intervals.ts resolution): one launch and no spread (policy
 * quick), that launch's ratio (the median of its rounds' ratios) with the interval of its MAD-based
 * error (stats/intervals.ts medianRoundsInterval; on 16 quick runs of 2026-12-07 the rounds'
 * log t-interval about their geometric mean was 2.8–4× as wide and held the other runs' ratios no
 * more often, docs/intervals.md); otherwise (launch ratios that agree exactly with no within-launch
 * error) the geometric mean of the per-round ratios with their t-interval. When the launches fell into distinct states (stats/intervals.ts
 * launchStates against `others`, the group without the case; analysers/launch-states.ts says so):
 * with two, the interval also holds the mixture's (stats/intervals.ts mixtureInterval, the same
 * centre: each state by its share of the launches), with more, every launch ratio
 * ({@link withStates}).
 */
export function ratioOf(
  kept: readonly LaunchRecord[],
  confidence: number,
  spread?: GroupSpread,
  others?: StateSpread,
  run?: RunPrior,
): RatioReading | null {
  const launches = launchRatiosOf(kept).filter((l) => l.value > 0 && Number.isFinite(l.value));
  const rounds = kept.flatMap(roundRatios).filter((r) => r > 0 && Number.isFinite(r));
  if (!launches.length && !rounds.length) return null;
  const values = launches.map((l) => l.value);
  const iv = values.length
    ? ratioInterval(values, confidence, spread, withinVariance(launches.map((l) => l.se)), others, run)
    : null;
  let out: Omit<RatioReading, 'states'>;
  // one launch's rounds (policy quick): its ratio, the median of its rounds' ratios, as a launch's is everywhere
  const one =
    !iv && launches.length === 1 && kept.length === 1
      ? medianRoundsInterval(launches[0].value, launches[0].se, rounds.length, confidence)
      : null;
  if (iv) out = { ratio: iv.centre, interval: [iv.low, iv.high], basis: iv.basis, df: iv.df };
  else if (one) out = { ratio: launches[0].value, interval: one, basis: 'rounds', df: rounds.length - 1 };
  else
    out = {
      ratio: rounds.length ? Math.exp(meanOf(rounds.map(Math.log))) : Math.exp(meanOf(values.map(Math.log))),
      interval: roundsInterval(rounds, confidence, true),
      basis: 'rounds',
      df: Math.max(0, rounds.length - 1),
    };
  const covered = withStates(out.interval, iv?.se, launches, confidence, judgedSpread(others, run));
  const se = covered.se !== undefined ? precisionSe(values, covered.se, covered.mixSe) : undefined;
  return {
    ...out,
    interval: covered.interval,
    ...(se !== undefined ? { se } : {}),
    states: covered.states,
  };
}

/** A case's result with the launch states its assembly read (for the launch-states analyser). */
interface Assembled {
  result: CaseResult;
  states: { time?: StatesReading; ratio?: StatesReading };
  /** the standard error of the ratio's log ({@link RatioReading} `se`), for the stop rule's precision */
  ratioSe?: number;
}

/**
 * Turns a case's raw launches into its result: for a measured case, time statistics (timeStats),
 * the ratio with its log-scale interval ({@link ratioOf}), and allocation; for any case, its raw
 * samples (findings come after, in {@link assembleGroup}). `spreads` are what the other cases of
 * its group lend it ({@link groupSpreads}; without them, each interval is of the case's own launches
 * alone). A case the runner judged measured but with fewer than 2 time samples is `failed` (no
 * number is made up).
 */
export function assembleCase(rec: CaseRecord, policy: MeasurePolicy, spreads: CaseSpreads = {}): CaseResult {
  return assembleOne(rec, policy, spreads).result;
}

function assembleOne(rec: CaseRecord, policy: MeasurePolicy, spreads: CaseSpreads): Assembled {
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
  const states: Assembled['states'] = {};
  const timed =
    rec.end.status === 'measured'
      ? timeStats(kept, policy.confidence, spreads.time, spreads.timeOthers, spreads.timeRun)
      : null;
  if (rec.end.status !== 'measured') return { result: { ...header, ...cappedEnd(rec.end) }, states };
  if (!timed) return { result: { ...header, status: 'failed', reason: 'no time samples were recorded' }, states };
  states.time = timed.states;
  let ratio: number | null = null;
  let ratioError: number | null = null;
  let ratioInterval: [number, number] | null = null;
  let ratioBasis: 'launches' | 'moderated' | 'rounds' | undefined;
  let ratioDf: number | undefined;
  let difference: { value: number; low: number; high: number } | undefined;
  let ratioSe: number | undefined;
  if (p.baseline === p.serializer) {
    ratio = 1;
    ratioError = 0;
    ratioInterval = [1, 1];
  } else if (rec.paired && kept.length) {
    const r = ratioOf(kept, policy.confidence, spreads.ratio, spreads.ratioOthers, spreads.ratioRun);
    if (r) {
      states.ratio = r.states;
      ratio = r.ratio;
      ratioInterval = r.interval;
      ratioBasis = r.basis;
      ratioDf = r.interval ? r.df : undefined;
      ratioSe = r.interval ? r.se : undefined;
      // a ratio without an interval has no error either (results/validate.ts: both numbers, or both null)
      ratioError = r.interval ? Math.max(r.ratio - r.interval[0], r.interval[1] - r.ratio) : null;
      // the baseline's mean beside this serializer (its samples in the same rounds), ns/op: the
      // difference is (ratio − 1) × it, its interval the ratio's × it (the baseline mean's own
      // uncertainty left out: the ratio's is the one that decides)
      const beside = kept
        .map((l) => l.rounds.flatMap((x) => x.baselineNs))
        .filter((xs) => xs.length)
        .map(meanOf);
      if (beside.length && r.interval) {
        const b = meanOf(beside);
        difference = { value: (r.ratio - 1) * b, low: (r.interval[0] - 1) * b, high: (r.interval[1] - 1) * b };
      }
    }
  }
  const allocated = allocStats(rec.alloc);
  return {
    result: {
      ...header,
      status: 'measured',
      time: timed.time,
      ratio,
      ratioError,
      ratioInterval,
      ...(ratioBasis ? { ratioBasis } : {}),
      ...(ratioDf !== undefined && Number.isFinite(ratioDf) ? { ratioDf } : {}),
      ...(difference ? { difference } : {}),
      ...(allocated ? { allocated } : {}),
      allocRatio: null,
    },
    states,
    ...(ratioSe !== undefined ? { ratioSe } : {}),
  };
}

/** The launches a case's statistics come from: not discarded, with at least one round. */
function keptOf(rec: CaseRecord): LaunchRecord[] {
  return rec.launches.filter((l) => !l.discarded && l.rounds.length > 0);
}

/**
 * What one measure's launch values of a group's cases lend each case (`rows`: each case's launch
 * values, null or empty when it has none in this measure), by how the launches ran:
 * - No launch shared a process (the .NET worker; a group launched case by case): the others'
 *   launches are independent of the case's, so Smyth's `prior` from them, leave-one-out
 *   (stats/intervals.ts launchPrior, d₀ ≤ 4), floored at their within-launch variance.
 * - Launches shared (the JavaScript worker's group launch): for each case, the cases that ran in
 *   every launch it shared with any other, over those launches (its table; the latest launches are
 *   left out until at least 2 cases share at least 2 — the policy's launches are shared by the
 *   whole group, extra adaptive launches by the cases still unresolved), and the two-way estimate
 *   over that table (stats/intervals.ts sharedLaunchVariance, Satterthwaite df), floored at the
 *   cells' within-launch variance: a `shared` spread. A case with launches beyond its table's
 *   keeps its own variance when its own df exceed the table's (stats/intervals.ts caseVariance).
 *   A case that shared no launch (a config's serializer, launched alone) gets the group's widest
 *   table's estimate as a `prior` (its processes are independent of the table's), d₀ ≤ 4. A case
 *   that shared some launches but has no table (a launch retaken alone where only 2 were taken)
 *   gets nothing: its own variance.
 * The states spread of each case is the same estimate without the case (its table less its row;
 * the prior is leave-one-out already).
 */
function spreadsOf(
  rows: readonly (readonly LaunchValue[] | null)[],
  cap: number = PRIOR_DF_MAX,
): { spread?: GroupSpread; states?: StateSpread }[] {
  const count = new Map<string, number>();
  for (const r of rows) if (r) for (const k of new Set(r.map((x) => x.key))) count.set(k, (count.get(k) ?? 0) + 1);
  const sharedKeys = (r: readonly LaunchValue[]) => r.filter((x) => (count.get(x.key) ?? 0) >= 2).map((x) => x.key);
  const present = rows.map((_, i) => i).filter((i) => rows[i]?.length);
  const has = (i: number, key: string) => rows[i]!.some((x) => x.key === key);
  const twoWay = (members: readonly number[], keys: readonly string[]): StateSpread | undefined => {
    if (!members.length || keys.length < 2) return undefined;
    const cells = members.map((i) => keys.map((k) => rows[i]!.find((x) => x.key === k)!));
    const est = sharedLaunchVariance(cells.map((row) => row.map((x) => Math.log(x.value))));
    if (!est) return undefined;
    const variance = Math.max(est.variance, withinVariance(cells.flat().map((x) => x.se)));
    return variance > 0 ? { variance, df: est.df } : undefined;
  };
  if (!present.some((i) => sharedKeys(rows[i]!).length))
    return rows.map((r, i) => {
      if (!r?.length) return {};
      const others = present.filter((j) => j !== i).map((j) => rows[j]!);
      const prior = launchPrior(
        others.map((o) => o.map((x) => x.value)),
        withinVariance(others.flat().map((x) => x.se)),
        cap,
      );
      return prior ? { spread: prior, states: { variance: prior.variance, df: prior.df } } : {};
    });
  const tableOf = (i: number): { members: number[]; keys: string[] } | undefined => {
    for (let keys = sharedKeys(rows[i]!); keys.length >= 2; keys = keys.slice(0, -1)) {
      const members = present.filter((j) => keys.every((k) => has(j, k)));
      if (members.length >= 2) return { members, keys };
    }
    return undefined;
  };
  const tables = rows.map((r, i) => (r?.length ? tableOf(i) : undefined));
  const size = (t: { members: number[]; keys: string[] }) => t.members.length * (t.keys.length - 1);
  const widest = tables.reduce<(typeof tables)[number]>((w, t) => (t && (!w || size(t) > size(w)) ? t : w), undefined);
  return rows.map((r, i) => {
    if (!r?.length) return {};
    if (!sharedKeys(r).length) {
      const est = widest && twoWay(widest.members, widest.keys);
      return est ? { spread: { kind: 'prior', variance: est.variance, df: Math.min(cap, est.df) }, states: est } : {};
    }
    const t = tables[i];
    if (!t) return {};
    const est = twoWay(t.members, t.keys);
    const rest = t.members.filter((j) => j !== i);
    const yardstick = twoWay(rest, t.keys);
    const logsOf = (j: number) => t.keys.map((k) => Math.log(rows[j]!.find((x) => x.key === k)!.value));
    const guard = interactionGuard(logsOf(i), rest.map(logsOf));
    const states = yardstick && guard ? { ...yardstick, guard } : yardstick;
    return { ...(est ? { spread: { kind: 'shared', ...est } } : {}), ...(states ? { states } : {}) };
  });
}

/**
 * One measure's estimate of a group's launch-to-launch variance for the run's other groups
 * (stats/intervals.ts GroupEstimate; `rows` as {@link spreadsOf}): where launches were shared, the
 * two-way estimate over the widest table of cases × shared launches (every case that ran in the
 * group's first shared launches; Satterthwaite df, floored at the cells' within-launch variance),
 * weight its launches − 1; else (separate processes, or a single case) the cases' pooled variance
 * of the logs of their launch values, weight and df Σ (launches − 1), floored at their
 * within-launch variance. Undefined when no case has 2 launch values.
 */
function estimateOf(rows: readonly (readonly LaunchValue[] | null)[]): GroupEstimate | undefined {
  const present = rows.filter((r): r is readonly LaunchValue[] => Boolean(r?.length));
  const count = new Map<string, number>();
  for (const r of present) for (const k of new Set(r.map((x) => x.key))) count.set(k, (count.get(k) ?? 0) + 1);
  let best: { members: (readonly LaunchValue[])[]; keys: string[] } | undefined;
  for (const r of present) {
    for (let keys = r.filter((x) => (count.get(x.key) ?? 0) >= 2).map((x) => x.key); keys.length >= 2; keys.pop()) {
      const members = present.filter((o) => keys.every((k) => o.some((x) => x.key === k)));
      if (members.length >= 2) {
        if (!best || members.length * (keys.length - 1) > best.members.length * (best.keys.length - 1))
          best = { members, keys: [...keys] };
        break;
      }
    }
  }
  if (best) {
    const cells = best.members.map((row) => best.keys.map((k) => row.find((x) => x.key === k)!));
    const est = sharedLaunchVariance(cells.map((row) => row.map((x) => Math.log(x.value))));
    if (est) {
      const variance = Math.max(est.variance, withinVariance(cells.flat().map((x) => x.se)));
      return variance > 0 ? { variance, df: est.df, weight: best.keys.length - 1 } : undefined;
    }
  }
  const own = present.map((r) => r.filter((x) => x.value > 0 && Number.isFinite(x.value))).filter((r) => r.length >= 2);
  const df = own.reduce((n, r) => n + r.length - 1, 0);
  if (!df) return undefined;
  const pooled = own.reduce((n, r) => n + (r.length - 1) * sampleVariance(r.map((x) => Math.log(x.value))), 0) / df;
  const variance = Math.max(pooled, withinVariance(own.flat().map((x) => x.se)));
  return variance > 0 ? { variance, df, weight: df } : undefined;
}

/** Each case's launch values of a group, per measure (null where the case has none in it): times of the measured cases, ratios of the paired ones. */
function valuesOf(recs: readonly CaseRecord[]): {
  times: (LaunchValue[] | null)[];
  ratios: (LaunchValue[] | null)[];
} {
  const measured = recs.map((r) => r.end.status === 'measured');
  return {
    times: recs.map((r, i) => (measured[i] ? launchTimesOf(keptOf(r)) : null)),
    ratios: recs.map((r, i) =>
      measured[i] && r.paired && r.planned.baseline !== r.planned.serializer ? launchRatiosOf(keptOf(r)) : null,
    ),
  };
}

/**
 * A group's launch-to-launch variance as the run's other groups borrow it: its target and class,
 * and per measure its estimate ({@link estimateOf}). Its cases ran in processes of their own,
 * never in another group's, so it is independent of every other group's launch effects.
 */
export function groupLaunchSpread(recs: readonly CaseRecord[]): GroupLaunchSpread {
  const p = recs[0]?.planned;
  const { times, ratios } = valuesOf(recs);
  const time = estimateOf(times);
  const ratio = estimateOf(ratios);
  return {
    target: p?.target.id ?? '',
    caseClass: p?.caseClass ?? '',
    ...(time ? { time } : {}),
    ...(ratio ? { ratio } : {}),
  };
}

/**
 * What a group borrows from `others`, the run's other groups (leave-the-group-out: the caller
 * never passes the group itself), per measure: Smyth's prior pooled from the groups of the same
 * target (another runtime's launches spread otherwise), respecting its class (stats/intervals.ts
 * classPooledPrior: its class's groups alone when they give {@link PRIOR_DF_MAX} launch contrasts,
 * else with the other classes' groups weighted by how well the classes agree — a serializer's
 * ratio spreads about twice as far as a parser's), d₀ ≤ {@link PRIOR_DF_MAX}. Empty without other
 * groups of the target.
 */
export function runPriorsFor(
  self: Pick<GroupLaunchSpread, 'target' | 'caseClass'>,
  others: readonly GroupLaunchSpread[],
): RunPriors {
  const prior = (measure: 'time' | 'ratio') => {
    const target = others.filter((o) => o.target === self.target && o[measure]);
    return classPooledPrior(
      target.filter((o) => o.caseClass === self.caseClass).map((o) => o[measure]!),
      target.filter((o) => o.caseClass !== self.caseClass).map((o) => o[measure]!),
      undefined,
      PRIOR_DF_MAX_BY_MEASURE[measure],
    );
  };
  const time = prior('time');
  const ratio = prior('ratio');
  return { ...(time ? { time } : {}), ...(ratio ? { ratio } : {}) };
}

/**
 * Whether `others` already give a group its full prior: groups of its target and class with at
 * least {@link PRIOR_DF_MAX} launch contrasts of time (the pool {@link runPriorsFor} prefers, d₀ at
 * its cap). The runner assembles a group (and prints, records and writes it) once this holds or
 * every group has run (run/scheduler.ts), so a group early in the plan borrows from the groups
 * after it as much as a later one does. Not the target's groups alone: a prior pooled early from a
 * few groups of other classes (a parser's launches spread about half as far as a serializer's) let
 * the F screen keep 1-df variances on re-assembled default runs (p90 ratio half-width ±13% → ±484%).
 * The cost: a run whose classes have few groups (the default suite: 3 a class, 1 contrast each)
 * prints its tables at its end.
 */
export function priorsComplete(
  self: Pick<GroupLaunchSpread, 'target' | 'caseClass'>,
  others: readonly GroupLaunchSpread[],
): boolean {
  return (
    others
      .filter((o) => o.target === self.target && o.caseClass === self.caseClass && o.time)
      .reduce((n, o) => n + o.time!.weight, 0) >= PRIOR_DF_MAX
  );
}

/**
 * The prior each group of a run gets when its groups run one at a time in this order, as
 * run/scheduler.ts lends it: group g is assembled once the groups done (those up to the first t ≥ g
 * where {@link priorsComplete} holds, else all of them) lend it its full prior, and borrows from
 * those, itself left out ({@link runPriorsFor}). For re-assembling a recorded run as the runner
 * would (bench/coverage.ts) and for tests.
 * @param spreads each group's spread ({@link groupLaunchSpread}), in the order the groups ran
 */
export function runPriorsInOrder(spreads: readonly GroupLaunchSpread[]): RunPriors[] {
  return spreads.map((self, g) => {
    let done = spreads.length;
    for (let t = g; t < spreads.length; t++)
      if (
        priorsComplete(
          self,
          spreads.slice(0, t + 1).filter((_, h) => h !== g),
        )
      ) {
        done = t + 1;
        break;
      }
    return runPriorsFor(
      self,
      spreads.slice(0, done).filter((_, h) => h !== g),
    );
  });
}

/**
 * What each case of a group gets from the group's other measured cases ({@link CaseSpreads}): for
 * time, from every measured case's launch means; for the ratio, from every paired case's launch
 * ratios (the baseline's own case, ratio 1, says nothing). How, by whether the launches shared
 * processes: {@link spreadsOf}. With `run`, the run's other groups' prior ({@link runPriorsFor})
 * is added to every case's.
 */
export function groupSpreads(recs: readonly CaseRecord[], run: RunPriors = {}): CaseSpreads[] {
  const values = valuesOf(recs);
  const times = spreadsOf(values.times, PRIOR_DF_MAX_BY_MEASURE.time);
  const ratios = spreadsOf(values.ratios, PRIOR_DF_MAX_BY_MEASURE.ratio);
  return recs.map((_, i) => ({
    ...(times[i].spread ? { time: times[i].spread } : {}),
    ...(ratios[i].spread ? { ratio: ratios[i].spread } : {}),
    ...(times[i].states ? { timeOthers: times[i].states } : {}),
    ...(ratios[i].states ? { ratioOthers: ratios[i].states } : {}),
    ...(run.time ? { timeRun: run.time } : {}),
    ...(run.ratio ? { ratioRun: run.ratio } : {}),
  }));
}

/**
 * The launch-to-launch variance each case's launches are judged against, per measure
 * (stats/intervals.ts judgedSpread: its group without it, moderated with the run's prior): the
 * yardstick of the launch states, of the `noisy` analyser's "launches disagree" and of the stop
 * rule's needsAnotherLaunch.
 */
export function groupYardsticks(
  recs: readonly CaseRecord[],
  run: RunPriors = {},
): { time?: StateSpread; ratio?: StateSpread }[] {
  return groupSpreads(recs, run).map((s) => {
    const time = judgedSpread(s.timeOthers, s.timeRun);
    const ratio = judgedSpread(s.ratioOthers, s.ratioRun);
    return { ...(time ? { time } : {}), ...(ratio ? { ratio } : {}) };
  });
}

/**
 * The ratio interval and basis each case of a group reports from the launches it has now, null
 * for a case without a ratio: the same assembly as {@link assembleGroup} (the group's spreads from
 * the current launches included), so the stop rule (run/stop-rule.ts) judges exactly what
 * results.json will carry.
 */
export function groupRatios(
  recs: readonly CaseRecord[],
  policy: MeasurePolicy,
  run: RunPriors = {},
): ({ interval: [number, number] | null; basis?: 'launches' | 'moderated' | 'rounds'; se?: number } | null)[] {
  const spreads = groupSpreads(recs, run);
  return recs.map((r, i) => {
    const a = assembleOne(r, policy, spreads[i]);
    const c = a.result;
    if (c.status !== 'measured' || c.ratio === null || c.serializer === c.baseline) return null;
    return {
      interval: c.ratioInterval ?? null,
      ...(c.ratioBasis ? { basis: c.ratioBasis } : {}),
      ...(a.ratioSe !== undefined ? { se: a.ratioSe } : {}),
    };
  });
}

/**
 * Assembles the cases of one group ({@link assembleCase}, each with what its group lends it,
 * {@link groupSpreads}, with the run's other groups' prior `run`), fills their allocation ratios,
 * then runs the analysers (src/analysers/) on each with the group's assembled baseline case, the
 * launch states its assembly read and the spread its launches are judged against.
 */
export function assembleGroup(recs: readonly CaseRecord[], policy: MeasurePolicy, run: RunPriors = {}): CaseResult[] {
  const spreads = groupSpreads(recs, run);
  const assembled = recs.map((r, i) => assembleOne(r, policy, spreads[i]));
  const out = assembled.map((a) => a.result);
  fillAllocRatios(out);
  out.forEach((c, i) => {
    const baseline = out.find((b) => b.serializer === c.baseline && b.target.id === c.target.id);
    const s = spreads[i];
    const time = judgedSpread(s.timeOthers, s.timeRun);
    const ratio = judgedSpread(s.ratioOthers, s.ratioRun);
    c.findings = analyseCase(c, {
      policy,
      launchStates: assembled[i].states,
      launchSpread: { ...(time ? { time } : {}), ...(ratio ? { ratio } : {}) },
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
