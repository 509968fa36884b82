import AjvJtd from 'ajv/dist/jtd.js';
import { wireSchema, type SchemaNode } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { noNamingOrIndentReason } from './support/model.js';

/** A JSON Type Definition (RFC 8927) schema. */
export type JtdSchema = Record<string, unknown>;

/**
 * Translates a schema node (as it stands on the wire) into JTD: `properties` (every key
 * required), `elements`, `enum`, `string`, `boolean`, `float64`, and `int32` for integers (JTD has
 * no wider integer type; every integer in the built-in workloads, Unix timestamps included, is
 * below 2^31). Date-time strings stay `string`, not `timestamp`, under the shared policy of
 * checking types, not string formats (see support/model.ts).
 */
export function toJtd(node: SchemaNode): JtdSchema {
  const nullable = node.nullable ? { nullable: true } : {};
  switch (node.type) {
    case 'string':
      return { type: 'string', ...nullable };
    case 'number':
      return { type: node.integer ? 'int32' : 'float64', ...nullable };
    case 'boolean':
      return { type: 'boolean', ...nullable };
    case 'enum':
      return { enum: [...node.values], ...nullable };
    case 'array':
      return { elements: toJtd(node.items), ...nullable };
    case 'object': {
      const properties: Record<string, JtdSchema> = {};
      for (const [key, child] of Object.entries(node.properties)) properties[key] = toJtd(child);
      return { properties, ...nullable };
    }
  }
}

// ajv ships CommonJS: under Node ESM the default import is `module.exports`; the class is its `default`.
const Ajv = AjvJtd.default;

/**
 * ajv's JSON Type Definition mode (family `schema-compiled`): `compileSerializer` and
 * `compileParser` generate code from a JTD schema of the wire value. The parser validates while
 * it parses (class `validate`): wrong types, missing or extra properties and enum misses make it
 * return undefined, and the adapter throws with ajv's message and position. The serializer has
 * no naming policy or indentation (users-settings serialize is unsupported) and trusts its input.
 */
const adapter: SerializerAdapter = {
  id: 'ajv-jtd',
  family: 'schema-compiled',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'validate',
  packageName: 'ajv',
  supports(workload, direction) {
    if (direction === 'serialize') return noNamingOrIndentReason(workload, "ajv's JTD serializer") ?? true;
    return true;
  },
  prepare(workload, direction) {
    const schema = toJtd(wireSchema(workload.schema, workload.wire?.naming));
    // Engine study: validating the generated JTD schema against ajv's meta-schema cost ~1.2 s of CPU
    // in every worker (compileSerializer 1170 ms vs 5 ms without it); toJtd's output can be checked
    // once (a test, or the host at plan time) instead.
    const ajv = new Ajv({ validateSchema: false });
    if (direction === 'serialize') {
      const serialize = ajv.compileSerializer(schema);
      return { serialize: (value) => serialize(value) };
    }
    const parse = ajv.compileParser(schema);
    return {
      deserialize(text) {
        const value = parse(text);
        if (value === undefined) throw new Error(`ajv JTD: ${parse.message} at position ${parse.position}`);
        return value;
      },
    };
  },
  code: {
    serialize: 'serialize(value) // serialize = ajv.compileSerializer(jtdSchema)',
    deserialize: 'parse(text) // parse = ajv.compileParser(jtdSchema); undefined → throw',
  },
};

export default adapter;
