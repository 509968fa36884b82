import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  caseVariance,
  disagreeingPair,
  judgedSpread,
  pooledRunPrior,
  PRIOR_DF_MAX,
  PRIOR_DF_MIN,
  ratioInterval,
  runPriorWeight,
} from '../../src/stats/intervals.js';
import jstatModule from 'jstat';
import { sampleVariance, tCritical } from '../../src/stats/estimate.js';
import { mulberry32 as rng } from '../../src/stats/mulberry32.js'; // the seeded uniform draws, one generator for the studies, benches and tests

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

/** A standard normal draw (Box–Muller) from `u`. */
function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

test("pooledRunPrior: the groups' variances weighted by their launch contrasts, d₀ capped at PRIOR_DF_MAX", () => {
  const p = pooledRunPrior([
    { variance: 0.001, df: 3.2, weight: 1 },
    { variance: 0.004, df: 1.1, weight: 3 },
    { variance: 0.5, df: 9, weight: 0 },
    { variance: 0, df: 2, weight: 2 },
  ])!;
  // (1·0.001 + 3·0.004)/4: Satterthwaite's df (3.2, 1.1) do not weigh, and the weightless and zero ones are left out
  assert.ok(Math.abs(p.variance - 0.00325) < 1e-12, String(p.variance));
  assert.equal(p.df, PRIOR_DF_MAX);
  assert.deepEqual(pooledRunPrior([{ variance: 0.002, df: 1, weight: 1 }]), { variance: 0.002, df: 1 });
  assert.equal(pooledRunPrior([]), undefined);
  assert.equal(pooledRunPrior([{ variance: Number.NaN, df: 1, weight: 1 }]), undefined);
});

test("caseVariance with the run's prior: moderated as Smyth's, the guards keep their own, one launch takes the prior", () => {
  const run = { variance: 0.0004, df: 4 };
  // 2 launches, no group: (4·0.0004 + 1·0.0009)/5 with 5 df
  const m = caseVariance(0.0009, 1, 0, undefined, undefined, 0.95, run)!;
  assert.ok(Math.abs(m.variance - 0.0005) < 1e-12, String(m.variance));
  assert.equal(m.df, 5);
  assert.equal(m.basis, 'moderated');
  // launches 30× the run's variance: beyond F(1, 4)'s 95% point q = 7.71, so the prior keeps 4·q/30 of its 4 df
  const q = jStat.centralF.inv(0.95, 1, 4);
  const w = (4 * q) / 30;
  const above = caseVariance(0.012, 1, 0, undefined, undefined, 0.95, run)!;
  assert.equal(above.own, 'above the run');
  assert.ok(Math.abs(above.df - (w + 1)) < 1e-9, String(above.df));
  assert.ok(Math.abs(above.variance - (w * 0.0004 + 0.012) / (w + 1)) < 1e-12, String(above.variance));
  // a case noisier than its group (the group's guard) keeps its own variance as its base, and the
  // run's prior moderates it too (with the weight it keeps against it): never its own 1 df alone
  const group = { kind: 'prior' as const, variance: 0.0001, df: 4 };
  const hetero = caseVariance(0.01, 1, 0, group, { variance: 0.0001, df: 4 }, 0.95, run)!;
  assert.equal(hetero.own, 'heterogeneous');
  const wh = (4 * q) / 25;
  assert.ok(Math.abs(hetero.df - (1 + wh)) < 1e-9, String(hetero.df));
  assert.ok(Math.abs(hetero.variance - (wh * 0.0004 + 0.01) / (wh + 1)) < 1e-12, String(hetero.variance));
  // one launch, nothing from its group: the prior alone, floored at the launch's own error
  assert.deepEqual(caseVariance(undefined, 0, 0.0001, undefined, undefined, 0.95, run), {
    variance: 0.0004,
    df: 4,
    basis: 'moderated',
  });
  assert.equal(caseVariance(undefined, 0, 0.001, undefined, undefined, 0.95, run)!.variance, 0.001);
  assert.equal(caseVariance(undefined, 0, 0, undefined, undefined, 0.95), null);
});

