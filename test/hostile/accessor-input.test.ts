import { test } from 'node:test';
import assert from 'node:assert/strict';
import { integrityChange } from '../../src/measure/timed-check.js';

/**
 * hx6 (false success, "use dirty-cache, faster by 6.54×"): a serializer turned every property of its
 * input into an accessor with the same value, so a setter saw each write jsonbench made to change the
 * input between rounds and a cache knew when to answer from memory; the input's JSON text and
 * prototypes were unchanged, so the input checks passed. integrityChange (the gate's and the rounds'
 * input check) now refuses an own accessor anywhere in the input, naming its path.
 */

test('an input property turned into a getter/setter is an input change, named by its path', () => {
  const plain = { a: 1, b: [{ c: 'x' }, 2], d: { e: null } };
  assert.equal(integrityChange([plain]), undefined);
  const v = structuredClone(plain);
  const first = v.b[0] as { c: string };
  let hidden = first.c;
  Object.defineProperty(first, 'c', {
    get: () => hidden,
    set: (n: string) => (hidden = n),
    enumerable: true,
    configurable: true,
  });
  assert.equal(JSON.stringify(v), JSON.stringify(plain), 'the text is the same');
  const f = integrityChange([v]);
  assert.equal(f?.path, '$.b[0].c');
  assert.match(f?.reason ?? '', /turned the property at \$\.b\[0\]\.c into an accessor/);
  // an array element too, in a many-record input
  const arr = [1, 2, 3];
  Object.defineProperty(arr, 1, { get: () => 2, enumerable: true, configurable: true });
  assert.equal(integrityChange([plain, arr])?.path, '$[1][1]');
});
