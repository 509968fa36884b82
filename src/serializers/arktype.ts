import { type, type Type } from 'arktype';
import type { SchemaNode, WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { propertyEntries, wireToModelKeys } from './support/model.js';

/** Any arktype Type (input and output are not tracked: types are built at run time). */
export type AnyType = Type<unknown>;

/**
 * Builds the arktype Type that validates a wire unit and outputs its model, from arktype's own
 * keywords: numeric-string fields use `string.numeric.parse` (a well-formed numeric string → a
 * number; note arktype rejects exponent forms such as "1e5"), `asDate` fields use
 * `string.date.iso.parse` (ISO 8601 → Date), objects check their wire keys and rename them to
 * model keys in a `.pipe` morph when names differ, and nullable nodes are `T | null`.
 */
export function toArkType(node: SchemaNode, naming: WireOptions['naming']): AnyType {
  let t: AnyType;
  switch (node.type) {
    case 'string':
      t = (node.asDate ? type('string.date.iso.parse') : type('string')) as AnyType;
      break;
    case 'number':
      t = (node.fromString ? type('string.numeric.parse') : node.integer ? type('number.integer') : type('number')) as AnyType;
      break;
    case 'boolean':
      t = type('boolean') as AnyType;
      break;
    case 'enum':
      t = type.enumerated(...node.values) as AnyType;
      break;
    case 'array':
      t = toArkType(node.items, naming).array() as AnyType;
      break;
    case 'object': {
      const entries = propertyEntries(node, naming);
      const object = type(Object.fromEntries(entries.map((e) => [e.wire, toArkType(e.node, naming)])) as never) as AnyType;
      const rename = wireToModelKeys(entries);
      t = rename ? (object.pipe((o) => rename(o as Record<string, unknown>)) as AnyType) : object;
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
  supports: () => true,
  prepare(workload, direction) {
    const T = toArkType(workload.schema, workload.wire?.naming);
    return { deserialize: (text) => T.assert(JSON.parse(text)) };
  },
  code: { deserialize: 'T.assert(JSON.parse(text))' },
};

export default adapter;
