import type { SchemaNode } from './schema.js';
import { defineOwn } from '../case/own-key.js';

/**
 * JSON Schema in and out of {@link SchemaNode}: `--print-schema` writes {@link toJsonSchema}'s
 * document, a person edits it and passes it back with `--schema`, which `fromJsonSchema`
 * (src/payload/json-schema-import.ts) reads (JSON Schema 2020-12, also draft-07/06 `definitions` and `$ref`s, which quicktype and
 * the zod/valibot/TypeBox converters write).
 *
 * The mapping, both ways:
 * | SchemaNode | JSON Schema |
 * |---|---|
 * | `nullable` | `type: [T, "null"]`, or `{ "type": "null" }` in an `anyOf` |
 * | `null`, `unknown` | `{ "type": "null" }`, `{}` |
 * | number `integer`, `width` 32 / 53 / 64 | `integer` with `format: "int32"` / no format / `"int64"` |
 * | string `format` | `format` (date-time, date, time, uuid, email, uri) |
 * | `enum` | `{ "type": "string", "enum": [...] }` |
 * | array `empty` | `{ "type": "array", "items": {}, "maxItems": 0 }` |
 * | object `optional` | keys left out of `required` |
 * | object `additionalProperties` | `additionalProperties: <schema>` (absent: `false`) |
 * | `record` | `{ "type": "object", "additionalProperties": <schema> }` with no `properties` |
 * | `union` | `anyOf` |
 * | `discriminated` | `anyOf` of objects whose tag property is a required string `const` |
 */

/** A JSON Schema document or subschema. */
export type JsonSchema = Record<string, unknown>;

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface ToJsonSchemaOptions {
  /** write `format` on strings and integers (`true`, the default), on strings only (`'strings'`: fast-json-stringify's translation), or nowhere (`false`) */
  formats?: boolean | 'strings';
  /** add `$schema` (default false) */
  dialect?: boolean;
}

function withNull(schema: JsonSchema, nullable: boolean | undefined): JsonSchema {
  if (!nullable) return schema;
  if (typeof schema.type === 'string')
    return {
      ...schema,
      type: [schema.type, 'null'],
      ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}),
    };
  return { anyOf: [schema, { type: 'null' }] };
}

/** The JSON Schema of a node (see the table above). Pure. */
export function toJsonSchema(node: SchemaNode, options: ToJsonSchemaOptions = {}): JsonSchema {
  const formats = options.formats ?? true;
  const out = (n: SchemaNode): JsonSchema => {
    switch (n.type) {
      case 'string':
        return withNull({ type: 'string', ...(formats && n.format ? { format: n.format } : {}) }, n.nullable);
      case 'number': {
        if (!n.integer) return withNull({ type: 'number' }, n.nullable);
        const width = n.width ?? 32;
        const format = width === 32 ? 'int32' : width === 64 ? 'int64' : undefined;
        return withNull({ type: 'integer', ...(formats === true && format ? { format } : {}) }, n.nullable);
      }
      case 'boolean':
        return withNull({ type: 'boolean' }, n.nullable);
      case 'enum':
        return withNull({ type: 'string', enum: [...n.values] }, n.nullable);
      case 'null':
        return { type: 'null' };
      case 'unknown':
        return {};
      case 'array':
        return withNull({ type: 'array', items: out(n.items), ...(n.empty ? { maxItems: 0 } : {}) }, n.nullable);
      case 'object': {
        const properties: Record<string, JsonSchema> = {};
        // defineProperty, not assignment: a property named __proto__ must stay a property
        for (const [key, child] of Object.entries(n.properties)) defineOwn(properties, key, out(child));
        const required = Object.keys(properties).filter((k) => !n.optional?.includes(k));
        return withNull(
          {
            type: 'object',
            properties,
            required,
            additionalProperties: n.additionalProperties ? out(n.additionalProperties) : false,
          },
          n.nullable,
        );
      }
      case 'record':
        return withNull({ type: 'object', additionalProperties: out(n.values) }, n.nullable);
      case 'union':
        return { anyOf: [...n.anyOf.map(out), ...(n.nullable ? [{ type: 'null' }] : [])] };
      case 'discriminated': {
        const variants = Object.entries(n.mapping).map(([tag, obj]) => {
          const o = out({ ...obj, nullable: false }) as { properties: Record<string, JsonSchema>; required: string[] };
          return {
            ...o,
            properties: { [n.discriminator]: { type: 'string', const: tag }, ...o.properties },
            required: [n.discriminator, ...o.required],
          };
        });
        return { anyOf: [...variants, ...(n.nullable ? [{ type: 'null' }] : [])] };
      }
    }
  };
  const schema = out(node);
  return options.dialect ? { $schema: DIALECT, ...schema } : schema;
}
