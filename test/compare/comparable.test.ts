import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparabilityOf } from '../../src/compare/comparable.js';
import { results as fixtureResults } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/** A results file like the fixture, with its environment's timer resolution and its serialize op set. */
function run(timerResolutionNs: number, serializeTo: 'bytes' | 'string' = 'bytes'): ResultsFile {
  const r = fixtureResults();
  return { ...r, environment: { ...r.environment, timerResolutionNs }, policy: { ...r.policy, measure: { ...r.policy.measure, serializeTo } } };
}

test('sub-microsecond timer resolutions never make runs incomparable (the measured step moved 40 ↔ 89 ns between runs on one machine); coarse clocks more than 2× apart still do', () => {
  assert.deepEqual(comparabilityOf(run(89), run(40)).filter((x) => x.what === 'clock'), []);
  assert.deepEqual(comparabilityOf(run(100_000), run(5_000)).map((x) => x.message), ['timer resolution 100000 ns → 5000 ns']);
});

test('runs whose serialize op differs (--serialize-to bytes vs string) are not comparable, and say why', () => {
  assert.deepEqual(comparabilityOf(run(40, 'bytes'), run(40, 'string')).map((x) => x.message), ['serialize op bytes → string (--serialize-to): the serialize cases time different work']);
  assert.deepEqual(comparabilityOf(run(40, 'bytes'), run(40, 'bytes')), []);
});
