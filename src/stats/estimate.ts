import jstatModule from 'jstat';
import { medianOf } from './median.js';

export { medianOf, medianRelativeError } from './median.js';

// jstat is CommonJS; its default export is the jStat object.
const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

/**
 * Summary statistics of a set of samples (any unit; the lab uses ns/op). Medians (stats/median.ts, computed as jStat.median does) and the Student-t
 * quantile from jStat; means and variances are computed here with compensated summation
 * (jStat's plain sums lose the last digits NIST's accuracy data sets check); quartiles from
 * {@link quantileSorted}.
 */
export interface Estimate {
  n: number;
  mean: number;
  median: number;
  stddev: number;
  /** Half-width of the confidence interval of the mean at `confidence` (Student t, n − 1 dof). */
  error: number;
  confidence: number;
  min: number;
  max: number;
  /** Samples outside Tukey's fences (Q1 − 1.5·IQR, Q3 + 1.5·IQR), as BenchmarkDotNet reports them; kept in every statistic, only counted. */
  outliers: { low: number; high: number };
}

/**
 * Two-sided Student-t critical value for a confidence level (0.999 → t such that P(|T|<t) = 0.999).
 * Source: the t-interval for a mean, e.g. NIST/SEMATECH e-Handbook §7.2.2.1.
 */
export function tCritical(confidence: number, dof: number): number {
  if (dof < 1) return Infinity;
  return jStat.studentt.inv(1 - (1 - confidence) / 2, dof);
}

/** Half-width of the CI of the mean: t · s / √n. Infinity with fewer than 2 samples. */
export function confidenceHalfWidth(samples: readonly number[], confidence: number): number {
  if (samples.length < 2) return Infinity;
  return (tCritical(confidence, samples.length - 1) * sampleStandardDeviation(samples)) / Math.sqrt(samples.length);
}

/** Error as a fraction of the mean (0.02 = 2%). */
export function relativeError(samples: readonly number[], confidence: number): number {
  const m = meanOf(samples);
  return confidenceHalfWidth(samples, confidence) / Math.abs(m);
}

/**
 * Summarises samples. @throws Error when `samples` is empty.
 */
export function estimate(samples: readonly number[], confidence: number): Estimate {
  if (samples.length === 0) throw new Error('estimate: no samples');
  const xs = [...samples];
  const sorted = [...samples].sort((a, b) => a - b);
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  const iqr = q3 - q1;
  return {
    n: xs.length,
    mean: meanOf(xs),
    median: medianOf(xs),
    stddev: xs.length > 1 ? sampleStandardDeviation(xs) : 0,
    error: xs.length > 1 ? confidenceHalfWidth(xs, confidence) : Infinity,
    confidence,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    outliers: {
      low: sorted.filter((x) => x < q1 - 1.5 * iqr).length,
      high: sorted.filter((x) => x > q3 + 1.5 * iqr).length,
    },
  };
}

/**
 * Arithmetic mean by compensated summation (Neumaier's improvement of Kahan summation, A.
 * Neumaier 1974), so a mean of many large, nearly equal values (NIST StRD NumAcc4: 1e7 + 0.1 …)
 * keeps its last digits; a plain running sum loses them. @throws Error on an empty list.
 */
export function meanOf(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('meanOf: no values');
  let sum = 0;
  let compensation = 0;
  for (const x of xs) {
    const t = sum + x;
    compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  return (sum + compensation) / xs.length;
}

/**
 * Sample variance (n − 1 in the denominator) by the corrected two-pass algorithm (Chan, Golub &
 * LeVeque 1983): Σ(x − m)² less the rounding term (Σ(x − m))²/n, with m the compensated mean.
 * @throws Error with fewer than 2 values.
 */
export function sampleVariance(xs: readonly number[]): number {
  if (xs.length < 2) throw new Error('sampleVariance: needs at least 2 values');
  const m = meanOf(xs);
  let squares = 0;
  let deviations = 0;
  for (const x of xs) {
    const d = x - m;
    squares += d * d;
    deviations += d;
  }
  return (squares - (deviations * deviations) / xs.length) / (xs.length - 1);
}

/** Sample standard deviation, n − 1 in the denominator (jStat). @throws Error with fewer than 2 values. */
export function sampleStandardDeviation(xs: readonly number[]): number {
  return Math.sqrt(sampleVariance(xs));
}

/**
 * The p-quantile of ascending `sorted` values by the "inverse of the empirical distribution with
 * averaging at discontinuities" (Hyndman & Fan 1996, definition 2; R's `quantile(type = 2)`): with
 * np an integer, the mean of the np-th and (np+1)-th values, else the ⌈np⌉-th. Tukey's fences and
 * the compare command's fastest decile use it (it is what simple-statistics' quantileSorted
 * computes, which the lab used before). @throws Error on an empty list or p outside [0, 1].
 */
export function quantileSorted(sorted: readonly number[], p: number): number {
  const n = sorted.length;
  if (n === 0 || !(p >= 0 && p <= 1)) throw new Error('quantileSorted: needs values and 0 ≤ p ≤ 1');
  if (p === 0) return sorted[0];
  if (p === 1) return sorted[n - 1];
  const np = n * p;
  if (np % 1 !== 0) return sorted[Math.ceil(np) - 1];
  return (sorted[np - 1] + sorted[np]) / 2;
}

/**
 * The confidence interval of a ratio on the log scale, around `center` (the reported ratio): with
 * h the CI half-width of the mean of the ratios' natural logs, `[center·e^−h, center·e^h]`. Ratios
 * multiply, so their spread is symmetric in log space, not in linear space: the interval is
 * asymmetric and never reaches 0 (a symmetric `0.45 ± 1.33` would). Source: the usual log
 * transform for ratio estimates (e.g. Altman & Bland, "How to obtain the confidence interval from
 * a P value", BMJ 2011, for ratio measures). Null with fewer than 2 ratios or a ratio ≤ 0.
 */
export function logRatioInterval(
  ratios: readonly number[],
  center: number,
  confidence: number,
): [number, number] | null {
  if (ratios.length < 2 || !(center > 0) || ratios.some((r) => !(r > 0) || !Number.isFinite(r))) return null;
  const h = confidenceHalfWidth(ratios.map(Math.log), confidence);
  return Number.isFinite(h) ? [center * Math.exp(-h), center * Math.exp(h)] : null;
}

/**
 * Whether two launches' estimates (e.g. ratios) disagree beyond their intervals: |ln a − ln b| >
 * z · √(seA² + seB²), with relative standard errors seA, seB ({@link medianRelativeError}) and z the
 * two-sided normal quantile of `confidence`. An infinite error never disagrees.
 */
export function launchesDisagree(a: number, seA: number, b: number, seB: number, confidence: number): boolean {
  if (!(a > 0 && b > 0) || !Number.isFinite(seA) || !Number.isFinite(seB)) return false;
  const z = jStat.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  return Math.abs(Math.log(a) - Math.log(b)) > z * Math.sqrt(seA * seA + seB * seB);
}
