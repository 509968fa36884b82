import { test } from 'node:test';
import assert from 'node:assert/strict';
import { precisionTarget } from '../../bench/cv.js';

test('bench:precision judges the 1% target only on a quiet run, the 2% one only on a loaded run, neither between', () => {
  assert.deepEqual(precisionTarget(0.31, 0.92), { limit: 0.01, condition: 'quiet (load 0.31–0.92 < 1)' });
  assert.deepEqual(precisionTarget(8.4, 19.5), { limit: 0.02, condition: 'loaded (load 8.40–19.50 ≥ 8)' });
  assert.equal(precisionTarget(1.2, 1.9), null, 'a "quiet" evening here (load 1.2–1.9) shows neither target');
  assert.equal(precisionTarget(0.5, 8.5), null, 'a run that went from quiet to loaded');
});
