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
 * freedom (t₀.₉₉₉₅ = 636.6 with 1), so a case may borrow the launch-to-launch variance of the other
 * cases of its group ({@link GroupSpread}), in one of two ways, by how the group's launches ran:
 *
 * - `shared`: the group's cases ran launch l in one process (the JavaScript worker's group launch,
 *   run/group-launch.ts). Then a launch's process and machine state move every case of it (and the
 *   paired cases share the baseline's samples), so the cases' launch values are not independent:
 *   the group's other cases add no launch-to-launch information beyond the k launches themselves.
 *   The variance comes from the cases × launches table of log values as a two-way random-effects
 *   model without replication, y_cl = μ_c + L_l + (CL)_cl: {@link sharedLaunchVariance} (launch
 *   main effect MS_L with k − 1 df, case × launch interaction MS_CL with (C − 1)(k − 1) df; one
 *   case's launch value has variance σ_L² + σ_CL², estimated by MS_L/C + (C − 1)/C · MS_CL) with
 *   Satterthwaite's degrees of freedom (F. E. Satterthwaite, "An approximate distribution of
 *   estimates of variance components", Biometrics Bulletin 2(6), 1946, 110–114; Searle, Casella &
 *   McCulloch 1992, ch. 4, balanced data). When the launch effect dominates the df fall to about k − 1, as
 *   they must: one shared launch effect per launch, however many cases read it.
 * - `prior`: the cases' launches were separate processes (the .NET worker launches one pair per
 *   process; a config's serializer is launched alone). Then the others' launch variances are
 *   independent information, and the case's variance is Smyth's moderated one, s̃² = (d₀·s₀² +
 *   d·s²) / (d₀ + d) with d₀ + d degrees of freedom (G. K. Smyth, "Linear models and empirical
 *   Bayes methods for assessing differential expression in microarray experiments", Stat. Appl.
 *   Genet. Mol. Biol. 3(1), 2004, eq. 2 and §4), s₀² pooled from the others ({@link launchPrior}).
 *
 * Either way a case much noisier than its group keeps its own variance (the heterogeneity guard,
 * {@link HETEROGENEITY_LEVEL}), and a case with more launches of its own than the group's table
 * gives df keeps its own (see {@link caseVariance}). Variances are of natural logs (relative), where
 * cases of different speeds share one.
 *
 * Both measures are built on the natural log of each launch's value (its mean time, or its ratio:
 * they vary by factors, and their spread is symmetric in log space): the centre is the geometric
 * mean of the launch values, the interval exp(mean ± t·s/√k), asymmetric and never below 0 (time
 * since branch `stats5`; before, mean ± t·s/√k on the linear scale). The centre and the interval
 * are of the same statistic in both.
 */
import jstatModule from 'jstat';
import { meanOf, sampleVariance } from './estimate.js';

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

/**
 * What the other cases of a case's group say about its launch-to-launch variance: `variance`, a
 * variance of natural logs of launch values (≈ the squared relative launch-to-launch SD, within-launch
 * noise included), and `df`, its degrees of freedom. `kind` says how it is used ({@link caseVariance}):
 * `prior`, Smyth's prior s₀² with d₀ = `df`, combined with the case's own variance (its launches
 * were separate processes from the others'); `shared`, the two-way estimate over launches the case
 * shared with the others ({@link sharedLaunchVariance}, Satterthwaite df), used in place of its own.
 */
export interface GroupSpread {
  kind: 'prior' | 'shared';
  variance: number;
  df: number;
}

/** An interval of a mean of launch values, with how it was made. */
export interface LaunchInterval {
  /** the estimate: the geometric mean of the launch means (time, ns/op), or of the launch ratios (ratio) */
  centre: number;
  low: number;
  high: number;
  /** degrees of freedom of the t quantile */
  df: number;
  /** launches it was made of (positive finite values only) */
  launches: number;
  confidence: number;
  /** the standard error of the centre's log, √(v/k) (v the case's launch variance, k its launches): what the stop rule's precision reads (run/stop-rule.ts) */
  se: number;
  /** `launches`: from the launch values alone; `moderated`: with the group's launch-to-launch variance ({@link GroupSpread}) */
  basis: 'launches' | 'moderated';
  /** why the group's or the run's variance was given and not used ({@link caseVariance}): the case is noisier than its group, has more df of its own, or its group's launches spread beyond the run's */
  own?: OwnReason;
}

/** Why a case's interval kept a variance of its own or of its group ({@link caseVariance}). */
export type OwnReason = 'heterogeneous' | 'more launches' | 'above the run';

/** `x` when it is a finite non-negative number, else 0. */
const finiteOr0 = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);

/** Positive finite numbers only. */
const positive = (xs: readonly number[]) => xs.filter((x) => x > 0 && Number.isFinite(x));

/**
 * The variance of one launch's value that its own within-launch noise implies: the mean of the
 * launches' squared standard errors (absolute for times, ns²; relative, i.e. of the log, for ratios).
 * The launch values' variance is floored at it: their variance is σ_a² + σ_e²/m, never below the
 * within-launch part, so an estimate under it is the launch component σ_a² estimated below 0 by
 * chance. The ANOVA estimator itself does not truncate (Searle, Casella & McCulloch 1992, ch. 3,
 * discuss its negative estimates); truncating at 0, as here, is the usual modification, which
 * biases the estimate up — two launches that happened to agree to the last digit do not make a
 * zero-width interval. Standard errors that are not finite are left out. 0 without any.
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
 * The interval of one launch's median from its rounds: centre · exp(±t · se) on the log scale, `se`
 * the median's MAD-based relative standard error (stats/median.ts medianRelativeError), t with
 * rounds − 1 degrees of freedom. What a paired case measured in a single launch (policy quick) can
 * say of its ratio: robust to one slow round, which a t-interval of the rounds' logs is not (a
 * round 7× its neighbours moved that centre 45% and spread its interval over 0.28–204). Why the
 * MAD-based error: it tracks launch-to-launch spread over a launch's first ~10 rounds (observed ÷
 * predicted 0.7–1.3, measure/timing.ts measureRounds). Null when `se` is not finite and positive,
 * `rounds` < 2 or `centre` not positive finite.
 */
export function medianRoundsInterval(
  centre: number,
  se: number,
  rounds: number,
  confidence: number,
): [number, number] | null {
  if (!(centre > 0) || !Number.isFinite(centre) || !(se > 0) || !Number.isFinite(se) || rounds < 2) return null;
  const h = tQuantile(confidence, rounds - 1) * se;
  return [centre * Math.exp(-h), centre * Math.exp(h)];
}

