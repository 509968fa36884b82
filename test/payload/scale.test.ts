import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readPayload, samplesOf } from '../../src/payload/read.js';
import { inferSchema } from '../../src/payload/infer.js';
import { generationSchema, scaleRecords } from '../../src/payload/scale.js';
import { toZod } from '../../src/serializers/zod.js';
import type { SchemaNode } from '../../src/workloads/schema.js';

/** Scaling a sample: records of the payload's shape, valid against its schema, deterministic by seed. */

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));
const source = readPayload(`${FIXTURES}log.ndjson`);
const { schema } = await inferSchema(samplesOf(source));
const samples = source.units.map((u) => u.value);

test('scaled records satisfy the inferred schema (checked by zod) and the same seed gives the same records', () => {
  const records = scaleRecords(schema, samples, 200, 7);
  assert.equal(records.length, 200);
  const check = toZod(schema, undefined);
  for (const r of records) assert.equal(check.safeParse(r).success, true, JSON.stringify(r));
  assert.deepEqual(scaleRecords(schema, samples, 200, 7), records);
  assert.notDeepEqual(scaleRecords(schema, samples, 200, 8), records);
  assert.equal(new Set(records.map((r) => JSON.stringify(r))).size, 200);
});

test('the generation schema carries the bounds the samples showed', () => {
  const { jsonSchema, optionalShare } = generationSchema(schema, samples);
  const props = jsonSchema.properties as Record<string, Record<string, unknown>>;
  const durations = samples.map((s) => (s as { durationMs: number }).durationMs);
  assert.equal(props.durationMs.minimum, Math.min(...durations));
  assert.equal(props.durationMs.maximum, Math.max(...durations));
  assert.equal(props.level.type, 'string');
  assert.ok(optionalShare > 0 && optionalShare < 1, String(optionalShare));
});

test('scaled records are about the size of the samples (within 25%)', () => {
  const avg = (xs: unknown[]) => xs.reduce((s: number, x) => s + JSON.stringify(x).length, 0) / xs.length;
  const ratio = avg(scaleRecords(schema, samples, 500, 1)) / avg(samples);
  assert.ok(ratio > 0.75 && ratio < 1.25, `scaled/sample bytes ${ratio.toFixed(2)}`);
});

test("a record nested deeper than json-schema-faker's default depth (5) is generated whole, never with null placeholders", async () => {
  const deep = { a: [{ b: [{ c: [{ d: { e: [{ id: 1, tags: ['x'] }] } }] }] }] };
  const inferred = await inferSchema([{ value: deep }]);
  const check = toZod(inferred.schema, undefined);
  for (const seed of [1, 2, 3]) {
    const [r] = scaleRecords(inferred.schema, [deep], 1, seed);
    assert.equal(check.safeParse(r).success, true, JSON.stringify(r));
    assert.ok(!JSON.stringify(r).includes('null'), JSON.stringify(r));
  }
});

test("generated array lengths keep the samples' mean when lengths are skewed (canada.json's rings: a few points, some thousands)", () => {
  const schema: SchemaNode = {
    type: 'object',
    properties: { rings: { type: 'array', items: { type: 'array', items: { type: 'number' } } } },
  };
  const ring = (n: number) => Array.from({ length: n }, (_, i) => i / 10);
  const sample = { rings: [ring(4), ring(4), ring(5), ring(4), ring(2000)] };
  const points = (r: unknown) => (r as { rings: number[][] }).rings.reduce((a, x) => a + x.length, 0);
  const made = scaleRecords(schema, [sample], 40, 7);
  const mean = made.reduce((a: number, r) => a + points(r), 0) / made.length;
  // the samples hold 2,017 points; the old bounds (uniform up to the longest ring) averaged ~5,000
  assert.ok(mean > 500 && mean < 4000, `mean points per generated record ${mean.toFixed(0)} (samples: 2,017)`);
  for (const r of made)
    for (const x of (r as { rings: number[][] }).rings)
      assert.ok(x.length >= 2 && x.length <= 2000, `ring length ${x.length} within the samples' bounds`);
});

test("the generation schema of 150,000 decimals does not overflow the call stack (a hostile tester's 1.4 MB payload crashed every run)", () => {
  const xs = Array.from({ length: 150_000 }, (_, i) => i + 0.25);
  const node: SchemaNode = { type: 'number' };
  const { jsonSchema } = generationSchema(node, xs);
  assert.equal(jsonSchema.multipleOf, 0.01);
  assert.equal(jsonSchema.maximum, 149_999.25);
});
