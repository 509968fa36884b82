import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioNumber } from '../../src/report/units.js';

test('ratioNumber keeps huge and tiny ratios short: exponent form from 10^6 and under 10^-6', () => {
  assert.equal(ratioNumber(2.4935927556174816e154, 2), '2.5e+154');
  assert.equal(ratioNumber(2e-155, 2), '2.0e-155');
  assert.equal(ratioNumber(123456, 2), '123456');
  assert.equal(ratioNumber(0.0003, 2), '0.0003');
  assert.equal(ratioNumber(0.62, 2), '0.62');
});
