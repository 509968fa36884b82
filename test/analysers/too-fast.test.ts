import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_BYTES_PER_NS, tooFast, TOO_FAST_FACTOR } from '../../src/analysers/too-fast.js';
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

test('too-fast: more payload bytes per ns than memory can be read (hx1: 11,996 bytes in 11.7 ns) carries the finding, its short reason first; 100 bytes/ns does not', () => {
  const { c, context } = measuredPair([launch(1, 12, 1000, { emptyNsPerOp: 2 })]);
  c.payload.bytes = 11_996;
  c.time.mean = 11.7;
  assert.equal(MAX_BYTES_PER_NS, 100);
  assert.deepEqual(tooFast.analyse(c, context), [
    {
      code: 'too-fast',
      message:
        'too fast to be real at 1,025 bytes/ns: 11,996 bytes of payload per op in 11.7 ns is above 100 bytes/ns, faster than memory can be read and 40× the fastest JSON parser published; a result served from a cache, or work optimised away',
    },
  ]);
  c.time.mean = 119.96;
  assert.deepEqual(tooFast.analyse(c, context), []);
});
