import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { wireSchema, type SchemaNode } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';

/**
 * Builds the TypeBox type of a schema node as it stands on the wire: `Type.Object` with every
 * property required, `Type.Integer` for integers, a union of literals for enums and
 * `Type.Union([T, Type.Null()])` for nullable nodes. String formats are not declared (TypeBox
 * would need each registered in its FormatRegistry; see the shared policy in support/model.ts).
 */
export function toTypeBox(node: SchemaNode): TSchema {
  let t: TSchema;
  switch (node.type) {
    case 'string':
      t = Type.String();
      break;
    case 'number':
      t = node.integer ? Type.Integer() : Type.Number();
      break;
    case 'boolean':
      t = Type.Boolean();
      break;
    case 'enum':
      t = Type.Union(node.values.map((v) => Type.Literal(v)));
      break;
    case 'array':
      t = Type.Array(toTypeBox(node.items));
      break;
    case 'object': {
      const properties: Record<string, TSchema> = {};
      for (const [key, child] of Object.entries(node.properties)) properties[key] = toTypeBox(child);
      t = Type.Object(properties);
      break;
    }
  }
  return node.nullable ? Type.Union([t, Type.Null()]) : t;
}

/**
 * TypeBox (family `schema-compiled`): JSON Schema types built in code and compiled by
 * `TypeCompiler.Compile` into a checking function. TypeBox validates values; it has no parser
 * and no serializer, so deserialize is `JSON.parse` followed by the compiled `Check` (class
 * `validate`: the value is returned unchanged, and the first of `Errors()` is thrown when the
 * check fails), and serialize is unsupported.
 */
const adapter: SerializerAdapter = {
  id: 'typebox',
  family: 'schema-compiled',
  directions: ['deserialize'],
  missingDirection: 'TypeBox validates; it has no serializer',
  deserializeClass: 'validate',
  packageName: '@sinclair/typebox',
  supports: () => true,
  prepare(workload, direction) {
    const check = TypeCompiler.Compile(toTypeBox(wireSchema(workload.schema, workload.wire?.naming)));
    return {
      deserialize(text) {
        const value: unknown = JSON.parse(text);
        if (!check.Check(value)) {
          const first = check.Errors(value).First();
          throw new Error(`TypeBox: ${first ? `${first.path || '/'}: ${first.message}` : 'invalid value'}`);
        }
        return value;
      },
    };
  },
  code: { deserialize: 'const v = JSON.parse(text); if (!check.Check(v)) throw …; return v // check = TypeCompiler.Compile(type)' },
};

export default adapter;
