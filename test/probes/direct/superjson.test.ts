import { test } from 'node:test';
import assert from 'node:assert/strict';
import superjson from 'superjson';

/**
 * Direct reproductions for superjson 2. jsonbench measures superjson's pipeline on plain JSON:
 * `JSON.stringify(superjson.serialize(v).json)` and `superjson.deserialize({ json: JSON.parse(t) })`.
 * The `.json` half is what a plain-JSON consumer receives; superjson's own envelope carries the
 * lost types in `meta`, so `superjson.parse(superjson.stringify(v))` does restore -0, NaN,
 * undefined and Maps — the probes judge the plain JSON (the tests below show both).
 */
const plain = (v: unknown) => JSON.stringify(superjson.serialize(v).json);

test('superjson edge.number.*: -0, NaN and ±Infinity become the strings "-0", "NaN", "Infinity" in the plain JSON (restored only through meta)', () => {
  assert.equal(
    plain({ a: -0, b: Number.NaN, c: Infinity, d: -Infinity }),
    '{"a":"-0","b":"NaN","c":"Infinity","d":"-Infinity"}',
  );
  assert.equal(plain([-0]), '["-0"]');
  assert.ok(
    Object.is((superjson.parse(superjson.stringify({ a: -0 })) as { a: number }).a, -0),
    'the envelope round-trips it',
  );
});

test('superjson edge.undefined.member / edge.array.*: undefined members and elements and holes become null', () => {
  const holey: number[] = [1];
  holey[2] = 3;
  assert.equal(plain({ a: 'x', b: undefined }), '{"a":"x","b":null}');
  assert.equal(plain({ xs: [1, undefined, 3] }), '{"xs":[1,null,3]}');
  assert.equal(plain({ xs: holey }), '{"xs":[1,null,3]}');
});

test('superjson edge.date.invalid / edge.map / edge.cycle / edge.symbol / edge.function: null, an entries array, null, and dropped members', () => {
  assert.equal(plain({ at: new Date(Number.NaN) }), '{"at":null}');
  assert.equal(
    plain({
      m: new Map([
        ['a', 1],
        ['b', 2],
      ]),
    }),
    '{"m":[["a",1],["b",2]]}',
  );
  const a: Record<string, unknown> = { name: 'a' };
  a.child = a;
  assert.equal(plain(a), '{"name":"a","child":null}');
  assert.equal(
    plain({
      a: 'x',
      b: Symbol('s'),
      c() {
        /* */
      },
    }),
    '{"a":"x"}',
  );
});

test('superjson safety.declared.(__proto__|constructor|prototype) (serialize): a plain data key with one of these names throws', () => {
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    assert.throws(
      () => superjson.serialize(JSON.parse(`{"id":1,${JSON.stringify(key)}:"v"}`)),
      /prototype pollution risk/,
      key,
    );
  }
  assert.doesNotThrow(() => superjson.serialize({ id: 1, toString: 'v' }));
});

test('superjson safety.*.__proto__ (deserialize): an own __proto__ key is dropped', () => {
  const out = superjson.deserialize({ json: JSON.parse('{"name":"x","__proto__":{"polluted":"yes"}}') }) as Record<
    string,
    unknown
  >;
  assert.equal(Object.hasOwn(out, '__proto__'), false);
  assert.equal(out.name, 'x');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('superjson edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: integers beyond 2^53 are read as the nearest double', () => {
  assert.equal(
    (superjson.deserialize({ json: JSON.parse('{"n":9007199254740993}') }) as { n: number }).n,
    9007199254740992,
  );
});
