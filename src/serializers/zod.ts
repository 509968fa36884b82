import * as z from 'zod';
import { isOptional, wireName, type ObjectSchema, type SchemaNode, type WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { NUMERIC_STRING, propertyEntries, wireToModelKeys } from './support/model.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * Builds the zod schema that validates a wire unit and outputs its model: objects check their
 * wire keys and (when names differ) rename them to model keys in a `.transform`; optional keys
 * are `.optional()`; extra keys are stripped (zod's default) unless the node allows them
 * (`.catchall(T)`); numeric-string fields must match {@link NUMERIC_STRING} and become numbers;
 * `asDate` fields must be ISO 8601 date-times (`z.iso.datetime`) and become `Date`s; nullable
 * nodes accept null. Integers are `z.int()` (safe integers) up to width 53; zod's `int()` rejects
 * integers beyond 2^53, which JSON.parse has already rounded, so width 64 is
 * `z.number().refine(Number.isInteger)`. `null`, `unknown`, `record`, `union` and
 * `discriminated` map to `z.null()`, `z.unknown()`, `z.record(z.string(), T)`, `z.union` and
 * `z.discriminatedUnion` with `z.literal` tags: zod expresses every construct.
 */
export function toZod(node: SchemaNode, naming: WireOptions['naming']): z.ZodType {
  let t: z.ZodType;
  const object = (o: ObjectSchema, tag?: [string, string]): z.ZodType => {
    const entries = propertyEntries(o, naming);
    const shape: Record<string, z.ZodType> = tag ? { [tag[0]]: z.literal(tag[1]) } : {};
    for (const e of entries)
      shape[e.wire] = isOptional(o, e.model) ? toZod(e.node, naming).optional() : toZod(e.node, naming);
    const base = z.object(shape);
    const obj = o.additionalProperties ? base.catchall(toZod(o.additionalProperties, naming)) : base;
    const rename = wireToModelKeys(entries);
    return rename ? obj.transform(rename) : obj;
  };
  switch (node.type) {
    case 'string':
      t = node.asDate ? z.iso.datetime({ offset: true }).transform((s) => new Date(s)) : z.string();
      break;
    case 'number':
      t = node.fromString
        ? z.string().regex(NUMERIC_STRING).transform(Number)
        : !node.integer
          ? z.number()
          : (node.width ?? 32) === 64
            ? z.number().refine(Number.isInteger, 'expected an integer')
            : z.int();
      break;
    case 'boolean':
      t = z.boolean();
      break;
    case 'enum':
      t = z.enum(node.values as [string, ...string[]]);
      break;
    case 'null':
      return z.null();
    case 'unknown':
      return z.unknown();
    case 'array':
      t = z.array(toZod(node.items, naming));
      break;
    case 'object':
      t = object(node);
      break;
    case 'record':
      t = z.record(z.string(), toZod(node.values, naming));
      break;
    case 'union':
      t = z.union(node.anyOf.map((m) => toZod(m, naming)) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
      break;
    case 'discriminated': {
      const tag = wireName(node.discriminator, naming);
      const variants = Object.entries(node.mapping).map(([value, o]) => object(o, [tag, value]));
      t = z.discriminatedUnion(tag, variants as unknown as [z.ZodObject, ...z.ZodObject[]]);
      break;
    }
  }
  return node.nullable ? t.nullable() : t;
}

/**
 * zod 4 (family `validator`): a schema built in code, run with `schema.parse(JSON.parse(text))`.
 * Class `transform`: it validates the wire types and outputs the model — numeric strings as
 * numbers, ISO strings as Dates, snake_case wire keys as camelCase model keys — and throws a
 * ZodError on invalid input. Unknown keys are stripped (zod's default). Deserialize only: zod
 * does not write JSON.
 */
const adapter: SerializerAdapter = {
  id: 'zod',
  family: 'validator',
  directions: ['deserialize'],
  missingDirection: 'validator: deserialize only (zod does not write JSON)',
  deserializeClass: 'transform',
  packageName: 'zod',
  supports: () => true,
  prepare(workload, direction) {
    const schema = toZod(workload.schema, workload.wire?.naming);
    return { deserialize: (text) => schema.parse(JSON.parse(text)) };
  },
  code: { deserialize: 'schema.parse(JSON.parse(text))' },
};

export default deepFreeze(adapter);
