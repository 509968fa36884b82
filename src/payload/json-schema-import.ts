import {
  STRING_FORMATS,
  propertyPath,
  type ObjectSchema,
  type SchemaNode,
  type StringFormat,
} from '../workloads/schema.js';
import type { JsonSchema } from '../workloads/json-schema.js';
import { MAX_ENUM_VALUES, tooManyEnumValues } from '../workloads/check-schema.js';
import { defineOwn } from '../case/own-key.js';
import { MAX_SCHEMA_DEPTH } from './schema-constraints.js';
import { echo } from './echo.js';

/**
 * Reading a JSON Schema into a {@link SchemaNode} (`--schema FILE`, the output of inference and
 * of the zod/valibot/TypeBox converters); the mapping is the table in json-schema.ts.
 */

/** A JSON Schema that cannot be read (a `$ref` that resolves nowhere, a recursive schema, not an object). */
export class JsonSchemaError extends Error {
  readonly code = 'E_JSON_SCHEMA';
}

/**
 * The key under which a node read with `recursive: 'defer'` carries the reading of a recursive
 * `$ref` one level further down (a function: call it to read the referenced schema once more, its
 * own self-references deferred again). Symbol-keyed, so `JSON.stringify` and translators never see
 * it; object spread (unionOf's `nullable`) keeps it.
 */
export const DEFERRED_REF: unique symbol = Symbol('jsonbench.deferredRef');

/** A placeholder node for a recursive `$ref` read with `recursive: 'defer'` (see {@link DEFERRED_REF}). */
export interface DeferredNode extends ObjectSchema {
  [DEFERRED_REF]: { ref: string; expand: () => SchemaNode };
}

/** The deferred reading a node carries, or undefined (see {@link DEFERRED_REF}). */
export const deferredOf = (node: SchemaNode): DeferredNode[typeof DEFERRED_REF] | undefined =>
  (node as Partial<DeferredNode>)[DEFERRED_REF];

/** Options of {@link fromJsonSchema}. */
export interface FromJsonSchemaOptions {
  /**
   * What a `$ref` that refers to itself becomes: `refuse` (default: a {@link JsonSchemaError}, as
   * for a user's schema, which a translator could not state), or `defer`: a placeholder object
   * carrying {@link DEFERRED_REF}, which inference (refine.ts) unfolds to the depth the samples show.
   */
  recursive?: 'refuse' | 'defer';
}

/** What {@link fromJsonSchema} read, and what it could not carry over (one line per keyword and path). */
export interface ImportedSchema {
  schema: SchemaNode;
  unconverted: string[];
}

/** Keywords that only annotate or constrain values further; left out with a line in `unconverted` unless listed in ANNOTATIONS. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'definitions',
  '$defs',
]);

/**
 * Reads a JSON Schema into a SchemaNode. Local `$ref`s (`#/definitions/…`, `#/$defs/…`, `#`)
 * are inlined; `allOf` of objects is merged; `oneOf` reads as `anyOf`; `const` of a string is a
 * one-value enum. Constraints the SchemaNode does not hold (`minLength`, `pattern`, `minimum`,
 * unknown formats…) are listed in `unconverted` as `"<keyword> at <path>"`.
 * @throws JsonSchemaError for an unresolvable or recursive `$ref`, or a subschema that is not an object or boolean
 */
export function fromJsonSchema(root: unknown, options: FromJsonSchemaOptions = {}): ImportedSchema {
  const reader = new SchemaReader(root, options);
  const schema = reader.read(root, '$', []);
  return { schema, unconverted: reader.unconverted };
}

/**
 * One reading of {@link fromJsonSchema}: each `read…` method takes a subschema (JSON), its JSON path
 * of the value and the `$ref`s being inlined above it, returns the node and adds to `unconverted`.
 */
class SchemaReader {
  readonly unconverted: string[] = [];
  /** Subschemas being read above the current one, each `$ref` followed counting as one (hx10: 5,000 chained `$ref`s overflowed the stack). */
  private depth = 0;
  /** subschemas read so far, every `$ref` inlined ({@link MAX_SCHEMA_NODES}) */
  private nodes = 0;

  constructor(
    private readonly root: unknown,
    private readonly options: FromJsonSchemaOptions,
  ) {}

