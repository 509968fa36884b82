import { mean, median, sampleStandardDeviation, min, max, quantileSorted } from 'simple-statistics';
import jstatModule from 'jstat';

// jstat is CommonJS; its default export is the jStat object.
const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

/**
 * Summary statistics of a set of samples (any unit; the lab uses ns/op). Means, medians and
 * standard deviations come from simple-statistics; the Student-t quantile from jStat.
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
  return tCritical(confidence, samples.length - 1) * sampleStandardDeviation([...samples]) / Math.sqrt(samples.length);
}

/** Error as a fraction of the mean (0.02 = 2%). */
export function relativeError(samples: readonly number[], confidence: number): number {
  const m = mean([...samples]);
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
    mean: mean(xs),
    median: median(xs),
    stddev: xs.length > 1 ? sampleStandardDeviation(xs) : 0,
    error: xs.length > 1 ? confidenceHalfWidth(xs, confidence) : Infinity,
    confidence,
    min: min(xs),
    max: max(xs),
    outliers: {
      low: sorted.filter((x) => x < q1 - 1.5 * iqr).length,
      high: sorted.filter((x) => x > q3 + 1.5 * iqr).length,
    },
  };
}

/** Median of numbers (simple-statistics). @throws on an empty list. */
export function medianOf(xs: readonly number[]): number {
  return median([...xs]);
}

/** Arithmetic mean (simple-statistics). @throws on an empty list. */
export function meanOf(xs: readonly number[]): number {
  return mean([...xs]);
}
