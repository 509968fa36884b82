import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baselineSlowed, BASELINE_SLOWED_FACTOR } from '../../src/analysers/baseline-slowed.js';
import { launch, measuredPair } from './support.js';

test('baseline-slowed: a baseline over 2× slower beside the case than in its own carries the finding', () => {
  // json's own case: 1,000 ns median; beside fast-json-stringify: 2,500 ns
  const { c, context } = measuredPair([launch(1, 500, 2500)]);
  c.ratio = 0.2;
  assert.equal(BASELINE_SLOWED_FACTOR, 2);
  const [f, ...more] = baselineSlowed.analyse(c, context);
  assert.equal(more.length, 0);
  assert.equal(f?.code, 'baseline-slowed');
  assert.match(
    f.message,
    /^its paired baseline json ran 2\.50× slower beside it: median 2\.50 µs per op in its process against 1\.00 µs in json's own case \(more than 2×\), so its ratio 0\.20 measures/,
  );
});

test('baseline-slowed: a baseline 2× slower or less beside the case does not, nor does the baseline itself', () => {
  const { c, base, context } = measuredPair([launch(1, 500, 2000)]);
  assert.deepEqual(baselineSlowed.analyse(c, context), []);
  const slow = measuredPair([launch(1, 500, 5000)]);
  assert.deepEqual(baselineSlowed.analyse(slow.base, { ...slow.context, baseline: slow.base }), []);
  assert.ok(base.serializer === base.baseline);
});