  private skip(what: string, path: string): void {
    this.unconverted.push(`${what} at ${path}`);
  }

  /** The subschema a local `$ref` points at. @throws JsonSchemaError when it is not local or resolves to nothing */
  private resolve(ref: string, path: string): unknown {
    if (!ref.startsWith('#')) throw new JsonSchemaError(`$ref ${ref} at ${path}: only local references (#/…) are read`);
    let at: unknown = this.root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
      if (at === undefined) throw new JsonSchemaError(`$ref ${ref} at ${path} resolves to nothing`);
    }
    return at;
  }

  /**
   * Reads one subschema. @throws JsonSchemaError past {@link MAX_SCHEMA_DEPTH} levels, each `$ref`
   * followed counting as a level (the cap of schema-constraints.ts sees only nesting written out;
   * hx10 S10-refchain, S10-refnest: a chain of 5,000 `$ref` aliases, or 3,000 levels written
   * through `$ref`, overflowed the stack as "an internal error")
   */
  read(raw: unknown, path: string, refs: readonly string[]): SchemaNode {
    if (this.depth >= MAX_SCHEMA_DEPTH) throw tooDeep(path, refs);
    if (++this.nodes > MAX_SCHEMA_NODES) throw tooMany(path, refs);
    this.depth++;
    try {
      return this.readLevel(raw, path, refs);
    } finally {
      this.depth--;
    }
  }

  private readLevel(raw: unknown, path: string, refs: readonly string[]): SchemaNode {
    if (raw === true || (raw && typeof raw === 'object' && Object.keys(raw).every((k) => ANNOTATIONS.has(k))))
      return { type: 'unknown' };
    if (raw === false) throw new JsonSchemaError(`the schema at ${path} is \`false\` (no value is valid)`);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new JsonSchemaError(`the schema at ${path} is not an object`);
    const s = raw as JsonSchema;
    if (typeof s.$ref === 'string') return this.readRef(s, path, refs);
    for (const k of Object.keys(s)) if (!KNOWN.has(k) && !ANNOTATIONS.has(k)) this.skip(k, path);
    if (Array.isArray(s.allOf)) {
      // the parts' $refs are inlined too: `{"allOf":[{"$ref":"#"}]}` is recursive, not merged forever
      const partRefs = (s.allOf as unknown[]).flatMap((p) =>
        p && typeof p === 'object' && typeof (p as JsonSchema).$ref === 'string'
          ? [(p as JsonSchema).$ref as string]
          : [],
      );
      for (const ref of partRefs)
        if (refs.includes(ref))
          throw new JsonSchemaError(
            `recursive schema: ${ref} refers to itself through allOf at ${path} (a recursive type cannot be translated into every library)`,
          );
      return this.read(this.mergeAllOf(s, path), path, [...refs, ...partRefs]);
    }
    const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
    if (Array.isArray(alternatives)) {
      // a nullable field's one other alternative is the field itself (nu16: "pattern at $.data[].updatedAt<0>"); of
      // several, each is named by its place
      const word = s.anyOf ? 'anyOf' : 'oneOf';
      const others = alternatives.filter((a) => !(a && typeof a === 'object' && (a as JsonSchema).type === 'null'));
      return unionOf(
        alternatives.map((a, i) =>
          this.read(a, others.length === 1 ? path : `${path} (${word} alternative ${i + 1})`, refs),
        ),
        path,
      );
    }
    if (s.const !== undefined) {
      if (typeof s.const === 'string') return { type: 'enum', values: [s.const] };
      if (s.const === null) return { type: 'null' };
      this.skip(`const ${JSON.stringify(s.const)}`, path);
    }
    const types = (Array.isArray(s.type) ? s.type : s.type === undefined ? inferTypes(s) : [s.type]) as string[];
    const nonNull = types.filter((t) => t !== 'null');
    const nullable = nonNull.length < types.length;
    if (nonNull.length === 0) return types.length ? { type: 'null' } : { type: 'unknown' };
    const members = nonNull.map((t) => this.readTyped(t, s, path, refs));
    const node = members.length === 1 ? members[0] : unionOf(members, path);
    return nullable ? unionOf([node, { type: 'null' }], path) : node;
  }

  /** A subschema with a `$ref`: inlined, or a placeholder for a recursive one (`recursive: 'defer'`). */
  private readRef(s: JsonSchema, path: string, refs: readonly string[]): SchemaNode {
    if (refs.includes(s.$ref as string) && this.options.recursive === 'defer') {
      const ref = s.$ref as string;
      const placeholder: DeferredNode = {
        type: 'object',
        properties: {},
        [DEFERRED_REF]: { ref, expand: () => this.read(this.resolve(ref, path), path, [ref]) },
      };
      return placeholder;
    }
    if (refs.includes(s.$ref as string))
      throw new JsonSchemaError(
        `recursive schema: ${s.$ref as string} refers to itself at ${path} (a recursive type cannot be translated into every library)`,
      );
    const { $ref, ...rest } = s;
    const target = this.resolve($ref as string, path) as JsonSchema;
    const merged = Object.keys(rest).some((k) => !ANNOTATIONS.has(k)) ? { ...target, ...rest } : target;
    return this.read(merged, path, [...refs, $ref as string]);
  }

  /** The subschema with its `allOf` parts merged into it (properties and required joined, other keywords overwritten). */
  private mergeAllOf(s: JsonSchema, path: string): JsonSchema {
    const parts = (s.allOf as unknown[]).map(
      (p) =>
        (p && typeof p === 'object' && typeof (p as JsonSchema).$ref === 'string'
          ? this.resolve((p as JsonSchema).$ref as string, path)
          : p) as JsonSchema,
    );
    const { allOf: _, ...rest } = s;
    const merged: JsonSchema = { ...rest };
    for (const p of parts) {
      for (const [k, v] of Object.entries(p)) {
        if (k === 'properties') merged.properties = { ...(merged.properties as object), ...(v as object) };
        else if (k === 'required') merged.required = [...((merged.required as string[]) ?? []), ...(v as string[])];
        else merged[k] = v;
      }
    }
    return merged;
  }

  private readTyped(t: string, s: JsonSchema, path: string, refs: readonly string[]): SchemaNode {
    switch (t) {
      case 'string':
        return this.readString(s, path);
      case 'integer':
      case 'number':
        return this.readNumber(t, s, path);
      case 'boolean':
        return { type: 'boolean' };
      case 'array': {
        for (const k of ['minItems', 'uniqueItems', 'contains', 'prefixItems']) if (k in s) this.skip(k, path);
        if (s.maxItems !== undefined && s.maxItems !== 0) this.skip('maxItems', path);
        // `items: false` admits no element at all: an array that is always empty
        const empty = s.maxItems === 0 || s.items === false;
        const items =
          s.items === undefined || s.items === false
            ? { type: 'unknown' as const }
            : this.read(s.items, `${path}[]`, refs);
        return { type: 'array', items, ...(empty ? { empty: true } : {}) };
      }
      case 'object':
        return this.readObject(s, path, refs);
      default:
        throw new JsonSchemaError(`unknown type "${t}" at ${path}`);
    }
  }

  private readString(s: JsonSchema, path: string): SchemaNode {
    if (Array.isArray(s.enum)) {
      if (s.enum.length > MAX_ENUM_VALUES)
        throw new JsonSchemaError(`the enum at ${path} ${tooManyEnumValues(s.enum.length)}`);
      const values = (s.enum as unknown[]).filter((v) => v !== null);
      if (values.every((v) => typeof v === 'string')) return { type: 'enum', values: values as string[] };
      this.skip('enum of non-strings', path);
    }
    for (const k of ['minLength', 'maxLength', 'pattern']) if (k in s) this.skip(k, path);
    const format = s.format as string | undefined;
    if (format && !STRING_FORMATS.includes(format as StringFormat)) this.skip(`format "${format}"`, path);
    return {
      type: 'string',
      ...(format && STRING_FORMATS.includes(format as StringFormat) ? { format: format as StringFormat } : {}),
    };
  }

  private readNumber(t: 'integer' | 'number', s: JsonSchema, path: string): SchemaNode {
    // bounds that only restate a width (zod's int() writes the safe range, int32() the 32-bit one) are the width, not a constraint
    const safe = s.minimum === -Number.MAX_SAFE_INTEGER && s.maximum === Number.MAX_SAFE_INTEGER;
    const int32 = s.minimum === -(2 ** 31) && s.maximum === 2 ** 31 - 1;
    for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])
      if (k in s && !((safe || int32) && (k === 'minimum' || k === 'maximum'))) this.skip(k, path);
    if (Array.isArray(s.enum)) this.skip('enum of numbers', path);
    if (t === 'number') return { type: 'number' };
    const width = s.format === 'int32' || int32 ? 32 : s.format === 'int64' ? 64 : 53;
    return { type: 'number', integer: true, width };
  }

  private readObject(s: JsonSchema, path: string, refs: readonly string[]): SchemaNode {
    // one pattern that matches every key (TypeBox's Type.Record writes "^(.*)$") is additionalProperties
    const patterns = s.patternProperties as Record<string, unknown> | undefined;
    const anyKey =
      patterns && Object.keys(patterns).length === 1 && ANY_KEY.has(Object.keys(patterns)[0])
        ? Object.values(patterns)[0]
        : undefined;
    for (const k of [
      'minProperties',
      'maxProperties',
      'propertyNames',
      'patternProperties',
      'dependentRequired',
      'dependentSchemas',
    ])
      if (k in s && !(k === 'patternProperties' && anyKey)) this.skip(k, path);
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = new Set((s.required ?? []) as string[]);
    const extra =
      anyKey !== undefined
        ? this.read(anyKey, `${path}.*`, refs)
        : s.additionalProperties === undefined || s.additionalProperties === true
          ? { type: 'unknown' as const }
          : s.additionalProperties === false
            ? undefined
            : this.read(s.additionalProperties, `${path}.*`, refs);
    const keys = Object.keys(props);
    if (keys.length === 0 && extra) return { type: 'record', values: extra };
    const properties: Record<string, SchemaNode> = {};
    // defineOwn: a property named __proto__ stays a property (an assignment would set the prototype)
    for (const k of keys) defineOwn(properties, k, this.read(props[k], propertyPath(path, k), refs));
    const optional = keys.filter((k) => !required.has(k));
    return {
      type: 'object',
      properties,
      ...(optional.length ? { optional } : {}),
      ...(extra ? { additionalProperties: extra } : {}),
    };
  }
}

