import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { isOptional, wireSchema, type ObjectSchema, type SchemaNode } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { defineOwn } from '../case/own-key.js';
import { deepFreeze } from '../case/frozen.js';
import { UnsupportedConstruct, paths, supportOf } from './support/translation.js';

/** The characters TypeBox's type guard refuses in a property name (its `IsControlCharacterFree`, 0.34). */
const TYPEBOX_REFUSED_KEY = /[\u0007-\u000d\u001b\u007f]/;

/** @throws UnsupportedConstruct when TypeBox's compiler would refuse `key`, named with its path `at` */
function refuseControlKey(key: string, at: string): void {
  if (TYPEBOX_REFUSED_KEY.test(key))
    throw new UnsupportedConstruct(
      'TypeBox',
      'property name',
      at,
      'property name holding a control character (its compiler refuses U+0007–U+000D, U+001B and U+007F in one)',
    );
}

/**
 * Builds the TypeBox type of a schema node as it stands on the wire: `Type.Object` with
 * `Type.Optional` for optional keys (extra keys allowed, TypeBox's default, or checked against
 * `additionalProperties`), `Type.Integer` for integers of every width (a Number.isInteger check;
 * integers beyond 2^53 arrive rounded and still pass), a union of literals for enums,
 * `Type.Null()`, `Type.Unknown()`, `Type.Record(Type.String(), T)`, `Type.Union` for unions and
 * for discriminated unions (objects whose tag is a `Type.Literal`), and
 * `Type.Union([T, Type.Null()])` for nullable nodes. String formats are not declared (TypeBox
 * would need each registered in its FormatRegistry; see the shared policy in support/model.ts).
 * TypeBox is JSON Schema, so every construct is expressible, but for a property name holding a
 * control character, which TypeBox's compiler refuses with a bare "Preflight validation check
 * failed" (hx29 S-markupkey).
 * @throws UnsupportedConstruct for a property name holding U+0007–U+000D, U+001B or U+007F, with its path
 */
export function toTypeBox(node: SchemaNode, path = '$'): TSchema {
  let t: TSchema;
  const object = (o: ObjectSchema, p: string, extraProps: Record<string, TSchema> = {}): TSchema => {
    const properties: Record<string, TSchema> = { ...extraProps };
    // defineProperty, not assignment: a property named __proto__ must stay a property
    for (const [key, child] of Object.entries(o.properties)) {
      const at = paths.prop(p, key);
      refuseControlKey(key, at);
      defineOwn(properties, key, isOptional(o, key) ? Type.Optional(toTypeBox(child, at)) : toTypeBox(child, at));
    }
    return o.additionalProperties && o.additionalProperties.type !== 'unknown'
      ? Type.Object(properties, { additionalProperties: toTypeBox(o.additionalProperties, paths.value(p)) })
      : Type.Object(properties);
  };
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
      t = node.values.length === 1 ? Type.Literal(node.values[0]) : Type.Union(node.values.map((v) => Type.Literal(v)));
      break;
    case 'null':
      return Type.Null();
    case 'unknown':
      return Type.Unknown();
    case 'array':
      t = Type.Array(toTypeBox(node.items, paths.item(path)));
      break;
    case 'object':
      t = object(node, path);
      break;
    case 'record':
      t = Type.Record(Type.String(), toTypeBox(node.values, paths.value(path)));
      break;
    case 'union':
      t = Type.Union(node.anyOf.map((n) => toTypeBox(n, path)));
      break;
    case 'discriminated':
      refuseControlKey(node.discriminator, paths.prop(path, node.discriminator));
      t = Type.Union(
        Object.entries(node.mapping).map(([tag, o]) =>
          object(o, paths.variant(path, node.discriminator, tag), { [node.discriminator]: Type.Literal(tag) }),
        ),
      );
      break;
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
  supports: (workload) => supportOf(() => toTypeBox(wireSchema(workload.schema, workload.wire?.naming))),
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
  code: {
    deserialize:
      'const v = JSON.parse(text); if (!check.Check(v)) throw …; return v // check = TypeCompiler.Compile(type)',
  },
};

export default deepFreeze(adapter);
