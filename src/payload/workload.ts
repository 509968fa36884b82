import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { SchemaNode } from '../workloads/schema.js';
import type { Shape } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import { payloadWorkload } from '../workloads/payload.js';
import { PayloadError, readPayload, samplesOf, type PayloadSource, type PayloadUnit } from './read.js';
import { constraintMismatch, CONSTRAINT_CHECK_TIMEOUT_MS, payloadMismatch, unitLabel } from './conform.js';
import { inferSchema } from './infer.js';
import { markDateTimes, type InferenceFinding } from './refine.js';
import { loadUserSchema, type SchemaLibrary, type UserSchema } from './user-schema.js';
import type { PayloadProgress } from './read.js';
import { scaleRecords } from './scale.js';

/**
 * A user's payload as workloads (issue 10, "your payload, your answer"), so the plan, the adapters
 * and the gate treat it like a built-in one:
 *
 * - a document (`response.json`): one workload, shape `single`, size 1; its payload file is the
 *   document's own bytes;
 * - an NDJSON file: one workload of records, size = the number of records; its payload file is
 *   the NDJSON file's own bytes;
 * - a folder of samples of one endpoint: one workload of records, size = the number of samples,
 *   shape `many`: one op serializes (or parses) every sample once, in name order, so a case's time
 *   per op is the time of the whole folder (divide by the size for one sample) and one case per
 *   serializer and direction weighs the samples as the service meets them, one after another;
 *   its payload file is the samples as NDJSON, one minified sample per line (read.ts `samplesNdjson`);
 * - `--size 100,10000`: one workload of records, whose payloads are
 *   records generated from the schema with the samples' bounds (src/payload/scale.ts, seeded);
 *   a size equal to an NDJSON file's record count (a folder's sample count) is the file itself.
 * Records are measured in the shape the service has (`--shape`, {@link recordShapes}): `many`
 * (each record its own message) for an NDJSON file, `list` (one JSON array) for `--size`, or both
 * when asked (`--shape list,many`): one recommendation per direction unless both are asked.
 *
 * The schema is inferred from the samples (quicktype-core, refined: src/payload/infer.ts) or the
 * user's own (`--schema`: JSON Schema, or a zod/valibot/TypeBox module). The gate's second payload
 * (the "variant" every serializer must also get right, so one that returns a cached string fails)
 * is generated from the same schema with the next seed.
 */

/** Where the schema of a payload came from. */
export interface SchemaOrigin {
  /** `inferred` from the samples, or the library of the user's `--schema` */
  library: 'inferred' | SchemaLibrary;
  /** the user's schema file (absent when inferred) */
  file?: string;
  /** what of the user's schema did not convert, one line each */
  unconverted: string[];
}

/** A payload read and given a schema and workloads: what a run on `--payload` needs. */
export interface ResolvedPayload {
  source: PayloadSource;
  /** the schema of one unit (a document, or one record) */
  schema: SchemaNode;
  origin: SchemaOrigin;
  /** what inference found (integers beyond 2^53, always-null fields…); empty for a user's schema */
  findings: InferenceFinding[];
  workloads: Workload[];
  /** the `--size` values the records were scaled to, when given */
  scaledSizes?: number[];
}

/** A workload id from a file name: `response.json` → `payload:response`. */
export function payloadId(file: string): string {
  return `payload:${basename(file, extname(file)).replace(/[^\w.-]+/g, '-') || 'payload'}`;
}

const records = (units: readonly PayloadUnit[]) => units.map((u) => u.value);

/**
 * The shapes records are measured in: the asked ones (`--shape`), else the one the payload says the
 * service has — `many` for an NDJSON file (its lines are read and written one message at a time),
 * `list` for records generated with `--size` (a response holding that many).
 */
export function recordShapes(source: PayloadSource, sizes?: readonly number[], asked?: readonly Shape[]): Shape[] {
  if (asked?.length) return [...asked];
  return sizes?.length ? ['list'] : source.kind === 'document' ? ['list'] : ['many'];
}

/**
 * The workloads of a payload (see the module comment). `sizes` (from `--size`) turns the payload
 * into generated records of the unit's shape.
 */