/**
 * The level of the heterogeneity guard ({@link caseVariance}): a case whose own launch variance s²
 * exceeds the rest of its group's s_g² (the group without it, so a noisy case does not raise the
 * bar it is held to) beyond the upper 5% point of F(own df, group df) keeps its own variance and
 * df. Borrowing assumes the group's cases share one launch-to-launch variance; a validator whose
 * launches spread 3× as far as JSON.stringify's does not, and borrowing would under-cover it (the
 * reviewer's simulation: 97.1% for 99.9% nominal at 2 launches). This is the F test of two
 * variances (e.g. Snedecor & Cochran, "Statistical Methods", 8th ed., 1989) used as a screen, a
 * simpler cousin of Phipson et al.'s robust hyperparameters, which give an outlying case less prior
 * weight (B. Phipson, S. Lee, I. J. Majewski, W. S. Alexander & G. K. Smyth, "Robust hyperparameter
 * estimation protects against hypervariable genes and improves power to detect differential
 * expression", Ann. Appl. Stat. 10(2), 2016). Its power grows with the case's own df, so with 2–5
 * launches a case noisier than its group stays somewhat under-covered (docs/intervals.md gives the
 * simulated figures); a homogeneous case trips it 5% of the time and then gets its own variance,
 * moderated with the run's prior where the run lends one ({@link runPriorWeight}: never its own
 * t(1) = 636.6 at 2 launches then), else its own t(k − 1) interval.
 */
export const HETEROGENEITY_LEVEL = 0.95;

/**
 * The heterogeneity guard's test for a case whose launches its group shared ({@link interactionGuard}):
 * `row`, the variance of the case's launch values about the others' launch means, scaled to the
 * interaction's (k − 1 df, `rowDf`), and `variance`, the others' case × launch interaction mean
 * square MS_CL with `df` = (C − 2)(k − 1), C the cases with the case.
 */
export interface InteractionGuard {
  row: number;
  rowDf: number;
  variance: number;
  df: number;
}

/**
 * The heterogeneity guard's yardstick for a case whose launches were shared with its group's other
 * cases (`table`: the others' rows of log launch values, `row` the case's, one column per shared
 * launch): under the two-way model y_cl = μ_c + L_l + (CL)_cl with one interaction variance σ² for
 * every case, d_l = y_l − ȳ_(others),l (the case's value less the others' launch mean) has the
 * launch effect L_l removed, and var(d_l − d̄) = σ²·(1 + 1/(C − 1)), C the cases with this one; so
 * s_d²·(C − 1)/C over MS_CL of the others (their interaction, (C − 2)(k − 1) df) is F(k − 1,
 * (C − 2)(k − 1)) for a case like the others (the F test of two independent variances: the others'
 * interaction residuals are orthogonal to their column means). The case's own variance, which the
 * guard compared before (branch `stats5`), carries the shared launch effect σ_L² beside its own, so
 * it tripped 21–33% of the time for a case 3× noisier than its group (a statistician's review,
 * sr3); the interaction row does not. Undefined with fewer than 2 other cases (no interaction df),
 * fewer than 2 launches, rows of unequal length, or values that are not finite.
 */
export function interactionGuard(
  row: readonly number[],
  table: readonly (readonly number[])[],
): InteractionGuard | undefined {
  const C = table.length + 1;
  const k = row.length;
  if (
    C < 3 ||
    k < 2 ||
    table.some((r) => r.length !== k) ||
    [row, ...table].some((r) => r.some((x) => !Number.isFinite(x)))
  )
    return undefined;
  const est = sharedLaunchVariance(table);
  if (!est) return undefined;
  const d = row.map((y, l) => y - meanOf(table.map((r) => r[l])));
  return { row: (sampleVariance(d) * (C - 1)) / C, rowDf: k - 1, variance: est.msInteraction, df: (C - 2) * (k - 1) };
}

/**
 * The largest d₀ a `prior` spread is given: 4, a heuristic. Smyth's d₀ and s₀² are
 * empirical-Bayes estimates from the spread of thousands of genes' variances; a group here has
 * 2–8 cases, too few to estimate d₀, and they do not share one variance exactly (a validator's
 * launches spread more than JSON.stringify's), so the prior is never trusted as if it were known.
 * With d₀ = 4 and 2 launches of its own a case's t quantile is t(5) = 6.87 at 99.9% (against
 * 636.6 alone) — when the others give at least 4 df: with fewer (one other case of 2 launches:
 * d₀ = 1) it is t(d₀ + 1), t(2) = 31.6.
 */
export const PRIOR_DF_MAX = 4;

/**
 * The largest d₀ per measure (branch `stats5`): Smyth's moment estimate of d₀ on two recorded quiet
 * default runs (32 groups each; studies/interval-coverage/prior-df.ts on
 * test/fixtures/stats/quiet-default-run*.json.gz) is 1.95–2.34 for time (2.59–2.88 with each
 * class centred on its own s₀²) and 8.9–∞ for ratios: the groups' time variances spread as an
 * inverse-χ² of about 2.5 df, so a time prior is worth about 2.5 launch contrasts, not 4 (at 2
 * launches t(3.5) = 9.8 at 99.9%, not t(5) = 6.87). Ratios keep {@link PRIOR_DF_MAX}.
 */
export const PRIOR_DF_MAX_BY_MEASURE = Object.freeze({ time: 2.5, ratio: PRIOR_DF_MAX } as const);

/** A case's launch-to-launch variance (log scale) as {@link caseVariance} chose it. */
export interface CaseVariance {
  variance: number;
  df: number;
  basis: 'launches' | 'moderated';
  own?: OwnReason;
}

/**
 * What the other groups of the run say about the launch-to-launch variance of a case's launch
 * values (log scale): Smyth's s₀² and d₀ pooled from groups that ran in other processes
 * ({@link pooledRunPrior}), so independent of this group's launch effects. {@link caseVariance}
 * moderates the case's within-group estimate with it.
 */
export interface RunPrior {
  variance: number;
  df: number;
}

/**
 * One group's estimate of the variance of one case's launch value (log scale), for the run's
 * prior ({@link pooledRunPrior}): `variance` (the two-way estimate over its shared launches, or
 * its cases' pooled variance where they ran in separate processes), `df` its degrees of freedom
 * (Satterthwaite's, or the pooled df), and `weight`, its launch contrasts (launches − 1 of its
 * table; the pooled df for separate processes): a weight fixed by the design, not by the data.
 */
export interface GroupEstimate {
  variance: number;
  df: number;
  weight: number;
}

