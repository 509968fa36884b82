import { test } from 'node:test';
import assert from 'node:assert/strict';
import { machineDrift, DRIFT_BASELINE_FACTOR, DRIFT_RATIO_SPREAD } from '../../src/analysers/machine-drift.js';
import { launch, measuredPair } from './support.js';

test('machine-drift: the baseline 1.5× slower in one launch and the ratio 10% apart carries the finding', () => {
  // launch 1: json 1,000 ns, ratio 0.50; launch 2: json 1,500 ns, ratio 0.55
  const { c, context } = measuredPair([launch(1, 500, 1000), launch(2, 825, 1500)]);
  assert.equal(DRIFT_BASELINE_FACTOR, 1.25);
  assert.equal(DRIFT_RATIO_SPREAD, 0.02);
  const [f, ...more] = machineDrift.analyse(c, context);
  assert.equal(more.length, 0);
  assert.equal(f?.code, 'machine-drift');
  assert.match(
    f.message,
    /^the machine changed speed between launches: the baseline json's own time per op \(same code, same input\) was 1\.00 µs in one launch and 1\.50 µs in another \(1\.50×\), and the ratio read 0\.500 in the first and 0\.550 in the second \(9\.5% of the launches' median\)/,
  );
});

test('machine-drift: a steady baseline does not, nor a slower one whose ratio held, nor launches cut short', () => {
  const steady = measuredPair([launch(1, 500, 1000), launch(2, 600, 1100)]);
  assert.deepEqual(machineDrift.analyse(steady.c, steady.context), [], 'baseline 1.10× apart');
  const held = measuredPair([launch(1, 500, 1000), launch(2, 755, 1500)]);
  assert.deepEqual(machineDrift.analyse(held.c, held.context), [], 'ratio 0.500 and 0.503: 0.7% apart');
  const short = measuredPair([launch(1, 500, 1000, {}, 2), launch(2, 825, 1500, {}, 2)]);
  assert.deepEqual(machineDrift.analyse(short.c, short.context), [], 'launches of 2 rounds');
});
