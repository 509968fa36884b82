import { Worker } from 'node:worker_threads';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { SchemaNode } from '../workloads/schema.js';
import { toJsonSchema } from '../workloads/json-schema.js';
import type { PayloadSource } from './read.js';
import { echo } from './echo.js';

/**
 * Whether every unit of a payload (each document, NDJSON record or sample) fits a schema given
 * with `--schema`: a payload that does not would make every schema-driven serializer's output
 * differ from the payload, and each would be called `incorrect` for the user's mistake. Checked
 * with ajv (JSON Schema 2020-12, the dialect `--print-schema` writes) against the schema's JSON
 * Schema without `format` keywords (formats are the libraries' business; a date written
 * otherwise is not a shape mismatch).
 * @returns null when every unit fits, else one sentence: the unit, the JSON path, what the schema
 *   wants there and the value found (`sample b.json at $.items[2].id: must be integer (got "7")`)
 */
export function payloadMismatch(source: PayloadSource, schema: SchemaNode): string | null {
  const m = schemaMismatch(
    source.units.map((u) => u.value),
    schema,
  );
  if (!m) return null;
  return `${unitLabel(source, m.index)}at ${m.path}: ${m.problem} (got ${m.got})`;
}

/** Which unit of a payload `index` is, as a message names it: `` for a document, `record 3 `, `sample b.json `. */
export function unitLabel(source: PayloadSource, index: number): string {
  return source.kind === 'document'
    ? ''
    : source.kind === 'ndjson'
      ? `record ${index + 1} `
      : `sample ${source.units[index].source} `;
}

/** The first value of several that does not fit a schema: which one, where, what the schema wants there, and what was found. */
export interface SchemaMismatch {
  /** index of the value in the list given */
  index: number;
  /** JSON path in it (`$.items[2].id`) */
  path: string;
  /** what the schema wants there, and which key when one is missing or extra (`must be string`, `must have required property 'a' ("a")`) */
  problem: string;
  /** the value found there as JSON, capped at 80 characters (echo.ts) */
  got: string;
}

/**
 * The first of `values` that does not fit `schema` (checked as {@link payloadMismatch} checks: ajv,
 * JSON Schema 2020-12, formats left to the libraries), or null when every one fits. Shared by the
 * `--schema` check and the run's check of a config workload's own payload (run/session.ts).
 */
export function schemaMismatch(values: readonly unknown[], schema: SchemaNode): SchemaMismatch | null {
  return jsonSchemaMismatch(values, toJsonSchema(schema, { formats: false }));
}

/**
 * {@link schemaMismatch} against a JSON Schema as given (a user's `--schema`, with the constraints jsonbench's own
 * schema does not keep: maxLength, pattern, minimum…), read as 2020-12 whatever its `$schema` says, formats not
 * checked. Runs the schema's patterns: call it where a pattern that backtracks can be stopped
 * (payload/constraint-thread.ts). @throws what ajv throws on a schema it cannot compile
 */
export function jsonSchemaMismatch(values: readonly unknown[], jsonSchema: unknown): SchemaMismatch | null {
  const given =
    jsonSchema !== null && typeof jsonSchema === 'object' && !Array.isArray(jsonSchema)
      ? { ...(jsonSchema as Record<string, unknown>) }
      : jsonSchema;
  if (given !== null && typeof given === 'object') delete (given as Record<string, unknown>).$schema;
  // own properties only (hx8: a schema with a "constructor" property was checked against Object.prototype.constructor,
  // and a required "__proto__" was met by the prototype of a payload without that key)
  const validate = new Ajv2020({
    strict: false,
    allErrors: false,
    ownProperties: true,
    validateFormats: false,
    // multipleOf as JSON Schema means it, not as a double divides (hx35 s4: 0.3 "must be multiple of 0.1", 0.3 / 0.1
    // being 2.9999999999999996): the quotient is rounded to 9 decimals first
    multipleOfPrecision: 9,
  }).compile(given as object);
  for (const [index, value] of values.entries()) {
    if (validate(value)) continue;
    const error = validate.errors?.[0];
    const segments = (error?.instancePath ?? '')
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = value;
    let path = '$';
    for (const s of segments) {
      // the value's own key only: an inherited one (`constructor`) is not in the payload
      at =
        at !== null && typeof at === 'object' && Object.hasOwn(at, s) ? (at as Record<string, unknown>)[s] : undefined;
      path += /^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${echo(JSON.stringify(s))}]`;
    }
    const extra =
      error?.keyword === 'additionalProperties'
        ? ` ("${echo(String((error.params as { additionalProperty?: string }).additionalProperty))}")`
        : error?.keyword === 'required'
          ? ` ("${echo(String((error.params as { missingProperty?: string }).missingProperty))}")`
          : '';
    return {
      index,
      path,
      problem: `${error?.message ?? 'does not match'}${extra}`,
      got: echo(JSON.stringify(at) ?? String(at)),
    };
  }
  return null;
}

/** How long the check of a payload against a `--schema`'s own constraints may take (ms): a pattern that backtracks is stopped. */
export const CONSTRAINT_CHECK_TIMEOUT_MS = 10_000;

/**
 * {@link jsonSchemaMismatch} in a worker thread, stopped after `timeoutMs` (hx19 D07: a `pattern` that backtracks
 * catastrophically must not hang the run): the mismatch, null when every value meets the schema (or ajv cannot
 * compile it: the schema was accepted by its own conversion), or `'timeout'`.
 */
export async function constraintMismatch(
  values: readonly unknown[],
  jsonSchema: unknown,
  timeoutMs = CONSTRAINT_CHECK_TIMEOUT_MS,
): Promise<SchemaMismatch | null | 'timeout'> {
  const thread = new Worker(new URL('./constraint-thread.js', import.meta.url), {
    workerData: { values, jsonSchema },
  });
  try {
    return await new Promise<SchemaMismatch | null | 'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), timeoutMs);
      thread.once('message', (m: { mismatch: SchemaMismatch | null }) => {
        clearTimeout(timer);
        resolve(m.mismatch);
      });
      thread.once('error', () => {
        clearTimeout(timer);
        resolve(null);
      });
    });
  } finally {
    await thread.terminate();
  }
}