/**
 * The run's prior from other groups' estimates: s₀² = Σ wᵢ·sᵢ² / Σ wᵢ, wᵢ each group's launch
 * contrasts (fixed by the design: Satterthwaite's df are estimated from the same mean squares as
 * sᵢ², larger where launches happened to agree, so weighting by them would pull s₀² down), and
 * d₀ = min(`cap`, Σ wᵢ): with one common variance s₀² is unbiased and worth Σ wᵢ launch contrasts
 * at least; the cap says the groups do not share one variance exactly. The caps
 * ({@link PRIOR_DF_MAX_BY_MEASURE}: 2.5 for time, 4 for ratios) are heuristics on the wide side:
 * Smyth's trigamma estimate on the 64 recorded quiet groups (studies/interval-coverage/prior-df.ts)
 * reads time 2.15 but cannot pin it down (bootstrap 1.45–5.83; docs/intervals.md, third review). The arithmetic pool is the mean of the groups' variances, which under
 * Smyth's model is s₀²·d₀/(d₀ − 2), above the typical group's: conservative for most groups; the
 * weight a group keeps against it falls for a group well above it ({@link runPriorWeight}). Undefined without an estimate of
 * positive weight and finite positive variance.
 */
export function pooledRunPrior(estimates: readonly GroupEstimate[], cap: number = PRIOR_DF_MAX): RunPrior | undefined {
  const usable = estimates.filter((e) => e.weight > 0 && e.variance > 0 && Number.isFinite(e.variance));
  const w = usable.reduce((s, e) => s + e.weight, 0);
  if (!(w > 0)) return undefined;
  return { variance: usable.reduce((s, e) => s + e.weight * e.variance, 0) / w, df: Math.min(cap, w) };
}

/**
 * The level of the class-agreement test of {@link classPooledPrior}: the other classes' groups
 * lend their full weight while their pooled variance and the class's differ by at most this
 * quantile of F (either way up), less beyond it.
 */
export const CLASS_AGREEMENT_LEVEL = 0.5;

/**
 * The run's prior for a group from the other groups of its target, respecting its class
 * (`own`: the groups of its class; `rest`: the target's groups of other classes): with at least
 * {@link PRIOR_DF_MAX} launch contrasts of its class, theirs alone ({@link pooledRunPrior});
 * without any, the rest's; between, the class's groups at full weight and the rest's at a weight
 * ρ·wᵢ, ρ the classes' agreement: 1 while the two pools' variances differ by at most q, the
 * {@link CLASS_AGREEMENT_LEVEL} quantile of F(larger's weight, smaller's weight), then q/F
 * (continuously less as the classes differ further). d₀ = min({@link PRIOR_DF_MAX}, Σ own wᵢ + ρ·Σ rest wᵢ).
 * Why: a serializer's ratio spreads about twice as far as a parser's on recorded runs, and the
 * default suite's 3 groups a class (1 contrast each) never give 4 contrasts of a class, so the
 * prior pooled every class: beside groups at half its SD a group's time covered 99.56–99.70%
 * (nominal 99.9%). The down-weighting of another class by q/F is this project's heuristic (the
 * same form as {@link runPriorWeight}).
 */
export function classPooledPrior(
  own: readonly GroupEstimate[],
  rest: readonly GroupEstimate[],
  level = CLASS_AGREEMENT_LEVEL,
  cap: number = PRIOR_DF_MAX,
): RunPrior | undefined {
  const mine = pooledRunPrior(own, cap);
  const theirs = pooledRunPrior(rest, cap);
  const weight = (es: readonly GroupEstimate[]) =>
    es.filter((e) => e.weight > 0 && e.variance > 0 && Number.isFinite(e.variance)).reduce((n, e) => n + e.weight, 0);
  const wc = weight(own);
  if (!mine || wc >= PRIOR_DF_MAX || !theirs) return mine ?? theirs;
  const wo = weight(rest);
  const up = mine.variance >= theirs.variance;
  const f = up ? mine.variance / theirs.variance : theirs.variance / mine.variance;
  const q = jStat.centralF.inv(level, up ? wc : wo, up ? wo : wc);
  const rho = f > q ? q / f : 1;
  return pooledRunPrior([...own, ...rest.map((e) => ({ ...e, weight: e.weight * rho }))], cap);
}

/**
 * The floor of the weight a run's prior keeps however far a group's launches spread beyond it
 * ({@link runPriorWeight}): 1 launch contrast, so a case of 2 launches gets at least t(2), never
 * the t(1) = 636.6 of its own single contrast.
 */
export const PRIOR_DF_MIN = 1;

/**
 * The weight (prior degrees of freedom) the run's prior keeps against a variance `variance` of
 * `df` degrees of freedom: the prior's d₀ while variance ÷ s₀² is at most the `level` quantile q
 * of F(df, d₀) (what a group of the run's own spread gives, 95% of the time), then d₀·q/F,
 * falling continuously as the group spreads further beyond the run, floored at
 * {@link PRIOR_DF_MIN} (or d₀ when that is smaller). A group-specific, reduced prior df for an
 * outlying variance is the idea of Phipson et al.'s robust hyperparameters (B. Phipson, S. Lee,
 * I. J. Majewski, W. S. Alexander & G. K. Smyth, Ann. Appl. Stat. 10(2), 2016, §3: outlying genes
 * get a smaller df.prior); the q/F form and the floor are this project's heuristic, not their
 * estimator. It replaced an F screen that dropped the prior whole above q (t(5) → t(1) for a 0.2%
 * change in the data; "1.30 [0.0006–3091]" on a quiet machine's default suite).
 */
export function runPriorWeight(variance: number, df: number, run: RunPrior, level = HETEROGENEITY_LEVEL): number {
  if (!(level < 1) || !(df > 0) || !(variance > 0)) return run.df;
  const f = variance / run.variance;
  const q = jStat.centralF.inv(level, df, run.df);
  return f > q ? Math.max(Math.min(run.df, PRIOR_DF_MIN), (run.df * q) / f) : run.df;
}

/**
 * A within-group variance (`base`, {@link caseVariance}'s choice from the case and its group)
 * moderated with the run's prior: (w·s₀² + d·s²)/(w + d) with w + d df, floored at `floor`, w
 * the weight the prior keeps against it ({@link runPriorWeight}: d₀, less when the variance
 * spreads beyond the run's). A case its group's heterogeneity guard let keep its own variance
 * (`heterogeneous`) is moderated the same way (it keeps its reason), so it is never left with
 * its own 1–2 df. `own: 'above the run'` marks a variance the prior kept less than d₀ against.
 * Without `base` (one launch, nothing in its group), the prior alone, d₀ df.
 */
function withRunPrior(base: CaseVariance | null, run: RunPrior, floor: number, level: number): CaseVariance | null {
  if (!(run.df > 0 && run.variance > 0 && Number.isFinite(run.variance))) return base;
  if (!base) return { variance: Math.max(run.variance, floor), df: run.df, basis: 'moderated' };
  const w = runPriorWeight(base.variance, base.df, run, level);
  if (!(w > 0)) return { ...base, own: base.own ?? 'above the run' };
  const variance = (w * run.variance + base.df * base.variance) / (w + base.df);
  const own = base.own === 'heterogeneous' ? base.own : w < run.df ? 'above the run' : undefined;
  return { variance: Math.max(variance, floor), df: w + base.df, basis: 'moderated', ...(own ? { own } : {}) };
}

