/**
 * The change between two sets of samples, in percent, with its confidence interval, and the
 * verdict that needs significance, size, and a size above the runs' own noise.
 */
import { meanOf as mean, quantileSorted, relativeError, sampleVariance, tCritical } from '../stats/estimate.js';
import { mannWhitneyU } from './mann-whitney.js';

/**
 * What a comparison says about a cost (time, bytes, instructions): lower is `faster`;
 * `no-verdict` when the evidence cannot support one either way (see {@link NoVerdictBecause}).
 */
export type Verdict = 'faster' | 'slower' | 'same' | 'no-verdict';

/**
 * Why a comparison has no verdict: a side's case was flagged `noisy` (a launch reached the time
 * cap before its error target), or a side measured it in one launch (policy quick), which cannot
 * show how far a case moves from one process to the next. Two quick runs of identical code on a
 * loaded machine differed by +1065% with p < 0.001 and tight within-launch intervals.
 */
export type NoVerdictBecause = 'noisy' | 'one-launch' | 'not-ranked';

/**
 * Why a verdict is `same`: the test was not significant; the rank test and the means disagree;
 * the change is under the threshold; under the runs' noise; or only the slow samples moved (the
 * fastest decile did not: the signature of a busier machine, not of slower code).
 */
export type SameBecause =
  'not-significant' | 'below-threshold' | 'within-noise' | 'mixed-signals' | 'slow-samples-only';

/** The quantile whose change must agree with the mean's: the fastest 10% of samples. */
export const FAST_QUANTILE = 0.1;

/** Confidence of the error bars the noise floor is made of (the lab reports 99.9% everywhere). */
export const NOISE_CONFIDENCE = 0.999;

/** The change of the head's mean against the base's, in percent (+ = head costs more). */
export interface Change {
  baseMean: number;
  headMean: number;
  /** 100 · (headMean / baseMean − 1) */
  percent: number;
  /** confidence interval of `percent` at 1 − alpha; null when it cannot be computed (fewer than 2 samples a side) */
  ci: { low: number; high: number; confidence: number } | null;
  /** two-sided Mann-Whitney p-value; null for deterministic metrics (no test) */
  p: number | null;
  /**
   * The runs' own noise, in percent: the larger of √(e_b² + e_h²), e = the 99.9% CI half-width of a
   * side's mean over that mean, and — when both runs have several launches — √(s_b² + s_h²),
   * s = the spread of a run's launch means ((max − min)/median). A change smaller than this is not
   * called. null for deterministic metrics.
   */
  noiseFloor: number | null;
  /** change of the fastest decile (10th percentile), in percent; null when not checked */
  fastPercent: number | null;
  verdict: Verdict;
  /** set when `verdict` is `same` */
  sameBecause?: SameBecause;
  /** set when `verdict` is `no-verdict` */
  noVerdictBecause?: NoVerdictBecause;
}

/** When a change counts. */
export interface VerdictRule {
  /** significance level of the rank test (default 0.05, as google/benchmark's compare.py uses) */
  alpha: number;
  /** minimum |change| in percent (default 5 for time and allocation, 0.5 for instructions) */
  thresholdPercent: number;
}

/**
 * The verdict. `slower` (`faster`) only when all hold: the rank test is significant (p < alpha;
 * deterministic metrics have no test); it shifts the same way as the means (sign of z, so a few
 * outliers dragging the mean up while most samples got faster are not a regression); the change
 * is at least the threshold AND at least the noise floor; and, for times, the fastest decile
 * moved the same way by at least the threshold. That last rule follows Chen & Revels, "Robust
 * benchmarking in noisy environments" (2016, arXiv:1608.04295): interference on a busy machine
 * only adds time, so it inflates the mean and the slow samples while the fastest stay near the
 * true cost; slower code moves them all. Else `same`, with why.
 * @param test the rank test of head against base (z > 0: head tends larger), or null
 * @param fastPercent change of the fastest decile, or null to skip that rule
 */
export function verdictOf(
  percent: number,
  test: { p: number; z: number } | null,
  noiseFloor: number | null,
  rule: VerdictRule,
  fastPercent: number | null = null,
): Pick<Change, 'verdict' | 'sameBecause' | 'noVerdictBecause'> {
  if (test && !(test.p < rule.alpha)) return { verdict: 'same', sameBecause: 'not-significant' };
  if (test && Math.sign(test.z) !== Math.sign(percent)) return { verdict: 'same', sameBecause: 'mixed-signals' };
  if (Math.abs(percent) < rule.thresholdPercent) return { verdict: 'same', sameBecause: 'below-threshold' };
  if (noiseFloor !== null && !(Math.abs(percent) >= noiseFloor))
    return { verdict: 'same', sameBecause: 'within-noise' };
  if (
    fastPercent !== null &&
    !(Math.sign(fastPercent) === Math.sign(percent) && Math.abs(fastPercent) >= rule.thresholdPercent)
  )
    return { verdict: 'same', sameBecause: 'slow-samples-only' };
  return { verdict: percent > 0 ? 'slower' : 'faster' };
}

