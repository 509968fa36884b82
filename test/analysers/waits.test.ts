import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waits, WAIT_FACTOR } from '../../src/analysers/waits.js';
import { unrankedReason } from '../../src/report/takeaway.js';
import { fixture } from '../report/support.js';
import { withWall } from './support.js';

/**
 * `waits` (hx19 E03/E04): a serializer whose wall time per op over its CPU time is more than WAIT_FACTOR× its paired
 * baseline's in the same rounds blocks where the CPU clock does not count; not ranked. The run-level test with a real
 * Atomics.wait: test/run/waits.test.ts.
 */

test('waits fires past WAIT_FACTOR× the baseline’s wall over CPU time, and makes the case unranked', () => {
  const r = fixture('single');
  const [f] = waits.analyse(withWall(10, 1.1), { policy: r.policy.measure });
  assert.equal(f?.code, 'waits');
  assert.match(
    f.message,
    /^it waits: its wall time per op is 10\.0× its CPU time, its paired baseline's 1\.1× in the same rounds \(medians of 5 rounds; more than 4× apart\)/,
  );
  assert.equal(unrankedReason([f]), 'it waits');
});

test('waits stays silent under the factor (load stretches both sides), and with too few rounds', () => {
  const r = fixture('single');
  assert.deepEqual(waits.analyse(withWall(2.5, 1.0), { policy: r.policy.measure }), []);
  assert.deepEqual(waits.analyse(withWall(WAIT_FACTOR * 1.9, 2), { policy: r.policy.measure }), []);
  assert.deepEqual(waits.analyse(withWall(10, 1, 4), { policy: r.policy.measure }), []);
});
