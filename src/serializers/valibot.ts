import * as v from 'valibot';
import { isOptional, wireName, type ObjectSchema, type SchemaNode, type WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { NUMERIC_STRING, propertyEntries, wireToModelKeys } from './support/model.js';
import { deepFreeze } from '../case/frozen.js';

/** Any valibot schema (input and output types are not tracked: schemas are built at run time). */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/**
 * Builds the valibot schema that validates a wire unit and outputs its model: objects check their
 * wire keys and (when names differ) rename them in a `v.transform` pipe step; optional keys are
 * `v.optional`; extra keys are stripped (`v.object`) unless the node allows them
 * (`v.objectWithRest`); numeric-string fields must match {@link NUMERIC_STRING} and become
 * numbers; `asDate` fields must pass `v.isoTimestamp()` and become `Date`s; integers of every
 * width pass `v.integer()` (Number.isInteger); `null`, `unknown`, `record`, `union` and
 * `discriminated` are `v.null()`, `v.unknown()`, `v.record(v.string(), T)`, `v.union` and
 * `v.variant` with `v.literal` tags; nullable nodes accept null. valibot expresses every construct.
 */
export function toValibot(node: SchemaNode, naming: WireOptions['naming']): AnySchema {
  let t: AnySchema;
  const object = (o: ObjectSchema, tag?: [string, string]): AnySchema => {
    const entries = propertyEntries(o, naming);
    const shape: Record<string, AnySchema> = tag ? { [tag[0]]: v.literal(tag[1]) } : {};
    for (const e of entries)
      shape[e.wire] = isOptional(o, e.model) ? v.optional(toValibot(e.node, naming)) : toValibot(e.node, naming);
    const obj: AnySchema = o.additionalProperties
      ? v.objectWithRest(shape, toValibot(o.additionalProperties, naming))
      : v.object(shape);
    const rename = wireToModelKeys(entries);
    return rename
      ? v.pipe(
          obj,
          v.transform((x) => rename(x as Record<string, unknown>)),
        )
      : obj;
  };
  switch (node.type) {
    case 'string':
      t = node.asDate
        ? v.pipe(
            v.string(),
            v.isoTimestamp(),
            v.transform((s) => new Date(s)),
          )
        : v.string();
      break;
    case 'number':
      t = node.fromString
        ? v.pipe(v.string(), v.regex(NUMERIC_STRING), v.transform(Number))
        : node.integer
          ? v.pipe(v.number(), v.integer())
          : v.number();
      break;
    case 'boolean':
      t = v.boolean();
      break;
    case 'enum':
      t = v.picklist(node.values);
      break;
    case 'null':
      return v.null();
    case 'unknown':
      return v.unknown();
    case 'array':
      t = v.array(toValibot(node.items, naming));
      break;
    case 'object':
      t = object(node);
      break;
    case 'record':
      t = v.record(v.string(), toValibot(node.values, naming));
      break;
    case 'union':
      t = v.union(node.anyOf.map((m) => toValibot(m, naming)));
      break;
    case 'discriminated': {
      const tag = wireName(node.discriminator, naming);
      t = v.variant(tag, Object.entries(node.mapping).map(([value, o]) => object(o, [tag, value])) as never);
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

export default deepFreeze(adapter);
