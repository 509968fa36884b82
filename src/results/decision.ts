/**
 * The one decision every report makes about a paired ratio (time ÷ the baseline's, < 1 faster):
 * is the serializer faster, slower, the same, or is the call too close to make (issue 22)? Shared
 * by the recommendation (report/recommend.ts), the `noisy` analyser (analysers/noisy.ts) and the
 * terminal, so a flag and a sentence never disagree. Pure; reads intervals as the results file
 * holds them (results/ratio.ts), never builds one.
 *
 * Why a band and not the bare interval: the ratio interval's end moves between identical runs
 * (three quick runs of fast-json-stringify ÷ JSON.stringify on one payload read 0.80, 0.83 and 0.87,
 * one interval ending at 1.00; three default runs of typia ÷ JSON.stringify on users · 100 · many
 * read 0.96 [0.88–1.05] and 0.92 [0.87–0.97] twice): a rule "faster when the interval lies below 1"
 * then flips between "use X" and "use the built-in". So when 1 lies within {@link BORDER_BAND}
 * half-widths of the interval's end nearest to it, the run says "borderline" instead of picking one.
 *
 * The band's width comes from a simulation of reruns (studies/border-band/NOTE.md,
 * `node build/studies/border-band/reruns.js`): a pair whose true ratio lies m half-widths from 1,
 * each rerun's log-ratio drawn with SD s = 0.40 half-widths (the cross-run spread the intervals
 * showed in issue 23; 0.30 if they were honest 99.9% intervals), three reruns. For pairs whose
 * interval touches 1 (m 0.75–1.25) three reruns give the same recommendation with probability
 * 0.91–0.96 at a band of 1.0, against 0.70–0.83 at 0.75 and 0.37–0.49 at 0.5 (with the tie rule
 * below, which asks for a resolved tie, {@link TIE_WITHIN}: on the ratio alone it gave 0.62–0.88;
 * studies/border-band/NOTE.md "Narrowing the tie"). The flips it leaves
 * lie at m ≈ 2 (the interval clear of 1 by about its half-width), between "use X" and "X looks
 * faster, borderline": the same serializer named either way. "No clear winner" keeps the meaning
 * of an interval within {@link SAME_WITHIN} of 1 (0.98–1.02), or of a ratio within it whose
 * interval holds 1 and lies within {@link TIE_WITHIN} (0.962–1.04): a resolved tie; or of one that
 * holds 1 with both ends more than {@link BORDER_CAP} from it (and within 0.8–1.25: else too
 * uncertain).
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
  /** the interval lies within {@link SAME_WITHIN} of 1, or holds 1 with the ratio within {@link SAME_WITHIN} of 1 (0.98–1.02) and both ends within {@link TIE_WITHIN} of it (0.962–1.04: a resolved tie), or holds 1 with both ends beyond the band's cap (a wide interval centred near 1), or the ratio is exactly 1 (the baseline's own row): no difference to act on */
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
 * computes the same calls as the build: `borderBand` {@link BORDER_BAND}, `borderCap` {@link BORDER_CAP}, `sameWithin`
 * {@link SAME_WITHIN}, `tieWithin` {@link TIE_WITHIN}, `unresolvedFactor` {@link UNRESOLVED_FACTOR}.
 */
export function decisionBounds(): {
  borderBand: number;
  borderCap: number;
  sameWithin: number;
  tieWithin: number;
  unresolvedFactor: number;
} {
  return { borderBand: 1.0, borderCap: 1.1, sameWithin: 1.02, tieWithin: 1.04, unresolvedFactor: 1.25 };
}

/**
 * The share of the interval's half-width (log scale, on the side facing 1) within which 1 may lie
 * from the interval's end for the call to count as borderline: 1.0, so an interval that holds 1, or
 * clears it by less than its own half-width, is borderline. Chosen by studies/border-band (see the
 * module's comment): the smallest band at which three reruns of a pair whose interval touches 1
 * agree at least 9 times in 10 when a rerun's ratio moves by 0.40 half-widths. On the recorded
 * quiet default suite it flags 23 and 22 of 116 measured cases ⚠ noisy with {@link BORDER_CAP}
 * (27 and 32 without it; 12 at 0.5): studies/border-band/flag-rate.ts.
 */
