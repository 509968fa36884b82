import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPayload, samplesOf } from '../../src/payload/read.js';
import { inferSchema } from '../../src/payload/infer.js';
import { payloadWorkloads } from '../../src/payload/workload.js';
import { serializers } from '../../src/serializers/index.js';
import type { Workload } from '../../src/workloads/types.js';

/**
 * Real public JSON (../shared/data/corpus, beside the project: skipped with a message when
 * absent) through the inferred schema: the translation notes the adapters give. Which built-ins
 * pass the gate on citm_catalog.json and canada.json is tested on the whole path in
 * whole-path.test.ts (issue 10's target: on citm_catalog.json at least 10 of the 12 run).
 */

const CORPUS = fileURLToPath(new URL('../../../../shared/data/corpus/', import.meta.url));
process.env.JSONBENCH_CACHE = mkdtempSync(join(tmpdir(), 'jsonbench-corpus-'));
const adapters = await serializers.loadAll();
const notesOf = (id: string, workload: Workload) => adapters.find((a) => a.id === id)!.notes!(workload, 'serialize');

{
  const file = `${CORPUS}citm_catalog.json`;
  const skip = existsSync(file) ? false : `${file} is absent (the shared corpus lives beside the project, not in it)`;
  test(
    'citm_catalog.json: what ajv JTD and class-transformer check more loosely than the inferred schema (their translation notes)',
    { skip },
    async () => {
      const source = readPayload(file);
      const { schema } = await inferSchema(samplesOf(source));
      const [workload] = payloadWorkloads(source, schema);
      assert.deepEqual(notesOf('ajv-jtd', workload), [
        'ajv JTD has no null type: $.events.*.description (always null) accepts any value',
        'ajv JTD has no null type: $.events.*.subjectCode (always null) accepts any value',
        'ajv JTD has no null type: $.events.*.subtitle (always null) accepts any value',
        'ajv JTD has no null type: $.performances[].name (always null) accepts any value',
        'ajv JTD has no null type: $.performances[].seatMapImage (always null) accepts any value',
        'ajv JTD has no integer type wider than 32 bits (RFC 8927): $.performances[].start is checked as float64',
      ]);
      assert.deepEqual(notesOf('class-transformer', workload), [
        'class-transformer maps only ES Maps to classes: the values at $.events.* stay plain objects',
      ]);
    },
  );
}
