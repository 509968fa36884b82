import { InputData, jsonInputForTargetLanguage, quicktype } from 'quicktype-core';
import type { JsonSchema } from '../workloads/json-schema.js';
import { fromJsonSchema } from './json-schema-import.js';
import { PayloadError } from './read.js';
import { refineSchema, type InferredSchema, type Sample } from './refine.js';
import type { SchemaNode } from '../workloads/schema.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * Schema inference from samples of a payload. The library is quicktype-core (pinned), picked
 * by measurement against genson-js, @jsonhero/schema-infer, to-json-schema, generate-schema
 * and mongodb-schema (issue 10; the table is in docs/payload.md): it is the one that finds
 * objects used as maps (ids as keys), small string enums (asked for only: {@link InferOptions}), uuid/date/date-time formats, unions
 * (string | number, T | null) and optional vs required keys merged across samples, and it stays
 * under a second on citm_catalog.json. quicktype writes JSON Schema; {@link fromJsonSchema}
 * reads it, so jsonbench sees only {@link SchemaNode}. What quicktype does not do is added by
 * {@link refineSchema} walking the samples: integer widths and integers beyond 2^53 (from the
 * payload text, which JSON.parse rounds), email strings, discriminated unions of objects (which
 * quicktype merges into one class), always-empty arrays.
 */

export type { Sample, InferredSchema } from './refine.js';

/**
 * quicktype's inference flags used (all documented in quicktype-core's Inference.ts). `inferEnums`
 * is off: a string field seen with a few distinct values is typed a string (see {@link InferOptions}).
 */
export const QUICKTYPE_FLAGS = deepFreeze({
  inferMaps: true,
  inferEnums: false,
  inferUuids: true,
  inferDateTimes: true,
  inferIntegerStrings: false,
  inferBooleanStrings: false,
  combineClasses: true,
  ignoreJsonRefs: true,
} as const);

/**
 * How a string field seen with a few distinct values is typed (issue 24, new-user tryout 2026-12-05:
 * `category` seen with 5 values, `variants.size` with "S" and "M" became enums, so a validator
 * compiled from the schema refused the next size, "L").
 * - `enums: false` (the default): a string. Samples cannot tell a closed set from values not seen
 *   yet, and an enum made from them refuses real responses; GenSON never infers an enum, and
 *   quicktype, whose rule jsonbench used before, has `--no-enums` for this (glideapps/quicktype#2223).
 * - `enums: true` (`run --enums`): quicktype's rule (rewrites/ExpandStrings.ts): a field that held
 *   at least 10 values, fewer distinct ones than the square root of their count, becomes an enum of
 *   the values seen (glideapps/quicktype#757 explains it); each one found is said (`found:`).
 */
export interface InferOptions {
  enums?: boolean;
}

/** quicktype's JSON Schema of the samples (draft-06, `definitions` and `$ref`s), its own `qt-*` annotations removed. */
export async function quicktypeJsonSchema(values: readonly unknown[], opts: InferOptions = {}): Promise<JsonSchema> {
  const input = jsonInputForTargetLanguage('schema');
  await input.addSource({ name: 'Payload', samples: values.map((v) => JSON.stringify(v)) });
  const inputData = new InputData();
  inputData.addInput(input);
  const result = await quicktype({ inputData, lang: 'schema', ...QUICKTYPE_FLAGS, inferEnums: opts.enums === true });
  const schema = JSON.parse(result.lines.join('\n'), (key, value) =>
    key.startsWith('qt-') ? undefined : value,
  ) as JsonSchema;
  return schema;
}

/** How deep inference may follow a document: quicktype-core recurses per level (depth 1,000 overflowed its stack; 300 worked). */
export const MAX_INFERENCE_DEPTH = 200;

/**
 * What inference cannot represent in a value, as a phrase with its JSON path, or null: a key named
 * `__proto__` (quicktype-core's objects drop it, so the schema would lack it and every serializer
 * given the schema would be called incorrect for it) and nesting deeper than {@link MAX_INFERENCE_DEPTH}.
 * Iterative (a payload nested deeper than the stack is still reported).
 */
export function beyondInference(value: unknown): string | null {
  const stack: [unknown, string, number][] = [[value, '$', 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_INFERENCE_DEPTH)
      return `it nests deeper than ${MAX_INFERENCE_DEPTH} levels (at ${path.length > 80 ? `${path.slice(0, 60)}…` : path}), which schema inference (quicktype-core) cannot follow`;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`, depth + 1]);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(v, '__proto__'))
      return `it has a key named "__proto__" at ${path}, which schema inference (quicktype-core) drops`;
    for (const k of Object.keys(v)) stack.push([(v as Record<string, unknown>)[k], `${path}.${k}`, depth + 1]);
  }
  return null;
}

/**
 * Infers one schema that every sample satisfies (quicktype-core, then {@link refineSchema}); string
 * fields stay strings unless `opts.enums` ({@link InferOptions}).
 * @throws Error when there are no samples; PayloadError when a sample is beyond inference
 */
export async function inferSchema(samples: readonly Sample[], opts: InferOptions = {}): Promise<InferredSchema> {
  if (samples.length === 0) throw new Error('inferSchema: no samples');
  for (const s of samples) {
    const why = beyondInference(s.value);
    if (why)
      throw new PayloadError(
        `${s.source}: ${why}; write its schema yourself and pass it with --schema (a JSON Schema file, or a zod, valibot or TypeBox module)`,
      );
  }
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = await quicktypeJsonSchema(
      samples.map((s) => s.value),
      opts,
    );
  } catch (e) {
    if (e instanceof RangeError)
      throw new PayloadError(
        `schema inference (quicktype-core) ran out of stack on this payload (${e.message}); write its schema yourself and pass it with --schema`,
      );
    throw e;
  }
  // quicktype writes a type that holds itself (a status and its retweeted status) as a `$ref` to its own
  // definition: read as a placeholder that refineSchema unfolds to the depth the samples show
  const { schema } = fromJsonSchema(jsonSchema, { recursive: 'defer' });
  return refineSchema(schema, samples);
}
