import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializers } from '../../src/serializers/index.js';
import type { Direction } from '../../src/case/coordinates.js';
import { toJtd } from '../../src/serializers/ajv-jtd.js';
import { toDtoClass } from '../../src/serializers/class-transformer.js';
import { CONSTRUCTS } from '../payload/constructs.js';
import { documentSource, runPayloadCase } from '../payload/support.js';

/**
 * Every construct of the schema language × every built-in adapter × direction: the case passes
 * the gate on a document holding the construct, or it is unsupported for a reason that names the
 * construct and the JSON path. The table of expected reasons is the library × construct table.
 */

process.env.JSONBENCH_CACHE = mkdtempSync(join(tmpdir(), 'jsonbench-translators-'));
const adapters = await serializers.loadAll();

/** Reasons that are not about the schema: the adapter has no function for that direction, or does not validate (class-transformer's deserializer). */
const ONE_WAY =
  /deserialize only|has no serializer|serializes only|parses only|validates; it has no serializer|converts but does not validate/;

/** The expected unsupported reasons; every other (construct, adapter, direction) must pass the gate. */
const UNSUPPORTED: Record<string, string> = {
  'union/ajv-jtd/serialize':
    'ajv JTD has no union of integer and string (only discriminated unions of objects) at $.s[]',
  'union/ajv-jtd/deserialize':
    'ajv JTD has no union of integer and string (only discriminated unions of objects) at $.s[]',
};

for (const c of CONSTRUCTS) {
  for (const adapter of adapters) {
    for (const direction of ['serialize', 'deserialize'] as Direction[]) {
      const key = `${c.name}/${adapter.id}/${direction}`;
      test(`${adapter.id} ${direction}s a ${c.name} ${UNSUPPORTED[key] ? 'as unsupported, naming it and its path' : 'and passes the gate'}`, async () => {
        const outcome = await runPayloadCase(adapter, documentSource(c.text), c.schema, 'single', direction);
        // a one-way library in the direction it does not serve, or class-transformer's deserializer (it does not
        // validate): unsupported, saying so (before, this returned without asserting anything)
        if (
          !adapter.directions.includes(direction) ||
          (adapter.id === 'class-transformer' && direction === 'deserialize')
        ) {
          assert.equal(outcome.status, 'unsupported');
          assert.match(outcome.status === 'unsupported' ? outcome.reason : '', ONE_WAY);
        } else if (UNSUPPORTED[key]) assert.deepEqual(outcome, { status: 'unsupported', reason: UNSUPPORTED[key] });
        else assert.deepEqual(outcome, { status: 'ok' });
      });
    }
  }
}

test('ajv JTD writes what it cannot say exactly more loosely, and says so with the path', () => {
  const byName = (n: string) => CONSTRUCTS.find((c) => c.name === n)!.schema;
  assert.deepEqual(toJtd(byName('null')).notes, ['ajv JTD has no null type: $.a (always null) accepts any value']);
  assert.deepEqual(toJtd(byName('integer beyond 2^53')).notes, [
    'ajv JTD has no integer type wider than 32 bits (RFC 8927): $.id is checked as float64',
  ]);
  assert.deepEqual(toJtd(byName('additional properties')).notes, [
    'ajv JTD has no typed additional properties: other keys at $.* are accepted with any value',
  ]);
  assert.deepEqual(toJtd(byName('discriminated union')).schema, {
    properties: {
      d: {
        elements: {
          discriminator: 'type',
          mapping: {
            image: { properties: { url: { type: 'string' }, width: { type: 'int32' } } },
            video: { properties: { url: { type: 'string' }, durationMs: { type: 'int32' } } },
          },
        },
      },
    },
  });
  assert.deepEqual(toJtd(byName('optional property')).schema, {
    properties: {
      list: { elements: { properties: { a: { type: 'string' } }, optionalProperties: { b: { type: 'int32' } } } },
    },
  });
});