/**
 * The variance of one launch value of a case (log scale, relative) and its df, from its own
 * launches and what its group lends it:
 * - no usable spread: its own sample variance (k − 1 df), floored at `within`;
 * - heterogeneity guard: when its own variance exceeds the group's without it (`others`, else
 *   `spread`) beyond the {@link HETEROGENEITY_LEVEL} quantile of F(k − 1, that df), its own, own
 *   df (`own: 'heterogeneous'`): the larger variance, with the fewer df;
 * - `prior` (separate processes): Smyth's moderated variance, (d₀·s₀² + d·s²)/(d₀ + d) with d₀ + d
 *   df; with one launch the prior alone (d₀ df);
 * - `shared` (launches shared with the group): the group's two-way estimate s_g² with its
 *   Satterthwaite df — unless the case's own df (k − 1, with launches beyond the group's common
 *   ones: extra adaptive launches) exceed them, then its own (`own: 'more launches'`). The variance
 *   is max(s_g², (d₀·s_g² + (k − 1)·s²)/(d₀ + k − 1)) with d₀ = `cap` (the measure's,
 *   {@link PRIOR_DF_MAX_BY_MEASURE}): the case's own variance keeps the weight it would have against
 *   Smyth's prior and can only widen it (a case somewhat noisier than its group, which the guard let
 *   pass); the df stay the table's, or where the case's own variance raised it, move continuously
 *   toward at most d₀ + k − 1 (Smyth's moderated df; branch `stats5`; {@link sharedDf}).
 * With a `prior` spread (separate processes) and `run`, the two are one prior: pooled by their
 * weights, (d_g·s_g² + d_r·s_r²)/(d_g + d_r) with d₀ = min({@link PRIOR_DF_MAX}, d_g + d_r), and the
 * case moderated with it once (a heterogeneous case: its own, moderated with the run's as below).
 * Otherwise, with `run` (the other groups' prior, {@link RunPrior}), that choice (the heterogeneous
 * case's own variance included) is moderated with it: (w·s₀² + d·s²)/(w + d) with w + d df, w =
 * d₀ unless the choice's variance exceeds s₀² beyond the `level` quantile of F(d, d₀), then less,
 * continuously, never below {@link PRIOR_DF_MIN} ({@link runPriorWeight}; `own: 'above the run'`);
 * with one launch and nothing from its group, s₀² alone with d₀ df.
 * Every variance is floored at `within` ({@link withinVariance}). Null when no positive variance
 * results (one launch without a spread or a run prior; launch values that agree exactly with no within-launch error).
 * @param own the case's own sample variance of its launch values' logs, undefined with fewer than 2 launches
 * @param ownDf its degrees of freedom (launches − 1)
 * @param within the relative variance one launch value has from its own rounds
 * @param others the group's variance without this case, with its df (the guard's yardstick, so a noisy case does not raise the bar it is held to); absent: `spread`
 * @param level the heterogeneity guard's F quantile ({@link HETEROGENEITY_LEVEL}; 1: no guard)
 * @param run the prior from the run's other groups ({@link pooledRunPrior}), absent in a run of one group
 */
export function caseVariance(
  own: number | undefined,
  ownDf: number,
  within: number,
  spread?: GroupSpread,
  others?: { variance: number; df: number; guard?: InteractionGuard },
  level = HETEROGENEITY_LEVEL,
  run?: RunPrior,
  cap: number = PRIOR_DF_MAX,
): CaseVariance | null {
  const usableRun = run && run.df > 0 && run.variance > 0 && Number.isFinite(run.variance);
  if (
    usableRun &&
    spread?.kind === 'prior' &&
    spread.df > 0 &&
    spread.variance > 0 &&
    Number.isFinite(spread.variance)
  ) {
    // separate processes: the group's other cases and the run's other groups are one prior, not two
    // stacked (which gave d₀ up to 8: t(9) at 2 launches against the cap of 4)
    const df = spread.df + run.df;
    const pooled: GroupSpread = {
      kind: 'prior',
      variance: (spread.df * spread.variance + run.df * run.variance) / df,
      df: Math.min(cap, df),
    };
    const base = groupVariance(own, ownDf, within, pooled, others, level, cap);
    return base?.own === 'heterogeneous' ? withRunPrior(base, run, finiteOr0(within), level) : base;
  }
  const base = groupVariance(own, ownDf, within, spread, others, level, cap);
  return run ? withRunPrior(base, run, finiteOr0(within), level) : base;
}

/**
 * The df of a shared-launch case whose own spread may have raised its variance above the group's
 * ({@link groupVariance}): the table's `tableDf` while `mixed` ≤ `groupVariance`, Smyth's
 * min(tableDf, `smythDf`) as the case's own spread comes to dominate, and in between the
 * Satterthwaite-style harmonic blend 1/((1 − w)/tableDf + w/smyth) by the own share
 * w = (mixed − groupVariance)/mixed, so a small change in the case's data never jumps its df.
 * @param tableDf the group's two-way Satterthwaite df
 * @param mixed the case's moderated variance (relative, log scale)
 * @param groupVariance the group's two-way variance s_g²
 * @param smythDf d₀ + the case's own df
 */
export function sharedDf(tableDf: number, mixed: number, groupVariance: number, smythDf: number): number {
  if (!(mixed > groupVariance) || !(mixed > 0)) return tableDf;
  const w = (mixed - groupVariance) / mixed;
  const smyth = Math.min(tableDf, smythDf);
  return 1 / ((1 - w) / tableDf + w / smyth);
}

