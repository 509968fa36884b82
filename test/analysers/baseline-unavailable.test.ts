import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baselineUnavailable } from '../../src/analysers/baseline-unavailable.js';
import { launch, measuredPair } from './support.js';

test('baseline-unavailable: a case whose baseline gave no ratio carries the runner’s reason', () => {
  const { c, context } = measuredPair([launch(1, 500, 1000)]);
  const findings = baselineUnavailable.analyse(c, { ...context, baselineProblem: 'baseline json failed: boom' });
  assert.deepEqual(findings, [{ code: 'baseline-unavailable', message: 'no ratio: baseline json failed: boom' }]);
});

test('baseline-unavailable: a case with its baseline does not', () => {
  const { c, context } = measuredPair([launch(1, 500, 1000)]);
  assert.deepEqual(baselineUnavailable.analyse(c, context), []);
});
