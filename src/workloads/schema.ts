import { defineOwn } from '../case/own-key.js';
import { deepFreeze } from '../case/frozen.js';
/**
 * A small, library-neutral description of a workload's data, which every schema-compiled
 * serializer and validator adapter translates into its own library's schema language
 * (JSON Schema for fast-json-stringify and TypeBox, JTD for ajv, zod/valibot/arktype builders,
 * decorated classes for class-transformer, TypeScript types for typia). One description per
 * workload keeps every adapter honest: all of them compile against the same shape, as the .NET
 * studies feed one DTO to every serializer.
 *
 * It holds what real API responses contain (issue 10): optional properties
 * ({@link ObjectSchema.optional}), values that are always null (`null`), anything (`unknown`),
 * objects used as maps (`record`), unions (`union`, and `discriminated` unions of objects keyed
 * by a tag property), integers wider than 32 bits and beyond 2^53 ({@link NumberSchema.width}),
 * `date`/`time`/`date-time`/`uuid`/`email`/`uri` string formats, small string enums, arrays that
 * were always empty ({@link ArraySchema.empty}) and extra keys ({@link ObjectSchema.additionalProperties}).
 * JSON Schema is its interchange format (src/payload/json-schema.ts).
 *
 * Property keys are the *model* names (camelCase). A workload whose wire format renames keys
 * (the snake_case "settings" variant) says so with {@link WireOptions.naming}.
 */

/** String formats the schema records (RFC 3339 `date`, `time` (full-time, with offset), `date-time`; RFC 4122 `uuid`; `email`; `uri`). */
export type StringFormat = 'uuid' | 'email' | 'date-time' | 'date' | 'time' | 'uri';
export const STRING_FORMATS: readonly StringFormat[] = deepFreeze([
  'uuid',
  'email',
  'date-time',
  'date',
  'time',
  'uri',
]);

interface Nullable {
  /** null is also a valid value */
  nullable?: boolean;
}

export interface StringSchema extends Nullable {
  type: 'string';
  format?: StringFormat;
  /** transform class: becomes a Date */
  asDate?: boolean;
}

/**
 * Integer width, from the values seen or the schema given:
 * - `32`: every value fits a signed 32-bit integer (the default when `width` is absent);
 * - `53`: wider, but a safe JavaScript integer (|n| ≤ 2^53 − 1);
 * - `64`: beyond 2^53 in the payload *text*: `JSON.parse` rounds these to the nearest double,
 *   so every JavaScript serializer reads and writes the rounded value.
 */
export type IntegerWidth = 32 | 53 | 64;

export interface NumberSchema extends Nullable {
  type: 'number';
  integer?: boolean;
  /** integers only; absent means 32 */
  width?: IntegerWidth;
  /** delivered as a numeric string on the wire; transform class converts it to a number */
  fromString?: boolean;
}

export interface BooleanSchema extends Nullable {
  type: 'boolean';
}

/** A string from a small closed set. */
export interface EnumSchema extends Nullable {
  type: 'enum';
  values: readonly string[];
}

/** A value that was always null (or is declared `{ "type": "null" }`). */
export interface NullSchema {
  type: 'null';
}

/** Any JSON value (JSON Schema `{}`, TypeScript `unknown`). */
export interface UnknownSchema {
  type: 'unknown';
}

export interface ArraySchema extends Nullable {
  type: 'array';
  items: SchemaNode;
  /** every sample of this array was empty: `items` is then `unknown` (nothing was seen) */
  empty?: boolean;
}

export interface ObjectSchema extends Nullable {
  type: 'object';
  properties: Readonly<Record<string, SchemaNode>>;
  /** keys of `properties` that may be absent (every other key is required) */
  optional?: readonly string[];
  /** keys other than `properties` are allowed, with values of this schema; absent: no other keys */
  additionalProperties?: SchemaNode;
}

/** An object used as a map: any string keys (ids, names), values of one schema. */
export interface RecordSchema extends Nullable {
  type: 'record';
  values: SchemaNode;
}