/** {@link caseVariance} without the run's prior: the case and its group alone. */
function groupVariance(
  own: number | undefined,
  ownDf: number,
  within: number,
  spread: GroupSpread | undefined,
  others: { variance: number; df: number; guard?: InteractionGuard } | undefined,
  level: number,
  cap: number,
): CaseVariance | null {
  const floor = finiteOr0(within);
  const ownFloored = own !== undefined && Number.isFinite(own) ? Math.max(own, floor) : undefined;
  const alone = (why?: OwnReason): CaseVariance | null =>
    ownFloored !== undefined && ownFloored > 0 && ownDf >= 1
      ? { variance: ownFloored, df: ownDf, basis: 'launches', ...(why ? { own: why } : {}) }
      : null;
  if (!spread || !(spread.df > 0) || !(spread.variance >= 0) || !Number.isFinite(spread.variance)) return alone();
  const hasOwn = own !== undefined && Number.isFinite(own) && ownDf >= 1;
  const yardstick = others && others.df > 0 && others.variance > 0 ? others : spread;
  const g = others?.guard;
  if (hasOwn && level < 1 && g && g.rowDf > 0 && g.df > 0 && g.variance > 0) {
    // shared launches: the case's interaction row against the others' MS_CL ({@link interactionGuard})
    if (g.row / g.variance > jStat.centralF.inv(level, g.rowDf, g.df)) return alone('heterogeneous');
  } else if (hasOwn && yardstick.variance > 0 && level < 1) {
    const f = jStat.centralF.inv(level, ownDf, yardstick.df);
    if (own / yardstick.variance > f) return alone('heterogeneous');
  }
  if (spread.kind === 'prior') {
    const variance = hasOwn
      ? (spread.df * spread.variance + ownDf * ownFloored!) / (spread.df + ownDf)
      : spread.variance;
    const v = Math.max(variance, floor);
    return v > 0 ? { variance: v, df: spread.df + (hasOwn ? ownDf : 0), basis: 'moderated' } : alone();
  }
  if (hasOwn && ownDf > spread.df) return alone('more launches');
  // the case's own variance keeps the weight it has against Smyth's prior of d₀ = `cap` (the measure's), and
  // only ever widens: a case somewhat noisier than its group, which the guard let pass, is pulled
  // up toward its own spread; the df stay the table's where the group's variance stands (the two
  // estimates share the case's own row and the launch effect, so their df do not add)
  const mixed = hasOwn ? (cap * spread.variance + ownDf * ownFloored!) / (cap + ownDf) : 0;
  const v = Math.max(spread.variance, mixed, floor);
  // where the case's own spread raised it, the variance is Smyth's moderated one of the case: its
  // df are at most d₀ + own df, not the table's, which counts every case's launches (branch stats5:
  // a case 3× noisier than its group that the guard let pass covered 92–95% with the table's df).
  // The df move there continuously with the share the case's own spread has in the raised variance,
  // w = (mixed − s_g²)/mixed, as Satterthwaite's df of a weighted sum: 1/((1 − w)/df_g + w/df_S).
  // A switch at mixed = s_g² (until sr4's review) moved a 3-launch case from 11.1 to 6.0 df, its
  // interval from ±6.62% to ±8.93%, for a 1% change in its own variance.
  return v > 0
    ? { variance: v, df: sharedDf(spread.df, mixed, spread.variance, cap + ownDf), basis: 'moderated' }
    : alone();
}

/**
 * The confidence interval of a case's time from its launch means (ns/op), on the log scale as the
 * ratio's ({@link ratioInterval}): exp(m ± t·√(v/k)), m the mean of the launch means' natural logs,
 * v the case's launch variance of those logs ({@link caseVariance}: its own, t with k − 1 df, or
 * with its group's spread and the run's prior). The centre is exp(m), the geometric mean of the
 * launch means (the centre and the interval are of one statistic). Asymmetric, never below 0:
 * built on the linear scale (mean ± t·s/√k, until branch `stats5`) two launches far apart gave an
 * error above the mean (zod in the quiet fixture: launches 82 and 49 µs, error 5.8× the mean),
 * an interval whose lower end was cut at 0; times, like ratios, vary by factors. Launch means that
 * are not positive finite numbers are dropped (the interval is of the others). Null with no launch
 * mean left, or when no variance can be had (one launch without a spread; launch means that agree
 * exactly with no within-launch error).
 * @param launchMeans each kept launch's mean time, ns/op
 * @param confidence e.g. 0.999
 * @param within the variance one launch mean has from its own samples, ns² ({@link withinVariance}): a floor of the launch means' variance (divided by the centre², a relative variance)
 * @param others the group's spread without this case, the heterogeneity guard's yardstick ({@link caseVariance})
 * @param run the run's other groups' prior ({@link RunPrior}; relative variance)
 */
export function meanInterval(
  launchMeans: readonly number[],
  confidence: number,
  spread?: GroupSpread,
  within = 0,
  others?: { variance: number; df: number; guard?: InteractionGuard },
  run?: RunPrior,
): LaunchInterval | null {
  const relative = (m: number) => {
    const centre = Math.exp(m);
    return finiteOr0(within) / (centre * centre);
  };
  const logs = positive(launchMeans).map(Math.log);
  return logScaleInterval(logs, confidence, relative, spread, others, run, PRIOR_DF_MAX_BY_MEASURE.time);
}

/**
 * The confidence interval of a ratio from its launches' ratios: on their natural logs, mean ± t·√(v/k)
 * (v: {@link caseVariance}), mapped back with exp; the centre is the geometric mean of the launch
 * ratios. Asymmetric, never below 0. Launch ratios that are not positive finite numbers are
 * dropped. Null with none left, or when no variance can be had (as {@link meanInterval}).
 * @param launchRatios each kept launch's ratio (its median per-round serializer ÷ baseline ratio)
 * @param within the variance of one launch ratio's log from its own rounds ({@link withinVariance} of their relative errors): a floor
 * @param others the group's spread without this case, the heterogeneity guard's yardstick ({@link caseVariance})
 * @param run the run's other groups' prior ({@link RunPrior})
 */
export function ratioInterval(
  launchRatios: readonly number[],
  confidence: number,
  spread?: GroupSpread,
  within = 0,
  others?: { variance: number; df: number; guard?: InteractionGuard },
  run?: RunPrior,
): LaunchInterval | null {
  return logScaleInterval(positive(launchRatios).map(Math.log), confidence, () => within, spread, others, run);
}

/**
 * What {@link meanInterval} and {@link ratioInterval} share: exp(m ± t·√(v/k)) for `logs`, the natural logs of a
 * case's k positive launch values (launch means or launch ratios), m their mean and v {@link caseVariance} of them
 * (their own sample variance with k − 1 df, `within(m)` as its within-launch floor on the log scale, the group's
 * `spread`, the heterogeneity guard's `others`, the run's prior `run`, at most `cap` prior df: caseVariance's
 * default when absent); t at `confidence` with v's df. Null with no logs, or when caseVariance has no variance.
 */
function logScaleInterval(
  logs: readonly number[],
  confidence: number,
  within: (m: number) => number,
  spread: GroupSpread | undefined,
  others: { variance: number; df: number; guard?: InteractionGuard } | undefined,
  run: RunPrior | undefined,
  cap?: number,
): LaunchInterval | null {
  const k = logs.length;
  if (!k) return null;
  const m = meanOf(logs);
  const v = caseVariance(
    k >= 2 ? sampleVariance(logs) : undefined,
    k - 1,
    within(m),
    spread,
    others,
    HETEROGENEITY_LEVEL,
    run,
    cap,
  );
  if (!v) return null;
  const h = tQuantile(confidence, v.df) * Math.sqrt(v.variance / k);
  return {
    centre: Math.exp(m),
    low: Math.exp(m - h),
    high: Math.exp(m + h),
    df: v.df,
    launches: k,
    confidence,
    se: Math.sqrt(v.variance / k),
    basis: v.basis,
    ...(v.own ? { own: v.own } : {}),
  };
}

