import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noGc } from '../../src/analysers/no-gc.js';
import { launch, measuredPair } from './support.js';

test('no-gc: launches that could not force a GC carry the finding, counted', () => {
  const { c, context } = measuredPair([launch(1, 500, 1000, { gc: false }), launch(2, 500, 1000, { gc: false })]);
  assert.deepEqual(noGc.analyse(c, context), [
    {
      code: 'no-gc',
      message:
        '2 launch(es) ran without a forced GC before each round (the runtime exposes none): a collection can fall inside a sample of either side',
    },
  ]);
});

test('no-gc: launches that forced a GC (or do not say) do not, nor does a discarded launch without one', () => {
  const { c, context } = measuredPair([
    launch(1, 500, 1000, { gc: false, discarded: 'baseline ran slow' }),
    launch(2, 500, 1000, { gc: true }),
    launch(3, 500, 1000),
  ]);
  assert.deepEqual(noGc.analyse(c, context), []);
});
