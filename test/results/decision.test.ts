import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioVerdict, unresolved } from '../../src/results/decision.js';

/** The one decision about a paired ratio (results/decision.ts), on its edges. */
test('faster, slower, same, borderline and unknown', () => {
  assert.equal(ratioVerdict(0.6, [0.55, 0.65]), 'faster');
  assert.equal(ratioVerdict(1.6, [1.5, 1.7]), 'slower');
  // the border band: 1 within half the half-width of the interval's end
  assert.equal(ratioVerdict(0.83, [0.69, 1.0]), 'borderline');
  assert.equal(ratioVerdict(0.85, [0.74, 0.97]), 'borderline');
  assert.equal(ratioVerdict(1.11, [1.001, 1.24]), 'borderline');
  assert.equal(ratioVerdict(0.8, [0.7, 0.9]), 'faster');
  // holds 1 comfortably, or lies within 2% of it on both sides whatever its position
  assert.equal(ratioVerdict(0.99, [0.9, 1.09]), 'same');
  assert.equal(ratioVerdict(0.995, [0.99, 1.0]), 'same');
  assert.equal(ratioVerdict(1, [1, 1]), 'same');
  assert.equal(ratioVerdict(null, null), 'unknown');
  assert.equal(ratioVerdict(0.9, null), 'unknown');
  assert.equal(ratioVerdict(0.9, [0, 1.2]), 'unknown');
});

test('an interval that holds 1 and reaches beyond 0.8–1.25 is unresolved', () => {
  assert.equal(unresolved([0.7, 1.1]), true);
  assert.equal(unresolved([0.9, 1.3]), true);
  assert.equal(unresolved([0.85, 1.2]), false);
  assert.equal(unresolved([0.5, 0.9]), false);
  assert.equal(unresolved(null), false);
});
