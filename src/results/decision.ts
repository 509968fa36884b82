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
 * An interval that holds 1 and is too wide to resolve a 25% difference is not borderline but
 * "too uncertain to call" ({@link ratioCall}): it needs a longer run, not a second look.
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
 * The call a report makes on a ratio (issue 22): {@link RatioVerdict}, except that an interval too
 * wide to resolve ({@link unresolved}: it holds 1 and reaches beyond 0.8 or 1.25) is `uncertain`.
 * Borderline is kept for an interval otherwise narrow enough whose end touches 1 ({@link ratioCall});
 * "too uncertain to call" is one a longer run must narrow before anything is said.
 */
export type RatioCall = RatioVerdict | 'uncertain';

/**
 * The decision's constants in one place, as a function so that the HTML report's script (which
 * ships {@link ratioVerdict} and {@link ratioCall} as their own source: report/html/client-bundle.ts)
 * computes the same calls as the build: `borderBand` {@link BORDER_BAND}, `sameWithin`
 * {@link SAME_WITHIN}, `unresolvedFactor` {@link UNRESOLVED_FACTOR}.
 */
export function decisionBounds(): { borderBand: number; sameWithin: number; unresolvedFactor: number } {
  return { borderBand: 0.5, sameWithin: 1.02, unresolvedFactor: 1.25 };
}

/**
 * The share of the interval's half-width (log scale, on the side facing 1) within which 1 may lie
 * from the interval's end for the call to count as borderline: 0.5 (≈ 1.6 standard errors at 99.9%
 * confidence, so three reruns of a case at the edge agree on "borderline" about 9 times in 10).
 */
export const BORDER_BAND = decisionBounds().borderBand;

/**
 * An interval that lies within this factor of 1 on both sides (0.98–1.02) is "the same" whatever its
 * position: a 2% difference is the precision issue 13 asks of a ratio under load, and below it no
 * reader changes serializer.
 */
export const SAME_WITHIN = decisionBounds().sameWithin;

/**
 * A ratio interval that holds 1 and reaches beyond this factor of it on either side (below 0.8 or
 * above 1.25) is too wide to resolve the differences the run reports: "within noise of the
 * baseline" would hide a 25% difference. The `noisy` analyser flags it; the takeaway and the
 * recommendation call it too uncertain ({@link ratioCall}).
 */
export const UNRESOLVED_FACTOR = decisionBounds().unresolvedFactor;

/**
 * The verdict of a ratio `r` with its interval `[lo, hi]` (log scale): see {@link RatioVerdict}.
 * The side facing 1 decides: for r < 1 the upper end and its half-width ln(hi ÷ r), for r > 1 the
 * lower end and ln(r ÷ lo). A point estimate of exactly 1 is `same` (the baseline's own row).
 */
export function ratioVerdict(r: number | null, interval: readonly [number, number] | null): RatioVerdict {
  if (r === null || !(r > 0) || !Number.isFinite(r) || !interval) return 'unknown';
  const [lo, hi] = interval;
  if (!(lo > 0) || !Number.isFinite(hi) || !(hi >= lo)) return 'unknown';
  const bounds = decisionBounds();
  if (lo >= 1 / bounds.sameWithin && hi <= bounds.sameWithin) return 'same';
  if (r === 1) return lo > 1 ? 'slower' : hi < 1 ? 'faster' : 'same';
  const below = r < 1;
  const end = below ? hi : lo;
  const half = Math.abs(Math.log(below ? hi / r : r / lo));
  const distance = Math.log(end); // < 0: the end lies below 1
  const band = bounds.borderBand * half;
  if (Math.abs(distance) <= band) return 'borderline';
  if (below) return distance < 0 ? 'faster' : 'same';
  return distance > 0 ? 'slower' : 'same';
}

/** True when the interval holds 1 and reaches beyond {@link UNRESOLVED_FACTOR} of it: "within noise" would hide a difference that large. */
export function unresolved(interval: readonly [number, number] | null): boolean {
  if (!interval) return false;
  const [lo, hi] = interval;
  const factor = decisionBounds().unresolvedFactor;
  return lo <= 1 && hi >= 1 && (lo < 1 / factor || hi > factor);
}

/**
 * THE call on a ratio that the takeaway above a table and the recommendation both make (so they
 * never disagree): {@link ratioVerdict}, except that an {@link unresolved} interval (it holds 1 and
 * reaches beyond 0.8 or 1.25) is `uncertain` — unless 1 lies at its end (`borderline`) and it is
 * otherwise narrow enough: no wider than 0.8–1.25 (high ÷ low ≤ 1.25²), so that, centred on 1, it
 * would resolve a 25% difference. That keeps the three reruns of one pair (0.66–0.96,
 * 0.69–1.00, 0.72–1.05: one width, three positions) on one label, borderline, while 0.28–1.44 and
 * 0.25–1.81 are both too uncertain to call. The baseline's own row (ratio 1, interval [1, 1]) is
 * `same`.
 */
export function ratioCall(r: number | null, interval: readonly [number, number] | null): RatioCall {
  const verdict = ratioVerdict(r, interval);
  if (verdict === 'unknown' || !interval || !unresolved(interval)) return verdict;
  const factor = decisionBounds().unresolvedFactor;
  return verdict === 'borderline' && interval[1] / interval[0] <= factor * factor ? 'borderline' : 'uncertain';
}

/**
 * What a group (one class's serializers against its baseline) says as a whole, from its rankable
 * rows' calls ({@link ratioCall}, baseline excluded), in this order: `use` some row is faster;
 * `borderline` some row below 1 is borderline; `uncertain` some row is too uncertain to call (or
 * has no interval); `baseline` every row is slower (or borderline above 1); `no-clear-winner` the
 * rest (rows the same as the baseline); `none` no row. The takeaway and the recommendation both
 * read it.
 */
export function groupCall(
  rows: readonly { ratio: number | null; call: RatioCall }[],
): 'use' | 'borderline' | 'uncertain' | 'baseline' | 'no-clear-winner' | 'none' {
  if (!rows.length) return 'none';
  if (rows.some((x) => x.call === 'faster')) return 'use';
  if (rows.some((x) => x.call === 'borderline' && x.ratio !== null && x.ratio < 1)) return 'borderline';
  if (rows.some((x) => x.call === 'uncertain' || x.call === 'unknown')) return 'uncertain';
  if (rows.every((x) => x.call === 'slower' || (x.call === 'borderline' && x.ratio !== null && x.ratio > 1)))
    return 'baseline';
  return 'no-clear-winner';
}

/**
 * How the `noisy` finding's message starts when the case's launches disagree beyond their own
 * errors (the machine banner reads it: those are the cases whose reading really moved).
 */
export const LAUNCHES_DISAGREE = 'its launches disagree beyond their own errors';
