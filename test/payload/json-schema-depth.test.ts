import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromJsonSchema, JsonSchemaError } from '../../src/payload/json-schema-import.js';

/**
 * hx10 S10-refchain, S10-refnest (crash): the 400-level cap of schema-constraints.ts counts only
 * nesting written out; a chain of 5,000 `$ref` aliases or 3,000 levels written through `$ref`
 * overflowed the stack in SchemaReader.resolve/readRef/read ("an internal error"). Each `$ref`
 * followed now counts as a level, and `$ref` cycles are refused, never followed forever.
 */

/** `#/definitions/a0` → a1 → … → a<n> → integer: no nesting at all, n + 1 hops. */
const refChain = (n: number) => {
  const definitions: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) definitions[`a${i}`] = { $ref: `#/definitions/a${i + 1}` };
  definitions[`a${n}`] = { type: 'integer' };
  return { type: 'object', properties: { a: { $ref: '#/definitions/a0' } }, required: ['a'], definitions };
};

/** d_i = {properties: {a: {$ref: d_(i+1)}}}: n levels of objects, each written through a $ref. */
const refNest = (n: number) => {
  const definitions: Record<string, unknown> = {};
  for (let i = 0; i < n; i++)
    definitions[`d${i}`] = { type: 'object', properties: { a: { $ref: `#/definitions/d${i + 1}` } } };
  definitions[`d${n}`] = { type: 'integer' };
  return { $ref: '#/definitions/d0', definitions };
};

const refused = (schema: unknown, message: RegExp) =>
  assert.throws(
    () => fromJsonSchema(schema),
    (e: unknown) => e instanceof JsonSchemaError && message.test(e.message),
  );

test('a chain of 5,000 $ref aliases is refused as too deep, naming the $ref where it stops, not a stack overflow', () => {
  refused(
    refChain(5000),
    /^the schema at #\/definitions\/a398 \(for the value at \$\.a, reached through 399 \$refs\): it nests deeper than 400 levels, each \$ref followed counting as one/,
  );
});

test('3,000 levels written through $ref are refused as too deep (two levels per object: its $ref and itself)', () => {
  refused(
    refNest(3000),
    /^the schema at #\/definitions\/d199 \(for the value at \$[.a]+… \(401 characters\), reached through 200 \$refs\): it nests deeper than 400 levels/,
  );
});

test('chains and nesting under the cap are still read whole', () => {
  assert.deepEqual(fromJsonSchema(refChain(300)).schema, {
    type: 'object',
    properties: { a: { type: 'number', integer: true, width: 53 } },
    additionalProperties: { type: 'unknown' },
  });
  let node = fromJsonSchema(refNest(150)).schema;
  let levels = 0;
  while (node.type === 'object') {
    node = node.properties.a;
    levels++;
  }
  assert.equal(levels, 150);
  assert.equal(node.type, 'number');
});

test('a $ref cycle is refused as recursive, through $ref or through allOf, never followed forever', () => {
  refused(
    { $ref: '#/definitions/a', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } },
    /^recursive schema: #\/definitions\/a refers to itself at \$/,
  );
  refused({ allOf: [{ $ref: '#' }] }, /^recursive schema: # refers to itself through allOf at \$/);
});

/** d_i = {properties: {x: d_(i+1), y: d_(i+1)}}: n definitions, 2^n subschemas once inlined (hx12 SB-bomb: n = 23). */
const refBomb = (n: number) => {
  const definitions: Record<string, unknown> = {};
  for (let i = 0; i < n; i++)
    definitions[`d${i}`] = {
      type: 'object',
      properties: { x: { $ref: `#/definitions/d${i + 1}` }, y: { $ref: `#/definitions/d${i + 1}` } },
    };
  definitions[`d${n}`] = { type: 'integer' };
  return { $ref: '#/definitions/d0', definitions };
};

test('a schema whose $refs multiply (2^23 subschemas) is refused at once, saying so, not after 30 s as a loop (hx12)', () => {
  const t0 = performance.now();
  refused(
    refBomb(23),
    /^the schema reads as more than 100,000 subschemas once its \$refs are inlined \(reading #\/definitions\/d\d+ for the value at \$(\.[xy])+\): definitions that refer to others more than once multiply/,
  );
  assert.ok(performance.now() - t0 < 10_000, 'refused within seconds');
  assert.doesNotThrow(() => fromJsonSchema(refBomb(12)), '2^12 subschemas are read');
});
