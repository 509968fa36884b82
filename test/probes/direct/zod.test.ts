import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';

/** Direct reproductions for zod 4 (`schema.parse(JSON.parse(text))`). */

test('zod safety.declared.__proto__: a declared property named __proto__ is missing from the output', () => {
  const schema = z.object(
    Object.fromEntries([
      ['id', z.number()],
      ['__proto__', z.string()],
    ]),
  );
  const input = JSON.parse('{"id":1,"__proto__":"v"}');
  assert.ok(Object.hasOwn(input, '__proto__'));
  const out = schema.parse(input) as Record<string, unknown>;
  assert.equal(Object.hasOwn(out, '__proto__'), false);
  assert.deepEqual(Object.keys(out), ['id']);
  assert.equal(
    Object.getPrototypeOf(out),
    Object.prototype,
    'it is not turned into the prototype either: it is dropped',
  );
});
