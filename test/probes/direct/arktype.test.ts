import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type } from 'arktype';

/** Direct reproductions for ArkType 2 (`T.assert(JSON.parse(text))`). */

test('arktype edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: number.integer accepts the double JSON.parse rounds an unsafe integer to', () => {
  const T = type({ n: 'number.integer' });
  assert.equal(T.assert(JSON.parse('{"n":9007199254740993}')).n, 9007199254740992);
});
