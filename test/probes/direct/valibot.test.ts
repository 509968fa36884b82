import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';

/** Direct reproductions for valibot 1 (`v.parse(schema, JSON.parse(text))`). */

test('valibot safety.declared.__proto__: a declared property named __proto__ is missing from the output', () => {
  const schema = v.object(
    Object.fromEntries([
      ['id', v.number()],
      ['__proto__', v.string()],
    ]),
  );
  const out = v.parse(schema, JSON.parse('{"id":1,"__proto__":"v"}')) as Record<string, unknown>;
  assert.equal(Object.hasOwn(out, '__proto__'), false);
  assert.deepEqual(Object.keys(out), ['id']);
});

test('valibot edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: v.integer() accepts the double JSON.parse rounds an unsafe integer to', () => {
  const out = v.parse(v.object({ n: v.pipe(v.number(), v.integer()) }), JSON.parse('{"n":9223372036854775807}'));
  assert.equal(out.n, 9223372036854775808);
});
