import fastJson from 'fast-json-stringify';
import { wireSchema, type SchemaNode } from '../workloads/schema.js';
import { toJsonSchema, type JsonSchema } from '../workloads/json-schema.js';
import type { Translated } from './support/translation.js';
import type { SerializerAdapter } from './types.js';
import { noNamingOrIndentReason } from './support/model.js';
import { deepFreeze } from '../case/frozen.js';

/** A JSON Schema object, as fast-json-stringify reads it. */
export type { JsonSchema };

/**
 * Translates a schema node (as it stands on the wire) into the JSON Schema fast-json-stringify
 * compiles: the shared mapping of src/payload/json-schema.ts (optional keys left out of
 * `required`, `type: [t, "null"]`, `additionalProperties` schemas for records and extra keys,
 * `anyOf` for unions; fast-json-stringify picks an `anyOf` branch by validating the value with
 * ajv at run time), with string formats as a user's JSON Schema states them (fast-json-stringify
 * writes `date-time`, `date` and `time` strings through their own functions, which before version
 * 7 copied a string between quotes without escaping it: the string probes catch that, see
 * docs/probes.md) and without integer formats. Every construct of the SchemaNode is expressible,
 * so this translation never reports one unsupported.
 */
export function toFjsSchema(node: SchemaNode): Translated<JsonSchema> {
  return { schema: toJsonSchema(node, { formats: 'strings' }), notes: [] };
}

/**
 * fast-json-stringify (family `schema-compiled`): compiles a JSON Schema of the wire value into a
 * specialised `stringify` function, the JavaScript counterpart of System.Text.Json's source
 * generator. Serialize only. It has no naming policy and no indentation, so workloads that need
 * either (users-settings) are unsupported. Caveat: it writes what the schema declares, not what
 * the value holds — a property missing from the schema is dropped and an `integer` field holding
 * 1.5 is written as 1 — so its output is only as correct as the schema (the gate checks it).
 */
const adapter: SerializerAdapter = {
  id: 'fast-json-stringify',
  family: 'schema-compiled',
  directions: ['serialize'],
  missingDirection: 'fast-json-stringify serializes only; it has no parser',
  packageName: 'fast-json-stringify',
  supports: (workload) => noNamingOrIndentReason(workload, 'fast-json-stringify') ?? true,
  prepare(workload) {
    const stringify = fastJson(toFjsSchema(wireSchema(workload.schema, workload.wire?.naming)).schema);
    return { serialize: (value) => stringify(value) };
  },
  code: { serialize: 'stringify(value) // stringify = fastJson(jsonSchemaOf(workload))' },
};

export default deepFreeze(adapter);
