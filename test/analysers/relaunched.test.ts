import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relaunched } from '../../src/analysers/relaunched.js';
import { launch, measuredPair } from './support.js';

test('relaunched: a case whose launch was repeated carries the finding, with the reason of each', () => {
  const { c, context } = measuredPair([
    launch(1, 500, 2000, { discarded: 'baseline 2.00 µs over 1.25× the best seen (1.00 µs)' }),
    launch(2, 500, 1000),
  ]);
  assert.equal(c.samples.relaunches, 1);
  assert.deepEqual(relaunched.analyse(c, context), [
    {
      code: 'relaunched',
      message:
        '1 launch(es) repeated because the baseline ran over the relaunch threshold: baseline 2.00 µs over 1.25× the best seen (1.00 µs)',
    },
  ]);
});

test('relaunched: a case whose launches all stood does not', () => {
  const { c, context } = measuredPair([launch(1, 500, 1000), launch(2, 500, 1000)]);
  assert.deepEqual(relaunched.analyse(c, context), []);
});
