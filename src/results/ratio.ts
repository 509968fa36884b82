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

/**
 * The interval of the means' quotient (this case's mean ÷ its baseline's) from the two means' own
 * errors: on the log scale, ln(m_c/m_b) ± √((e_c/m_c)² + (e_b/m_b)²), e the half-width of each
 * mean's confidence interval at the run's level (TimeStats `error`), as the delta method gives for
 * a quotient of two independent means (Casella & Berger, "Statistical Inference", 2nd ed., §5.5.4;
 * the same method as compare/change.ts `percentChangeInterval`). Null when a mean is not positive.
 * @returns [low, high], unitless (× the baseline's mean)
 */
export function meansQuotientInterval(
  mean: number,
  error: number,
  baseMean: number,
  baseError: number,
): [number, number] | null {
  if (!(mean > 0) || !(baseMean > 0)) return null;
  const q = mean / baseMean;
  const h = Math.hypot(error / mean, baseError / baseMean);
  if (!Number.isFinite(h)) return [0, Infinity];
  return [q * Math.exp(-h), q * Math.exp(h)];
}
