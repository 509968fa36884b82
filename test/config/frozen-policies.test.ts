import { test } from 'node:test';
import assert from 'node:assert/strict';
import { policies } from '../../src/config/policies.js';
import { NO_NUMBER_STATUSES } from '../../src/cli/run.js';

test('the policies and the no-number statuses are frozen before any config runs (hx8: a config rewrote them)', () => {
  assert.ok(Object.isFrozen(policies));
  for (const p of Object.values(policies)) {
    assert.ok(Object.isFrozen(p), p.name);
    assert.ok(Object.isFrozen(p.measure), `${p.name}.measure`);
  }
  assert.throws(() => {
    (policies.default as { launches: number }).launches = 1;
  }, TypeError);
  assert.throws(() => {
    (NO_NUMBER_STATUSES as unknown as string[]).length = 0;
  }, TypeError);
  assert.deepEqual([...NO_NUMBER_STATUSES], ['incorrect', 'failed', 'timeout', 'crashed']);
});