test('an object with no keys is JTD optionalProperties {} (ajv 8.20 compileParser throws on an empty properties, ajv#2609)', () => {
  assert.deepEqual(toJtd({ type: 'object', properties: {} }).schema, { optionalProperties: {} });
});

test('class-transformer leaves the objects of a map plain and says where', () => {
  const record = CONSTRUCTS.find((c) => c.name === 'record')!.schema;
  assert.deepEqual(toDtoClass(record, undefined).notes, [
    'class-transformer maps only ES Maps to classes: the values at $.m.* stay plain objects',
  ]);
  assert.throws(
    () => toDtoClass({ type: 'record', values: { type: 'string' } }, undefined),
    /class-transformer has no class for a map unit \(it maps objects to classes\) at \$/,
  );
  // a discriminated union at the top (nu6's NDJSON log records): "union", not "unit"
  const variant = { type: 'object', properties: { level: { type: 'string' } }, required: ['level'] };
  assert.throws(
    () =>
      toDtoClass(
        { type: 'discriminated', discriminator: 'level', mapping: { info: variant, warn: variant } } as never,
        undefined,
      ),
    /class-transformer has no class for a discriminated union \(it maps objects to classes\) at \$/,
  );
});

test('arktype names a key its object syntax would read as syntax, with the path', () => {
  const arktype = adapters.find((a) => a.id === 'arktype')!;
  const schema = { type: 'object' as const, properties: { 'maybe?': { type: 'string' as const } } };
  const outcome = arktype.supports(
    { id: 'x', description: '', sizes: [1], defaultSizes: [1], shapes: ['single'], schema, build: () => ({}) },
    'deserialize',
  );
  assert.equal(
    outcome,
    'arktype has no plain key named "maybe?" (its object syntax reads it as syntax) at $["maybe?"]',
  );
});

test('arktype refuses keys its object syntax reads as an escape, saying which key it would name (hx10 AK-escape: a TraversalError blamed the library)', async () => {
  const arktype = adapters.find((a) => a.id === 'arktype')!;
  const supports = (properties: Record<string, { type: 'string' }>, optional?: string[]) =>
    arktype.supports(
      {
        id: 'x',
        description: '',
        sizes: [1],
        defaultSizes: [1],
        shapes: ['single'],
        schema: { type: 'object', properties, ...(optional ? { optional } : {}) },
        build: () => ({}),
      },
      'deserialize',
    );
  const str = { type: 'string' as const };
  assert.equal(
    supports({ '\\[x]': str }),
    'arktype has no plain key named "\\\\[x]" (its object syntax reads the leading backslash as an escape: it would name the key "[x]") at $["\\\\[x]"]',
  );
  assert.match(String(supports({ '\\+': str })), /plain key named "\\\\\+" .*it would name the key "\+"/);
  assert.match(String(supports({ '\\...': str })), /it would name the key "\.\.\."/);
  assert.match(
    String(supports({ 'a\\': str }, ['a\\'])),
    /optional key named "a\\\\" .*it would name the required key "a\?"/,
  );
  // a backslash arktype does not read as an escape is a plain key: supported, and the type checks it
  assert.equal(supports({ 'a\\': str, '\\x': str, '\\[x': str }), true);
  const unit = { 'a\\': 's', '\\x': 't', '\\[x': 'u' };
  const text = JSON.stringify(unit);
  const prepared = await arktype.prepare(
    {
      id: 'x',
      description: '',
      sizes: [1],
      defaultSizes: [1],
      shapes: ['single'],
      schema: { type: 'object', properties: { 'a\\': str, '\\x': str, '\\[x': str } },
      build: () => unit,
    },
    'deserialize',
  );
  assert.deepEqual(prepared.deserialize!(text), unit);
});

