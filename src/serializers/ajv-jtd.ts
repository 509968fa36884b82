import AjvJtd from 'ajv/dist/jtd.js';
import { isOptional, wireSchema, type ObjectSchema, type SchemaNode } from '../workloads/schema.js';
import { UnsupportedConstruct, paths, supportOf, unionName, type Translated } from './support/translation.js';
import type { SerializerAdapter } from './types.js';
import { noNamingOrIndentReason } from './support/model.js';
import { defineOwn } from '../case/own-key.js';
import { deepFreeze } from '../case/frozen.js';

/** A JSON Type Definition (RFC 8927) schema. */
export type JtdSchema = Record<string, unknown>;

const LIB = 'ajv JTD';

/**
 * Translates a schema node (as it stands on the wire) into JTD (RFC 8927): `properties` and
 * `optionalProperties`, `elements`, `values` (records), `discriminator`/`mapping`, `enum`,
 * `string`, `boolean`, `float64`, `int32` for integers of width 32 (the default), `nullable`.
 * Date-time strings stay `string`, not `timestamp`, under the shared policy of checking types,
 * not string formats (see support/model.ts).
 *
 * JTD cannot say everything; what it cannot say either throws {@link UnsupportedConstruct}
 * (a union that is not a discriminated union of objects: JTD has no "string or number"; a tag
 * inside a nullable or non-object variant) or is written more loosely with a note, where ajv
 * still reads and writes the same values: an integer wider than 32 bits is `float64` (JTD has
 * no wider integer type, RFC 8927 §2.2.3), an always-null value and `unknown` are the empty
 * form (JTD has no null type), typed extra keys are `additionalProperties: true`.
 */
export function toJtd(node: SchemaNode, path = '$', notes: string[] = []): Translated<JtdSchema> {
  const nullable = 'nullable' in node && node.nullable ? { nullable: true } : {};
  const sub = (n: SchemaNode, p: string) => toJtd(n, p, notes).schema;
  const objectForm = (o: ObjectSchema, p: string): JtdSchema => {
    const properties: Record<string, JtdSchema> = {};
    const optionalProperties: Record<string, JtdSchema> = {};
    for (const [key, child] of Object.entries(o.properties)) {
      // defineProperty, not assignment: a property named __proto__ must stay a property
      defineOwn(isOptional(o, key) ? optionalProperties : properties, key, sub(child, paths.prop(p, key)));
    }
    const extra = o.additionalProperties;
    if (extra && extra.type !== 'unknown')
      notes.push(
        `${LIB} has no typed additional properties: other keys at ${paths.value(p)} are accepted with any value`,
      );
    // An object with no keys at all is written `{ optionalProperties: {} }`, which RFC 8927 reads
    // exactly as `{ properties: {} }`: ajv 8.20's compileParser throws "Reduce of empty array" on
    // an empty `properties` (ajv-validator/ajv#2609, open).
    const some = (r: Record<string, JtdSchema>) => Object.keys(r).length > 0;
    return {
      ...(some(properties) ? { properties } : {}),
      ...(some(optionalProperties) || !some(properties) ? { optionalProperties } : {}),
      ...(extra ? { additionalProperties: true } : {}),
    };
  };
  let schema: JtdSchema;
  switch (node.type) {
    case 'string':
      schema = { type: 'string', ...nullable };
      break;
    case 'number': {
      const width = node.width ?? 32;
      if (node.integer && width > 32)
        notes.push(`${LIB} has no integer type wider than 32 bits (RFC 8927): ${path} is checked as float64`);
      schema = { type: node.integer && width === 32 ? 'int32' : 'float64', ...nullable };
      break;
    }
    case 'boolean':
      schema = { type: 'boolean', ...nullable };
      break;
    case 'enum':
      schema = { enum: [...node.values], ...nullable };
      break;
    case 'null':
      notes.push(`${LIB} has no null type: ${path} (always null) accepts any value`);
      schema = {};
      break;
    case 'unknown':
      schema = {};
      break;
    case 'array':
      schema = { elements: sub(node.items, paths.item(path)), ...nullable };
      break;
    case 'object':
      schema = { ...objectForm(node, path), ...nullable };
      break;
    case 'record':
      schema = { values: sub(node.values, paths.value(path)), ...nullable };
      break;
    case 'discriminated': {
      const mapping: Record<string, JtdSchema> = {};
      for (const [tag, variant] of Object.entries(node.mapping)) {
        const vp = paths.variant(path, node.discriminator, tag);
        if (variant.nullable)
          throw new UnsupportedConstruct(LIB, 'discriminated union', vp, 'nullable variant of a discriminated union');
        mapping[tag] = objectForm(variant, vp);
      }
      schema = { discriminator: node.discriminator, mapping, ...nullable };
      break;
    }
    case 'union':
      throw new UnsupportedConstruct(
        LIB,
        'union',
        path,
        `union of ${unionName(node.anyOf)} (only discriminated unions of objects)`,
      );
  }
  return { schema, notes };
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
    if (direction === 'serialize') {
      const reason = noNamingOrIndentReason(workload, "ajv's JTD serializer");
      if (reason) return reason;
    }
    return supportOf(() => toJtd(wireSchema(workload.schema, workload.wire?.naming)));
  },
  prepare(workload, direction) {
    const { schema } = toJtd(wireSchema(workload.schema, workload.wire?.naming));
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
  notes: (workload) => toJtd(wireSchema(workload.schema, workload.wire?.naming)).notes,
  code: {
    serialize: 'serialize(value) // serialize = ajv.compileSerializer(jtdSchema)',
    deserialize: 'parse(text) // parse = ajv.compileParser(jtdSchema); undefined → throw',
  },
};

export default deepFreeze(adapter);
