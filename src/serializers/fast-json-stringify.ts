import fastJson from 'fast-json-stringify';
import { wireSchema, type SchemaNode } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { noNamingOrIndentReason } from './support/model.js';

/** A JSON Schema (draft 7) object, as fast-json-stringify reads it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Translates a schema node (as it stands on the wire) into JSON Schema: every declared property
 * is required (nullable means present but possibly null), nullable leaves become
 * `type: [t, 'null']`, integers `integer`, enums `enum`. String formats are left out: the
 * serializer writes strings as they are either way.
 */
export function toJsonSchema(node: SchemaNode): JsonSchema {
  const typed = (t: string): JsonSchema => ({ type: node.nullable ? [t, 'null'] : t });
  switch (node.type) {
    case 'string':
      return typed('string');
    case 'number':
      return typed(node.integer ? 'integer' : 'number');
    case 'boolean':
      return typed('boolean');
    case 'enum':
      return { ...typed('string'), enum: node.nullable ? [...node.values, null] : [...node.values] };
    case 'array':
      return { ...typed('array'), items: toJsonSchema(node.items) };
    case 'object': {
      const properties: Record<string, JsonSchema> = {};
      for (const [key, child] of Object.entries(node.properties)) properties[key] = toJsonSchema(child);
      return { ...typed('object'), properties, required: Object.keys(properties) };
    }
  }
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
    const stringify = fastJson(toJsonSchema(wireSchema(workload.schema, workload.wire?.naming)));
    return { serialize: (value) => stringify(value) };
  },
  code: { serialize: 'stringify(value) // stringify = fastJson(jsonSchemaOf(workload))' },
};

export default adapter;
