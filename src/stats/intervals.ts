/**
 * Confidence intervals from the unit that varies: the launch (one worker process). Launches of one
 * case differ by more than their rounds do (a process's code layout, JIT decisions and heap, the
 * machine's state when it ran), so an interval built from every sample of every launch pooled, as
 * if the samples were independent, is too narrow: six default runs of 48 cases had each run's
 * 99.9% time interval contain another run's mean in 68.9% of ordered pairs (issue 23), where honest
 * intervals of two independent runs give about 98%. Here each launch contributes one value (its mean
 * time, or its ratio), and the interval is the t-interval of those values' mean.
 *
 * Method: the cluster-robust (one-way random-effects) interval of a grand mean, with launches as
 * clusters: under y_ij = μ + a_i + e_ij (launch effect a_i, within-launch noise e_ij) the launch
 * means ȳ_i are independent with variance σ_a² + σ_e²/m, so the t-interval of their mean with
 * k − 1 degrees of freedom carries both components (Cameron & Miller, "A Practitioner's Guide to
 * Cluster-Robust Inference", J. Human Resources 50(2), 2015, §II.C and §VI: with few clusters use
 * t with G − 1 df on the cluster-level estimates; Searle, Casella & McCulloch, "Variance
 * Components", 1992, §3.6). With only 2 or 3 launches a case's own variance has 1–2 degrees of
 * freedom (t₀.₉₉₉₅ = 636.6 with 1), so a case may borrow strength from the other cases of its group
 * (same payload, direction and target, measured in the same interleaved launches): the moderated
 * variance of Smyth's empirical-Bayes t, s̃² = (d₀·s₀² + d·s²) / (d₀ + d) with d₀ + d degrees of
 * freedom (G. K. Smyth, "Linear models and empirical Bayes methods for assessing differential
 * expression in microarray experiments", Stat. Appl. Genet. Mol. Biol. 3(1), 2004, eq. 2 and §4),
 * with the prior s₀² and d₀ given by the caller ({@link LaunchPrior}). Variances are compared on the
 * log scale (relative), where cases of different speeds share one.
 *
 * Ratios: the same on the natural log of each launch's ratio (ratios multiply; their spread is
 * symmetric in log space): the centre is the geometric mean of the launch ratios, the interval
 * exp(mean ± t·s/√k). The centre and the interval are of the same statistic in both.
 */
import jstatModule from 'jstat';
import { meanOf, sampleVariance } from './estimate.js';

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

/**
 * What other cases say about the launch-to-launch variance (Smyth's prior): `variance`, a variance
 * of natural logs of launch values (≈ the squared relative launch-to-launch SD), and `df`, the
 * degrees of freedom it is given (d₀). See {@link launchPrior}.
 */
export interface LaunchPrior {
  variance: number;
  df: number;
}

/** An interval of a mean of launch values, with how it was made. */
export interface LaunchInterval {
  /** the estimate: the mean of the launch means (time, ns/op), or the geometric mean of the launch ratios (ratio) */
  centre: number;
  low: number;
  high: number;
  /** degrees of freedom of the t quantile (own k − 1, plus the prior's d₀ when one was given) */
  df: number;
  /** launches it was made of */
  launches: number;
  confidence: number;
  /** `launches`: from the launch values alone; `moderated`: with the group's prior (Smyth 2004) */
  basis: 'launches' | 'moderated';
}

/** `x` when it is a finite non-negative number, else 0. */
const finiteOr0 = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);

/**
 * The variance of one launch's value that its own within-launch noise implies: the mean of the
 * launches' squared standard errors (absolute for times, ns²; relative, i.e. of the log, for ratios).
 * The launch values' sample variance is floored at it: their variance is σ_a² + σ_e²/m, never below
 * the within-launch part, so an estimate under it is the launch component σ_a² estimated below 0 by
 * chance, which the ANOVA estimator truncates at 0 (Searle, Casella & McCulloch 1992, §3.5) — two
 * launches that happened to agree to the last digit do not make a zero-width interval. Standard
 * errors that are not finite are left out. 0 without any.
 */
export function withinVariance(standardErrors: readonly number[]): number {
  const finite = standardErrors.filter((x) => Number.isFinite(x) && x >= 0);
  return finite.length ? meanOf(finite.map((x) => x * x)) : 0;
}

/** Two-sided Student-t quantile of `confidence` with `df` (possibly fractional) degrees of freedom. */
function tQuantile(confidence: number, df: number): number {
  return jStat.studentt.inv(1 - (1 - confidence) / 2, df);
}

/**
 * Smyth's moderated variance of a case: own sample variance `own` with `df` degrees of freedom,
 * shrunk toward the prior. Without a prior (or a prior of 0 df) the own variance, own df.
 */
