import type { AllocStats, CaseResult } from './types.js';

/**
 * How far a case's allocation windows may spread and its figure still be one number: 1% of their
 * median ((max − min) ÷ median). GC-corrected heap accounting counts the bytes of each window, so a
 * steady serializer's windows agree to a few hundredths of a percent (json's serialize here:
 * 1165.80, 1165.88, 1166.07 B/op); zod's deserialize read 3,663, 2,662 and 3,664 B/op (a new-user
 * tryout), the work of its op changing between windows. Past this spread the figure is reported as
 * its windows' range, never as one exact number.
 */
export const ALLOC_WINDOWS_AGREE = 0.01;

/**
 * The range [lowest, highest] of a figure's allocation windows (bytes/op) when they disagree beyond
 * {@link ALLOC_WINDOWS_AGREE}; null when they agree, or when there is no figure (`n/a`).
 */
export function allocWindowRange(a: AllocStats | undefined): [number, number] | null {
  if (!a || a.method === 'n/a' || !a.windows?.length || !(a.mean > 0)) return null;
  const lo = Math.min(...a.windows);
  const hi = Math.max(...a.windows);
  return (hi - lo) / a.mean > ALLOC_WINDOWS_AGREE ? [lo, hi] : null;
}

/**
 * The range of a case's allocation ratio that its windows and its baseline's support: [lowest ÷
 * baseline's highest, highest ÷ baseline's lowest]; null when both figures' windows agree, or
 * when the case has no allocation ratio, or is the baseline itself (its ratio is 1 by definition).
 */
export function allocRatioRange(c: CaseResult, baseline: CaseResult | undefined): [number, number] | null {
  if (
    c.status !== 'measured' ||
    c.allocRatio === null ||
    c.allocRatio === undefined ||
    !baseline ||
    baseline.status !== 'measured' ||
    baseline === c ||
    baseline.serializer === c.serializer
  )
    return null;
  const mine = allocWindowRange(c.allocated);
  const theirs = allocWindowRange(baseline.allocated);
  if (!mine && !theirs) return null;
  const m = mine ?? [c.allocated!.mean!, c.allocated!.mean!];
  const t = theirs ?? [baseline.allocated!.mean!, baseline.allocated!.mean!];
  return t[0] > 0 ? [m[0] / t[1], m[1] / t[0]] : null;
}
