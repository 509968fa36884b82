import { defineOwn } from '../case/own-key.js';
import { createGeneratorSync } from 'json-schema-faker';
import { toJsonSchema, type JsonSchema } from '../workloads/json-schema.js';
import { propertyPath, type SchemaNode } from '../workloads/schema.js';

/**
 * Scaling a sample (`--size 100,10000` with a single-record sample, issue 10): records of the
 * same shape made by json-schema-faker (pinned; seeded Mulberry32, so the same seed gives the
 * same records) from the payload's JSON Schema, with the bounds the samples showed added so
 * the records look like the user's rather than like random text: `minimum`/`maximum` on numbers,
 * `minLength`/`maxLength` on strings, `minItems`/`maxItems` on arrays and `minProperties`/
 * `maxProperties` on records (drawn so that their mean is the samples' mean: {@link lengthBounds}), `multipleOf` for the number of decimals the samples wrote. Formats (uuid, email, date-time, date, time, uri) come from
 * json-schema-faker's own generators; enums from their values; optional keys appear with the
 * share the samples showed ({@link GenerationSchema.optionalShare}).
 */

/** A JSON Schema for generation and the share of optional keys present in the samples (0–1). */
export interface GenerationSchema {
  jsonSchema: JsonSchema;
  optionalShare: number;
}

type Bounds = { min: number; max: number };
const widen = (b: Bounds | undefined, n: number): Bounds =>
  b ? { min: Math.min(b.min, n), max: Math.max(b.max, n) } : { min: n, max: n };

/**
 * Length bounds for generated arrays and records whose mean is the samples' mean: the generator
 * draws a length uniformly between its bounds, so [min, max] of skewed lengths (canada.json's rings:
 * mostly a few points, some thousands) gave every nested array half the largest length on average,
 * and a 2.2 MB document's generated variant came out at 140 MB. The upper bound is 2 × mean − min,
 * kept within [min, max].
 */
function lengthBounds(lengths: readonly number[]): { min: number; max: number } | undefined {
  if (!lengths.length) return undefined;
  let min = Infinity,
    max = -Infinity,
    sum = 0;
  for (const n of lengths) {
    min = Math.min(min, n);
    max = Math.max(max, n);
    sum += n;
  }
  const mean = sum / lengths.length;
  return { min, max: Math.max(min, Math.min(max, Math.round(2 * mean - min))) };
}

/**
 * The JSON Schema of `schema` with the bounds seen in `values` (the samples of one unit) added.
 * Pure. Integers keep their width's range (a width-64 field is generated within the safe range:
 * a JavaScript generator cannot make an integer JSON.parse would round).
 */
export function generationSchema(schema: SchemaNode, values: readonly unknown[]): GenerationSchema {
  let optionalSeen = 0;
  let optionalPresent = 0;
  const walk = (node: SchemaNode, vals: unknown[], path: string): JsonSchema => {
    const js = toJsonSchema(node, { formats: true });
    const present = vals.filter((v) => v !== null && v !== undefined);
    const typed = (extra: JsonSchema): JsonSchema =>
      js.anyOf && node.type !== 'union' && node.type !== 'discriminated'
        ? { anyOf: [{ ...(js.anyOf as JsonSchema[])[0], ...extra }, { type: 'null' }] }
        : { ...js, ...extra };
    switch (node.type) {
      case 'number': {
        let b: Bounds | undefined;
        for (const v of present) if (typeof v === 'number') b = widen(b, v);
        if (!b) return js;
        const safe = (n: number) => Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n));
        // as many decimals as the samples wrote (2 for money), not every digit a double holds
        // a loop, not Math.max(...values): a payload of ~125,000 decimals overflowed the call stack
        let decimals = 0;
        if (!node.integer)
          for (const v of present) decimals = Math.max(decimals, /\.(\d+)$/.exec(String(v))?.[1].length ?? 0);
        return typed({
          minimum: safe(b.min),
          maximum: safe(b.max),
          ...(decimals > 0 && decimals <= 6 ? { multipleOf: 10 ** -decimals } : {}),
        });
      }
      case 'string': {
        if (node.format) return js;
        let b: Bounds | undefined;
        for (const v of present) if (typeof v === 'string') b = widen(b, v.length);
        return b ? typed({ minLength: b.min, maxLength: b.max }) : js;
      }
      case 'array': {
        const arrays = present.filter(Array.isArray);
        const b = lengthBounds(arrays.map((a) => a.length));
        return typed({
          items: walk(node.items, arrays.flat(), `${path}[]`),
          ...(b ? { minItems: b.min, maxItems: b.max } : {}),
        });
      }
      case 'record': {
        const objects = present.filter((v): v is Record<string, unknown> => typeof v === 'object' && !Array.isArray(v));
        const b = lengthBounds(objects.map((o) => Object.keys(o).length));
        return typed({
          additionalProperties: walk(
            node.values,
            objects.flatMap((o) => Object.values(o)),
            `${path}.*`,
          ),
          ...(b ? { minProperties: b.min, maxProperties: b.max } : {}),
        });
      }
      case 'object': {
        const objects = present.filter((v): v is Record<string, unknown> => typeof v === 'object' && !Array.isArray(v));
        const properties: Record<string, JsonSchema> = {};
        for (const [key, child] of Object.entries(node.properties)) {
          const vs = objects.filter((o) => Object.hasOwn(o, key)).map((o) => o[key]);
          if (node.optional?.includes(key)) {
            optionalSeen += objects.length;
            optionalPresent += vs.length;
          }
          defineOwn(properties, key, walk(child, vs, propertyPath(path, key)));
        }
        return typed({ properties });
      }
      default:
        return js;
    }
  };
  const jsonSchema = walk(schema, [...values], '$');
  return { jsonSchema, optionalShare: optionalSeen ? optionalPresent / optionalSeen : 0.5 };
}

/** How deeply schema nodes nest in `x` (a SchemaNode: every nested object with a `type` is a level). */
function nodeDepth(x: unknown): number {
  if (Array.isArray(x)) return Math.max(0, ...x.map(nodeDepth));
  if (x === null || typeof x !== 'object') return 0;
  const inner = Math.max(0, ...Object.values(x).map(nodeDepth));
  return ('type' in x ? 1 : 0) + inner;
}

/**
 * `size` records like the samples, deterministic from `seed`. json-schema-faker's `maxDepth`
 * (default 5) is raised past the schema's own depth: below it, the generator fills an object's
 * required keys with placeholders (null for an object), which made a payload deeper than 5 levels
 * (citm_catalog's `$.performances[].seatCategories[].areas[]`) come out with nulls its schema
 * does not allow.
 * @param schema the schema of one record
 * @param samples the sample records the bounds are taken from (at least one)
 */
export function scaleRecords(schema: SchemaNode, samples: readonly unknown[], size: number, seed: number): unknown[] {
  const { jsonSchema, optionalShare } = generationSchema(schema, samples);
  const generator = createGeneratorSync({
    seed,
    optionalsProbability: optionalShare,
    maxDepth: 2 * nodeDepth(schema) + 5,
    // ISO 8601 as JavaScript writes it (json-schema-faker's own ends in ".0Z")
    formats: {
      'date-time': (random) =>
        new Date(Date.UTC(2000, 0, 1) + random.int(0, 31 * 365 * 86_400) * 1000 + random.int(0, 999)).toISOString(),
    },
  });
  const records: unknown[] = new Array(size);
  for (let i = 0; i < size; i++) records[i] = generator.generate(jsonSchema as never);
  return records;
}
