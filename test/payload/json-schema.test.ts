import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePayload } from '../../src/payload/workload.js';
import { PayloadError } from '../../src/payload/read.js';
import { toJsonSchema } from '../../src/workloads/json-schema.js';
import { fromJsonSchema } from '../../src/payload/json-schema-import.js';
import { readPayload, samplesOf } from '../../src/payload/read.js';
import { inferSchema } from '../../src/payload/infer.js';
import { loadUserSchema } from '../../src/payload/user-schema.js';
import { workloads } from '../../src/workloads/index.js';
import type { SchemaNode } from '../../src/workloads/schema.js';
import { CONSTRUCTS } from './constructs.js';

/** JSON Schema in and out: `--print-schema` output read back by `--schema` gives the same schema. */

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));

/** Drops the transform-class hints (asDate, fromString) JSON Schema does not carry, and `nullable: false`. */
const wireOnly = (node: SchemaNode): SchemaNode =>
  JSON.parse(
    JSON.stringify(node, (k, v) =>
      k === 'asDate' || k === 'fromString' || (k === 'nullable' && v === false) ? undefined : v,
    ),
  );
/** Integers without a width are width 32, which JSON Schema says as format int32. */
const withWidths = (node: SchemaNode): SchemaNode =>
  JSON.parse(
    JSON.stringify(node, (_k, v) => (v && v.type === 'number' && v.integer && !v.width ? { ...v, width: 32 } : v)),
  );

test('every construct survives JSON Schema out and in', () => {
  for (const c of CONSTRUCTS) {
    const back = fromJsonSchema(JSON.parse(JSON.stringify(toJsonSchema(c.schema, { dialect: true }))));
    assert.deepEqual(back, { schema: withWidths(c.schema), unconverted: [] }, c.name);
  }
});

test('the inferred schema of the API fixture and every built-in workload schema round-trip', async () => {
  const inferred = await inferSchema(samplesOf(readPayload(`${FIXTURES}api-response.json`)));
  // date-times read as Dates (asDate, a transform-class hint inference adds) are date-time strings in JSON Schema
  assert.deepEqual(fromJsonSchema(toJsonSchema(inferred.schema)).schema, wireOnly(inferred.schema));
  for (const w of await workloads.loadAll()) {
    assert.deepEqual(fromJsonSchema(toJsonSchema(w.schema)).schema, withWidths(wireOnly(w.schema)), w.id);
  }
});

