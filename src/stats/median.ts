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
 * Robust to a preempted sample or round, which a t-interval is not. When more than half the values
 * tie (MAD 0: a coarse clock, or rounds that read the same quantised ratio), the MAD says nothing
 * about the spread of the rest, and 0 would claim an exact median: the SD is then estimated from the
 * mean absolute deviation about the median instead (√(π/2) · mean |x − median|, a normal SD; Rousseeuw
 * & Croux, "Alternatives to the median absolute deviation", JASA 88(424), 1993, discuss the MAD's
 * breakdown at ties). 0 only when every value is the same. Infinity with fewer than 3 values or a
 * median that is not positive.
 */
export function medianRelativeError(xs: readonly number[]): number {
  if (xs.length < 3) return Infinity;
  const m = medianOf(xs);
  if (!(m > 0)) return Infinity;
  const deviations = xs.map((x) => Math.abs(x - m));
  const mad = medianOf(deviations);
  const sd = mad > 0 ? 1.4826 * mad : 1.2533 * (deviations.reduce((s, d) => s + d, 0) / xs.length);
  return (sd * 1.2533) / Math.sqrt(xs.length) / m;
}