export function payloadWorkloads(
  source: PayloadSource,
  schema: SchemaNode,
  sizes?: readonly number[],
  shapes?: readonly Shape[],
): Workload[] {
  const file = basename(source.path);
  const recordsIn = recordShapes(source, sizes, shapes);
  if (sizes?.length) {
    const exact = source.kind === 'document' ? -1 : source.units.length;
    return [
      payloadWorkload(
        {
          id: payloadId(source.path),
          description: `records shaped like ${file} (${sizes.map((n) => (n === exact ? `${n}: the file itself` : `${n}: generated from its schema`)).join('; ')})`,
          sizes: [...sizes],
          shapes: recordsIn,
          schema,
          payloadText: 'ndjson',
        },
        (size) => (size === exact ? records(source.units) : undefined),
      ),
    ];
  }
  if (source.kind === 'ndjson' || source.kind === 'samples') {
    const n = source.units.length;
    return [
      payloadWorkload(
        {
          id: payloadId(source.path),
          description:
            source.kind === 'samples'
              ? `${n} sample${n === 1 ? '' : 's'} of ${file}/, each once per op (in name order)`
              : `${n} record${n === 1 ? '' : 's'} of ${file}`,
          sizes: [source.units.length],
          shapes: recordsIn,
          schema,
          payloadText: 'ndjson',
        },
        () => records(source.units),
      ),
    ];
  }
  const [doc] = source.units;
  return [
    payloadWorkload(
      {
        id: payloadId(doc.source),
        description: `the document ${basename(doc.source)}`,
        sizes: [1],
        shapes: ['single'],
        schema,
        payloadText: 'document',
      },
      () => doc.value,
    ),
  ];
}

/** The payload text of a workload at a size and the gate's second payload (see {@link payloadTexts}). */
export interface PayloadTexts {
  /** the payload file: the user's bytes, or generated records as NDJSON */
  text: string;
  /** the variant: a payload of the same schema generated with `seed + 1` */
  variant: string;
  /** true when `text` is generated (a `--size` other than the file's own record count) */
  generated: boolean;
  /**
   * Set when the variant could not be generated from the schema (json-schema-faker refused it):
   * the variant is then the payload itself, and this sentence says the gate checked the first
   * payload only, and why.
   */
  variantNote?: string;
}

/**
 * json-schema-faker's message in words about the payload. Its one known misleading message: an
 * object with free keys (a map: `additionalProperties` in --print-schema) holding more keys than
 * it can name (it draws at most 1,000 key names `prop<0-99999>` per object) says "properties
 * '…' were not found while additionalProperties is false in <pointer>", though nothing is false
 * (issue 25: a document of 1,000,000 keys).
 */
function generatorSays(message: string): string {
  const map = /^properties '.*' were not found while additionalProperties is false in (\S*)/s.exec(message);
  if (map)
    return `an object with free keys at ${map[1] || '/'} has more keys than json-schema-faker makes for one object (at most about 1,000)`;
  return `json-schema-faker: ${message}`;
}

/** Generation of records from a schema failed: names the step, so the run can say it and go on (or stop, for the payload itself). */
function generated(what: string, workload: Workload, make: () => unknown[]): { values: unknown[] } | { error: string } {
  try {
    return { values: make() };
  } catch (e) {
    const message = ((e as Error)?.message ?? String(e)).split('\n')[0];
    return { error: `${what} of ${workload.id} could not be generated from its schema (${generatorSays(message)})` };
  }
}

const ndjson = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join('\n') + '\n';

/**
 * The texts of a payload workload at a size: the file's own bytes (a document, an NDJSON file), or
 * `size` records generated from the schema (`--size`), deterministic from `seed`; and the variant,
 * generated from the schema with `seed + 1` (a document: one document; records: as many records).
 * @throws Error when `workload` is not one of `payload`'s workloads
 */
