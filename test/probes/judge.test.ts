import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, loneSurrogateAt, faultOf } from '../../src/probes/judge.js';
import { renderProbeValue, strictMismatch } from '../../src/probes/equal.js';
import type { Accept } from '../../src/probes/types.js';

/** The judge is a pure function: these pin each verdict it can give and the rules before them. */

const ok = (value: unknown) => ({ kind: 'returned' as const, value });
const exact: Accept[] = [{ json: { s: 'a' } }];

test('serialize output equal to the accepted JSON is ✔ (with its label when it has one)', () => {
  assert.deepEqual(judge('serialize', exact, ok('{"s":"a"}')), { mark: '✔' });
  assert.deepEqual(judge('serialize', [{ json: { n: 1 }, label: 'drops' }], ok('{ "n" : 1 }')), {
    mark: '✔',
    label: 'drops',
  });
});

test('output that does not parse is ✗ invalid-json, with the text around the position', () => {
  const v = judge('serialize', exact, ok('{"s":"a\n"}'));
  assert.equal(v.mark, '✗');
  assert.equal((v as { fault: string }).fault, 'invalid-json');
  assert.match((v as { path: string }).path, /char \d+/);
});

test('output holding a raw lone surrogate is ✗ ill-formed even though JSON.parse accepts it', () => {
  const text = '{"s":"\ud800"}';
  assert.doesNotThrow(() => JSON.parse(text));
  const v = judge('serialize', [{ json: { s: '\ud800' } }], ok(text));
  assert.deepEqual(v, {
    mark: '✗',
    fault: 'ill-formed',
    path: '$ (char 6)',
    expected: 'well-formed UTF-16 (a lone surrogate written as \\uXXXX)',
    actual: 'a raw lone surrogate U+D800',
  });
  assert.deepEqual(judge('serialize', [{ json: { s: '\ud800' } }], ok('{"s":"\\ud800"}')), { mark: '✔' });
});

test('a thrown error is ✔ only where refusing is accepted, else ⚠ with the message', () => {
  const threw = { kind: 'threw' as const, stage: 'call' as const, name: 'TypeError', message: 'no' };
  assert.deepEqual(judge('serialize', [...exact, { throws: true, label: 'refuses' }], threw), {
    mark: '✔',
    label: 'refuses',
  });
  assert.deepEqual(judge('serialize', exact, threw), { mark: '⚠', stage: 'call', message: 'TypeError: no' });
});

test('a substitute written where only refusing is right is ✗ silent-loss; accepting input that must be rejected is ✗ accepts-invalid', () => {
  const refuse: Accept[] = [{ throws: true, label: 'refuses (a cycle)' }];
  assert.deepEqual(judge('serialize', refuse, ok('{"a":null}')), {
    mark: '✗',
    fault: 'silent-loss',
    path: '$',
    expected: 'an error: refuses (a cycle)',
    actual: '"{\\"a\\":null}"',
  });
  assert.equal((judge('deserialize', refuse, ok({ a: 1 })) as { fault: string }).fault, 'accepts-invalid');
});

test('declared, inexpressible, crashed, timed-out and polluting outcomes map to ✘, –, ✗ crash, ✗ hang, ✗ pollution', () => {
  assert.deepEqual(judge('serialize', exact, { kind: 'unsupported', reason: 'one-way' }), {
    mark: '✘',
    reason: 'one-way',
  });
  assert.deepEqual(judge('serialize', exact, { kind: 'inexpressible', reason: 'needs record' }), {
    mark: '–',
    reason: 'needs record',
  });
  assert.equal((judge('serialize', exact, { kind: 'crashed', reason: 'SIGSEGV' }) as { fault: string }).fault, 'crash');
  assert.equal((judge('serialize', exact, { kind: 'timeout', ms: 5 }) as { fault: string }).fault, 'hang');
  assert.deepEqual(
    judge('deserialize', [{ value: { a: 1 } }], { kind: 'returned', value: { a: 1 }, polluted: ['polluted'] }),
    { mark: '✗', fault: 'pollution', path: 'Object.prototype', expected: 'unchanged', actual: 'gained polluted' },
  );
});

test('strict equality tells -0 from 0, a BigInt from a double, a Map from {}, and a class instance from a plain object', () => {
  assert.ok(strictMismatch(-0, 0));
  assert.equal(strictMismatch(Number.NaN, Number.NaN), null);
  assert.ok(strictMismatch(9007199254740993n, 9007199254740992));
  assert.ok(strictMismatch(new Map([['a', 1]]), {}));
  class Cat {
    constructor(public name: string) {}
  }
  assert.ok(strictMismatch(new Cat('Tom'), { name: 'Tom' }));
  assert.equal(strictMismatch({ a: undefined, b: 1 }, { b: 1 }), null, 'undefined counts as absent, as in JSON');
});

test('strict equality compares an own __proto__ key as data, and reports a differing long string by character', () => {
  const withProto = JSON.parse('{"__proto__":{"x":1}}');
  assert.ok(strictMismatch(withProto, {}), 'an own __proto__ key that is missing is a difference');
  assert.equal(strictMismatch(withProto, JSON.parse('{"__proto__":{"x":1}}')), null);
  const m = strictMismatch('a'.repeat(50) + 'X', 'a'.repeat(50) + 'Y')!;
  assert.equal(m.path, '$ (char 50)');
});

test('faults are classified: absent, null, rounded, emptied or shortened is silent loss; anything else is a wrong value', () => {
  const fault = (e: unknown, a: unknown) => faultOf(strictMismatch({ v: e }, { v: a })!);
  assert.equal(fault(1, undefined), 'silent-loss');
  assert.equal(fault(Number.NaN, null), 'silent-loss');
  assert.equal(fault(9007199254740993n, 9007199254740992), 'silent-loss');
  assert.equal(fault(-0, 0), 'silent-loss');
  assert.equal(fault([1, 2, 3], [1, 3]), 'silent-loss');
  assert.equal(fault({ a: 1 }, {}), 'silent-loss');
  assert.equal(fault('x', 'y'), 'wrong-value');
  assert.equal(fault(Number.NaN, 'NaN'), 'wrong-value');
});

test('loneSurrogateAt finds unpaired surrogates and skips pairs', () => {
  assert.equal(loneSurrogateAt('a\u{1F600}b'), -1);
  assert.equal(loneSurrogateAt('ab\ud800'), 2);
  assert.equal(loneSurrogateAt('\ude00\ud83d'), 0);
  assert.equal(loneSurrogateAt('x\udc00'), 1);
});

test('a Date inside a value is shown as a Date: an Invalid Date is not rendered as the null a serializer is failed for (nu13)', () => {
  assert.equal(renderProbeValue({ at: new Date(Number.NaN) }), '{"at":Date(Invalid)}');
  assert.equal(renderProbeValue({ at: new Date(0) }), '{"at":Date(1970-01-01T00:00:00.000Z)}');
  assert.equal(renderProbeValue(new Date(Number.NaN)), 'Date(Invalid)');
  assert.equal(renderProbeValue({ at: '1970-01-01T00:00:00.000Z' }), '{"at":"1970-01-01T00:00:00.000Z"}');
});
