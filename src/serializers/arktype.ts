import { type, type Type } from 'arktype';
import {
  isOptional,
  wireName,
  wireSchema,
  type ObjectSchema,
  type SchemaNode,
  type WireOptions,
} from '../workloads/schema.js';
import { UnsupportedConstruct, paths, supportOf, typedExtraKeys } from './support/translation.js';
import type { SerializerAdapter } from './types.js';
import { propertyEntries, wireToModelKeys } from './support/model.js';
import { deepFreeze } from '../case/frozen.js';

/** Any arktype Type (input and output are not tracked: types are built at run time). */
export type AnyType = Type<unknown>;

/** Keys arktype's object syntax reads as syntax rather than a name (`a?` optional, `[string]` index, `+` undeclared-key mode, `...` spread). */
const ARK_SYNTAX_KEY = /\?$|^\[|^\+$|^\.\.\./;

/**
 * Keys arktype's object syntax reads as an escape (arktype 2.2 parser/objectLiteral.ts
 * `preparseKey`): `\[x]` names the key `[x]`, `\+` the key `+`, `\...` the key `...`, so no key
 * can be named `\[x]`, `\+` or `\...` themselves (hx10 AK-escape: the run failed with arktype's
 * TraversalError "value at ["+"] must be a string (was missing)", blaming the library). An optional
 * key ending with a backslash is one too: `a\` + `?` reads as the required key `a?`.
 */
const ARK_ESCAPE_KEY = /^\\(\[.*\]|\+|\.\.\.)$/s;

/** Why arktype's object syntax cannot name the key `wire` (optional or not), or undefined when it can as written. */
function arkKeyProblem(wire: string, optional: boolean): string | undefined {
  if (ARK_SYNTAX_KEY.test(wire))
    return `plain key named ${JSON.stringify(wire)} (its object syntax reads it as syntax)`;
  if (ARK_ESCAPE_KEY.test(wire))
    return `plain key named ${JSON.stringify(wire)} (its object syntax reads the leading backslash as an escape: it would name the key ${JSON.stringify(wire.slice(1))})`;
  if (optional && wire.endsWith('\\'))
    return `optional key named ${JSON.stringify(wire)} (its object syntax reads the backslash before the optional mark \`?\` as an escape: it would name the required key ${JSON.stringify(`${wire.slice(0, -1)}?`)})`;
  return undefined;
}

/**
 * Builds the arktype Type that validates a wire unit and outputs its model, from arktype's own
 * keywords: numeric-string fields use `string.numeric.parse` (a well-formed numeric string → a
 * number; note arktype rejects exponent forms such as "1e5"), `asDate` fields use
 * `string.date.iso.parse` (ISO 8601 → Date), objects check their wire keys (`key?` when
 * optional, a `[string]` index signature for typed extra keys, widened by the declared keys' types
 * since arktype applies it to them too) and rename them to model keys in
 * a `.pipe` morph when names differ, integers of every width are `number.integer`, records are
 * `Record<string, T>`, unions `.or`, discriminated unions a union of objects whose tag is a
 * unit type (arktype finds the discriminant itself), and nullable nodes are `T | null`.
 * @throws UnsupportedConstruct for a key that arktype's object syntax reads as syntax or an escape (see arkKeyProblem)
 */
export function toArkType(node: SchemaNode, naming: WireOptions['naming'], path = '$'): AnyType {
  let t: AnyType;
  const object = (o: ObjectSchema, p: string, tag?: [string, string]): AnyType => {
    const entries = propertyEntries(o, naming);
    const shape: Record<string, unknown> = tag ? { [tag[0]]: type.unit(tag[1]) } : {};
    for (const e of entries) {
      const problem = arkKeyProblem(e.wire, isOptional(o, e.model));
      if (problem) throw new UnsupportedConstruct('arktype', 'property name', paths.prop(p, e.wire), problem);
      shape[isOptional(o, e.model) ? `${e.wire}?` : e.wire] = toArkType(e.node, naming, paths.prop(p, e.wire));
    }
    const extra = o.additionalProperties;
    // arktype applies an index signature to the declared keys too (as TypeScript does), so the
    // extra keys' type admits the declared keys' types as well
    if (extra && extra.type !== 'unknown') {
      shape['[string]'] = entries.reduce(
        (t, e) => t.or(toArkType(e.node, naming, paths.prop(p, e.wire))) as AnyType,
        toArkType(extra, naming, paths.value(p)),
      );
    }
    const obj = type(shape as never) as AnyType;
    const rename = wireToModelKeys(entries);
    return rename ? (obj.pipe((x) => rename(x as Record<string, unknown>)) as AnyType) : obj;
  };
  switch (node.type) {
    case 'string':
      t = (node.asDate ? type('string.date.iso.parse') : type('string')) as AnyType;
      break;
    case 'number':
      t = (
        node.fromString ? type('string.numeric.parse') : node.integer ? type('number.integer') : type('number')
      ) as AnyType;
      break;
    case 'boolean':
      t = type('boolean') as AnyType;
      break;
    case 'enum':
      t = type.enumerated(...node.values) as AnyType;
      break;
    case 'null':
      return type('null') as AnyType;
    case 'unknown':
      return type('unknown') as AnyType;
    case 'array':
      t = toArkType(node.items, naming, paths.item(path)).array() as AnyType;
      break;
    case 'object':
      t = object(node, path);
      break;
    case 'record':
      t = type.Record('string', toArkType(node.values, naming, paths.value(path)) as never) as AnyType;
      break;
    case 'union':
      t = node.anyOf.map((m) => toArkType(m, naming, path)).reduce((a, b) => a.or(b) as AnyType);
      break;
    case 'discriminated': {
      const tag = wireName(node.discriminator, naming);
      t = Object.entries(node.mapping)
        .map(([value, o]) => object(o, paths.variant(path, tag, value), [tag, value]))
        .reduce((a, b) => a.or(b) as AnyType);
      break;
    }
  }
  return node.nullable ? (t.or(type('null')) as AnyType) : t;
}

/**
 * ArkType 2 (family `validator`): TypeScript-syntax types compiled into checking functions, run
 * with `T.assert(JSON.parse(text))`. Class `transform`: morphs turn numeric strings into numbers,
 * ISO strings into Dates and wire keys into model keys; `assert` throws an error summarising
 * every problem when the input is invalid. Undeclared keys are kept (arktype's default
 * `"ignore"`). Deserialize only: arktype does not write JSON.
 */
const adapter: SerializerAdapter = {
  id: 'arktype',
  family: 'validator',
  directions: ['deserialize'],
  missingDirection: 'validator: deserialize only (arktype does not write JSON)',
  deserializeClass: 'transform',
  packageName: 'arktype',
  supports: (workload) => supportOf(() => toArkType(workload.schema, workload.wire?.naming)),
  prepare(workload, direction) {
    const T = toArkType(workload.schema, workload.wire?.naming);
    return { deserialize: (text) => T.assert(JSON.parse(text)) };
  },
  notes: (workload) =>
    typedExtraKeys(wireSchema(workload.schema, workload.wire?.naming)).map(
      (p) => `arktype (an index signature) also admits the declared keys' types for the other keys at ${p}`,
    ),
  code: { deserialize: 'T.assert(JSON.parse(text))' },
};

export default deepFreeze(adapter);
