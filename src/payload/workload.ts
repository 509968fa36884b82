import { basename, extname } from 'node:path';
import type { SchemaNode } from '../workloads/schema.js';
import type { Workload } from '../workloads/types.js';
import type { PayloadSource, PayloadUnit } from './read.js';

/**
 * A user's payload as a {@link Workload}, so the plan, the adapters and the gate treat it like a
 * built-in: `size` is the number of records (NDJSON) or 1 (a document); `build()` returns the
 * parsed value whatever the seed (the payload is data, not generated); the schema is the one
 * inferred or given. The exact texts the deserialize cases must parse are not in the Workload
 * interface: they come from {@link unitTexts} (src/payload/read.ts).
 */

/** A workload id from a file name: `response.json` → `payload:response`. */
export function payloadId(file: string): string {
  return `payload:${basename(file, extname(file)).replace(/[^\w.-]+/g, '-') || 'payload'}`;
}

function workloadOf(id: string, description: string, units: PayloadUnit[], value: unknown, schema: SchemaNode, shapes: Workload['shapes']): Workload {
  const size = shapes.includes('single') ? 1 : units.length;
  return {
    id, description, sizes: [size], defaultSizes: [size], shapes, schema,
    build: () => value,
  };
}

/**
 * The workloads of a payload: one for a document or an NDJSON file, one per sample file for a
 * folder (every sample shares the schema inferred from all of them).
 */
export function payloadWorkloads(source: PayloadSource, schema: SchemaNode): Workload[] {
  if (source.kind === 'ndjson') {
    return [workloadOf(payloadId(source.path), `${source.units.length} records of ${basename(source.path)}`, source.units, source.units.map((u) => u.value), schema, ['list', 'many'])];
  }
  return source.units.map((u) => workloadOf(payloadId(u.source), `the document ${basename(u.source)}`, [u], u.value, schema, ['single']));
}