test('borrowing from other groups covers at 2 launches and narrows: groups whose variances differ (log-SD 0.3 between groups)', () => {
  // each group's launch-to-launch SD is 2.5% × e^(0.3·z); the focal case's interval borrows from 5 other groups of 4 cases × 2 launches
  const u = rng(2026);
  const n = 4000;
  let covered = 0;
  let coveredAlone = 0;
  const widths: number[] = [];
  const alone: number[] = [];
  for (let rep = 0; rep < n; rep++) {
    const sd = () => 0.025 * Math.exp(0.3 * normal(u));
    const others = Array.from({ length: 5 }, () => {
      const s = sd();
      const vs = Array.from({ length: 4 }, () => sampleVariance([s * normal(u), s * normal(u)]));
      return { variance: vs.reduce((a, b) => a + b, 0) / 4, df: 4, weight: 4 };
    });
    const run = pooledRunPrior(others)!;
    const s = sd();
    const ratios = [Math.exp(s * normal(u)), Math.exp(s * normal(u))];
    const iv = ratioInterval(ratios, 0.999, undefined, 0, undefined, run)!;
    const own = ratioInterval(ratios, 0.999)!;
    if (iv.low <= 1 && 1 <= iv.high) covered++;
    if (own.low <= 1 && 1 <= own.high) coveredAlone++;
    widths.push(Math.log(iv.high / iv.low));
    alone.push(Math.log(own.high / own.low));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  assert.ok(covered / n >= 0.995, `coverage with the run's prior ${covered / n}`);
  assert.ok(coveredAlone / n >= 0.995, `coverage alone ${coveredAlone / n}`);
  // t(1) = 636.6 against t(5) ≈ 6.87: the borrowed interval is many times narrower
  assert.ok(median(widths) * 10 < median(alone), `${median(widths)} vs ${median(alone)}`);
});

test("judgedSpread: the group without the case moderated with the run's prior, or the group's alone when it spreads beyond the run", () => {
  const run = { variance: 0.0004, df: 4 };
  assert.deepEqual(judgedSpread({ variance: 0.0009, df: 2 }, run), { variance: (4 * 0.0004 + 2 * 0.0009) / 6, df: 6 });
  // 0.01 / 0.0004 = 25 > F(2, 4)'s 95% point q (6.94): the prior keeps 4·q/25 of its weight
  const w = (4 * jStat.centralF.inv(0.95, 2, 4)) / 25;
  const j = judgedSpread({ variance: 0.01, df: 2 }, run)!;
  assert.ok(Math.abs(j.df - (w + 2)) < 1e-9 && Math.abs(j.variance - (w * 0.0004 + 0.02) / (w + 2)) < 1e-12);
  assert.deepEqual(judgedSpread(undefined, run), run);
  assert.deepEqual(judgedSpread({ variance: 0.0009, df: 2 }, undefined), { variance: 0.0009, df: 2 });
  assert.equal(judgedSpread(undefined, undefined), undefined);
});

test("separate processes: the group's prior and the run's are one prior of at most PRIOR_DF_MAX df, not two stacked", () => {
  const run = { variance: 0.0004, df: 4 };
  const group = { kind: 'prior' as const, variance: 0.0002, df: 4 };
  // stacked, it read (4·0.0004 + 5·(4·0.0002 + 0.0009)/5)/9 with 9 df: t(9) at 2 launches against the cap's t(5)
  const v = caseVariance(0.0009, 1, 0, group, { variance: 0.0002, df: 4 }, 0.95, run)!;
  assert.equal(v.df, 5);
  const s0 = (4 * 0.0002 + 4 * 0.0004) / 8;
  assert.ok(Math.abs(v.variance - (4 * s0 + 0.0009) / 5) < 1e-15, String(v.variance));
  assert.equal(v.basis, 'moderated');
});

test("runPriorWeight: d₀ up to the F screen's point, then falling continuously with the spread, never below PRIOR_DF_MIN", () => {
  const run = { variance: 0.0001, df: 4 };
  const q = jStat.centralF.inv(0.95, 1.1, 4);
  assert.equal(runPriorWeight(0.0001, 1.1, run), 4);
  assert.equal(runPriorWeight(0.0001 * q * 0.999, 1.1, run), 4);
  // a 0.2% step across the screen's point moves the weight by 0.2%, not from 4 to 0 (the old cliff: t(5) → t(1))
  const below = runPriorWeight(0.0001 * q * 0.999, 1.1, run);
  const beyond = runPriorWeight(0.0001 * q * 1.001, 1.1, run);
  assert.ok(below - beyond < 0.01, `${below} → ${beyond}`);
  assert.ok(Math.abs(runPriorWeight(0.0001 * q * 2, 1.1, run) - 2) < 1e-9);
  // however far beyond: the floor
  assert.equal(runPriorWeight(1, 1.1, run), PRIOR_DF_MIN);
  // a prior of less than PRIOR_DF_MIN keeps what it has
  assert.equal(runPriorWeight(1, 1.1, { variance: 0.0001, df: 0.5 }), 0.5);
  // no screen (level 1): d₀ always
  assert.equal(runPriorWeight(1, 1.1, run, 1), 4);
});

test('disagreeingPair: launches as far apart as the spread model allows agree; a gap it rules out disagrees; without a spread their own errors alone', () => {
  const spread = { variance: 0.03 ** 2, df: 6 };
  const t = tCritical(0.999, 6);
  // the threshold on |ln a − ln b| is t·√(2·s² + se_a² + se_b²)
  const limit = t * Math.sqrt(2 * 0.03 ** 2 + 2 * 0.005 ** 2);
  const inside = Math.exp(limit * 0.95);
  const outside = Math.exp(limit * 1.05);
  assert.equal(disagreeingPair([1, inside], [0.005, 0.005], 0.999, spread), null);
  assert.deepEqual(disagreeingPair([1, outside, 1.01], [0.005, 0.005, 0.005], 0.999, spread), { a: 1, b: outside });
  // 5% apart: ordinary launch spread against the model, but far beyond errors of 0.5% alone
  assert.equal(disagreeingPair([1, 1.05], [0.005, 0.005], 0.999, spread), null);
  assert.deepEqual(disagreeingPair([1, 1.05], [0.005, 0.005], 0.999), { a: 1, b: 1.05 });
  // values that are not positive, or errors that are not finite, never disagree
  assert.equal(disagreeingPair([0, 5], [0.005, 0.005], 0.999), null);
  assert.equal(disagreeingPair([1, 5], [Number.NaN, 0.005], 0.999), null);
});

test('disagreeingPair fires rarely on ordinary spread: 3 launches, a 2.5% launch SD, the yardstick estimated with 6 df', () => {
  const u = rng(99);
  const n = 4000;
  let fired = 0;
  for (let rep = 0; rep < n; rep++) {
    const est = Array.from({ length: 4 }, () => sampleVariance([0, 1, 2].map(() => 0.025 * normal(u))));
    const spread = { variance: est.reduce((a, b) => a + b, 0) / 4, df: 8 };
    const values = [0, 1, 2].map(() => Math.exp(0.025 * normal(u) + 0.003 * normal(u)));
    if (disagreeingPair(values, [0.003, 0.003, 0.003], 0.999, spread)) fired++;
  }
  // 3 pairs at 99.9% each: about 0.3%; against the launches' own errors alone nearly every time
  assert.ok(fired / n < 0.01, `fired on ${fired} of ${n}`);
});
