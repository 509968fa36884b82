import { InputData, jsonInputForTargetLanguage, quicktype } from 'quicktype-core';
import type { JsonSchema } from '../workloads/json-schema.js';
import { fromJsonSchema } from './json-schema-import.js';
import { refineSchema, type InferredSchema, type Sample } from './refine.js';
import type { SchemaNode } from '../workloads/schema.js';

/**
 * Schema inference from samples of a payload. The library is quicktype-core (pinned), picked
 * by measurement against genson-js, @jsonhero/schema-infer, to-json-schema, generate-schema
 * and mongodb-schema (issue 10; the table is in docs/payload.md): it is the one that finds
 * objects used as maps (ids as keys), small string enums, uuid/date/date-time formats, unions
 * (string | number, T | null) and optional vs required keys merged across samples, and it stays
 * under a second on citm_catalog.json. quicktype writes JSON Schema; {@link fromJsonSchema}
 * reads it, so jsonbench sees only {@link SchemaNode}. What quicktype does not do is added by
 * {@link refineSchema} walking the samples: integer widths and integers beyond 2^53 (from the
 * payload text, which JSON.parse rounds), email strings, discriminated unions of objects (which
 * quicktype merges into one class), always-empty arrays.
 */

export type { Sample, InferredSchema } from './refine.js';

/** quicktype's inference flags used (all documented in quicktype-core's Inference.ts). */
export const QUICKTYPE_FLAGS = {
  inferMaps: true,
  inferEnums: true,
  inferUuids: true,
  inferDateTimes: true,
  inferIntegerStrings: false,
  inferBooleanStrings: false,
  combineClasses: true,
  ignoreJsonRefs: true,
} as const;

/** quicktype's JSON Schema of the samples (draft-06, `definitions` and `$ref`s), its own `qt-*` annotations removed. */
export async function quicktypeJsonSchema(values: readonly unknown[]): Promise<JsonSchema> {
  const input = jsonInputForTargetLanguage('schema');
  await input.addSource({ name: 'Payload', samples: values.map((v) => JSON.stringify(v)) });
  const inputData = new InputData();
  inputData.addInput(input);
  const result = await quicktype({ inputData, lang: 'schema', ...QUICKTYPE_FLAGS });
  const schema = JSON.parse(result.lines.join('\n'), (key, value) => (key.startsWith('qt-') ? undefined : value)) as JsonSchema;
  return schema;
}

/**
 * Infers one schema that every sample satisfies. Samples must be JSON values of one kind (all
 * documents of one endpoint, or all records of an NDJSON file).
 * @throws Error when there are no samples
 */
export async function inferSchema(samples: readonly Sample[]): Promise<InferredSchema> {
  if (samples.length === 0) throw new Error('inferSchema: no samples');
  const jsonSchema = await quicktypeJsonSchema(samples.map((s) => s.value));
  const { schema } = fromJsonSchema(jsonSchema);
  return refineSchema(schema, samples);
}
