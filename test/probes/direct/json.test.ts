import { test } from 'node:test';
import assert from 'node:assert/strict';

/**
 * Direct reproductions for `json` (JSON.stringify / JSON.parse, ECMA-262 §25.5): each failing
 * verdict of the probe matrix, shown with the built-in alone. These are the behaviours the
 * specification prescribes; the probes call them silent loss because nothing signals them.
 */

test('json edge.date.invalid: an Invalid Date is written as null (Date.prototype.toJSON returns null)', () => {
  assert.equal(JSON.stringify({ at: new Date(Number.NaN) }), '{"at":null}');
});

test('json edge.number.-0 / roundtrip21: -0 is written as 0', () => {
  assert.equal(JSON.stringify({ n: -0 }), '{"n":0}');
  assert.equal(JSON.stringify(JSON.parse('[-0.0]')), '[0]');
  assert.ok(Object.is(JSON.parse('[-0.0]')[0], -0), 'the reader keeps -0; the writer drops its sign');
});

test('json edge.number.NaN/±Infinity: written as null', () => {
  assert.equal(JSON.stringify({ a: Number.NaN, b: Infinity, c: -Infinity }), '{"a":null,"b":null,"c":null}');
});

test('json edge.array.hole / edge.array.undefined: a hole and undefined become null', () => {
  const holey: number[] = [1];
  holey[2] = 3;
  assert.equal(JSON.stringify({ xs: holey }), '{"xs":[1,null,3]}');
  assert.equal(JSON.stringify({ xs: [1, undefined, 3] }), '{"xs":[1,null,3]}');
});

test('json edge.map / edge.set: a Map and a Set are written as {}', () => {
  assert.equal(JSON.stringify({ m: new Map([['a', 1]]), s: new Set([1, 2]) }), '{"m":{},"s":{}}');
});

test('json edge.symbol / edge.function: members holding a Symbol or a function are dropped', () => {
  assert.equal(
    JSON.stringify({
      a: 'x',
      b: Symbol('s'),
      c() {
        /* */
      },
    }),
    '{"a":"x"}',
  );
});

test('json edge.bigint.*: a BigInt throws TypeError', () => {
  assert.throws(() => JSON.stringify({ n: 9007199254740993n }), { name: 'TypeError', message: /BigInt/ });
});

test('json edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: integers beyond 2^53 are read as the nearest double', () => {
  assert.equal(JSON.parse('{"n":9007199254740993}').n, 9007199254740992);
  assert.equal(BigInt(JSON.parse('[9223372036854775807]')[0]), 9223372036854775808n);
  assert.equal(JSON.stringify(JSON.parse('[-1234567890123456789]')), '[-1234567890123456800]');
});