/**
 * A `prior` spread (Smyth's s₀² and d₀) from other cases whose launches ran in processes of their
 * own: s₀² the pooled log-scale launch variance Σ dᵢ·sᵢ² / Σ dᵢ (dᵢ = launches − 1; unbiased when
 * they share one variance), floored at `within` (the others' within-launch variance: launch values
 * that agreed to the digit do not lend a variance of 0), d₀ the sum of their df, at most
 * {@link PRIOR_DF_MAX}. Each entry is one other case's launch values (launch means or launch
 * ratios); values that are not positive finite are dropped, and cases left with fewer than 2 say
 * nothing. Undefined when no other case has 2 launches, or the pooled variance is 0 with no floor.
 */
export function launchPrior(
  others: readonly (readonly number[])[],
  within = 0,
  cap: number = PRIOR_DF_MAX,
): GroupSpread | undefined {
  const usable = others.map(positive).filter((xs) => xs.length >= 2);
  if (!usable.length) return undefined;
  const df = usable.reduce((s, xs) => s + xs.length - 1, 0);
  const pooled = usable.reduce((s, xs) => s + (xs.length - 1) * sampleVariance(xs.map(Math.log)), 0) / df;
  const variance = Math.max(pooled, finiteOr0(within));
  return variance > 0 ? { kind: 'prior', variance, df: Math.min(cap, df) } : undefined;
}

/** The two-way random-effects estimate of one case's launch-value variance ({@link sharedLaunchVariance}). */
export interface SharedVariance {
  /** MS_L/C + (C − 1)/C · MS_CL: the variance of one case's launch value (log scale) */
  variance: number;
  /** Satterthwaite's degrees of freedom, between k − 1 and C·(k − 1) */
  df: number;
  /** the launch main effect's mean square, k − 1 df */
  msLaunch: number;
  /** the case × launch interaction's mean square, (C − 1)(k − 1) df (0 with one case) */
  msInteraction: number;
  cases: number;
  launches: number;
}

/**
 * The variance of one case's launch value when a group's cases shared their launches: the
 * two-way random-effects model without replication on the cases × launches table of log values,
 * y_cl = μ_c + L_l + (CL)_cl (cases' means fixed; launch effect L, var σ_L², shared by every case
 * of a launch; interaction CL, var σ_CL², which carries each case's own launch effect and its
 * within-launch noise). Mean squares: MS_L = C·Σ_l (ȳ·l − ȳ··)² / (k − 1), E = σ_CL² + C·σ_L²;
 * MS_CL = Σ (y_cl − ȳ_c· − ȳ·l + ȳ··)² / ((C − 1)(k − 1)), E = σ_CL². So σ_L² + σ_CL² is
 * estimated without bias by MS_L/C + (C − 1)/C · MS_CL (Searle, Casella & McCulloch, "Variance
 * Components", 1992, ch. 4, for the balanced two-way ANOVA estimators; a positive combination of
 * mean squares, so never below 0), with Satterthwaite's approximate df (F. E. Satterthwaite, "An
 * approximate distribution of estimates of variance components", Biometrics Bulletin 2(6), 1946,
 * 110–114): (Σ aᵢ·MSᵢ)² / Σ (aᵢ·MSᵢ)²/dfᵢ. One case (C = 1): its own sample variance, k − 1 df.
 * @param table one row per case, one column per launch all of them shared (the same process), natural logs
 * @returns undefined with no row, fewer than 2 columns, rows of unequal length or a value that is not finite
 */
export function sharedLaunchVariance(table: readonly (readonly number[])[]): SharedVariance | undefined {
  const C = table.length;
  const k = table[0]?.length ?? 0;
  if (!C || k < 2 || table.some((row) => row.length !== k || row.some((x) => !Number.isFinite(x)))) return undefined;
  const rowMeans = table.map(meanOf);
  const colMeans = Array.from({ length: k }, (_, l) => meanOf(table.map((row) => row[l])));
  const grand = meanOf(rowMeans);
  const msLaunch = (C * colMeans.reduce((s, m) => s + (m - grand) ** 2, 0)) / (k - 1);
  const dfI = (C - 1) * (k - 1);
  let ssI = 0;
  for (let c = 0; c < C; c++) for (let l = 0; l < k; l++) ssI += (table[c][l] - rowMeans[c] - colMeans[l] + grand) ** 2;
  const msInteraction = dfI > 0 ? ssI / dfI : 0;
  const a = msLaunch / C;
  const b = ((C - 1) / C) * msInteraction;
  const variance = a + b;
  const denominator = (a * a) / (k - 1) + (dfI > 0 ? (b * b) / dfI : 0);
  // both mean squares 0: the df are not estimable; the launch effect's own k − 1 (the least) is assumed
  const df = denominator > 0 ? (variance * variance) / denominator : k - 1;
  return { variance, df, msLaunch, msInteraction, cases: C, launches: k };
}

/** How a ratio's interval stands against the ±resolve band around 1 ({@link resolution}). */
export type Resolution = 'differs' | 'within' | 'unresolved';

/**
 * Whether a ratio's interval settles a question of size `resolve` (a fraction: 0.02 for
 * `--resolve 2%`) about the band [1 − resolve, 1 + resolve] around 1 (Decision 1 of issue 23, as
 * tachometer's auto-sample conditions): `differs` when the interval lies wholly outside the band
 * (below 1 − resolve or above 1 + resolve: the two differ by more than resolve, in a known
 * direction), `within` when it lies wholly inside it (the band's edges inside), `unresolved`
 * otherwise (it straddles an edge of the band: more launches may settle it). A null interval, and
 * an interval of `basis: 'rounds'` (one launch's rounds: it cannot show the launch-to-launch
 * variance, so it settles nothing; at least 2 launches or a borrowed variance are needed), are
 * `unresolved`, and so is any interval from fewer than 2 `launches` (when given): with one launch a
 * borrowed variance alone would decide, untested by the case's own spread and by the heterogeneity
 * guard, which needs two (a statistician's review: in quick runs with --resolve half the groups
 * settled after one launch, a 3× noisier group covering 97.95% for the ratio). The one place a
 * resolution is decided: the stop rule (run/stop-rule.ts) and the recorded `resolution`
 * (run/scheduler.ts) both call it.
 * @throws RangeError when `resolve` is not in (0, 1)
 */
