import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  coverStates,
  isResolved,
  launchPrior,
  launchStates,
  meanInterval,
  PRIOR_DF_MAX,
  ratioInterval,
  resolution,
} from '../../src/stats/intervals.js';
import { confidenceHalfWidth, meanOf } from '../../src/stats/estimate.js';

/** A seeded uniform generator (mulberry32), so every run of this test draws the same numbers. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller) from `u`. */
function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/**
 * One synthetic case: `k` launches of `m` samples around `mu` ns/op, each launch shifted by its own
 * effect (SD `between`, ns) and each sample by within-launch noise (SD `within`): the one-way
 * random-effects model the intervals assume. Returns each launch's samples.
 */
function launches(u: () => number, k: number, m: number, mu: number, between: number, within: number): number[][] {
  return Array.from({ length: k }, () => {
    const shift = between * normal(u);
    return Array.from({ length: m }, () => mu + shift + within * normal(u));
  });
}

/** 95% binomial tolerance of a coverage estimated from `n` draws at `p`, as a fraction. */
const tolerance = (p: number, n: number) => 2.5 * Math.sqrt((p * (1 - p)) / n);

test('meanInterval covers the true mean at its nominal rate when launches vary more than samples (3 and 6 launches)', () => {
  const u = rng(23);
  const sims = 3000;
  for (const k of [3, 6]) {
    for (const confidence of [0.9, 0.99]) {
      let covered = 0;
      let pooledCovered = 0;
      for (let s = 0; s < sims; s++) {
        // between-launch SD 3 ns on 100 ns, within-launch 5 ns over 40 samples (σ_w/√m ≈ 0.8 ns)
        const ls = launches(u, k, 40, 100, 3, 5);
        const iv = meanInterval(ls.map(meanOf), confidence)!;
        if (iv.low <= 100 && 100 <= iv.high) covered++;
        // the interval this replaces: every sample pooled as if independent
        const pooled = ls.flat();
        const h = confidenceHalfWidth(pooled, confidence);
        if (Math.abs(meanOf(pooled) - 100) <= h) pooledCovered++;
      }
      const rate = covered / sims;
      assert.ok(
        Math.abs(rate - confidence) <= tolerance(confidence, sims),
        `k=${k}, ${confidence}: coverage ${rate.toFixed(3)} (nominal ${confidence})`,
      );
      // the pooled-samples interval leaves out the launch-to-launch variance and covers far less
      assert.ok(pooledCovered / sims < confidence - 0.3, `pooled samples covered ${pooledCovered / sims}`);
    }
  }
});

test('meanInterval is the t-interval of the launch means with k − 1 degrees of freedom, centred on their mean', () => {
  // launch means 100, 102, 104: mean 102, s = 2, t(2; 0.975) = 4.303
  const iv = meanInterval([100, 102, 104], 0.95)!;
  assert.equal(iv.centre, 102);
  assert.equal(iv.df, 2);
  assert.equal(iv.basis, 'launches');
  assert.ok(Math.abs(iv.high - 102 - (4.302653 * 2) / Math.sqrt(3)) < 1e-4, `high ${iv.high}`);
  assert.equal(meanInterval([100], 0.95), null, 'one launch and no prior: no interval');
  assert.equal(meanInterval([100, -1], 0.95), null);
});

test('ratioInterval covers the true ratio at its nominal rate (log-normal launch ratios, 2, 4 and 8 launches)', () => {
  const u = rng(7);
  const sims = 3000;
  for (const k of [2, 4, 8]) {
    let covered = 0;
    for (let s = 0; s < sims; s++) {
      const rs = Array.from({ length: k }, () => 0.667 * Math.exp(0.03 * normal(u)));
      const iv = ratioInterval(rs, 0.95)!;
      if (iv.low <= 0.667 && 0.667 <= iv.high) covered++;
    }
    const rate = covered / sims;
    assert.ok(Math.abs(rate - 0.95) <= tolerance(0.95, sims), `k=${k}: coverage ${rate.toFixed(3)}`);
  }
});

test('ratioInterval centres on the geometric mean of the launch ratios, its interval symmetric in log space', () => {
  const iv = ratioInterval([0.5, 2], 0.95)!;
  assert.ok(Math.abs(iv.centre - 1) < 1e-12);
  assert.ok(Math.abs(iv.low * iv.high - 1) < 1e-9, 'low · high = centre²');
  assert.equal(ratioInterval([0.7], 0.95), null);
  assert.equal(ratioInterval([0.7, 0], 0.95), null);
});

