/**
 * The Mann-Whitney U test (Wilcoxon rank-sum test) of two independent samples, two-sided, by
 * the normal approximation with the tie correction and a continuity correction of 0.5.
 *
 * Why not a library: simple-statistics 7.8 has `wilcoxonRankSum`, which returns only the rank
 * sum (no p-value), and its tie averaging is wrong once there is more than one group of ties (its
 * list of tied ranks is never reset after the first group); jStat has no rank test. So the
 * statistic is computed here and only the normal CDF comes from jStat.
 *
 * Formulas (Mann & Whitney 1947; the normal approximation with tie correction as given in
 * https://en.wikipedia.org/wiki/Mann–Whitney_U_test#Normal_approximation_and_tie_correction, and
 * as R's `wilcox.test(exact = FALSE, correct = TRUE)` and SciPy's
 * `mannwhitneyu(method="asymptotic", use_continuity=True)` compute it):
 *   U₁ = R₁ − n₁(n₁+1)/2, with R₁ the sum of x's ranks in the pooled sample (ties get mean ranks)
 *   μ = n₁n₂/2;  σ² = n₁n₂/12 · ((n+1) − Σ(t³ − t) / (n(n−1))), t = size of each group of ties
 *   z = (U₁ − μ ∓ 0.5) / σ  (the 0.5 moves U₁ towards μ);  p = 2·Φ(−|z|), at most 1.
 * The approximation is good from about 8 values per side; the lab's cases have hundreds.
 */
import jstatModule from 'jstat';

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

/** The test's result: U of the first sample, the z score, the two-sided p-value. */
export interface MannWhitneyResult {
  /** U₁: how many (x, y) pairs have x > y, ties counting ½ */
  u: number;
  z: number;
  /** two-sided p-value in [0, 1] */
  p: number;
  n1: number;
  n2: number;
}

/** Mean ranks (1-based) of the pooled values, and the tie term Σ(t³ − t). */
function rankPooled(values: readonly number[]): { ranks: Float64Array; tieTerm: number } {
  const order = Array.from(values.keys()).sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(values.length);
  let tieTerm = 0;
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (j < order.length && values[order[j]] === values[order[i]]) j++;
    const meanRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) ranks[order[k]] = meanRank;
    const t = j - i;
    tieTerm += t * t * t - t;
    i = j;
  }
  return { ranks, tieTerm };
}

/**
 * Two-sided Mann-Whitney U test of `x` against `y` (any unit; NaN not allowed).
 * @throws Error when either sample is empty.
 */
export function mannWhitneyU(x: readonly number[], y: readonly number[]): MannWhitneyResult {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new Error('mannWhitneyU: both samples need at least one value');
  const n = n1 + n2;
  const { ranks, tieTerm } = rankPooled([...x, ...y]);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += ranks[i];
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const variance = n > 1 ? ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))) : 0;
  if (!(variance > 0)) return { u, z: 0, p: 1, n1, n2 };
  const diff = u - mu;
  const z = (diff - 0.5 * Math.sign(diff)) / Math.sqrt(variance);
  const p = Math.min(1, 2 * jStat.normal.cdf(-Math.abs(z), 0, 1));
  return { u, z, p, n1, n2 };
}