test('the printed schema says optional, nullable, formats, widths, records, unions and empty arrays in plain JSON Schema', () => {
  const js = toJsonSchema({
    type: 'object',
    properties: {
      id: { type: 'number', integer: true, width: 64 },
      at: { type: 'string', format: 'date' },
      note: { type: 'string', nullable: true },
      m: { type: 'record', values: { type: 'boolean' } },
      u: { type: 'union', anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
      e: { type: 'array', items: { type: 'unknown' }, empty: true },
    },
    optional: ['note'],
  });
  assert.deepEqual(js, {
    type: 'object',
    properties: {
      id: { type: 'integer', format: 'int64' },
      at: { type: 'string', format: 'date' },
      note: { type: ['string', 'null'] },
      m: { type: 'object', additionalProperties: { type: 'boolean' } },
      u: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      e: { type: 'array', items: {}, maxItems: 0 },
    },
    required: ['id', 'at', 'm', 'u', 'e'],
    additionalProperties: false,
  });
});

test('a hand-written JSON Schema: $refs, allOf, oneOf, type arrays and const tags are read; constraints are listed as unconverted', () => {
  const { schema, unconverted } = fromJsonSchema({
    $defs: {
      Id: { type: 'string', minLength: 3 },
      Base: { type: 'object', properties: { id: { $ref: '#/$defs/Id' } }, required: ['id'] },
    },
    allOf: [
      { $ref: '#/$defs/Base' },
      {
        properties: {
          n: { type: ['integer', 'null'], minimum: 0 },
          pet: {
            oneOf: [
              {
                type: 'object',
                properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
                required: ['kind', 'lives'],
              },
              { type: 'object', properties: { kind: { const: 'dog' } }, required: ['kind'] },
            ],
          },
        },
        required: ['n'],
      },
    ],
  });
  assert.deepEqual(schema, {
    type: 'object',
    properties: {
      id: { type: 'string' },
      n: { type: 'number', integer: true, width: 53, nullable: true },
      pet: {
        type: 'discriminated',
        discriminator: 'kind',
        mapping: {
          cat: {
            type: 'object',
            properties: { lives: { type: 'number', integer: true, width: 53 } },
            additionalProperties: { type: 'unknown' },
          },
          dog: { type: 'object', properties: {}, additionalProperties: { type: 'unknown' } },
        },
      },
    },
    optional: ['pet'],
    additionalProperties: { type: 'unknown' },
  });
  assert.deepEqual(unconverted, ['minLength at $.id', 'minimum at $.n']);
});

test('a recursive or dangling $ref is refused with the path', () => {
  assert.throws(
    () =>
      fromJsonSchema({
        $defs: { T: { type: 'object', properties: { next: { $ref: '#/$defs/T' } } } },
        $ref: '#/$defs/T',
      }),
    /recursive schema: #\/\$defs\/T refers to itself at \$\.next/,
  );
  assert.throws(
    () => fromJsonSchema({ properties: { a: { $ref: '#/$defs/Nope' } } }),
    /\$ref #\/\$defs\/Nope at \$\.a resolves to nothing/,
  );
});

test("a zod schema converts through zod's own toJSONSchema, its Date listed as not converted", async () => {
  const user = await loadUserSchema(`${FIXTURES}schemas/zod-schema.mjs`);
  assert.equal(user.library, 'zod');
  assert.deepEqual(user.unconverted, [
    'date at $.createdAt: Date cannot be represented in JSON Schema',
    'pattern at $.id',
  ]);
  assert.deepEqual(user.schema, {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' },
      count: { type: 'number', integer: true, width: 53 },
      createdAt: { type: 'unknown' },
      tags: { type: 'array', items: { type: 'string' } },
      kind: { type: 'enum', values: ['a', 'b'] },
      note: { type: 'string', nullable: true },
    },
    optional: ['tags'],
    // zod's input side accepts (and strips) keys it does not declare: an open object
    additionalProperties: { type: 'unknown' },
  });
});

test('a valibot schema converts through @valibot/to-json-schema, with its warning for the Date', async () => {
  const user = await loadUserSchema(`${FIXTURES}schemas/valibot-schema.mjs`);
  assert.equal(user.library, 'valibot');
  assert.equal(user.unconverted.length, 1);
  assert.match(user.unconverted[0], /date/i);
  const s = user.schema as Extract<SchemaNode, { type: 'object' }>;
  assert.deepEqual(s.properties.score, { type: 'union', anyOf: [{ type: 'number' }, { type: 'string' }] });
  assert.deepEqual(s.optional, ['extra']);
});

test('a TypeBox schema is JSON Schema already; constraints jsonbench does not hold are listed', async () => {
  const user = await loadUserSchema(`${FIXTURES}schemas/typebox-schema.mjs`);
  assert.equal(user.library, 'typebox');
  assert.deepEqual(user.unconverted, ['minimum at $.x']);
  assert.deepEqual(user.schema, {
    type: 'object',
    properties: {
      type: { type: 'enum', values: ['click'] },
      at: { type: 'string', format: 'date-time' },
      x: { type: 'number', integer: true, width: 53 },
      meta: { type: 'record', values: { type: 'number' } },
    },
    additionalProperties: { type: 'unknown' },
  });
});

test('a TypeScript schema module is bundled first, then converted like a .js one', async (t) => {
  // bundling writes the module beside its source: a copy in the project's git-ignored .jsonbench/
  // (npm packages still resolve from the root) keeps test/fixtures unchanged, whose folder times
  // the CLI's stale-build check reads
  const { copyFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { makeFolder } = await import('../../src/files/make-folder.js');
  const scratch = fileURLToPath(new URL('../../../.jsonbench/', import.meta.url));
  makeFolder(scratch);
  const dir = mkdtempSync(join(scratch, 'schema-ts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(`${FIXTURES}schemas/typebox-schema.ts`, join(dir, 'typebox-schema.ts'));
  const user = await loadUserSchema(join(dir, 'typebox-schema.ts'));
  assert.equal(user.library, 'typebox');
  assert.deepEqual(user.schema, {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' },
      total: { type: 'number' },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: { sku: { type: 'string' }, qty: { type: 'number', integer: true, width: 53 } },
          additionalProperties: { type: 'unknown' },
        },
      },
    },
    additionalProperties: { type: 'unknown' },
  });
});

