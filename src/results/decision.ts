/**
 * The one decision every report makes about a paired ratio (time ÷ the baseline's, < 1 faster):
 * is the serializer faster, slower, the same, or is the call too close to make (issue 22)? Shared
 * by the recommendation (report/recommend.ts), the `noisy` analyser (analysers/noisy.ts) and the
 * terminal, so a flag and a sentence never disagree. Pure; reads intervals as the results file
 * holds them (results/ratio.ts), never builds one.
 *
 * Why a band and not the bare interval: the ratio interval's end moves between identical runs
 * (three quick runs of fast-json-stringify ÷ JSON.stringify on one payload read 0.80, 0.83 and 0.87,
 * one interval ending at 1.00): a rule "faster when the interval lies below 1" then flips between
 * "use X" and "use the built-in". A point estimate moves between runs by about its standard error,
 * which is the interval's half-width ÷ 3.3 at 99.9% confidence; so when 1 lies within
 * {@link BORDER_BAND} of the half-width (about 1.5 standard errors) of the interval's end nearest
 * to it, a rerun could land on either side, and the run says "borderline" instead of picking one.
 */

/** What a ratio says against its baseline. */
export type RatioVerdict =
  /** the interval lies below 1, clear of the border band */
  | 'faster'
  /** the interval lies above 1, clear of the border band */
  | 'slower'
  /** 1 lies within the border band of the interval's end: a rerun could fall on either side */
  | 'borderline'
  /** the interval holds 1 comfortably, or lies within {@link SAME_WITHIN} of it: no difference to act on */
  | 'same'
  /** no usable interval */
  | 'unknown';

/**
 * The share of the interval's half-width (log scale, on the side facing 1) within which 1 may lie
 * from the interval's end for the call to count as borderline: 0.5 (≈ 1.6 standard errors at 99.9%
 * confidence, so three reruns of a case at the edge agree on "borderline" about 9 times in 10).
 */
export const BORDER_BAND = 0.5;

/**
 * An interval that lies within this factor of 1 on both sides (0.98–1.02) is "the same" whatever its
 * position: a 2% difference is the precision issue 13 asks of a ratio under load, and below it no
 * reader changes serializer.
 */
export const SAME_WITHIN = 1.02;

/**
 * A ratio interval that holds 1 and reaches beyond this factor of it on either side (below 0.8 or
 * above 1.25) is too wide to resolve the differences the run reports: "within noise of the
 * baseline" would hide a 25% difference. The `noisy` analyser flags it.
 */
export const UNRESOLVED_FACTOR = 1.25;

/**
 * The verdict of a ratio `r` with its interval `[lo, hi]` (log scale): see {@link RatioVerdict}.
 * The side facing 1 decides: for r < 1 the upper end and its half-width ln(hi ÷ r), for r > 1 the
 * lower end and ln(r ÷ lo). A point estimate of exactly 1 is `same` (the baseline's own row).
 */
export function ratioVerdict(r: number | null, interval: readonly [number, number] | null): RatioVerdict {
  if (r === null || !(r > 0) || !Number.isFinite(r) || !interval) return 'unknown';
  const [lo, hi] = interval;
  if (!(lo > 0) || !Number.isFinite(hi) || !(hi >= lo)) return 'unknown';
  if (lo >= 1 / SAME_WITHIN && hi <= SAME_WITHIN) return 'same';
  if (r === 1) return lo > 1 ? 'slower' : hi < 1 ? 'faster' : 'same';
  const below = r < 1;
  const end = below ? hi : lo;
  const half = Math.abs(Math.log(below ? hi / r : r / lo));
  const distance = Math.log(end); // < 0: the end lies below 1
  const band = BORDER_BAND * half;
  if (Math.abs(distance) <= band) return 'borderline';
  if (below) return distance < 0 ? 'faster' : 'same';
  return distance > 0 ? 'slower' : 'same';
}

/** True when the interval holds 1 and reaches beyond {@link UNRESOLVED_FACTOR} of it: "within noise" would hide a difference that large. */
export function unresolved(interval: readonly [number, number] | null): boolean {
  if (!interval) return false;
  const [lo, hi] = interval;
  return lo <= 1 && hi >= 1 && (lo < 1 / UNRESOLVED_FACTOR || hi > UNRESOLVED_FACTOR);
}

/**
 * How the `noisy` finding's message starts when the case's launches disagree beyond their own
 * errors (the machine banner reads it: those are the cases whose reading really moved).
 */
export const LAUNCHES_DISAGREE = 'its launches disagree beyond their own errors';