export function resolution(
  interval: Pick<LaunchInterval, 'low' | 'high'> | readonly [number, number] | null,
  resolve: number,
  basis?: 'launches' | 'moderated' | 'rounds',
  launches?: number,
): Resolution {
  if (!(resolve > 0 && resolve < 1)) throw new RangeError(`resolution: resolve must be in (0, 1), got ${resolve}`);
  if (!interval || basis === 'rounds' || (launches !== undefined && launches < 2)) return 'unresolved';
  const [low, high] = 'low' in interval ? [interval.low, interval.high] : interval;
  if (!(low <= high)) return 'unresolved';
  if (high < 1 - resolve || low > 1 + resolve) return 'differs';
  if (low >= 1 - resolve && high <= 1 + resolve) return 'within';
  return 'unresolved';
}

/** One state of a case's launches: launches whose values lie within the group's launch-to-launch spread of each other. */
export interface LaunchState {
  /** geometric mean of its launches' values */
  value: number;
  /** indexes (into the values given) of its launches */
  launches: number[];
}

/**
 * The distinct states of a case's launches (bimodal and worse): sorted by value, consecutive launches
 * join one state unless their gap is more than the group's launch-to-launch spread and their own
 * errors predict for two launches of one state: |ln a − ln b| > t · √(2·s_g² + se_a² + se_b²), s_g²
 * the group's launch-value variance without this case (`spread`: the others' two-way or pooled
 * estimate, which already holds their within-launch noise), t the two-sided Student quantile of
 * `confidence` with the spread's df (honest ones: Satterthwaite's, or the pooled df), se the
 * relative standard error of each launch's value (stats/median.ts medianRelativeError). Ordinary
 * launch-to-launch spread is then one state; a gap the group's launches never show is two. One
 * state (an array of length 1) when every neighbour agrees, or without a spread (no other case:
 * nothing says how far apart two launches of one state may fall), or when the threshold is 0
 * (no noise known at all). Two or more when the launches fell into distinct states (a machine or
 * process state that held for whole launches), which no single state describes: the caller
 * reports the states (analysers/launch-states.ts) and, with two, adds the mixture's interval of the
 * mean over every launch ({@link mixtureInterval}), with more widens the interval to cover them
 * ({@link coverStates}). Values that are not positive and finite are left out.
 * @param values each launch's value (ratio or mean time)
 * @param ses each launch's relative standard error (Infinity: agrees with anything)
 * @param spread the group's launch-to-launch variance of the log values without this case, with its df
 */
export function launchStates(
  values: readonly number[],
  ses: readonly number[],
  confidence: number,
  spread?: { variance: number; df: number },
): LaunchState[] {
  const order = values
    .map((v, i) => ({ v, se: ses[i] ?? Infinity, i }))
    .filter((x) => x.v > 0 && Number.isFinite(x.v))
    .sort((a, b) => a.v - b.v);
  const usable = spread !== undefined && spread.df > 0 && spread.variance >= 0 && Number.isFinite(spread.variance);
  const t = usable ? tQuantile(confidence, spread.df) : Infinity;
  const states: { v: number; i: number }[][] = [];
  for (const [j, x] of order.entries()) {
    const prev = order[j - 1];
    let apart = false;
    if (prev !== undefined && usable && Number.isFinite(prev.se) && Number.isFinite(x.se)) {
      const threshold = t * Math.sqrt(2 * spread.variance + prev.se * prev.se + x.se * x.se);
      apart = threshold > 0 && Math.log(x.v) - Math.log(prev.v) > threshold;
    }
    if (!states.length || apart) states.push([]);
    states[states.length - 1].push(x);
  }
  return states.map((s) => ({ value: Math.exp(meanOf(s.map((x) => Math.log(x.v)))), launches: s.map((x) => x.i) }));
}

/**
 * An interval widened to cover every state's launches (the lowest and the highest launch value),
 * when the launches fell into two or more states; the interval as it is otherwise. run/assemble.ts
 * uses it for three or more states (and for one launch's rounds); two get {@link mixtureInterval},
 * which shrinks with the launches where the range does not. A null interval
 * with two or more states becomes [lowest, highest]. It covers the states observed only: a state
 * none of the case's launches fell into is not in it.
 */
export function coverStates(
  interval: [number, number] | null,
  values: readonly number[],
  states: readonly LaunchState[],
): [number, number] | null {
  if (states.length < 2) return interval;
  const finite = positive(values);
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return interval ? [Math.min(interval[0], lo), Math.max(interval[1], hi)] : [lo, hi];
}

/**
 * The Wilson score interval of a binomial proportion: `successes` of `n` at two-sided `confidence`
 * (E. B. Wilson, "Probable inference, the law of succession, and statistical inference", JASA
 * 22(158), 1927, 209–212; recommended over the Wald interval for small n by L. D. Brown, T. T. Cai
 * & A. DasGupta, "Interval estimation for a binomial proportion", Statistical Science 16(2), 2001,
 * 101–133). Never outside [0, 1]. @throws RangeError when n < 1 or successes is not in [0, n]
 */