test('validators reject what a construct forbids: a missing required key, a wrong tag, an extra key of the wrong type', async () => {
  const cases = [
    { name: 'optional property', bad: '{"list":[{"b":1}]}' },
    { name: 'discriminated union', bad: '{"d":[{"type":"audio","url":"a.mp3"}]}' },
    { name: 'record', bad: '{"m":{"1":{"n":"one"}}}' },
    { name: 'integer beyond 2^53', bad: '{"id":1.5}' },
  ];
  for (const id of ['ajv-jtd', 'typia', 'typebox', 'zod', 'valibot', 'arktype']) {
    const adapter = adapters.find((a) => a.id === id)!;
    for (const { name, bad } of cases) {
      const c = CONSTRUCTS.find((x) => x.name === name)!;
      const outcome = await runPayloadCase(
        adapter,
        { ...documentSource(bad), units: [{ text: bad, value: JSON.parse(c.text), source: 'bad.json' }] },
        c.schema,
        'single',
        'deserialize',
      );
      // the one loosening ajv's note states: an integer wider than 32 bits is checked as float64
      const loosened = id === 'ajv-jtd' && name === 'integer beyond 2^53';
      assert.equal(
        outcome.status,
        loosened ? 'incorrect' : 'failed',
        `${id} ${loosened ? 'rejected' : 'accepted'} ${bad} for ${name}`,
      );
    }
  }
});

test('for NDJSON records in the list shape, the path of an unsupported construct starts at the array ($[])', async () => {
  const ajv = adapters.find((a) => a.id === 'ajv-jtd')!;
  const lines = ['{"id":1,"code":"E1"}', '{"id":2,"code":404}'];
  const source = {
    kind: 'ndjson' as const,
    path: 'log.ndjson',
    units: lines.map((text, i) => ({ text, value: JSON.parse(text), source: `log.ndjson:${i + 1}` })),
    shapes: ['list', 'many'] as const,
  };
  const schema = {
    type: 'object' as const,
    properties: {
      id: { type: 'number' as const, integer: true },
      code: {
        type: 'union' as const,
        anyOf: [{ type: 'string' as const }, { type: 'number' as const, integer: true }],
      },
    },
  };
  const list = await runPayloadCase(ajv, { ...source, shapes: [...source.shapes] }, schema, 'list', 'deserialize');
  assert.deepEqual(list, {
    status: 'unsupported',
    reason: 'ajv JTD has no union of string and integer (only discriminated unions of objects) at $[].code',
  });
  const many = await runPayloadCase(ajv, { ...source, shapes: [...source.shapes] }, schema, 'many', 'serialize');
  assert.deepEqual(many, {
    status: 'unsupported',
    reason: 'ajv JTD has no union of string and integer (only discriminated unions of objects) at $.code',
  });
});

test('TypeBox refuses a property name holding a control character, with its path (hx29 S-markupkey: its bare "Preflight validation check failed")', () => {
  const typebox = adapters.find((a) => a.id === 'typebox')!;
  const supports = (schema: unknown) =>
    typebox.supports(
      {
        id: 'x',
        description: '',
        sizes: [1],
        defaultSizes: [1],
        shapes: ['single'],
        schema: schema as never,
        build: () => ({}),
      },
      'deserialize',
    );
  const str = { type: 'string' as const };
  assert.equal(
    supports({
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'object', properties: { '<b>\u001b[31m': str } } } },
    }),
    'TypeBox has no property name holding a control character (its compiler refuses U+0007–U+000D, U+001B and U+007F in one) at $.list[]["<b>\\u001b[31m"]',
  );
  assert.match(
    String(
      supports({ type: 'discriminated', discriminator: 'k\n', mapping: { a: { type: 'object', properties: {} } } }),
    ),
    /TypeBox has no property name .* at \$\["k\\n"\]$/,
  );
  // markup, NUL and U+2028 are keys TypeBox compiles: supported
  assert.equal(supports({ type: 'object', properties: { '<script>': str, '\u0000': str, 'a\u2028b': str } }), true);
});
