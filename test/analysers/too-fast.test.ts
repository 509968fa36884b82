import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tooFast, TOO_FAST_FACTOR } from '../../src/analysers/too-fast.js';
import { launch, measuredPair } from './support.js';

test('too-fast: a mean under 3× the empty op carries the finding, with both figures', () => {
  const { c, context } = measuredPair([launch(1, 5, 1000, { emptyNsPerOp: 2 })]);
  c.time.mean = 5;
  assert.equal(TOO_FAST_FACTOR, 3);
  assert.deepEqual(tooFast.analyse(c, context), [
    {
      code: 'too-fast',
      message: 'mean 5.0 ns/op is under 3× an empty op (2.0 ns/op): the work may have been optimised away',
    },
  ]);
});

test('too-fast: a mean of 3× the empty op or more does not (the least empty op of the launches counts)', () => {
  const { c, context } = measuredPair([
    launch(1, 6, 1000, { emptyNsPerOp: 2 }),
    launch(2, 6, 1000, { emptyNsPerOp: 9 }),
  ]);
  c.time.mean = 6;
  assert.deepEqual(tooFast.analyse(c, context), []);
});