/** Change of the fastest decile of two sample sets, in percent. */
export function fastDecileChange(base: readonly number[], head: readonly number[]): number {
  const q = (xs: readonly number[]) =>
    quantileSorted(
      [...xs].sort((a, b) => a - b),
      FAST_QUANTILE,
    );
  return 100 * (q(head) / q(base) - 1);
}

/**
 * Confidence interval of 100 · (mean(head)/mean(base) − 1) by the delta method on the log of the
 * ratio of two independent means (Casella & Berger, "Statistical Inference", 2nd ed., §5.5.4):
 * Var(ln m) ≈ s²/(n·m²); the interval ln r ± t·√(Var_h + Var_b), with t of the Welch–Satterthwaite
 * degrees of freedom, mapped back through exp. Returns null when a side has fewer than 2 samples
 * or a non-positive mean.
 */
export function percentChangeInterval(
  base: readonly number[],
  head: readonly number[],
  confidence: number,
): Change['ci'] {
  if (base.length < 2 || head.length < 2) return null;
  const mb = mean([...base]);
  const mh = mean([...head]);
  if (!(mb > 0 && mh > 0)) return null;
  const vb = sampleVariance([...base]) / (base.length * mb * mb);
  const vh = sampleVariance([...head]) / (head.length * mh * mh);
  const se = Math.sqrt(vb + vh);
  const logRatio = Math.log(mh / mb);
  if (se === 0) return { low: 100 * (mh / mb - 1), high: 100 * (mh / mb - 1), confidence };
  const dof = (vb + vh) ** 2 / ((vb * vb) / (base.length - 1) + (vh * vh) / (head.length - 1));
  const t = tCritical(confidence, dof);
  return { low: 100 * (Math.exp(logRatio - t * se) - 1), high: 100 * (Math.exp(logRatio + t * se) - 1), confidence };
}

/**
 * The noise floor of two sample sets, in percent (see {@link Change.noiseFloor}); Infinity with
 * fewer than 2 samples a side.
 * @param launchMeans each run's launch means, when the launch spread is to count (both need ≥ 2)
 */
export function noiseFloorOf(
  base: readonly number[],
  head: readonly number[],
  launchMeans?: { base: readonly number[]; head: readonly number[] },
): number {
  if (base.length < 2 || head.length < 2) return Infinity;
  const within = 100 * Math.hypot(relativeError(base, NOISE_CONFIDENCE), relativeError(head, NOISE_CONFIDENCE));
  if (!launchMeans || launchMeans.base.length < 2 || launchMeans.head.length < 2) return within;
  const spread = (ms: readonly number[]) =>
    (Math.max(...ms) - Math.min(...ms)) /
    quantileSorted(
      [...ms].sort((a, b) => a - b),
      0.5,
    );
  return Math.max(within, 100 * Math.hypot(spread(launchMeans.base), spread(launchMeans.head)));
}

/** What else a comparison of samples may use: launch means (noise floor) and the fastest-decile rule (times). */
export interface SampleContext {
  launchMeans?: { base: readonly number[]; head: readonly number[] };
  /** apply the fastest-decile rule (timing samples, where interference only adds time) */
  fastDecile?: boolean;
  /** why the samples cannot support a verdict (a noisy case, one launch): the change is computed, the verdict is `no-verdict` */
  noVerdict?: NoVerdictBecause;
}

/**
 * True when the two sides' intervals, mean ± the 99.9% CI half-width of each side's mean, overlap:
 * then the change is within noise whatever the rank test says. False with fewer than 2 samples a side.
 */
export function intervalsOverlap(base: readonly number[], head: readonly number[]): boolean {
  if (base.length < 2 || head.length < 2) return false;
  const mb = mean([...base]);
  const mh = mean([...head]);
  const eb = relativeError(base, NOISE_CONFIDENCE) * mb;
  const eh = relativeError(head, NOISE_CONFIDENCE) * mh;
  return mb - eb <= mh + eh && mh - eh <= mb + eb;
}

