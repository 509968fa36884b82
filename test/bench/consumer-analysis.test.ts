import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aaResolution,
  consumerFigures,
  differencesAgree,
  medianStandardError,
  opDifference,
  processSpread,
  ratioWithin,
  repsEstimate,
} from '../../bench/consumer-analysis.js';

/** |actual − expected| ≤ 1e-4, with both numbers in the message. */
const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 1e-4, `${what}: got ${actual}, expected ${expected}`);

// 1.4826 · 1.2533 = 1.85814258: the MAD-based standard error of a median per √n, per unit of MAD
const K = 1.85814258;

test('medianStandardError: 1.4826 · MAD · 1.2533 / √n, absolute; Infinity under 3 values', () => {
  near(medianStandardError([1, 2, 3, 4, 5]), K / Math.sqrt(5), 'MAD 1, n 5'); // 0.830985
  near(medianStandardError([-10, -8, -6]), (2 * K) / Math.sqrt(3), 'negative values (a difference): MAD 2');
  near(medianStandardError([7, 7, 7, 7]), 0, 'no spread');
  assert.equal(medianStandardError([1, 2]), Infinity);
});

test("repsEstimate: median of the reps' medians; reps that disagree widen the error beyond the within-rep one", () => {
  const agree = repsEstimate([
    [1, 2, 3, 4, 5],
    [1, 2, 3, 4, 5],
  ]);
  near(agree.value, 3, 'value');
  near(agree.se, ((K / Math.sqrt(5)) * Math.SQRT2) / 2, 'within-rep error √Σse²/R'); // 0.5876
  const disagree = repsEstimate([
    [1, 2, 3, 4, 5],
    [3, 4, 5, 6, 7],
  ]);
  near(disagree.value, 4, 'value: medians 3 and 5');
  near(disagree.se, 1, 'between-rep error: SD(3, 5) / √2 = 1');
  assert.throws(() => repsEstimate([[1, 2, 3], []]), /a rep without values/);
});

test('consumerFigures: ratio and difference per window of the same cycle', () => {
  const f = consumerFigures([[2, 4, 6]], [[1, 2, 3]]);
  near(f.ratio.value, 2, 'ratio');
  near(f.ratio.se, 0, 'ratio error (every window 2)');
  near(f.difference.value, 2, 'difference: 1, 2, 3');
  near(f.difference.se, K / Math.sqrt(3), 'difference error: MAD 1, n 3');
  assert.throws(() => consumerFigures([[1, 2, 3]], [[1, 2]]), /differ in shape/);
});

test('opDifference: per-round serializer − json over launches', () => {
  const d = opDifference(
    [
      [12, 13, 14],
      [15, 16, 17],
    ],
    [
      [10, 10, 10],
      [10, 10, 10],
    ],
  );
  near(d.value, 4.5, 'medians 3 and 6');
  near(d.se, Math.sqrt(4.5) / Math.SQRT2, 'between launches: SD(3, 6) / √2');
  assert.throws(
    () =>
      opDifference(
        [[1, 2, 3]],
        [
          [1, 2, 3],
          [1, 2, 3],
        ],
      ),
    /differ in shape/,
  );
});

test('the verdicts: ratio within 10%; differences within 1.96 · √(se₁² + se₂²)', () => {
  assert.equal(ratioWithin(1.09, 1), true);
  assert.equal(ratioWithin(0.91, 1), true);
  assert.equal(ratioWithin(1.11, 1), false);
  assert.equal(ratioWithin(0.89, 1), false);
  // √(3² + 4²) = 5, so the bound is 9.8
  assert.equal(differencesAgree({ value: 9.7, se: 3 }, { value: 0, se: 4 }), true);
  assert.equal(differencesAgree({ value: 10, se: 3 }, { value: 0, se: 4 }), false);
  assert.equal(differencesAgree({ value: -2, se: 0.1 }, { value: 2, se: 0.1 }), false);
});

test('processSpread: per-process medians and (max − min) ÷ median', () => {
  const s = processSpread([
    [1.0, 1.1, 1.2],
    [1.3, 1.4, 1.5],
    [1.2, 1.2, 1.2],
  ]);
  assert.deepEqual(
    s.medians.map((x) => Number(x.toFixed(6))),
    [1.1, 1.4, 1.2],
  );
  near(s.spread, (1.4 - 1.1) / 1.2, 'spread'); // 0.25
  assert.throws(() => processSpread([[1], []]), /a process without values/);
});

test("aaResolution: resolves 10% only when the median and every process's A/A ratio are within 10% of 1", () => {
  const ok = aaResolution([0.97, 1.05, 1.02, 0.99], 1.01);
  assert.equal(ok.resolves, true);
  near(ok.worst, 0.05, 'worst process: 1.05');
  const off = aaResolution([0.97, 1.12, 1.02, 0.99], 1.005);
  assert.equal(off.resolves, false);
  near(off.worst, 0.12, 'worst process');
  assert.equal(aaResolution([1.0, 1.0], 0.85).resolves, false, 'median off by 15%');
  assert.throws(() => aaResolution([], 1), /no A\/A ratios/);
});
