/**
 * The arithmetic of `npm run bench:consumer` (consumer.ts), apart so a test can pin it: the
 * consumer's ratio and difference per request with their standard errors, the op's difference
 * with its error, and the two verdicts of issue 13's target (ratio within 10%; difference within
 * the errors).
 *
 * Errors: the standard error of a median from its samples' median absolute deviation, as the
 * engine's stop rule computes it (src/stats/median.ts: 1.4826 · MAD · 1.2533 / √n), here absolute
 * (a difference can be 0 or negative). A consumer figure is the median over reps (fresh server
 * processes) of each rep's median over windows; its error is the larger of the within-rep error
 * (√Σ seᵣ² / R) and the between-rep one (sample SD of the rep medians / √R), so reps that disagree
 * widen it (process-to-process spread is what a median over windows alone does not see).
 */
import { medianOf } from '../src/stats/median.js';

/** A figure and its standard error (same unit: ns per request, or a bare ratio). */
export interface Estimate {
  value: number;
  se: number;
}

/** √(π/2) · 1.4826: the MAD-based standard error of a median per √n (src/stats/median.ts). */
const MAD_SE = 1.4826 * 1.2533;

/** Standard error of the median of `xs`, absolute: 1.4826 · MAD · 1.2533 / √n. Infinity under 3 values. */
export function medianStandardError(xs: readonly number[]): number {
  if (xs.length < 3) return Infinity;
  const m = medianOf(xs);
  return (MAD_SE * medianOf(xs.map((x) => Math.abs(x - m)))) / Math.sqrt(xs.length);
}

/**
 * Median over reps of each rep's median over its values, with the error described above.
 * `perRep[r]` are rep r's values (one per window or round). @throws Error when a rep has no values
 */
export function repsEstimate(perRep: readonly (readonly number[])[]): Estimate {
  if (perRep.length === 0 || perRep.some((xs) => xs.length === 0))
    throw new Error('repsEstimate: a rep without values');
  const medians = perRep.map((xs) => medianOf(xs));
  const r = perRep.length;
  const within = Math.sqrt(perRep.reduce((s, xs) => s + medianStandardError(xs) ** 2, 0)) / r;
  const mean = medians.reduce((s, x) => s + x, 0) / r;
  const between = r < 2 ? 0 : Math.sqrt(medians.reduce((s, x) => s + (x - mean) ** 2, 0) / (r - 1)) / Math.sqrt(r);
  return { value: medianOf(medians), se: Math.max(within, between) };
}

/**
 * The consumer's figures for one serializer against json, from CPU ns per request per window
 * (`serializer[r][w]`, `json[r][w]`: rep r, window w, the two routes of the same cycle):
 * ratio (serializer ÷ json per window) and difference (serializer − json, ns per request).
 * @throws Error when the two do not have the same reps and windows
 */
export function consumerFigures(
  serializer: readonly (readonly number[])[],
  json: readonly (readonly number[])[],
): { ratio: Estimate; difference: Estimate } {
  if (serializer.length !== json.length || serializer.some((xs, r) => xs.length !== json[r].length))
    throw new Error('consumerFigures: serializer and json windows differ in shape');
  return {
    ratio: repsEstimate(serializer.map((xs, r) => xs.map((x, w) => x / json[r][w]))),
    difference: repsEstimate(serializer.map((xs, r) => xs.map((x, w) => x - json[r][w]))),
  };
}

/**
 * The op's difference per op (serializer − json, ns) from paired rounds of one or more launches:
 * `serializerNs[l][i]` and `baselineNs[l][i]` are launch l's round i.
 * @throws Error when the two do not have the same launches and rounds
 */
export function opDifference(
  serializerNs: readonly (readonly number[])[],
  baselineNs: readonly (readonly number[])[],
): Estimate {
  if (serializerNs.length !== baselineNs.length || serializerNs.some((xs, l) => xs.length !== baselineNs[l].length))
    throw new Error('opDifference: serializer and baseline rounds differ in shape');
  return repsEstimate(serializerNs.map((xs, l) => xs.map((x, i) => x - baselineNs[l][i])));
}

/** Issue 13's ratio target: the op's ratio within `tolerance` (0.1) of the consumer's: |op ÷ consumer − 1| ≤ tolerance. */
export const ratioWithin = (op: number, consumer: number, tolerance = 0.1): boolean =>
  Math.abs(op / consumer - 1) <= tolerance;

/**
 * Issue 13's small-payload target: the two differences agree within their errors,
 * |a − b| ≤ z · √(se_a² + se_b²) (z = 1.96: a 95% interval of the difference of two independent estimates).
 */
export function differencesAgree(a: Estimate, b: Estimate, z = 1.96): boolean {
  return Math.abs(a.value - b.value) <= z * Math.sqrt(a.se ** 2 + b.se ** 2);
}

/**
 * The spread of a ratio across server processes: each process's median over its windows
 * (`perProcess[p][w]`), and (max − min) ÷ median of those, a fraction (0.1 = 10%).
 * @throws Error when a process has no values
 */
export function processSpread(perProcess: readonly (readonly number[])[]): { medians: number[]; spread: number } {
  if (perProcess.length === 0 || perProcess.some((xs) => xs.length === 0))
    throw new Error('processSpread: a process without values');
  const medians = perProcess.map((xs) => medianOf(xs));
  return { medians, spread: (Math.max(...medians) - Math.min(...medians)) / medianOf(medians) };
}

/**
 * What the A/A control (a second JSON.stringify route, `json#2`, against json) says about the
 * consumer's resolution: `resolves` is true when the median A/A ratio and every server process's
 * A/A ratio are within `tolerance` (0.1, issue 13's target) of 1. A process whose A/A reads
 * 1.12 shows that two identical serializers can differ by more than the target in that method,
 * so a 10% verdict from it would be noise. `worst` is the largest |ratio − 1| (fraction).
 */
export function aaResolution(
  perProcessRatios: readonly number[],
  median: number,
  tolerance = 0.1,
): { resolves: boolean; worst: number } {
  if (perProcessRatios.length === 0) throw new Error('aaResolution: no A/A ratios');
  const worst = Math.max(Math.abs(median - 1), ...perProcessRatios.map((x) => Math.abs(x - 1)));
  return { resolves: worst <= tolerance, worst };
}