/**
 * Compares two sets of raw samples of one cost (ns/op or bytes/op): means, percent change with
 * its CI at 1 − alpha, the Mann-Whitney p-value, the noise floor, the fastest decile's change
 * (when `ctx.fastDecile`), and the verdict: {@link verdictOf}'s, then `same (within-noise)` when
 * the two sides' intervals overlap ({@link intervalsOverlap}), and `no-verdict` when
 * `ctx.noVerdict` says the samples cannot support one. @throws Error when either side is empty.
 */
export function compareSamples(
  base: readonly number[],
  head: readonly number[],
  rule: VerdictRule,
  ctx: SampleContext = {},
): Change {
  if (!base.length || !head.length) throw new Error('compareSamples: both sides need samples');
  const baseMean = mean([...base]);
  const headMean = mean([...head]);
  const percent = 100 * (headMean / baseMean - 1);
  const test = mannWhitneyU(head, base);
  const noiseFloor = noiseFloorOf(base, head, ctx.launchMeans);
  const fastPercent = ctx.fastDecile ? fastDecileChange(base, head) : null;
  let verdict = verdictOf(percent, test, noiseFloor, rule, fastPercent);
  if (ctx.noVerdict) verdict = { verdict: 'no-verdict', noVerdictBecause: ctx.noVerdict };
  else if (verdict.verdict !== 'same' && intervalsOverlap(base, head))
    verdict = { verdict: 'same', sameBecause: 'within-noise' };
  return {
    baseMean,
    headMean,
    percent,
    ci: percentChangeInterval(base, head, 1 - rule.alpha),
    p: test.p,
    noiseFloor,
    fastPercent,
    ...verdict,
  };
}

/** Compares two deterministic single values (instructions/op): no test, no noise; the threshold decides. */
export function compareValues(base: number, head: number, rule: VerdictRule): Change {
  const percent = 100 * (head / base - 1);
  return {
    baseMean: base,
    headMean: head,
    percent,
    ci: null,
    p: null,
    noiseFloor: null,
    fastPercent: null,
    ...verdictOf(percent, null, null, rule),
  };
}

/**
 * The time verdict of two runs' recorded intervals (results `time.interval`, whose `basis` says
 * what they are made of: the launch means, moderated by the group, or one launch's rounds;
 * stats/intervals.ts), the way `compare --fail-on slower` gates on time. The change is the Mean
 * columns' quotient q = head ÷ base; its interval on the log scale combines the two sides' log
 * distances facing each way, ln q − √(d_h⁻² + d_b⁺²) to ln q + √(d_h⁺² + d_b⁻²), d⁻ and d⁺ the
 * distances from a side's log mean to its interval's ends (the delta method for a quotient of two
 * independent estimates, Casella & Berger, "Statistical Inference", 2nd ed., §5.5.4, side by side
 * as {@link compareRatios}; at the runs' own confidence, as their intervals are): since branch
 * `stats5` a time interval is asymmetric, and the larger side both ways (`error` ÷ mean, what this
 * read before branch `stats6`) overstated the other. A file without `interval` (before `stats5`)
 * is read as before: error ÷ mean both ways. The larger of the two half-widths is the Noise.
 * `slower` (`faster`) when that interval lies wholly above (below) no change, the change is
 * at least the threshold, and the fastest decile of the raw samples moved the same way by at least
 * the threshold (Chen & Revels 2016: a busier machine slows the slow samples, slower code them all);
 * else `same` with why. No rank test (p is null): it would treat every
 * sample as independent, which launches are not.
 * @param base, head the two sides' recorded time statistics (ns/op)
 * @param baseSamples, headSamples their raw samples (for the fastest decile)
 */