function moderate(own: number, df: number, prior?: LaunchPrior): { variance: number; df: number } {
  if (!prior || !(prior.df > 0) || !(prior.variance >= 0)) return { variance: own, df };
  return { variance: (prior.df * prior.variance + df * own) / (prior.df + df), df: prior.df + df };
}

/**
 * The confidence interval of the mean of launch means (ns/op), t with k − 1 degrees of freedom
 * (cluster-robust, see the module's docstring), or with the group's prior (moderated, Smyth 2004):
 * the prior is a log-scale variance, applied to this case as (centre · s₀)². Null with fewer than 2
 * launches and no prior, or with a non-finite or non-positive launch mean.
 * @param launchMeans each kept launch's mean time, ns/op
 * @param confidence e.g. 0.999
 * @param within the variance one launch mean has from its own samples, ns² ({@link withinVariance}): a floor of the launch means' variance
 */
export function meanInterval(
  launchMeans: readonly number[],
  confidence: number,
  prior?: LaunchPrior,
  within = 0,
): LaunchInterval | null {
  const k = launchMeans.length;
  if (!k || launchMeans.some((x) => !(x > 0) || !Number.isFinite(x))) return null;
  const centre = meanOf(launchMeans);
  const own = k >= 2 ? Math.max(sampleVariance(launchMeans), finiteOr0(within)) : 0;
  const scaledPrior = prior ? { variance: prior.variance * centre * centre, df: prior.df } : undefined;
  const m = moderate(own, k - 1, scaledPrior);
  if (!(m.df > 0)) return null;
  const h = (tQuantile(confidence, m.df) * Math.sqrt(m.variance)) / Math.sqrt(k);
  return {
    centre,
    low: Math.max(0, centre - h),
    high: centre + h,
    df: m.df,
    launches: k,
    confidence,
    basis: scaledPrior && scaledPrior.df > 0 ? 'moderated' : 'launches',
  };
}

/**
 * The confidence interval of a ratio from its launches' ratios: on their natural logs, mean ± t·s/√k
 * (t with k − 1 degrees of freedom, or moderated by the group's prior, Smyth 2004), mapped back
 * with exp; the centre is the geometric mean of the launch ratios. Asymmetric, never below 0. Null
 * with fewer than 2 launches and no prior, or a launch ratio that is not a positive finite number.
 * @param launchRatios each kept launch's ratio (its median per-round serializer ÷ baseline ratio)
 * @param within the variance of one launch ratio's log from its own rounds ({@link withinVariance} of their relative errors): a floor
 */
export function ratioInterval(
  launchRatios: readonly number[],
  confidence: number,
  prior?: LaunchPrior,
  within = 0,
): LaunchInterval | null {
  const k = launchRatios.length;
  if (!k || launchRatios.some((r) => !(r > 0) || !Number.isFinite(r))) return null;
  const logs = launchRatios.map(Math.log);
  const centre = meanOf(logs);
  const m = moderate(k >= 2 ? Math.max(sampleVariance(logs), finiteOr0(within)) : 0, k - 1, prior);
  if (!(m.df > 0)) return null;
  const h = (tQuantile(confidence, m.df) * Math.sqrt(m.variance)) / Math.sqrt(k);
  return {
    centre: Math.exp(centre),
    low: Math.exp(centre - h),
    high: Math.exp(centre + h),
    df: m.df,
    launches: k,
    confidence,
    basis: prior && prior.df > 0 ? 'moderated' : 'launches',
  };
}

/**
 * The largest d₀ a group's prior is given: 4. The prior assumes the group's cases share one
 * launch-to-launch variance; they do not exactly (a validator's launches spread more than
 * JSON.stringify's), so the prior is never trusted as if it were known: with d₀ = 4 and 2 launches
 * of its own a case's t quantile is t(5) = 6.87 at 99.9% (against 636.6 alone), and a case whose
 * own launches spread far more than the group's still widens (its own variance keeps weight 1/5).
 */
export const PRIOR_DF_MAX = 4;

/**
 * The prior one case gets from the other cases of its group (Smyth's s₀² and d₀): s₀² the pooled
 * log-scale launch variance of the other cases, Σ dᵢ·sᵢ² / Σ dᵢ (dᵢ = launches − 1; unbiased when
 * they share one variance, and pulled up, so wider, by a case whose launches spread more), d₀ the
 * sum of their degrees of freedom, at most {@link PRIOR_DF_MAX}. Each entry is one other case's
 * launch values (launch means or launch ratios, all positive); cases with fewer than 2 launches say
 * nothing. Undefined when no other case has 2 launches.
 */
