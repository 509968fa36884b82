import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mannWhitneyU } from '../../src/compare/mann-whitney.js';

/**
 * Reference values: the two-sample example of R's `?wilcox.test` (W = 35), and p-values from
 * SciPy 1.17.1 `scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic",
 * use_continuity=True)`, the same normal approximation with tie and continuity corrections.
 */
const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
const y = [1.15, 0.88, 0.9, 0.74, 1.21];

test("U and the two-sided p-value match R's wilcox.test example and SciPy (no ties)", () => {
  const r = mannWhitneyU(x, y);
  assert.equal(r.u, 35);
  assert.ok(Math.abs(r.p - 0.24462360512698333) < 1e-9, `p = ${r.p}`);
});

test('with several groups of ties the tie-corrected p-value matches SciPy', () => {
  const r = mannWhitneyU([1, 2, 2, 3, 3, 3, 4, 5], [3, 4, 4, 5, 5, 6, 7, 7, 7]);
  assert.equal(r.u, 7.5);
  assert.ok(Math.abs(r.p - 0.006274233849838661) < 1e-9, `p = ${r.p}`);
  assert.ok(r.z < 0, 'the first sample tends smaller');
});

test('swapping the samples keeps p and gives U₂ = n₁n₂ − U₁', () => {
  const a = mannWhitneyU(x, y);
  const b = mannWhitneyU(y, x);
  assert.equal(a.u + b.u, x.length * y.length);
  assert.ok(Math.abs(a.p - b.p) < 1e-12);
  assert.ok(Math.abs(a.z + b.z) < 1e-12);
});

test('identical samples give p = 1, all-equal values too (no variance)', () => {
  assert.equal(mannWhitneyU([1, 2, 3, 4], [1, 2, 3, 4]).p, 1);
  assert.equal(mannWhitneyU([5, 5, 5], [5, 5]).p, 1);
});

test('fully separated large samples give a tiny p-value', () => {
  const lo = Array.from({ length: 200 }, (_, i) => 100 + i * 0.01);
  const hi = Array.from({ length: 200 }, (_, i) => 200 + i * 0.01);
  assert.ok(mannWhitneyU(hi, lo).p < 1e-60);
});

test('an empty sample is an error', () => {
  assert.throws(() => mannWhitneyU([], [1]), /both samples/);
});