export function compareIntervals(
  base: { mean: number; error: number; interval?: readonly [number, number] },
  head: { mean: number; error: number; interval?: readonly [number, number] },
  baseSamples: readonly number[],
  headSamples: readonly number[],
  rule: VerdictRule,
): Change {
  const percent = 100 * (head.mean / base.mean - 1);
  const below = (x: typeof base) => (x.interval ? Math.log(x.mean / x.interval[0]) : x.error / x.mean);
  const above = (x: typeof base) => (x.interval ? Math.log(x.interval[1] / x.mean) : x.error / x.mean);
  const down = Math.hypot(below(head), above(base));
  const up = Math.hypot(above(head), below(base));
  const q = head.mean / base.mean;
  const finite = Number.isFinite(down) && Number.isFinite(up) && base.mean > 0 && head.mean > 0;
  const low = finite ? 100 * (q * Math.exp(-down) - 1) : -Infinity;
  const high = finite ? 100 * (q * Math.exp(up) - 1) : Infinity;
  const fastPercent = baseSamples.length && headSamples.length ? fastDecileChange(baseSamples, headSamples) : null;
  const out = {
    baseMean: base.mean,
    headMean: head.mean,
    percent,
    ci: finite ? { low, high, confidence: NOISE_CONFIDENCE } : null,
    p: null,
    noiseFloor: finite ? 100 * (Math.exp(Math.max(down, up)) - 1) : Infinity,
    fastPercent,
  };
  // no noisy veto: a case whose launches disagree has that spread in its Error already (from the
  // launch means); only the pooled-samples comparison (compareSamples) vetoes a noisy case
  if (Math.abs(percent) < rule.thresholdPercent)
    return { ...out, verdict: 'same', sameBecause: underOrNoise(low, high, rule) };
  if (!(low > 0 || high < 0)) return { ...out, verdict: 'same', sameBecause: 'within-noise' };
  if (
    fastPercent !== null &&
    !(Math.sign(fastPercent) === Math.sign(percent) && Math.abs(fastPercent) >= rule.thresholdPercent)
  )
    return { ...out, verdict: 'same', sameBecause: 'slow-samples-only' };
  return { ...out, verdict: percent > 0 ? 'slower' : 'faster' };
}

/**
 * Why a change whose estimate is under the threshold is `same`: `below-threshold` only when its
 * whole interval [low, high] (percent) lies within ±threshold, so the run shows the change is small;
 * else `within-noise` (nu8: "−84% … +425%, same (under threshold)" read as a small change confirmed).
 */
function underOrNoise(low: number, high: number, rule: VerdictRule): 'below-threshold' | 'within-noise' {
  return low > -rule.thresholdPercent && high < rule.thresholdPercent ? 'below-threshold' : 'within-noise';
}

/**
 * The verdict on a paired ratio (a case's time ÷ its class baseline's, drawn from alternating
 * rounds in the same process) in two runs, from their recorded intervals (results `ratio` and
 * `ratioInterval`, on the log scale and asymmetric; results/ratio.ts). The change is head ÷ base;
 * its interval on the log scale combines the two sides' log half-widths facing each way, by the
 * delta method for a quotient of two independent estimates (ln q − √(d_h⁻² + d_b⁺²),
 * ln q + √(d_h⁺² + d_b⁻²), d⁻ and d⁺ the distances from a side's log ratio to its interval's ends),
 * at the runs' own confidence, as their intervals are; that half-width is also the Noise. `slower`
 * (`faster`) when the interval lies wholly above (below) no change and the change is at least the
 * threshold; else `same` with why. No rank test and no fastest-decile rule: the ratio is paired
 * within each process, so a busier machine slows both of its sides (issue 22: compare refused every
 * verdict between two default runs at load 13.2 and 15.9). A side without an interval gives an
 * unbounded one: `same (within noise)`.
 * @param base, head each side's ratio and its interval `[low, high]` (0 < low ≤ ratio ≤ high), or null
 */
export function compareRatios(
  base: { ratio: number; interval: readonly [number, number] | null },
  head: { ratio: number; interval: readonly [number, number] | null },
  rule: VerdictRule,
): Change {
  const q = head.ratio / base.ratio;
  const percent = 100 * (q - 1);
  const below = (x: typeof base) => (x.interval ? Math.log(x.ratio / x.interval[0]) : Infinity);
  const above = (x: typeof base) => (x.interval ? Math.log(x.interval[1] / x.ratio) : Infinity);
  const down = Math.hypot(below(head), above(base));
  const up = Math.hypot(above(head), below(base));
  const finite = Number.isFinite(down) && Number.isFinite(up) && q > 0;
  const low = finite ? 100 * (q * Math.exp(-down) - 1) : -Infinity;
  const high = finite ? 100 * (q * Math.exp(up) - 1) : Infinity;
  const out = {
    baseMean: base.ratio,
    headMean: head.ratio,
    percent,
    ci: finite ? { low, high, confidence: NOISE_CONFIDENCE } : null,
    p: null,
    noiseFloor: finite ? 100 * (Math.exp(Math.max(down, up)) - 1) : Infinity,
    fastPercent: null,
  };
  if (Math.abs(percent) < rule.thresholdPercent)
    return { ...out, verdict: 'same', sameBecause: underOrNoise(low, high, rule) };
  if (!(low > 0 || high < 0)) return { ...out, verdict: 'same', sameBecause: 'within-noise' };
  return { ...out, verdict: percent > 0 ? 'slower' : 'faster' };
}