export function wilsonInterval(successes: number, n: number, confidence: number): [number, number] {
  if (!(n >= 1) || !(successes >= 0 && successes <= n))
    throw new RangeError(`wilsonInterval: ${successes} of ${n} is not a proportion`);
  const z = jStat.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + z2n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The upper confidence bound of a variance from its estimate `variance` with `df` degrees of
 * freedom: variance·df / χ²_{1 − level}(df), the one-sided bound of a normal sample's variance
 * (e.g. G. W. Snedecor & W. G. Cochran, "Statistical Methods", 8th ed., 1989, §5.9). The stop
 * rule's precision (run/assemble.ts precisionSe) reads it so that launches which happened to agree
 * (all in one state of two) do not stop a case early. Infinity without df.
 */
export function varianceUpperBound(variance: number, df: number, level: number): number {
  if (!(df > 0)) return Infinity;
  return (variance * df) / jStat.chisquare.inv(1 - level, df);
}

/** A case's launches in two states, as {@link mixtureInterval} reads them. */
export interface MixtureInterval {
  /** the geometric mean of every launch value: each state weighted by its share of the launches (the same centre as {@link ratioInterval}'s) */
  centre: number;
  low: number;
  high: number;
  /** the standard error of the centre's log: √((Δ²·p̃(1 − p̃) + s_w²)/k), p̃ = (n_high + 1)/(k + 2) (Laplace's rule of succession, never 0 or 1) */
  se: number;
  /** each state's share of the launches, low state first */
  shares: [number, number];
}

/**
 * The interval of the mean of a case's launch values when they fell into two states
 * ({@link launchStates}): launches drawn from a two-state mixture, ln x = μ_s + e, the state s the
 * higher one with probability p. The centre is the mean of every launch's log, θ̂ = μ̂_low + p̂·Δ̂
 * (Δ̂ the states' log distance, p̂ the high state's share of the k launches): each state by its
 * share, the statistic every interval of launches reports (never a median, which flips between the
 * states from run to run). What it estimates is θ = μ_low + p·Δ, the mean over the mixture, and
 * θ̂ − θ has two parts: the share's (p̂ − p)·Δ, bounded by the Wilson score interval of the share
 * at `confidence` ({@link wilsonInterval}), and the within-state noise, t·s_w/√k, s_w² the
 * within-state launch variance — the case's pooled within-state variance (k − 2 df) moderated with
 * the judged spread (`within`: the group's and the run's launch-to-launch variance,
 * {@link judgedSpread}) as Smyth's s̃², t the Student quantile with their df. The two are combined
 * end by end as MOVER limits, θ̂ − √(((p̂ − p_L)·Δ̂)² + h_w²) and θ̂ + √(((p_U − p̂)·Δ̂)² + h_w²)
 * (G. Y. Zou & A. Donner, Statistics in Medicine 27(10), 2008, 1693–1702: confidence limits of a
 * sum from each part's own limits). Unlike the launches' range it shrinks as 1/√k with the
 * launches, so a run that keeps launching converges on the mixture's mean; like every interval of
 * launches it cannot hold a state none of them fell into. Null unless there are exactly 2 states
 * with a launch each and a usable `within`.
 * @param values each launch's value (positive finite; indexes as {@link launchStates} gave them)
 * @param states the two states (indexes into `values`)
 * @param within the within-state launch variance of the logs and its df (the judged spread)
 */
export function mixtureInterval(
  values: readonly number[],
  states: readonly LaunchState[],
  confidence: number,
  within: { variance: number; df: number } | undefined,
): MixtureInterval | null {
  if (states.length !== 2 || !within || !(within.df > 0) || !(within.variance >= 0)) return null;
  const logsOf = (st: LaunchState) => st.launches.map((i) => Math.log(values[i]));
  const [a, b] = states.map(logsOf);
  if (!a.length || !b.length || [...a, ...b].some((x) => !Number.isFinite(x))) return null;
  const k = a.length + b.length;
  const ma = meanOf(a);
  const mb = meanOf(b);
  const delta = Math.abs(mb - ma);
  const [lowState, highState] = ma <= mb ? [a, b] : [b, a];
  const centre = meanOf([...a, ...b]);
  const p = highState.length / k;
  // within-state variance: the case's own about each state's mean (k − 2 df) moderated with the judged spread
  const ownDf = k - 2;
  const ownSs = a.reduce((n, x) => n + (x - ma) ** 2, 0) + b.reduce((n, x) => n + (x - mb) ** 2, 0);
  const sw2 = (within.df * within.variance + ownSs) / (within.df + ownDf);
  const df = within.df + ownDf;
  const hw = tQuantile(confidence, df) * Math.sqrt(sw2 / k);
  const [pl, pu] = wilsonInterval(highState.length, k, confidence);
  const down = Math.hypot((p - pl) * delta, hw);
  const up = Math.hypot((pu - p) * delta, hw);
  const pt = (highState.length + 1) / (k + 2);
  return {
    centre: Math.exp(centre),
    low: Math.exp(centre - down),
    high: Math.exp(centre + up),
    se: Math.sqrt((delta * delta * pt * (1 - pt) + sw2) / k),
    shares: [lowState.length / k, highState.length / k],
  };
}

/**
 * The launch-to-launch variance two launches of a case are judged against (log scale, with its
 * df; {@link launchStates}, {@link disagreeingPair}): the case's group without it (`others`)
 * moderated with the run's prior as {@link caseVariance} moderates an interval's variance —
 * (w·s₀² + d·s²)/(w + d) with w + d df, w the weight the prior keeps against the group's
 * ({@link runPriorWeight}: d₀, less when the group spreads beyond the run); either alone when the other is absent;
 * undefined with neither.
 */
export function judgedSpread(
  others: { variance: number; df: number } | undefined,
  run: RunPrior | undefined,
  level = HETEROGENEITY_LEVEL,
): { variance: number; df: number } | undefined {
  const ok = (s?: { variance: number; df: number }) =>
    s !== undefined && s.df > 0 && s.variance >= 0 && Number.isFinite(s.variance);
  if (!ok(run) || !(run!.variance > 0)) return ok(others) ? others : undefined;
  if (!ok(others)) return run;
  const o = others!;
  const r = run!;
  const w = runPriorWeight(o.variance, o.df, r, level);
  if (!(w > 0)) return o;
  return { variance: (w * r.variance + o.df * o.variance) / (w + o.df), df: w + o.df };
}

/**
 * The two launches of a case furthest apart among those that disagree beyond what the spread
 * model predicts for two launches of one case: |ln a − ln b| > t · √(2·s² + se_a² + se_b²), s²
 * the launch-to-launch variance they are judged against ({@link judgedSpread}: it holds the
 * within-launch noise of the launches it came from, so adding each launch's own error is a
 * little conservative), t the two-sided Student quantile of `confidence` with its df, se each
 * launch's relative standard error — the rule of {@link launchStates} applied to every pair. Without a
 * spread (nothing in the group or the run says how far two launches fall apart), the launches'
 * own errors alone: z · √(se_a² + se_b²), z the normal quantile (which fires on ordinary
 * launch-to-launch spread: the last resort of a lone case). Values that are not positive finite
 * and errors that are not finite never disagree. Null when no pair disagrees.
 * @returns the pair's lower and higher value
 */
export function disagreeingPair(
  values: readonly number[],
  ses: readonly number[],
  confidence: number,
  spread?: { variance: number; df: number },
): { a: number; b: number } | null {
  const usable = spread !== undefined && spread.df > 0 && spread.variance >= 0 && Number.isFinite(spread.variance);
  const q = usable ? tQuantile(confidence, spread.df) : jStat.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  const v = usable ? 2 * spread.variance : 0;
  let worst: { a: number; b: number; gap: number } | null = null;
  for (let i = 0; i < values.length; i++)
    for (let j = i + 1; j < values.length; j++) {
      const [x, y, sx, sy] = [values[i], values[j], ses[i] ?? Infinity, ses[j] ?? Infinity];
      if (!(x > 0 && y > 0 && Number.isFinite(x) && Number.isFinite(y))) continue;
      if (!Number.isFinite(sx) || !Number.isFinite(sy)) continue;
      const gap = Math.abs(Math.log(x) - Math.log(y));
      const threshold = q * Math.sqrt(v + sx * sx + sy * sy);
      if ((!usable || threshold > 0) && gap > threshold && (!worst || gap > worst.gap))
        worst = { a: Math.min(x, y), b: Math.max(x, y), gap };
    }
  return worst ? { a: worst.a, b: worst.b } : null;
}