export function payloadTexts(payload: ResolvedPayload, workload: Workload, size: number, seed: number): PayloadTexts {
  const { source, schema } = payload;
  const samples = records(source.units);
  const checkedOnFirst = (error: string) => `${error}: the gate checked it on the first payload only`;
  if (workload.payloadText === 'document') {
    const unit = source.units.find((u) => payloadId(u.source) === workload.id);
    if (!unit) throw new Error(`payload ${source.path} has no document for workload ${workload.id}`);
    const variant = generated("the gate's second payload", workload, () =>
      scaleRecords(schema, [unit.value], 1, seed + 1),
    );
    return 'values' in variant
      ? { text: unit.text, variant: JSON.stringify(variant.values[0]), generated: false }
      : { text: unit.text, variant: unit.text, generated: false, variantNote: checkedOnFirst(variant.error) };
  }
  if (!payload.workloads.includes(workload)) throw new Error(`payload ${source.path} has no workload ${workload.id}`);
  const own = ownRecords(payload, size);
  let text: string;
  if (own) text = source.text ?? ndjson(samples);
  else {
    const main = generated(`${size} records`, workload, () => scaleRecords(schema, samples, size, seed));
    if ('error' in main)
      throw new PayloadError(`${main.error}; measure the file's own records (without --size), or pass --schema`);
    text = ndjson(main.values);
  }
  const variant = generated("the gate's second payload", workload, () => scaleRecords(schema, samples, size, seed + 1));
  return 'values' in variant
    ? { text, variant: ndjson(variant.values), generated: !own }
    : { text, variant: text, generated: !own, variantNote: checkedOnFirst(variant.error) };
}

/** True when records at `size` are the payload's own (an NDJSON file or a folder of samples at its own count). */
const ownRecords = (payload: ResolvedPayload, size: number) =>
  payload.source.kind !== 'document' && size === payload.source.units.length;

/** True when {@link payloadTexts} generates the payload's records at `size` (`--size` on records: not a document, not the file's or folder's own records). */
export function generatesRecords(payload: ResolvedPayload, workload: Workload, size: number): boolean {
  return workload.payloadText !== 'document' && !ownRecords(payload, size);
}

/** The sha256 (hex) of a text's UTF-8 bytes. */
export const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/** Options of {@link resolvePayload}. */
export interface ResolvePayloadOptions {
  /** the user's schema: a JSON Schema file, or a module exporting a zod, valibot or TypeBox schema */
  schemaFile?: string;
  /** `--size`: records to generate of the unit's shape */
  sizes?: readonly number[];
  /** `--shape`: the shapes records are measured in (default: {@link recordShapes}) */
  shapes?: readonly Shape[];
  /**
   * Runs the loading of the schema module `file` (its import and its library's conversion: user
   * code in this process) under the caller's guard (run/request.ts: config/host-guard.ts
   * hostCallAsync, the host snapshot around host/user-code.ts's scope and watchdog). Default:
   * called as it is.
   */
  guardSchema?: <T>(file: string, load: () => Promise<T>) => Promise<T>;
  /** `--enums`: infer enums of string fields (infer.ts `InferOptions`); default: strings stay strings */
  enums?: boolean;
  /** the largest payload read, bytes (default payload/bytes.ts DEFAULT_MAX_PAYLOAD_BYTES, 500 MiB; `--max-payload`) */
  maxBytes?: number;
  /** a line every few seconds while a large payload is read, and one per step of its schema's inference */
  onProgress?: PayloadProgress;
}

/**
 * A payload this large (bytes of its file, or of its units' text) gets a line before its reading, and
 * before and after its schema's inference and its variant's generation (run/session.ts), which take
 * seconds from about here and minutes at 300 MB (hx7: a 23 MB payload showed nothing for 16 s before
 * its first launch).
 */
