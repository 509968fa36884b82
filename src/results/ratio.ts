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
