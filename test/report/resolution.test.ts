import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unresolvedCases } from '../../src/report/resolution.js';
import type { CaseResult } from '../../src/results/types.js';

/** The footer's "too close to call" list and the table make one call (report/resolution.ts). */
test('an unresolved case the table calls slower or faster is not "too close to call" (nu6: fast-json-stringify 1.01–1.32)', () => {
  const resolution = { state: 'unresolved', resolve: 0.02, launches: 5, spentMs: 20_000, stoppedBy: 'case budget' };
  const c = (serializer: string, ratio: number, ratioInterval: [number, number]) =>
    ({ id: serializer, serializer, status: 'measured', ratio, ratioInterval, resolution }) as unknown as CaseResult;
  const open = unresolvedCases([
    c('fast-json-stringify', 1.15, [1.01, 1.32]),
    c('typia', 0.7, [0.6, 0.8]),
    c('ajv-jtd', 0.99, [0.97, 1.03]),
    c('superjson', 0.95, [0.9, 1.01]),
  ]);
  assert.deepEqual(
    open.map((x) => x.serializer),
    ['ajv-jtd', 'superjson'],
  );
});
