import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstMismatch, loneSurrogateAt } from '../../src/measure/verify.js';
import { checkCase } from '../../src/measure/gate.js';
import type { Workload } from '../../src/workloads/types.js';

/**
 * The gate's value comparison against the holes found by trying it as an attacker would
 * (issue 9): inherited names, `__proto__`, invalid Dates, lone surrogates, and payloads nested
 * deeper than the call stack allows a recursive walk.
 */

/** A value nested `depth` deep: {"a":{"a":…{"a":leaf}}} (built without recursion). */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

test('an extra key named like an Object.prototype member is caught', () => {
  for (const k of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__']) {
    const m = firstMismatch({ id: 1 }, JSON.parse(`{"id":1,"${k}":0}`));
    assert.deepEqual(m, { path: `$.${k}`, expected: 'undefined (absent)', actual: '0' }, k);
  }
});

test('a missing key named like an Object.prototype member is caught (it is not read through the prototype)', () => {
  const m = firstMismatch(JSON.parse('{"constructor":"x","id":1}'), { id: 1 });
  assert.deepEqual(m, { path: '$.constructor', expected: '"x"', actual: 'undefined (absent)' });
});

test('"__proto__" is an ordinary key: dropping it, or writing one that was not there, is a difference', () => {
  const withProto = JSON.parse('{"__proto__":{},"a":1}') as unknown;
  const without = JSON.parse('{"a":1}') as unknown;
  assert.deepEqual(firstMismatch(withProto, without), {
    path: '$.__proto__',
    expected: '{}',
    actual: 'undefined (absent)',
  });
  assert.deepEqual(firstMismatch(without, withProto), {
    path: '$.__proto__',
    expected: 'undefined (absent)',
    actual: '{}',
  });
  assert.equal(firstMismatch(withProto, JSON.parse('{"a":1,"__proto__":{}}')), null, 'key order does not matter');
  // a deserializer that assigned it (obj[key] = value) set the prototype instead of a key
  const assigned: Record<string, unknown> = { a: 1 };
  assigned['__proto__'] = { x: 1 };
  assert.deepEqual(firstMismatch(JSON.parse('{"__proto__":{"x":1},"a":1}'), assigned)?.path, '$.__proto__');
});

test('two invalid Dates are equal; an invalid and a valid Date differ', () => {
  assert.equal(firstMismatch(new Date(NaN), new Date('not a date')), null);
  assert.equal(firstMismatch({ at: new Date(NaN) }, { at: new Date(NaN) }), null);
  assert.deepEqual(firstMismatch(new Date(NaN), new Date(0)), {
    path: '$',
    expected: 'Date(Invalid)',
    actual: 'Date(1970-01-01T00:00:00.000Z)',
  });
});

test('the first difference is still reported in document order, with its path', () => {
  const e = { a: [1, { b: 2, c: [3, 4] }], d: 5 };
  assert.equal(firstMismatch(e, { a: [1, { b: 2, c: [3, 4] }], d: 5 }), null);
  assert.deepEqual(firstMismatch(e, { a: [1, { b: 2, c: [3, 9] }], d: 6 }), {
    path: '$.a[1].c[1]',
    expected: '4',
    actual: '9',
  });
  assert.deepEqual(firstMismatch(e, { a: [1, { b: 2, c: [3] }], d: 5 }), {
    path: '$.a[1].c.length',
    expected: '2',
    actual: '1',
  });
  assert.deepEqual(firstMismatch({ 'x y': 1 }, { 'x y': 2 }), { path: '$["x y"]', expected: '1', actual: '2' });
  assert.deepEqual(firstMismatch({ a: { b: 1 } }, { a: { b: 1, z: 2 } }), {
    path: '$.a.z',
    expected: 'undefined (absent)',
    actual: '2',
  });
});

for (const depth of [4_000, 100_000]) {
  test(`a value nested ${depth.toLocaleString('en')} deep is compared without overflowing the stack`, () => {
    assert.equal(firstMismatch(nested(depth, 1), nested(depth, 1)), null);
    const m = firstMismatch(nested(depth, 1), nested(depth, 2));
    assert.ok(m, 'the differing leaf is found');
    assert.equal(m.path, '$' + '.a'.repeat(depth));
    assert.deepEqual([m.expected, m.actual], ['1', '2']);
  });
}

