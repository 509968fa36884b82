import * as v from 'valibot';
import type { SchemaNode, WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { NUMERIC_STRING, propertyEntries, wireToModelKeys } from './support/model.js';

/** Any valibot schema (input and output types are not tracked: schemas are built at run time). */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/**
 * Builds the valibot schema that validates a wire unit and outputs its model: objects check their
 * wire keys and (when names differ) rename them in a `v.transform` pipe step; numeric-string
 * fields must match {@link NUMERIC_STRING} and become numbers; `asDate` fields must pass
 * `v.isoTimestamp()` and become `Date`s; nullable nodes accept null.
 */
export function toValibot(node: SchemaNode, naming: WireOptions['naming']): AnySchema {
  let t: AnySchema;
  switch (node.type) {
    case 'string':
      t = node.asDate ? v.pipe(v.string(), v.isoTimestamp(), v.transform((s) => new Date(s))) : v.string();
      break;
    case 'number':
      t = node.fromString
        ? v.pipe(v.string(), v.regex(NUMERIC_STRING), v.transform(Number))
        : node.integer ? v.pipe(v.number(), v.integer()) : v.number();
      break;
    case 'boolean':
      t = v.boolean();
      break;
    case 'enum':
      t = v.picklist(node.values);
      break;
    case 'array':
      t = v.array(toValibot(node.items, naming));
      break;
    case 'object': {
      const entries = propertyEntries(node, naming);
      const object = v.object(Object.fromEntries(entries.map((e) => [e.wire, toValibot(e.node, naming)])));
      const rename = wireToModelKeys(entries);
      t = rename ? v.pipe(object, v.transform((o) => rename(o as Record<string, unknown>))) : object;
      break;
    }
  }
  return node.nullable ? v.nullable(t) : t;
}

/**
 * valibot (family `validator`): a modular schema built from functions, run with
 * `v.parse(schema, JSON.parse(text))`. Class `transform`: it validates the wire types and outputs
 * the model (numeric strings → numbers, ISO strings → Dates, wire keys → model keys) and throws a
 * ValiError on invalid input. Unknown keys are stripped (valibot's `object` default).
 * Deserialize only: valibot does not write JSON.
 */
const adapter: SerializerAdapter = {
  id: 'valibot',
  family: 'validator',
  directions: ['deserialize'],
  missingDirection: 'validator: deserialize only (valibot does not write JSON)',
  deserializeClass: 'transform',
  packageName: 'valibot',
  supports: () => true,
  prepare(workload, direction) {
    const schema = toValibot(workload.schema, workload.wire?.naming);
    return { deserialize: (text) => v.parse(schema, JSON.parse(text)) };
  },
  code: { deserialize: 'v.parse(schema, JSON.parse(text))' },
};

export default adapter;
