import type { PlannedCase } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import type { AllocStats, CaseResult, CaseStatus, Finding, LaunchRecord, MismatchRecord, TimeStats } from './types.js';
import { estimate, meanOf, medianOf, confidenceHalfWidth } from '../stats/estimate.js';

/** Everything the host gathered for one case before its statistics are computed. */
export interface CaseRecord {
  planned: PlannedCase;
  payload: PayloadFile;
  launches: LaunchRecord[];
  relaunches: number;
  status: CaseStatus;
  reason?: string;
  mismatch?: MismatchRecord;
  alloc?: { windowsBytesPerOp: number[]; gcPerOp: number; method?: AllocStats['method']; how?: string };
  findings: Finding[];
  /** paired with its baseline in every kept launch */
  paired: boolean;
}

/** A case is "too fast to be real" when its mean is under this many times the empty op's (a DCE symptom). */
export const TOO_FAST_FACTOR = 3;

/**
 * Per-round ratio: median of the serializer's samples / median of the baseline's, in one round.
 * Medians, because on a shared 2-core machine a sample preempted by another process reads up to
 * several times too long; the median of a round's samples ignores such a sample on either side
 * (seen here: per-round ratios of mean/mean ranged 0.09–1.05 under a load average of 5, where
 * the quiet machine gave 0.37 ± 0.02).
 */
export function roundRatios(launch: LaunchRecord): number[] {
  return launch.rounds.filter((r) => r.baselineNs.length && r.serializerNs.length).map((r) => medianOf(r.serializerNs) / medianOf(r.baselineNs));
}

/**
 * Turns a case's raw launches into its result: time statistics (median across launches of each
 * launch's mean and median; error from the pooled samples), the ratio (median across launches of
 * each launch's median per-round ratio) with its error, allocation, and findings.
 */
export function assembleCase(rec: CaseRecord, confidence: number): CaseResult {
  const p = rec.planned;
  const kept = rec.launches.filter((l) => !l.discarded && l.rounds.length > 0);
  const findings = [...rec.findings];
  const result: CaseResult = {
    id: p.id, ...(p.target ? { target: p.target } : {}), workload: p.workload, size: p.size, shape: p.shape, serializer: p.serializer,
    serializerVersion: p.serializerVersion, family: p.family, direction: p.direction, class: p.caseClass,
    baseline: p.baseline, status: rec.status,
    ...(rec.reason ? { reason: rec.reason } : {}),
    ...(rec.mismatch ? { mismatch: rec.mismatch } : {}),
    ...(p.code ? { code: p.code } : {}),
    payload: { bytes: rec.payload.bytes, sha256: rec.payload.sha256 },
    findings,
    samples: { launches: rec.launches, relaunches: rec.relaunches },
  };
  const pooled = kept.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
  if (pooled.length >= 2) {
    const est = estimate(pooled, confidence);
    const launchMeans = kept.map((l) => meanOf(l.rounds.flatMap((r) => r.serializerNs)));
    const time: TimeStats = {
      mean: medianOf(launchMeans),
      median: medianOf(kept.map((l) => medianOf(l.rounds.flatMap((r) => r.serializerNs)))),
      error: est.error, stddev: est.stddev, min: est.min, max: est.max, unit: 'ns/op', n: est.n,
      outliers: est.outliers,
      launchSpread: (Math.max(...launchMeans) - Math.min(...launchMeans)) / medianOf(launchMeans),
    };
    result.time = time;
    if (kept.some((l) => l.noisy)) findings.push({ code: 'noisy', message: `${kept.filter((l) => l.noisy).length} of ${kept.length} launch(es) reached the time cap before the error target; error of all samples together: ${(100 * est.error / est.mean).toFixed(1)}% of the mean` });
    const emptyNs = Math.min(...kept.map((l) => l.emptyNsPerOp));
    if (time.mean < TOO_FAST_FACTOR * emptyNs) findings.push({ code: 'too-fast', message: `mean ${time.mean.toFixed(1)} ns/op is under ${TOO_FAST_FACTOR}× an empty op (${emptyNs.toFixed(1)} ns/op): the work may have been optimised away` });
    const out = est.outliers.low + est.outliers.high;
    if (out > 0) findings.push({ code: 'outliers', message: `${out} of ${est.n} samples outside Tukey's fences (${est.outliers.low} low, ${est.outliers.high} high); kept in every statistic` });
  }
  if (rec.relaunches > 0) findings.push({ code: 'relaunched', message: `${rec.relaunches} launch(es) repeated because the baseline ran over the relaunch threshold: ${rec.launches.filter((l) => l.discarded).map((l) => l.discarded).join('; ')}` });
  if (p.baseline === p.serializer) {
    if (result.time) { result.ratio = 1; result.ratioError = 0; }
  } else if (rec.paired && kept.length) {
    const perLaunch = kept.map(roundRatios).filter((xs) => xs.length > 0);
    const all = perLaunch.flat();
    result.ratio = perLaunch.length ? medianOf(perLaunch.map((xs) => medianOf(xs))) : null;
    result.ratioError = all.length >= 2 ? confidenceHalfWidth(all, confidence) : null;
  } else {
    result.ratio = null; result.ratioError = null;
  }
  const method = rec.alloc?.method ?? 'exact';
  if (rec.alloc && method === 'n/a') {
    result.allocated = { mean: 0, unit: 'bytes/op', gcPerOp: 0, windows: [], method, ...(rec.alloc.how ? { note: rec.alloc.how } : {}) };
  } else if (rec.alloc && rec.alloc.windowsBytesPerOp.length) {
    const alloc: AllocStats = { mean: medianOf(rec.alloc.windowsBytesPerOp), unit: 'bytes/op', gcPerOp: rec.alloc.gcPerOp, windows: rec.alloc.windowsBytesPerOp, method, ...(method !== 'exact' && rec.alloc.how ? { note: rec.alloc.how } : {}) };
    result.allocated = alloc;
  }
  return result;
}

/** Fills `allocRatio` of each measured case of a group from its baseline's allocation. */
export function fillAllocRatios(group: CaseResult[]): void {
  for (const c of group) {
    const base = group.find((b) => b.serializer === c.baseline && b.status === 'measured');
    const comparable = c.allocated && base?.allocated && c.allocated.method !== 'n/a' && c.allocated.method === base.allocated.method;
    c.allocRatio = c.status === 'measured' && comparable && base!.allocated!.mean > 0 ? c.allocated!.mean / base!.allocated!.mean : null;
  }
}
