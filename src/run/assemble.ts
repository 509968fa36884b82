import type { PlannedCase } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import type { AllocStats, CaseHeader, CaseResult, LaunchRecord, MismatchRecord, TimeStats } from '../results/types.js';
import { estimate, meanOf, medianOf, confidenceHalfWidth, logRatioInterval } from '../stats/estimate.js';
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

/**
 * The ratio interval widened to cover every launch's own ratio (the median of its per-round
 * ratios). The interval of the pooled per-round ratios narrows with every round, but launches of one
 * case differ by more than their rounds do (a process's JIT and heap, the machine's speed state:
 * README, "Stop on what is reported" and "Clock"): a new-user tryout (2026-12-02, load 8–17) found
 * 11 of 25 cases with the machine-drift finding reporting an interval that left out one of their own
 * launches (typia users/100 serialize 0.58 [0.50–0.66] from launches at 0.485 and 0.770). So the
 * reported interval is never narrower than the launches measured; the takeaways then call a
 * difference only when it holds in every launch. Null stays null (no interval from fewer than 2
 * round ratios).
 */
export function coverLaunches(
  interval: [number, number] | null,
  launchRatios: readonly number[],
): [number, number] | null {
  const finite = launchRatios.filter((r) => r > 0 && Number.isFinite(r));
  if (!interval || !finite.length) return interval;
  return [Math.min(interval[0], ...finite), Math.max(interval[1], ...finite)];
}

/**
 * Time statistics of the kept launches (median across launches of each launch's mean and median;
 * error from the pooled samples), by the launches' clock (`cpu` when every kept launch read the
 * process CPU clock, with the wall-time mean beside it); null with fewer than 2 samples.
 */
function timeStats(kept: readonly LaunchRecord[], confidence: number): TimeStats | null {
  const pooled = kept.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
  if (pooled.length < 2) return null;
  const est = estimate(pooled, confidence);
  const launchMeans = kept.map((l) => meanOf(l.rounds.flatMap((r) => r.serializerNs)));
  // the clock of the kept launches (all the same in one run: the target's); wall means beside CPU ones
  const clock = kept.every((l) => l.clock === 'cpu') ? 'cpu' : 'wall';
  const wallMeans =
    clock === 'cpu'
      ? kept
          .map((l) => l.rounds.flatMap((r) => r.serializerWallNs ?? []))
          .filter((xs) => xs.length)
          .map(meanOf)
      : [];
  return {
    mean: medianOf(launchMeans),
    median: medianOf(kept.map((l) => medianOf(l.rounds.flatMap((r) => r.serializerNs)))),
    error: est.error,
    stddev: est.stddev,
    min: est.min,
    max: est.max,
    unit: 'ns/op',
    n: est.n,
    outliers: est.outliers,
    launchSpread: (Math.max(...launchMeans) - Math.min(...launchMeans)) / medianOf(launchMeans),
    clock,
    ...(wallMeans.length ? { wallMean: medianOf(wallMeans) } : {}),
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
 * Turns a case's raw launches into its result: for a measured case, time statistics, the ratio
 * (median across launches of each launch's median per-round ratio) with its error and its
 * log-scale interval, and
 * allocation; for any case, its raw samples (findings come after, in {@link assembleGroup}). A case
 * the runner judged measured but with fewer than 2 time samples is `failed` (no number is made up).
 */
export function assembleCase(rec: CaseRecord, policy: MeasurePolicy): CaseResult {
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
  const kept = rec.launches.filter((l) => !l.discarded && l.rounds.length > 0);
  let result: CaseResult;
  const time = rec.end.status === 'measured' ? timeStats(kept, policy.confidence) : null;
  if (rec.end.status !== 'measured') result = { ...header, ...cappedEnd(rec.end) };
  else if (!time) result = { ...header, status: 'failed', reason: 'no time samples were recorded' };
  else {
    let ratio: number | null = null;
    let ratioError: number | null = null;
    let ratioInterval: [number, number] | null = null;
    if (p.baseline === p.serializer) {
      ratio = 1;
      ratioError = 0;
      ratioInterval = [1, 1];
    } else if (rec.paired && kept.length) {
      const perLaunch = kept.map(roundRatios).filter((xs) => xs.length > 0);
      const all = perLaunch.flat();
      const launchRatios = perLaunch.map((xs) => medianOf(xs));
      ratio = launchRatios.length ? medianOf(launchRatios) : null;
      ratioError = all.length >= 2 ? confidenceHalfWidth(all, policy.confidence) : null;
      ratioInterval =
        ratio === null ? null : coverLaunches(logRatioInterval(all, ratio, policy.confidence), launchRatios);
    }
    const allocated = allocStats(rec.alloc);
    result = {
      ...header,
      status: 'measured',
      time,
      ratio,
      ratioError,
      ratioInterval,
      ...(allocated ? { allocated } : {}),
      allocRatio: null,
    };
  }
  return result;
}

/**
 * Assembles the cases of one group ({@link assembleCase}), fills their allocation ratios, then
 * runs the analysers (src/analysers/) on each with the group's assembled baseline case.
 */
export function assembleGroup(recs: readonly CaseRecord[], policy: MeasurePolicy): CaseResult[] {
  const out = recs.map((r) => assembleCase(r, policy));
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