/**
 * The most subschemas a schema may read as, every `$ref` inlined (hx12 SB-bomb: 23 definitions each
 * referring to the next twice, 2^23 subschemas, ran 30 s and was stopped as "a loop that never
 * ends?"). A schema this large could not be compiled by the libraries measured either.
 */
export const MAX_SCHEMA_NODES = 100_000;

/** The refusal of a schema that reads as more than {@link MAX_SCHEMA_NODES} subschemas, at `path` through `refs`. */
function tooMany(path: string, refs: readonly string[]): JsonSchemaError {
  const ref = refs.at(-1);
  const where = ref === undefined ? '' : ` (reading ${echo(ref, 160)} for the value at ${echo(path, 80)})`;
  return new JsonSchemaError(
    `the schema reads as more than ${MAX_SCHEMA_NODES.toLocaleString('en-US')} subschemas once its $refs are inlined${where}: definitions that refer to others more than once multiply (jsonbench inlines every $ref); give a smaller schema, or the payload alone (its schema is then inferred)`,
  );
}

/** The refusal of a schema read deeper than {@link MAX_SCHEMA_DEPTH} levels at `path` (a value's JSON path), through `refs`. */
function tooDeep(path: string, refs: readonly string[]): JsonSchemaError {
  const ref = refs.at(-1);
  const where =
    ref === undefined
      ? `the schema for the value at ${echo(path, 80)}`
      : `the schema at ${echo(ref, 160)} (for the value at ${echo(path, 80)}, reached through ${refs.length.toLocaleString('en-US')} $ref${refs.length === 1 ? '' : 's'})`;
  return new JsonSchemaError(
    `${where}: it nests deeper than ${MAX_SCHEMA_DEPTH} levels, each $ref followed counting as one, more than jsonbench reads; flatten it or give the payload alone (its schema is then inferred)`,
  );
}