export function launchPrior(others: readonly (readonly number[])[]): LaunchPrior | undefined {
  const usable = others.filter((xs) => xs.length >= 2 && xs.every((x) => x > 0 && Number.isFinite(x)));
  if (!usable.length) return undefined;
  const df = usable.reduce((s, xs) => s + xs.length - 1, 0);
  const pooled = usable.reduce((s, xs) => s + (xs.length - 1) * sampleVariance(xs.map(Math.log)), 0) / df;
  return { variance: pooled, df: Math.min(PRIOR_DF_MAX, df) };
}

/**
 * Whether a ratio's interval settles a question of size `resolve` (a fraction: 0.02 for
 * `--resolve 2%`) about the band [1 − resolve, 1 + resolve] around 1 (Decision 1 of issue 23, as
 * tachometer's auto-sample conditions): `different` when the interval lies wholly outside the band
 * (below 1 − resolve or above 1 + resolve: the two differ by more than resolve, in a known
 * direction), `within` when it lies wholly inside it (any difference is smaller than resolve),
 * `unresolved` otherwise (it straddles an edge of the band: more launches may settle it). A null
 * interval (fewer than 2 launches, no prior) is `unresolved`. For a time, pass the interval divided by its centre.
 * @throws RangeError when `resolve` is not in (0, 1)
 */
export function resolution(
  interval: Pick<LaunchInterval, 'low' | 'high'> | [number, number] | null,
  resolve: number,
): 'different' | 'within' | 'unresolved' {
  if (!(resolve > 0 && resolve < 1)) throw new RangeError(`resolution: resolve must be in (0, 1), got ${resolve}`);
  if (!interval) return 'unresolved';
  const [low, high] = Array.isArray(interval) ? interval : [interval.low, interval.high];
  if (!(low <= high)) return 'unresolved';
  if (high < 1 - resolve || low > 1 + resolve) return 'different';
  if (low >= 1 - resolve && high <= 1 + resolve) return 'within';
  return 'unresolved';
}

/** True when {@link resolution} settles the case (`different` or `within`): the adaptive launcher's stop predicate. */
export function isResolved(interval: Pick<LaunchInterval, 'low' | 'high'> | [number, number] | null, resolve: number) {
  return resolution(interval, resolve) !== 'unresolved';
}

/** One state of a case's launches: the launches whose values agree with each other within their own errors. */
export interface LaunchState {
  /** geometric mean of its launches' values */
  value: number;
  /** indexes (into the values given) of its launches */
  launches: number[];
}

/**
 * The distinct states of a case's launches (bimodal and worse): sorted by value, consecutive launches
 * join one state unless they disagree beyond their own within-launch errors: |ln a − ln b| > z ·
 * √(se_a² + se_b²), z the two-sided normal quantile of `confidence`, se the relative standard error
 * of each launch's value (its MAD-based error, stats/median.ts medianRelativeError). One state (an
 * array of length 1) when every neighbour agrees; two or more when the launches fell into distinct
 * states (a machine or process state that held for whole launches), which no single centre
 * describes: the caller then reports the states (analysers/launch-states.ts) and widens the interval
 * to cover them ({@link coverStates}). Values that are not positive and finite are left out.
 * @param values each launch's value (ratio or mean time)
 * @param ses each launch's relative standard error (Infinity: agrees with anything)
 */
export function launchStates(values: readonly number[], ses: readonly number[], confidence: number): LaunchState[] {
  const z = jStat.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  const order = values
    .map((v, i) => ({ v, se: ses[i] ?? Infinity, i }))
    .filter((x) => x.v > 0 && Number.isFinite(x.v))
    .sort((a, b) => a.v - b.v);
  const states: { v: number; i: number }[][] = [];
  for (const [j, x] of order.entries()) {
    const prev = order[j - 1];
    const apart =
      prev !== undefined &&
      Number.isFinite(prev.se) &&
      Number.isFinite(x.se) &&
      Math.log(x.v) - Math.log(prev.v) > z * Math.hypot(prev.se, x.se);
    if (!states.length || apart) states.push([]);
    states[states.length - 1].push(x);
  }
  return states.map((s) => ({ value: Math.exp(meanOf(s.map((x) => Math.log(x.v)))), launches: s.map((x) => x.i) }));
}

/**
 * An interval widened to cover every state's launches (the lowest and the highest launch value),
 * when the launches fell into two or more states; the interval as it is otherwise. A null interval
 * with two or more states becomes [lowest, highest].
 */
export function coverStates(
  interval: [number, number] | null,
  values: readonly number[],
  states: readonly LaunchState[],
): [number, number] | null {
  if (states.length < 2) return interval;
  const finite = values.filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return interval ? [Math.min(interval[0], lo), Math.max(interval[1], hi)] : [lo, hi];
}