/** One of several schemas, none of them `null` (nullability is the `nullable` flag). */
export interface UnionSchema extends Nullable {
  type: 'union';
  anyOf: readonly SchemaNode[];
}

/**
 * A union of objects told apart by a string property (`discriminator`), as JTD's
 * `discriminator`/`mapping` and OpenAPI's discriminator: tag value → the object's *other*
 * properties (the tag property is not repeated in the mapped objects).
 */
export interface DiscriminatedSchema extends Nullable {
  type: 'discriminated';
  discriminator: string;
  mapping: Readonly<Record<string, ObjectSchema>>;
}

export type SchemaNode =
  | StringSchema
  | NumberSchema
  | BooleanSchema
  | EnumSchema
  | NullSchema
  | UnknownSchema
  | ArraySchema
  | ObjectSchema
  | RecordSchema
  | UnionSchema
  | DiscriminatedSchema;

/** The names of the constructs, as unsupported reasons and tables name them. */
export type Construct =
  | 'optional property'
  | 'null'
  | 'unknown'
  | 'record'
  | 'union'
  | 'discriminated union'
  | 'integer beyond 32 bits'
  | 'integer beyond 2^53'
  | 'string format'
  | 'enum'
  | 'always-empty array'
  | 'additional properties'
  | 'nullable'
  | 'property name';

/** How a workload's payload text is written: property naming policy and indentation (spaces). */
export interface WireOptions {
  naming?: 'snake_case';
  indent?: number;
}

/** Model name → wire name under a naming policy ("firstName" → "first_name"). */
export function wireName(key: string, naming: WireOptions['naming']): string {
  if (naming !== 'snake_case') return key;
  return key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/** True when `key` of an object node may be absent. */
export function isOptional(node: ObjectSchema, key: string): boolean {
  return node.optional?.includes(key) ?? false;
}

/** True when the node accepts null (a `null` node, `unknown`, or the `nullable` flag). */
export function acceptsNull(node: SchemaNode): boolean {
  return node.type === 'null' || node.type === 'unknown' || ('nullable' in node && node.nullable === true);
}

/** The JSON path of a property below `path`: `$.a`, `$["odd key"]`. */
export function propertyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The schema as it stands on the wire: keys renamed by the naming policy, numeric-string fields
 * typed as strings and dates as strings. This is what `parse`- and `validate`-class
 * deserializers check against.
 */
export function wireSchema(node: SchemaNode, naming: WireOptions['naming']): SchemaNode {
  switch (node.type) {
    case 'object': {
      const properties: Record<string, SchemaNode> = {};
      // defineProperty, not assignment: a key named __proto__ stays a key (assignment would set the prototype)
      for (const [k, v] of Object.entries(node.properties))
        defineOwn(properties, wireName(k, naming), wireSchema(v, naming));
      const optional = node.optional?.map((k) => wireName(k, naming));
      const additionalProperties = node.additionalProperties && wireSchema(node.additionalProperties, naming);
      return {
        ...node,
        properties,
        ...(optional ? { optional } : {}),
        ...(additionalProperties ? { additionalProperties } : {}),
      };
    }
    case 'array':
      return { ...node, items: wireSchema(node.items, naming) };
    case 'record':
      return { ...node, values: wireSchema(node.values, naming) };
    case 'union':
      return { ...node, anyOf: node.anyOf.map((n) => wireSchema(n, naming)) };
    case 'discriminated': {
      const mapping: Record<string, ObjectSchema> = {};
      for (const [tag, n] of Object.entries(node.mapping)) mapping[tag] = wireSchema(n, naming) as ObjectSchema;
      return { ...node, discriminator: wireName(node.discriminator, naming), mapping };
    }
    case 'number':
      return node.fromString ? { type: 'string', nullable: node.nullable } : node;
    case 'string':
      return node.asDate ? { type: 'string', format: node.format, nullable: node.nullable } : node;
    default:
      return node;
  }
}
