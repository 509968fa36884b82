import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INPUT_CACHE_RATIO,
  TEXT_CACHE_RATIO,
  cacheCostThresholds,
  costRuntime,
} from '../../src/measure/cache-checks.js';

/**
 * The cache cost checks' thresholds per runtime (src/measure/cache-checks.ts cacheCostThresholds): each calibrated
 * runtime gets its own (the honest maxima of bench/cache-cost.ts × 1.25, docs/limits.md), an uncalibrated one keeps
 * 2.5 (serialize) and 1.75 (deserialize), and the module's INPUT_CACHE_RATIO / TEXT_CACHE_RATIO are this process's
 * runtime's (the worker's, where the checks run).
 */

test('each runtime gets its calibrated thresholds; an uncalibrated one keeps 2.5 and 1.75', () => {
  assert.deepEqual(cacheCostThresholds({ name: 'node', major: 20 }), { input: 1.7, text: 1.65 });
  assert.deepEqual(cacheCostThresholds({ name: 'node', major: 22 }), { input: 1.7, text: 1.45 });
  assert.deepEqual(cacheCostThresholds({ name: 'node', major: 24 }), { input: 1.65, text: 2.7 });
  assert.deepEqual(cacheCostThresholds({ name: 'bun' }), { input: 1.65, text: 1.95 });
  assert.deepEqual(cacheCostThresholds({ name: 'deno' }), { input: 1.6, text: 1.55 });
  for (const other of [{ name: 'node', major: 26 }, { name: 'node', major: 18 }, { name: 'other' }] as const)
    assert.deepEqual(cacheCostThresholds(other), { input: 2.5, text: 1.75 }, JSON.stringify(other));
});

test("hx7's leafcache on cyrillic.json (2.0–2.2× by the serialize check on Node 20) is over Node 20's threshold", () => {
  assert.ok(cacheCostThresholds({ name: 'node', major: 20 }).input < 2.0);
});

test('the runtime is read from the globals: Deno, then Bun, then process.versions.node', () => {
  assert.deepEqual(costRuntime({ Deno: {}, Bun: {}, process: { versions: { node: '20.1.0' } } }), { name: 'deno' });
  assert.deepEqual(costRuntime({ Bun: {}, process: { versions: { node: '22.3.0' } } }), { name: 'bun' });
  assert.deepEqual(costRuntime({ process: { versions: { node: '24.22.3' } } }), { name: 'node', major: 24 });
  assert.deepEqual(costRuntime({ process: {} }), { name: 'other' });
  assert.deepEqual(costRuntime({}), { name: 'other' });
});

test("this process's thresholds are its runtime's", () => {
  const major = Number(process.versions.node.split('.')[0]);
  assert.deepEqual(costRuntime(), { name: 'node', major });
  assert.deepEqual({ input: INPUT_CACHE_RATIO, text: TEXT_CACHE_RATIO }, cacheCostThresholds({ name: 'node', major }));
});
