/**
 * The median and its MAD-based relative standard error, without jStat: the measuring worker's stop
 * rule (measure/timing.ts) needs only these, and importing jStat cost every worker process 80–260 ms
 * of start-up on a loaded 2-core machine. stats/estimate.ts re-exports both.
 */

/**
 * Median of numbers: the middle of an ascending copy, or the mean of the two middles (as
 * jStat.median computes it). @throws Error on an empty list.
 */
export function medianOf(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('medianOf: no values');
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n & 1 ? s[(n / 2) | 0] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/**
 * Relative standard error of a median from its samples' median absolute deviation:
 * 1.4826 · MAD (a normal SD) · 1.2533 (the median's efficiency, √(π/2)) / √n, divided by the median.
 * Robust to a preempted sample or round, which a t-interval is not. Infinity with fewer than 3.
 */
export function medianRelativeError(xs: readonly number[]): number {
  if (xs.length < 3) return Infinity;
  const m = medianOf(xs);
  const mad = medianOf(xs.map((x) => Math.abs(x - m)));
  return m > 0 ? (1.4826 * mad * 1.2533) / Math.sqrt(xs.length) / m : Infinity;
}
