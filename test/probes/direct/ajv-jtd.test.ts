import { test } from 'node:test';
import assert from 'node:assert/strict';
import AjvJtd from 'ajv/dist/jtd.js';

/**
 * Direct reproductions for ajv's JSON Type Definition mode (ajv 8: `new Ajv().compileSerializer`
 * / `compileParser`). The serializer trusts its input: it writes `"" + value` for strings and
 * numbers, so whatever the value holds comes out as it is — lone surrogates unescaped, Infinity
 * and undefined literally.
 */
const Ajv = AjvJtd.default;
const serializer = (schema: object) => new Ajv().compileSerializer(schema);
const parser = (schema: object) => new Ajv().compileParser(schema);

test('ajv-jtd string.value.*.lone-high/lone-low/reversed-pair: lone surrogates are written raw (ill-formed: no UTF-8 encoding exists)', () => {
  const stringify = serializer({ properties: { s: { type: 'string' } } });
  for (const s of [
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
    '\ude00\ud83d',
    'a'.repeat(40) + '\ud800',
    'a'.repeat(4_999) + '\udc00',
    'a'.repeat(99_999) + '\ud800',
  ]) {
    const out = stringify({ s });
    assert.equal(out, `{"s":"${s}"}`, 'the surrogate is copied as it is');
    assert.match(
      out,
      /\p{Cs}/u,
      'a lone surrogate (with the u flag a pair is one code point, so only lone ones match)',
    );
    assert.equal(JSON.parse(out).s, s, 'JSON.parse accepts it, which is why only a well-formedness check sees it');
    assert.equal(
      Buffer.from(out, 'utf8').toString('utf8').includes('\ufffd'),
      true,
      'encoding it as UTF-8 replaces it with U+FFFD',
    );
  }
  assert.equal(
    JSON.stringify({ s: '\ud800' }),
    '{"s":"\\ud800"}',
    'JSON.stringify escapes it (ES2019 well-formed JSON.stringify)',
  );
});

test('ajv-jtd edge.number.NaN/±Infinity, edge.array.hole/undefined, edge.class.toJSON: invalid JSON (NaN, Infinity, undefined written literally)', () => {
  const number = serializer({ properties: { n: { type: 'float64' } } });
  assert.equal(number({ n: Number.NaN }), '{"n":NaN}');
  assert.equal(number({ n: Infinity }), '{"n":Infinity}');
  assert.equal(number({ n: -Infinity }), '{"n":-Infinity}');
  const list = serializer({ properties: { xs: { elements: { type: 'float64' } } } });
  const holey: number[] = [1];
  holey[2] = 3;
  assert.equal(list({ xs: holey }), '{"xs":[1,undefined,3]}');
  assert.equal(list({ xs: [1, undefined, 3] }), '{"xs":[1,undefined,3]}');
  class Money {
    constructor(private readonly cents: number) {}
    toJSON() {
      return { amount: this.cents / 100 };
    }
  }
  assert.equal(
    serializer({ properties: { amount: { type: 'float64' } } })(new Money(1234)),
    '{"amount":undefined}',
    'toJSON is not called',
  );
});

test('ajv-jtd feature.required.missing: a missing string property is written as the string "undefined"', () => {
  assert.equal(
    serializer({ properties: { id: { type: 'int32' }, name: { type: 'string' } } })({ id: 1 }),
    '{"id":1,"name":"undefined"}',
  );
});

test('ajv-jtd edge.date.*: a Date in a string field is written with Date.prototype.toString', () => {
  const stringify = serializer({ properties: { at: { type: 'string' } } });
  const d = new Date('2024-02-29T12:34:56.789Z');
  assert.equal(JSON.parse(stringify({ at: d })).at, String(d));
  assert.equal(JSON.parse(stringify({ at: new Date(Number.NaN) })).at, 'Invalid Date');
  // JTD's own timestamp type writes the ISO form: the adapter declares date-time strings as `string` (its shared policy).
  assert.equal(
    serializer({ properties: { at: { type: 'timestamp' } } })({ at: d }),
    '{"at":"2024-02-29T12:34:56.789Z"}',
  );
});

test('ajv-jtd edge.function: a function in a string field is written as its source', () => {
  // one line: String(fn) lands in the JSON as it is, and a line break in it is a raw control character
  // prettier-ignore
  const fn = function named(): void { /* */ };
  assert.equal(
    JSON.parse(serializer({ properties: { a: { type: 'string' }, b: { type: 'string' } } })({ a: 'x', b: fn })).b,
    String(fn),
  );
});

test('ajv-jtd edge.number.-0 / roundtrip21: -0 is written as 0', () => {
  assert.equal(serializer({ properties: { n: { type: 'float64' } } })({ n: -0 }), '{"n":0}');
  assert.equal(serializer({ elements: { type: 'float64' } })([-0]), '[0]');
});

test('ajv-jtd edge.int.2^53-1 / roundtrip17: JTD integers are at most 32 bits, so a larger integer is rejected', () => {
  const parse = parser({ properties: { n: { type: 'int32' } } });
  assert.equal(parse('{"n":9007199254740991}'), undefined);
  assert.match(parse.message ?? '', /integer out of range/);
  const uint = parser({ elements: { type: 'int32' } });
  assert.equal(uint('[4294967295]'), undefined);
});

test('ajv-jtd edge.int.spelled-1.0: the parser rejects an int32 spelled 1.0, which RFC 8927 §3.3.7 accepts (a zero fractional part)', () => {
  const parse = parser({ properties: { n: { type: 'int32' } } });
  assert.equal(parse('{"n":1.0}'), undefined);
  assert.match(parse.message ?? '', /unexpected token \./);
  assert.deepEqual(parse('{"n":1}'), { n: 1 });
  assert.equal(
    new Ajv().compile({ properties: { n: { type: 'int32' } } })(JSON.parse('{"n":1.0}')),
    true,
    "ajv's JTD validator accepts it",
  );
});

test('ajv-jtd structure.empty.*-object / roundtrip07: compiling a parser for an object with no properties throws', () => {
  assert.throws(() => parser({ properties: {} }), { name: 'TypeError', message: /Reduce of empty array/ });
  assert.throws(() => parser({ properties: { o: { properties: {} } } }), { name: 'TypeError' });
  assert.doesNotThrow(() => serializer({ properties: {} }), 'the serializer compiles it');
  assert.doesNotThrow(
    () => new Ajv().compile({ properties: {} }),
    'and so does the validator: the schema is valid JTD (RFC 8927 §2.2.5)',
  );
});

test('ajv-jtd safety.declared.__proto__: the parser does not read a declared property named __proto__ ("missing required properties")', () => {
  const schema = JSON.parse('{"properties":{"id":{"type":"int32"},"__proto__":{"type":"string"}}}');
  const parse = parser(schema);
  assert.equal(parse('{"id":1,"__proto__":"v"}'), undefined);
  assert.match(parse.message ?? '', /missing required properties/);
  assert.equal(parse('{"id":1,"\\u005f\\u005fproto__":"v"}'), undefined);
  const validate = new Ajv().compile(schema);
  assert.equal(validate(JSON.parse('{"id":1,"__proto__":"v"}')), false, "ajv's JTD validator rejects it too");
  assert.equal(validate.errors?.[0]?.message, 'must NOT have additional properties');
});