export const LARGE_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** The bytes of the file at `path`; 0 for a folder, or when it cannot be read (readPayload says why). */
function fileSize(path: string): number {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

/**
 * Reads a payload file or folder, infers its schema (or loads the user's) and makes its workloads.
 * @throws PayloadError naming the file (and line:column for bad JSON), or the schema file
 */
export async function resolvePayload(path: string, opts: ResolvePayloadOptions = {}): Promise<ResolvedPayload> {
  const t0 = performance.now();
  const fileBytes = fileSize(path);
  if (fileBytes >= LARGE_PAYLOAD_BYTES)
    opts.onProgress?.(
      `${path}: reading ${(fileBytes / 1024 / 1024).toFixed(1)} MiB (parsing it, checking it for duplicate keys)…`,
    );
  const source = readPayload(path, {
    ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  const bytes = source.text?.length ?? source.units.reduce((n, u) => n + u.text.length, 0);
  const say = bytes >= LARGE_PAYLOAD_BYTES ? opts.onProgress : undefined;
  const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
  const units = `${source.units.length.toLocaleString('en-US')} unit${source.units.length === 1 ? '' : 's'}`;
  say?.(`${path}: read ${units} in ${seconds(t0)}`);
  let schema: SchemaNode;
  let origin: SchemaOrigin;
  let findings: InferenceFinding[] = [];
  if (opts.schemaFile) {
    const file = opts.schemaFile;
    const user = await (opts.guardSchema ?? ((_file, load) => load()))(file, () => loadUserSchema(file));
    // the Date hints inference sets from the samples, which JSON Schema cannot say (issue 24)
    ({ schema, findings } = markDateTimes(
      user.schema,
      source.units.map((u) => u.value),
    ));
    const mismatch = payloadMismatch(source, schema);
    if (mismatch)
      throw new PayloadError(
        `${opts.schemaFile}: the payload does not fit this schema, ${mismatch}; every serializer given the schema would be called incorrect for it. Fix the schema (or start from the inferred one: --print-schema without --schema)`,
      );
    // the library's own checks, which JSON Schema cannot hold (a zod .refine()), on every unit (hx34 sc07: a schema
    // refusing every value measured the payload all the same, exit 0)
    if (user.validate) {
      const validate = user.validate;
      const refused = await (opts.guardSchema ?? (<T>(_file: string, load: () => Promise<T>) => load()))(
        file,
        async () => {
          for (const [i, u] of source.units.entries()) {
            const issue = validate(u.value);
            if (issue) return `${unitLabel(source, i)}${issue}`;
          }
          return null;
        },
      );
      if (refused)
        throw new PayloadError(
          `${opts.schemaFile}: the payload does not pass the schema's own checks (${user.library}): ${refused}; a validator holding your schema would refuse it. Fix the payload or the schema`,
        );
    }
    // the constraints jsonbench's schema does not keep (maxLength, pattern, minimum…) are the user's schema all the
    // same: a payload that breaks them is refused, as one that breaks its shape is (hx19 D07/D08: a 36-character name
    // under maxLength 3 was measured, the validators recommended against a schema without the limit)
    if (user.unconverted.length) {
      const broken = await constraintMismatch(
        source.units.map((u) => u.value),
        user.jsonSchema,
      );
      if (broken === 'timeout')
        throw new PayloadError(
          `${opts.schemaFile}: checking the payload against the schema's own constraints (${user.unconverted.join('; ')}) took over ${CONSTRAINT_CHECK_TIMEOUT_MS / 1000} s: a pattern that backtracks on it? Fix the pattern, or leave it out of the schema`,
        );
      if (broken)
        throw new PayloadError(
          `${opts.schemaFile}: the payload does not meet the schema's own constraints, ${unitLabel(source, broken.index)}at ${broken.path}: ${broken.problem} (got ${broken.got}); jsonbench measures serializers against the schema without them (not converted: ${user.unconverted.join('; ')}), so a validator holding your schema would refuse this payload. Fix the payload or the schema`,
        );
    }
    origin = { library: user.library, file: opts.schemaFile, unconverted: user.unconverted };
  } else {
    const t1 = performance.now();
    say?.(`${path}: inferring the schema of ${units}…`);
    const inferred = await inferSchema(samplesOf(source), { enums: opts.enums === true });
    say?.(`${path}: schema inferred in ${seconds(t1)}`);
    schema = inferred.schema;
    findings = inferred.findings;
    origin = { library: 'inferred', unconverted: [] };
  }
  const sizes = opts.sizes?.length ? [...opts.sizes] : undefined;
  return {
    source,
    schema,
    origin,
    findings,
    workloads: payloadWorkloads(source, schema, sizes, opts.shapes),
    ...(sizes ? { scaledSizes: sizes } : {}),
  };
}
