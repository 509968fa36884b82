import { test } from 'node:test';
import assert from 'node:assert/strict';
import fastJson from 'fast-json-stringify';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ensureVersion } from '../../../src/versions/install.js';

/** Direct reproductions for fast-json-stringify 7 (its own API: `fastJson(jsonSchema)(value)`). */

const object = (properties: Record<string, object>) =>
  fastJson({ type: 'object', properties, required: Object.keys(properties) } as never);

test('fast-json-stringify edge.number.±Infinity: written as null (while NaN throws)', () => {
  const stringify = object({ n: { type: 'number' } });
  assert.equal(stringify({ n: Infinity }), '{"n":null}');
  assert.equal(stringify({ n: -Infinity }), '{"n":null}');
  assert.throws(() => stringify({ n: Number.NaN }), /NaN/);
});

test('fast-json-stringify edge.number.-0 / roundtrip21: -0 is written as 0', () => {
  assert.equal(object({ n: { type: 'number' } })({ n: -0 }), '{"n":0}');
  assert.equal(fastJson({ type: 'array', items: { type: 'number' } } as never)([-0] as never), '[0]');
});

test('fast-json-stringify edge.symbol / edge.function: a Symbol or a function in a string field is written as its text', () => {
  const stringify = object({ a: { type: 'string' }, b: { type: 'string' } });
  assert.equal(stringify({ a: 'x', b: Symbol('s') }), '{"a":"x","b":"Symbol(s)"}');
  // the same one-line source as the probe's value (src/probes/catalog/edge-values.ts)
  // prettier-ignore
  const fn = function named(): void { /* */ };
  assert.equal(JSON.parse(stringify({ a: 'x', b: fn })).b, String(fn));
});

test('fast-json-stringify writes a declared property named __proto__ when the schema holds it as a property (jsonbench once lost it by assignment)', () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"id":{"type":"integer"},"__proto__":{"type":"string"}},"required":["id","__proto__"]}',
  );
  assert.equal(fastJson(schema)(JSON.parse('{"id":1,"__proto__":"v"}')), '{"id":1,"__proto__":"v"}');
});

// The version matrix's changed verdict (test/probes/versions.test.ts): before 7, a `format: date-time`
// string was copied between quotes unescaped (lib/serializer.js asDateTime: '"' + date + '"').
let v6: typeof fastJson | undefined;
let v6skip: string | false = false;
try {
  const { prefix } = ensureVersion('fast-json-stringify', '6.0.1');
  v6 = createRequire(join(prefix, 'package.json'))('fast-json-stringify') as typeof fastJson;
} catch (e) {
  v6skip = `cannot install fast-json-stringify@6.0.1 from npm: ${(e as Error).message}`;
}

test(
  'fast-json-stringify 6.0.1 string.value.date-time.*: a date-time string holding a quote, backslash, control or lone surrogate is written raw; 7 escapes it',
  { skip: v6skip },
  () => {
    const schema = {
      type: 'object',
      properties: { s: { type: 'string', format: 'date-time' } },
      required: ['s'],
    } as never;
    const old = v6!(schema);
    assert.equal(old({ s: '"' }), '{"s":"""}');
    assert.throws(() => JSON.parse(old({ s: '\\' })));
    assert.equal(old({ s: '\u0000' }), '{"s":"\u0000"}');
    assert.equal(old({ s: '\ud800' }).isWellFormed(), false);
    const now = fastJson(schema);
    for (const s of ['"', '\\', '\u0000', '\ud800']) assert.deepEqual(JSON.parse(now({ s })), { s });
    assert.equal(now({ s: '\ud800' }), '{"s":"\\ud800"}');
  },
);