/** Patterns that match every property name. */
const ANY_KEY = new Set(['^(.*)$', '^.*$', '.*', '^[\\s\\S]*$']);

/**
 * A JSON Pointer-like list of schema keywords (zod's `ctx.path`: `["properties", "a", "items"]`)
 * as a JSON path of the value (`$.a[]`).
 */
export function schemaPathToJsonPath(segments: readonly (string | number)[]): string {
  let path = '$';
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if ((s === 'properties' || s === 'patternProperties') && i + 1 < segments.length)
      path = s === 'properties' ? propertyPath(path, String(segments[++i])) : `${path}.*`;
    else if (s === 'items' || s === 'prefixItems') {
      path += '[]';
      if (s === 'prefixItems') i++;
    } else if (s === 'additionalProperties') path += '.*';
    else if (s === 'anyOf' || s === 'oneOf' || s === 'allOf') i++;
  }
  return path;
}

/** Keywords {@link fromJsonSchema} reads. */
const KNOWN = new Set([
  'type',
  'enum',
  'const',
  'format',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'maxItems', // read only as 0 (always empty); other values are listed
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'uniqueItems',
  'contains',
  'prefixItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
]);

/** Types implied by the keywords of a schema without `type` (`properties` → object, `items` → array, `enum` of strings → string). */
function inferTypes(s: JsonSchema): string[] {
  if (s.properties || s.additionalProperties !== undefined) return ['object'];
  if (s.items) return ['array'];
  if (Array.isArray(s.enum)) {
    const types = new Set((s.enum as unknown[]).map((v) => (v === null ? 'null' : typeof v)));
    return [...types].map((t) => (t === 'number' ? 'number' : t));
  }
  return [];
}