test('loneSurrogateAt finds a lone high or low surrogate and accepts pairs', () => {
  assert.equal(loneSurrogateAt('"ok 😀"'), -1);
  assert.equal(loneSurrogateAt('"a\uD800"'), 2);
  assert.equal(loneSurrogateAt('"ab\uDC00"'), 3);
  assert.equal(loneSurrogateAt('"\\ud800"'), -1, 'an escaped surrogate is well-formed text');
});

const workload = { id: 'w', checkText: () => null } as unknown as Workload;

test('the gate rejects serializer output that JSON.parse accepts but that is not well-formed Unicode', () => {
  const value = { s: '\uD800' };
  const raw = '{"s":"\uD800"}';
  assert.deepEqual(JSON.parse(raw), value, 'JSON.parse accepts the raw lone surrogate');
  const failure = checkCase({ serialize: () => raw }, workload, 'serialize', { inputs: [value], expected: [value] });
  assert.ok(failure, 'the raw lone surrogate is caught');
  assert.match(failure.reason, /^output is not well-formed Unicode: a lone surrogate U\+D800 at index 6/);
  assert.equal(
    checkCase({ serialize: (v) => JSON.stringify(v) }, workload, 'serialize', { inputs: [value], expected: [value] }),
    null,
    'JSON.stringify escapes it: well-formed',
  );
});

test('the gate catches a serializer that adds a "constructor" key or drops "__proto__"', () => {
  const value = JSON.parse('{"__proto__":{"x":1},"id":1}') as unknown;
  const adds = checkCase({ serialize: () => '{"__proto__":{"x":1},"id":1,"constructor":{}}' }, workload, 'serialize', {
    inputs: [value],
    expected: [value],
  });
  assert.equal(adds?.reason, 'output differs at $.constructor');
  const drops = checkCase({ serialize: () => '{"id":1}' }, workload, 'serialize', {
    inputs: [value],
    expected: [value],
  });
  assert.equal(drops?.reason, 'output differs at $.__proto__');
});

test('mismatch messages spell values JSON cannot write as themselves: NaN, Infinity, -0, BigInt, undefined', async () => {
  const { renderValue } = await import('../../src/measure/verify.js');
  assert.deepEqual([NaN, Infinity, -Infinity, -0, 0, 12n, undefined, null, '1', 1].map(renderValue), [
    'NaN',
    'Infinity',
    '-Infinity',
    '-0',
    '0',
    '12n',
    'undefined (absent)',
    'null',
    '"1"',
    '1',
  ]);
  assert.deepEqual(firstMismatch({ t: NaN }, { t: null }), { path: '$.t', expected: 'NaN', actual: 'null' });
  assert.deepEqual(firstMismatch([-0], ['-0']), { path: '$[0]', expected: '-0', actual: '"-0"' });
  const { payloadText } = await import('../../src/plan/payloads.js');
  const workload = { id: 'nan-maker' } as unknown as Workload;
  assert.throws(() => payloadText(workload, 1, 42, { reading: NaN }), /at \$\.reading: NaN became null \(/);
  assert.throws(() => payloadText(workload, 1, 42, { reading: -Infinity }), /at \$\.reading: -Infinity became null \(/);
});

test('the gate rejects serializer output holding a key twice in one object, which JSON.parse reads as the last (hostile tester hx2: {"areaNames":"EVIL","areaNames":{…}} was ranked)', () => {
  const value = { areaNames: { a: 1 }, n: 2 };
  const raw = '{"areaNames":"EVIL","areaNames":{"a":1},"n":2}';
  assert.deepEqual(JSON.parse(raw), value, 'JSON.parse keeps the last value: equal');
  const failure = checkCase({ serialize: () => raw }, workload, 'serialize', { inputs: [value], expected: [value] });
  assert.ok(failure, 'the duplicate key is caught');
  assert.match(failure.reason, /^output has the key "areaNames" twice in one object \(at index 20\)/);
  assert.equal(
    checkCase({ serialize: (v) => JSON.stringify(v) }, workload, 'serialize', { inputs: [value], expected: [value] }),
    null,
  );
});