export const BORDER_BAND = decisionBounds().borderBand;

/**
 * The most the border band may reach, as a factor of 1: 1.10, so an end below 0.91 or above 1.10
 * is never borderline, however wide its interval. Without it a wide interval well clear of 1 read
 * as borderline (3.93 [1.70–9.10], 0.32 [0.16–0.65] at a band of 1.0): true of the model, but a
 * reader is told "it may be no slower" of a case at least 1.7× slower. It binds only on intervals
 * wider than about ×1.10 each side (half-width 0.095 on the log scale); the near-line pairs of
 * studies/border-band (half-width about 0.06) never reach it.
 */
export const BORDER_CAP = decisionBounds().borderCap;

/**
 * An interval that lies within this factor of 1 on both sides (0.98–1.02) is "the same" whatever its
 * position: a 2% difference is the precision issue 13 asks of a ratio under load, and below it no
 * reader changes serializer.
 */
export const SAME_WITHIN = decisionBounds().sameWithin;

/**
 * The tie rule's reach (nu6): a ratio within {@link SAME_WITHIN} of 1 whose interval holds 1 is
 * "the same" only when both ends also lie within this factor of 1 (0.962–1.04): the run has ruled
 * out a difference larger than 4%, so "looks 0.99× (0.97–1.01), borderline" would say nothing to
 * act on. A wider interval around such a ratio stays borderline: the pair may still be 4–10%
 * apart. Chosen by studies/border-band (NOTE.md "Narrowing the tie"): three reruns of a near-line
 * pair agree on the state 0.91 / 0.96 / 0.91 at m 0.75 / 1 / 1.25 with it, as with no tie rule,
 * against 0.62 / 0.85 / 0.88 with the tie on the ratio alone (out24) and 0.80 / 0.93 / 0.90 with a
 * 1% tie zone; 1.05 cost up to 0.013 more when the interval's width varies between reruns.
 */
export const TIE_WITHIN = decisionBounds().tieWithin;

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
 * lower end and ln(r ÷ lo); borderline when |ln end| ≤ min({@link BORDER_BAND} × half-width,
 * ln {@link BORDER_CAP}). A point estimate of exactly 1 is `same` (the baseline's own row), and so
 * is one within {@link SAME_WITHIN} of 1 (0.98–1.02) whose interval holds 1 and lies within
 * {@link TIE_WITHIN} of it (a resolved tie: "looks 0.99× (0.97–1.01), borderline" tells a reader
 * nothing to act on; it is "no clear winner").
 */
export function ratioVerdict(r: number | null, interval: readonly [number, number] | null): RatioVerdict {
  if (r === null || !(r > 0) || !Number.isFinite(r) || !interval) return 'unknown';
  const [lo, hi] = interval;
  if (!(lo > 0) || !Number.isFinite(hi) || !(hi >= lo)) return 'unknown';
  const bounds = decisionBounds();
  if (lo >= 1 / bounds.sameWithin && hi <= bounds.sameWithin) return 'same';
  if (r === 1) return lo > 1 ? 'slower' : hi < 1 ? 'faster' : 'same';
  // a point estimate within SAME_WITHIN of 1 whose interval holds 1 and lies within TIE_WITHIN: no difference to
  // act on, not "looks 0.99× faster, borderline" (nu6: ajv-jtd 0.99 [0.97–1.01] was said as a lean)
  if (
    r >= 1 / bounds.sameWithin &&
    r <= bounds.sameWithin &&
    lo <= 1 &&
    hi >= 1 &&
    lo >= 1 / bounds.tieWithin &&
    hi <= bounds.tieWithin
  )
    return 'same';
  const below = r < 1;
  const end = below ? hi : lo;
  const half = Math.abs(Math.log(below ? hi / r : r / lo));
  const distance = Math.log(end); // < 0: the end lies below 1
  const band = Math.min(bounds.borderBand * half, Math.log(bounds.borderCap));
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