test("with the group's prior (Smyth's moderated variance), 2 launches cover at the nominal rate and far more tightly", () => {
  const u = rng(11);
  const sims = 3000;
  let covered = 0;
  let widthModerated = 0;
  let widthAlone = 0;
  for (let s = 0; s < sims; s++) {
    // a group of 7 cases sharing one launch-to-launch log-SD (2%), 2 launches each
    const group = Array.from({ length: 7 }, (_, i) =>
      Array.from({ length: 2 }, () => (0.5 + 0.1 * i) * Math.exp(0.02 * normal(u))),
    );
    const prior = launchPrior(group.slice(1))!;
    assert.equal(prior.df, PRIOR_DF_MAX);
    const iv = ratioInterval(group[0], 0.95, prior)!;
    assert.equal(iv.basis, 'moderated');
    assert.equal(iv.df, PRIOR_DF_MAX + 1);
    if (iv.low <= 0.5 && 0.5 <= iv.high) covered++;
    widthModerated += Math.log(iv.high / iv.low);
    const alone = ratioInterval(group[0], 0.95)!;
    widthAlone += Math.log(alone.high / alone.low);
  }
  const rate = covered / sims;
  // d₀ is capped below the prior's real df (6), so the interval errs wide: nominal or a little above
  assert.ok(rate >= 0.95 - tolerance(0.95, sims) && rate <= 0.99, `coverage ${rate.toFixed(3)}`);
  // t(1; 0.975) = 12.7 alone against t(5; 0.975) = 2.57 moderated: about 4× narrower (at 99.9%, 636.6 against 6.87)
  assert.ok(widthModerated < widthAlone / 3, `moderated ${widthModerated / sims} vs alone ${widthAlone / sims}`);
});

test('launchPrior pools the log variances of the other cases (Σ dᵢ sᵢ² / Σ dᵢ) and ignores cases of one launch', () => {
  const p = launchPrior([[1, Math.E], [2], [1, 1, 1]])!;
  // ln-values: [0, 1] (s² = 0.5, d = 1) and [0, 0, 0] (s² = 0, d = 2): pooled 0.5/3
  assert.ok(Math.abs(p.variance - 0.5 / 3) < 1e-12, `variance ${p.variance}`);
  assert.equal(p.df, 3);
  assert.equal(launchPrior([[1], [2]]), undefined);
  // a case of one launch gets an interval from the prior alone (d₀ degrees of freedom)
  const iv = meanInterval([100], 0.95, { variance: 0.0001, df: 4 })!;
  assert.equal(iv.df, 4);
  assert.ok(iv.low < 100 && iv.high > 100);
});

test('launchStates: launches 3.49, 4.44, 4.44 (errors ~1%) are two states; 0.99, 1.00, 1.01 are one', () => {
  const states = launchStates([4.44, 3.49, 4.45], [0.01, 0.01, 0.01], 0.999);
  assert.equal(states.length, 2);
  assert.deepEqual(states[0].launches, [1]);
  assert.deepEqual(states[1].launches.sort(), [0, 2]);
  assert.ok(Math.abs(states[1].value - Math.sqrt(4.44 * 4.45)) < 1e-9);
  assert.equal(launchStates([0.99, 1.0, 1.01], [0.01, 0.01, 0.01], 0.999).length, 1);
  // launches whose own errors are wide agree with each other
  assert.equal(launchStates([3.49, 4.44], [0.2, 0.2], 0.999).length, 1);
});

test('a bimodal case: the interval is widened to cover both states, so another run of either state lies inside it', () => {
  const values = [3.49, 4.44, 4.44];
  const states = launchStates(values, [0.01, 0.01, 0.01], 0.999);
  const iv = ratioInterval(values, 0.999, { variance: 0.0001, df: 4 })!;
  const widened = coverStates([iv.low, iv.high], values, states)!;
  assert.ok(widened[0] <= 3.49 && widened[1] >= 4.44, `widened ${widened}`);
  // one state: unchanged
  assert.deepEqual(coverStates([0.9, 1.1], [1, 1.01], [{ value: 1, launches: [0, 1] }]), [0.9, 1.1]);
});

test('resolution: clear of the ±resolve band is different, inside it within, straddling an edge unresolved', () => {
  assert.equal(resolution([0.6, 0.7], 0.02), 'different');
  assert.equal(resolution([1.03, 1.1], 0.02), 'different');
  assert.equal(resolution([0.99, 1.015], 0.02), 'within');
  assert.equal(resolution([0.97, 1.01], 0.02), 'unresolved');
  assert.equal(resolution([1.01, 1.03], 0.02), 'unresolved');
  assert.equal(resolution(null, 0.02), 'unresolved');
  assert.equal(resolution({ low: 0.5, high: 0.55 }, 0.05), 'different');
  assert.equal(isResolved([0.99, 1.01], 0.02), true);
  assert.equal(isResolved([0.97, 1.01], 0.02), false);
  assert.throws(() => resolution([1, 1], 0), RangeError);
});