/**
 * Normalises union members: nested unions flattened, `null` and nullable flags lifted into
 * `nullable`, `unknown` absorbs everything, one member collapses to itself, objects that all
 * carry one required string-enum property of distinct single values become `discriminated`.
 */
export function unionOf(members: readonly SchemaNode[], _path = '$'): SchemaNode {
  let nullable = false;
  const flat: SchemaNode[] = [];
  const add = (m: SchemaNode) => {
    if (m.type === 'null') {
      nullable = true;
      return;
    }
    if ('nullable' in m && m.nullable) {
      nullable = true;
      m = { ...m, nullable: false } as SchemaNode;
      delete (m as { nullable?: boolean }).nullable;
    }
    if (m.type === 'union') {
      m.anyOf.forEach(add);
      return;
    }
    if (!flat.some((f) => JSON.stringify(f) === JSON.stringify(m))) flat.push(m);
  };
  members.forEach(add);
  if (flat.some((m) => m.type === 'unknown')) return { type: 'unknown' };
  if (flat.length === 0) return { type: 'null' };
  const withNullable = (n: SchemaNode): SchemaNode => (nullable ? ({ ...n, nullable: true } as SchemaNode) : n);
  if (flat.length === 1) return withNullable(flat[0]);
  const tagged = discriminatorOf(flat);
  if (tagged) return withNullable(tagged);
  return { type: 'union', anyOf: flat, ...(nullable ? { nullable: true } : {}) };
}

/** The members as a discriminated union when every one is an object with the same required one-value enum property, values distinct. */
function discriminatorOf(members: readonly SchemaNode[]): SchemaNode | null {
  if (!members.every((m) => m.type === 'object')) return null;
  const objects = members as ObjectSchema[];
  for (const key of Object.keys(objects[0].properties)) {
    const tags = objects.map((o) => {
      const p = o.properties[key];
      return p && p.type === 'enum' && p.values.length === 1 && !p.nullable && !o.optional?.includes(key)
        ? p.values[0]
        : null;
    });
    if (tags.some((t) => t === null) || new Set(tags).size !== tags.length) continue;
    const mapping: Record<string, ObjectSchema> = {};
    objects.forEach((o, i) => {
      const { [key]: _tag, ...rest } = o.properties;
      const optional = o.optional?.filter((k) => k !== key);
      mapping[tags[i]!] = { ...o, properties: rest, ...(optional?.length ? { optional } : {}) };
      if (!optional?.length) delete (mapping[tags[i]!] as { optional?: unknown }).optional;
    });
    return { type: 'discriminated', discriminator: key, mapping };
  }
  return null;
}
