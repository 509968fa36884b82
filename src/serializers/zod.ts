import * as z from 'zod';
import type { SchemaNode, WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { NUMERIC_STRING, propertyEntries, wireToModelKeys } from './support/model.js';

/**
 * Builds the zod schema that validates a wire unit and outputs its model: objects check their
 * wire keys and (when names differ) rename them to model keys in a `.transform`; numeric-string
 * fields must match {@link NUMERIC_STRING} and become numbers; `asDate` fields must be ISO 8601
 * date-times (`z.iso.datetime`) and become `Date`s; nullable nodes accept null.
 */
export function toZod(node: SchemaNode, naming: WireOptions['naming']): z.ZodType {
  let t: z.ZodType;
  switch (node.type) {
    case 'string':
      t = node.asDate ? z.iso.datetime({ offset: true }).transform((s) => new Date(s)) : z.string();
      break;
    case 'number':
      t = node.fromString ? z.string().regex(NUMERIC_STRING).transform(Number) : node.integer ? z.int() : z.number();
      break;
    case 'boolean':
      t = z.boolean();
      break;
    case 'enum':
      t = z.enum(node.values as [string, ...string[]]);
      break;
    case 'array':
      t = z.array(toZod(node.items, naming));
      break;
    case 'object': {
      const entries = propertyEntries(node, naming);
      const object = z.object(Object.fromEntries(entries.map((e) => [e.wire, toZod(e.node, naming)])));
      const rename = wireToModelKeys(entries);
      t = rename ? object.transform(rename) : object;
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

export default adapter;
