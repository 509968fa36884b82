import type { CaseResult } from './types.js';

/**
 * A measured case's ratio interval `[low, high]` on the log scale, as every report shows it: the
 * recorded `ratioInterval`, or for a file written before it existed, one derived from `ratioError`
 * by the delta method (the log's half-width is about error ÷ ratio, so `[r·e^−e/r, r·e^e/r]`):
 * never below 0, asymmetric like the recorded one. Null when the case has no ratio or no error.
 */
export function ratioIntervalOf(
  c: Pick<CaseResult, 'ratio' | 'ratioError' | 'ratioInterval'>,
): [number, number] | null {
  if (c.ratioInterval !== undefined) return c.ratioInterval;
  const r = c.ratio;
  const e = c.ratioError;
  if (r === null || r === undefined || !(r > 0) || e === null || e === undefined || !Number.isFinite(e)) return null;
  const h = e / r;
  return [r * Math.exp(-h), r * Math.exp(h)];
}

/**
 * A measured case's time interval `[low, high]` (ns/op), as reports show it: the recorded
 * `interval` (log scale, asymmetric; since branch `stats5`, where `error` is mean × its larger log
 * half-width), or for a file written before it, the linear [mean − error, mean + error] (cut at 0)
 * that `error` meant then. Null when the mean or the error is not finite.
 */
export function timeIntervalOf(t: {
  mean: number;
  error: number;
  interval?: [number, number];
}): [number, number] | null {
  if (t.interval) return t.interval;
  if (!Number.isFinite(t.mean) || !Number.isFinite(t.error)) return null;
  return [Math.max(0, t.mean - t.error), t.mean + t.error];
}

/** A time as {@link meansQuotientInterval} reads it: its mean and interval (results.json TimeStats). */
type TimeReading = { mean: number; error: number; interval?: [number, number] };

/**
 * The interval of the means' quotient (this case's mean ÷ its baseline's) from the two means' own
 * intervals, each end as recorded ({@link timeIntervalOf}: log scale and asymmetric since branch
 * `stats5`; a file written before, mean ± error): on the log scale, with d⁻ = ln(mean/low) and
 * d⁺ = ln(high/mean) each mean's distances to its ends, the quotient q = m_c/m_b reaches
 * ln q − √(d⁻_c² + d⁺_b²) below and ln q + √(d⁺_c² + d⁻_b²) above: the MOVER (method of variance
 * estimates recovery) limits of a difference of two independent estimates from their own
 * confidence limits (G. Y. Zou & A. Donner, "Construction of confidence limits about effect
 * measures: a general approach", Statistics in Medicine 27(10), 2008, 1693–1702, eq. 4), which for
 * symmetric ends is the delta method's ln q ± √(h_c² + h_b²) (Casella & Berger, "Statistical
 * Inference", 2nd ed., §5.5.4; compare/change.ts `percentChangeInterval`). It reads the ends, not
 * Error ÷ Mean (the larger log half-width, both ways: the third statistical review, sr4). An end at
 * 0 (an older file's mean − error cut at 0) gives a lower end of 0. Null when a mean is not
 * positive or a time has no interval.
 * @returns [low, high], unitless (× the baseline's mean)
 */
export function meansQuotientInterval(time: TimeReading, base: TimeReading): [number, number] | null {
  if (!(time.mean > 0) || !(base.mean > 0)) return null;
  const ic = timeIntervalOf(time);
  const ib = timeIntervalOf(base);
  if (!ic || !ib) return null;
  const q = time.mean / base.mean;
  // distances of each mean to its ends on the log scale (never below 0: an end on the wrong side reads as the mean)
  const below = (m: number, low: number) => (low > 0 ? Math.max(0, Math.log(m / low)) : Infinity);
  const above = (m: number, high: number) => (Number.isFinite(high) ? Math.max(0, Math.log(high / m)) : Infinity);
  const down = Math.hypot(below(time.mean, ic[0]), above(base.mean, ib[1]));
  const up = Math.hypot(above(time.mean, ic[1]), below(base.mean, ib[0]));
  return [q * Math.exp(-down), q * Math.exp(up)];
}