test('a --schema the payload does not fit is refused before anything runs, naming the unit, the path, what the schema wants and the value', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { resolvePayload } = await import('../../src/payload/workload.js');
  const { payloadMismatch } = await import('../../src/payload/conform.js');
  const source = readPayload(`${FIXTURES}api-response.json`);
  const inferred = await inferSchema(samplesOf(source));
  assert.equal(payloadMismatch(source, inferred.schema), null, 'the inferred schema fits its own payload');
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-conform-'));
  try {
    const wrong = join(dir, 'wrong.schema.json');
    writeFileSync(
      wrong,
      JSON.stringify({
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
        },
        required: ['items'],
      }),
    );
    const doc = join(dir, 'doc.json');
    writeFileSync(doc, JSON.stringify({ items: [{ id: 'a' }, { id: 7 }] }));
    await assert.rejects(resolvePayload(doc, { schemaFile: wrong }), {
      message: `${wrong}: the payload does not fit this schema, at $.items[1].id: must be string (got 7); every serializer given the schema would be called incorrect for it. Fix the schema (or start from the inferred one: --print-schema without --schema)`,
    });
    const log = join(dir, 'log.ndjson');
    writeFileSync(log, '{"items":[]}\n{"other":1}\n');
    await assert.rejects(
      resolvePayload(log, { schemaFile: wrong }),
      /the payload does not fit this schema, record 2 at \$: must have required property 'items' \("items"\) \(got \{"other":1\}\)/,
    );
    writeFileSync(doc, JSON.stringify({ items: [{ id: 'a' }] }));
    assert.equal(
      (await resolvePayload(doc, { schemaFile: wrong })).origin.library,
      'json-schema',
      'a payload that fits runs',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a zod schema's refinements and transforms are listed as not converted, and a payload its refinement refuses is refused (hx34 sc07)", async () => {
  const file = `${FIXTURES}schemas/zod-refine.mjs`;
  const user = await loadUserSchema(file);
  assert.deepEqual(user.unconverted, [
    'refine at $: a custom check (a function) has no JSON Schema; the serializers are given the schema without it',
    'transform at $.name: a transform (a function) has no JSON Schema; the serializers read and write the input, untransformed',
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-zod-refine-'));
  try {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"id":-1,"name":"a"}\n');
    await assert.rejects(
      resolvePayload(bad, { schemaFile: file }),
      (e: Error) =>
        e instanceof PayloadError &&
        e.message ===
          `${file}: the payload does not pass the schema's own checks (zod): id must be positive at $; a validator holding your schema would refuse it. Fix the payload or the schema`,
    );
    const good = join(dir, 'good.json');
    writeFileSync(good, '{"id":1,"name":"a"}\n');
    const ok = await resolvePayload(good, { schemaFile: file });
    assert.equal(ok.origin.library, 'zod');
    // a z.date() field (a string on the wire) is "not converted", never refused
    const dated = join(dir, 'dated.json');
    writeFileSync(
      dated,
      '{"id":"7a1c6f2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b","count":1,"createdAt":"2026-01-01T00:00:00Z","kind":"a","note":null}\n',
    );
    const withDate = await resolvePayload(dated, { schemaFile: `${FIXTURES}schemas/zod-schema.mjs` });
    assert.equal(withDate.origin.library, 'zod');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('what did not convert inside a nullable field is named at the field; inside a union of several, by its alternative (nu16: "$.updatedAt<0>")', () => {
  const { unconverted } = fromJsonSchema({
    type: 'object',
    properties: {
      updatedAt: { anyOf: [{ type: 'string', pattern: '^\\d' }, { type: 'null' }] },
      id: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 9 }] },
    },
  });
  assert.deepEqual(unconverted, ['pattern at $.updatedAt', 'maxLength at $.id (oneOf alternative 2)']);
});
