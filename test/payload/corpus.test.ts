import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPayload, samplesOf, type PayloadSource } from '../../src/payload/read.js';
import { inferSchema } from '../../src/payload/infer.js';
import { payloadWorkloads } from '../../src/payload/workload.js';
import { serializers } from '../../src/serializers/index.js';
import type { SchemaNode } from '../../src/workloads/schema.js';
import type { Workload } from '../../src/workloads/types.js';
import type { Direction } from '../../src/case/coordinates.js';
import { runPayloadCase, type PayloadOutcome } from './support.js';

/**
 * The 12 built-in serializers on real public JSON (../shared/data/corpus, beside the project:
 * skipped with a message when absent), through the inferred schema: which pass the gate in each
 * direction, which are unsupported and why. Issue 10's target: on citm_catalog.json at least 10
 * of the 12 run.
 */

const CORPUS = fileURLToPath(new URL('../../../../shared/data/corpus/', import.meta.url));
process.env.JSONBENCH_CACHE = mkdtempSync(join(tmpdir(), 'jsonbench-corpus-'));
const adapters = await serializers.loadAll();
const notesOf = (id: string, workload: Workload) => adapters.find((a) => a.id === id)!.notes!(workload, 'serialize');

/** The one-way libraries' own reasons (a library without a serializer or a parser). */
const ONE_WAY: Record<string, string> = {
  'typebox/serialize': 'TypeBox validates; it has no serializer',
  'zod/serialize': 'validator: deserialize only (zod does not write JSON)',
  'valibot/serialize': 'validator: deserialize only (valibot does not write JSON)',
  'arktype/serialize': 'validator: deserialize only (arktype does not write JSON)',
  'secure-json-parse/serialize': 'secure-json-parse parses only; it has no serializer',
  'fast-json-stringify/deserialize': 'fast-json-stringify serializes only; it has no parser',
  'safe-stable-stringify/deserialize': 'safe-stable-stringify serializes only; it has no parser',
};

async function statuses(source: PayloadSource, schema: SchemaNode): Promise<Record<string, PayloadOutcome>> {
  const out: Record<string, PayloadOutcome> = {};
  for (const a of adapters) {
    for (const d of ['serialize', 'deserialize'] as Direction[]) {
      if (d === 'deserialize' && !a.deserializeClass && !ONE_WAY[`${a.id}/${d}`]) continue;
      out[`${a.id}/${d}`] = await runPayloadCase(a, source, schema, 'single', d);
    }
  }
  return out;
}

function expected(): Record<string, PayloadOutcome> {
  const out: Record<string, PayloadOutcome> = {};
  for (const a of adapters) {
    for (const d of ['serialize', 'deserialize'] as Direction[]) {
      const key = `${a.id}/${d}`;
      if (ONE_WAY[key]) out[key] = { status: 'unsupported', reason: ONE_WAY[key] };
      else if (d === 'serialize' || a.deserializeClass) out[key] = { status: 'ok' };
    }
  }
  return out;
}

for (const name of ['citm_catalog', 'canada']) {
  const file = `${CORPUS}${name}.json`;
  const skip = existsSync(file) ? false : `${file} is absent (the shared corpus lives beside the project, not in it)`;
  test(`${name}.json: all 12 serializers run through the inferred schema; only the one-way libraries are unsupported, by direction`, { skip }, async () => {
    const source = readPayload(file);
    const { schema } = await inferSchema(samplesOf(source));
    const got = await statuses(source, schema);
    assert.deepEqual(got, expected());
    const ran = new Set(Object.entries(got).filter(([, o]) => o.status === 'ok').map(([k]) => k.split('/')[0]));
    assert.equal(ran.size, 12);
    if (name === 'citm_catalog') {
      const [workload] = payloadWorkloads(source, schema);
      assert.deepEqual(notesOf('ajv-jtd', workload), [
        'ajv JTD has no null type: $.events.*.description (always null) accepts any value',
        'ajv JTD has no null type: $.events.*.subjectCode (always null) accepts any value',
        'ajv JTD has no null type: $.events.*.subtitle (always null) accepts any value',
        'ajv JTD has no null type: $.performances[].name (always null) accepts any value',
        'ajv JTD has no null type: $.performances[].seatMapImage (always null) accepts any value',
        'ajv JTD has no integer type wider than 32 bits (RFC 8927): $.performances[].start is checked as float64',
      ]);
      assert.deepEqual(notesOf('class-transformer', workload), ['class-transformer maps only ES Maps to classes: the values at $.events.* stay plain objects']);
    }
  });
}
