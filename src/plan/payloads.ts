import { messageOfThrown } from '../host/describe-thrown.js';
import { createHash } from 'node:crypto';
import { lstatSync, readlinkSync } from 'node:fs';
import { writeFileNamed } from '../files/write-file.js';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Workload } from '../workloads/types.js';
import { payloadSpecOf, type PayloadWorkloadSpec } from '../workloads/payload.js';
import { variantPathOf } from '../case/coordinates.js';
import { workerEnv } from '../case/startup.js';
import { firstMismatch } from '../measure/verify.js';
import { hostileVariant } from '../probes/hostile-variant.js';

/** A payload file made once by the host and handed to every worker as the same bytes. */
export interface PayloadFile {
  key: string;
  path: string;
  /** UTF-8 bytes of the payload text */
  bytes: number;
  /** hex SHA-256 of the payload text */
  sha256: string;
  /** a user's payload: its workload as data, handed to every worker with the job */
  spec?: PayloadWorkloadSpec;
}

/** A workload that cannot build its payload (a user's workload bug): the CLI exits 2 with the message. */
export class WorkloadError extends Error {
  readonly code = 'E_WORKLOAD';
}

/**
 * Seed of the variant payload the gate also checks (so a serializer that returns a cached string
 * fails). The variant also carries hostile strings in its plain-string fields (probes/hostile-variant.ts).
 */
export const variantSeed = (seed: number) => seed + 1;

/**
 * How long building one payload (main and variant) may take before it is abandoned (ms). The
 * largest built-in payload (company/100000, 8 MB) builds in about 0.9 s on a loaded 2-core machine
 * (load average 8), so 60 s only ever stops a build that hangs.
 */
export const BUILD_TIMEOUT_MS = 60_000;

/** JSON's own functions, taken before any workload code runs in this realm (a build() may replace the globals). */
const { stringify, parse } = JSON;

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null &&
  (typeof v === 'object' || typeof v === 'function') &&
  typeof (v as { then?: unknown }).then === 'function';

/**
 * The payload text of a value `build(size, seed)` returned, checked to survive JSON. Strings are
 * flattened by going through `JSON.parse` of the text (on newer V8s `JSON.stringify` of
 * concatenated "cons" strings is up to 10× slower than of parsed ones): workers always parse this text.
 * @throws WorkloadError naming the workload when the value is not JSON-safe, or nested deeper than
 * `JSON.stringify` can write (about 5,000–10,000 levels on Node 20), or (a workload without the `single` shape)
 * not an array of `size` records.
 */
export function payloadText(workload: Workload, size: number, seed: number, value: unknown): string {
  // records workloads (no `single` shape): `size` records, as every table names the case (hx33 w6: build(100) gave 2,000
  // records, measured and reported as "nondet2 · 100 · list")
  const shapes: readonly string[] = Array.isArray(workload.shapes) ? workload.shapes : [];
  if (shapes.length && !shapes.includes('single') && !workload.id.startsWith('payload:')) {
    const got = Array.isArray(value)
      ? `${value.length} records`
      : `no array (${value === null ? 'null' : typeof value})`;
    if (!Array.isArray(value) || value.length !== size)
      throw new WorkloadError(
        `workload ${workload.id}: build(${size}, ${seed}) returned ${got}; a workload of shapes ${shapes.join(', ')} must return an array of ${size} records, the size every table names its cases by`,
      );
  }
  let text: string | undefined;
  try {
    text = stringify(value, null, workload.wire?.indent);
  } catch (e) {
    const deep = e instanceof RangeError ? ' (nested deeper than JSON.stringify can write)' : '';
    throw new WorkloadError(
      `workload ${workload.id}: build(${size}, ${seed}) returned a value JSON cannot write${deep}: ${messageOfThrown(e).split('\n')[0]}`,
    );
  }
  if (typeof text !== 'string')
    throw new WorkloadError(
      `workload ${workload.id}: build(${size}, ${seed}) did not return a JSON value (got ${typeof value})`,
    );
  let m;
  try {
    m = firstMismatch(value, parse(text));
  } catch (e) {
    // hx17 WL-getter: a getter of the value that throws on its second read ended the run with "error: second read"
    throw new WorkloadError(
      `workload ${workload.id}: build(${size}, ${seed}) returned a value whose reading threw once written (a getter or a Proxy that throws on a second read?): ${messageOfThrown(e).split('\n')[0]}; build() must return plain JSON data`,
    );
  }
  if (m)
    throw new WorkloadError(
      `workload ${workload.id}: build(${size}, ${seed}) returned a value that does not survive JSON at ${m.path}: ${m.expected} became ${m.actual} (NaN, Infinity, a Date or a class instance?)`,
    );
  return text;
}

/**
 * Builds the wire value of a workload at a size, then its text, in this thread. For tests and
 * tools with a synchronous workload; `jsonbench run` builds through {@link writePayload}, which
 * also awaits an async build() and bounds it with a timeout.
 * @throws WorkloadError naming the workload when build() throws, returns a Promise, or returns a
 * value that is not JSON-safe.
 */
export function renderPayload(workload: Workload, size: number, seed: number): string {
  let value: unknown;
  try {
    value = workload.build(size, seed);
  } catch (e) {
    throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) threw: ${messageOfThrown(e)}`);
  }
  if (isThenable(value))
    throw new WorkloadError(
      `workload ${workload.id}: build(${size}, ${seed}) returned a Promise; renderPayload needs the value itself (writePayload awaits it)`,
    );
  return payloadText(workload, size, seed, value);
}

/** The key of a workload's payload at a size (`<workload>-<size>`), which planned cases name. */
export const payloadKeyOf = (workloadId: string, size: number) => `${workloadId}-${size}`;

/** Where the build thread finds a workload: a built-in id, or the user's compiled config module. */
export interface PayloadSource {
  /** compiled jsonbench.config module that defines the workload (omit for built-ins) */
  configPath?: string;
  /** default {@link BUILD_TIMEOUT_MS} */
  timeoutMs?: number;
  /** how long a build may be silent before a line on stderr says it is still building (ms); default {@link BUILD_HEARTBEAT_MS} */
  heartbeatMs?: number;
}

/**
 * A build running this long gets a line on stderr, and one more each time as long again passes
 * (hx11 WL-whang: a build() that loops forever was silent for the whole {@link BUILD_TIMEOUT_MS}).
 */
export const BUILD_HEARTBEAT_MS = 10_000;

/** What the build thread is given, and what it answers. */
export interface BuildRequest {
  workload: string;
  configPath?: string;
  size: number;
  seeds: number[];
  /** indexes into `seeds` whose value gets hostile strings in its plain-string fields (the gate's variant; probes/hostile-variant.ts) */
  hostile?: number[];
}
export type BuildReply = { texts: string[] } | { error: string };

const buildThread = new URL('./build-thread.js', import.meta.url);

/**
 * Builds the payload texts of `seeds` in a worker thread: a build() that loops, never settles or
 * throws cannot hang or crash the host, an async build() is awaited, and what it does to its
 * globals stays in that thread.
 * @throws WorkloadError naming the workload, the size and what went wrong (threw, timed out,
 * never settled, not JSON-safe).
 */
export function buildPayloadTexts(
  workload: Workload,
  size: number,
  seeds: number[],
  source: PayloadSource = {},
  hostile: number[] = [],
): Promise<string[]> {
  const timeoutMs = source.timeoutMs ?? BUILD_TIMEOUT_MS;
  const request: BuildRequest = {
    workload: workload.id,
    size,
    seeds,
    ...(hostile.length ? { hostile } : {}),
    ...(source.configPath ? { configPath: source.configPath } : {}),
  };
  const what = `workload ${workload.id}: build(${size}, ${seeds.join(' and ')})`;
  return new Promise((resolve, reject) => {
    // execArgv: none of the host's (an --input-type or --eval of the host's own would stop the thread from starting);
    // env: the one jsonbench started with (a thread reads NODE_OPTIONS' --require from it: a config may have set one)
    const thread = new Worker(buildThread, {
      workerData: request,
      stdout: true,
      stderr: true,
      execArgv: [],
      env: workerEnv(),
    });
    // what build() prints goes to stderr: the host's stdout carries tables or --json results
    thread.stdout.pipe(process.stderr, { end: false });
    thread.stderr.pipe(process.stderr, { end: false });
    let settled = false;
    const settle = (fn: () => void) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        clearInterval(heartbeat);
        fn();
      }
    };
    const started = performance.now();
    const heartbeat = setInterval(() => {
      const s = ((performance.now() - started) / 1000).toFixed(0);
      process.stderr.write(
        `jsonbench: ${what}: still building after ${s} s (stopped at ${(timeoutMs / 1000).toFixed(0)} s)\n`,
      );
    }, source.heartbeatMs ?? BUILD_HEARTBEAT_MS);
    heartbeat.unref();
    const timer = setTimeout(() => {
      settle(() =>
        reject(
          new WorkloadError(
            `${what} did not finish within ${(timeoutMs / 1000).toFixed(0)} s (a loop that never ends, or a Promise that never settles?)`,
          ),
        ),
      );
      void thread.terminate();
    }, timeoutMs);
    thread.on('message', (reply: BuildReply) =>
      settle(() => ('texts' in reply ? resolve(reply.texts) : reject(new WorkloadError(reply.error)))),
    );
    thread.on('error', (e) =>
      settle(() => reject(new WorkloadError(`${what} crashed its build thread: ${messageOfThrown(e)}`))),
    );
    thread.on('exit', (code) =>
      settle(() =>
        reject(
          new WorkloadError(
            `${what} never settled: its build thread ran out of work (exit code ${code}) before the value was ready (a Promise that never resolves?)`,
          ),
        ),
      ),
    );
  });
}

/**
 * The text of the gate's variant payload from a payload text (issue 11: the gate learns from the
 * string probes): the same value with hostile strings written into its plain-string fields
 * ({@link hostileVariant}: quotes, backslashes, every control character, lone and reversed
 * surrogates, non-BMP characters, at 40, 41, 100 and 5,000 characters), written with the
 * workload's indentation. Formats, dates, numeric strings, enums and nulls are untouched, so a
 * correct serializer of any class still passes. Lone surrogates are escaped in the text
 * (JSON.stringify is well-formed), so the worker parses them back as themselves.
 */
export function hostileVariantText(workload: Workload, text: string): string {
  return stringify(
    hostileVariant(workload.schema, workload.wire?.naming, parse(text)).value,
    null,
    workload.wire?.indent,
  );
}

/**
 * The gate's variant of a user's payload (`--payload`) with hostile strings, like the built-in
 * workloads' ({@link hostileVariantText}): a document as one value; NDJSON records as their array
 * (the schema is one record's), written back one record per line. Without it a serializer that
 * writes lone surrogates raw (ajv-jtd) passed the gate on a user's payload while failing it on
 * every built-in workload (new-user tryout, 2026-12-06).
 * @throws SyntaxError when `text` is not JSON / NDJSON (the variant is generated, so never in practice)
 */
export function userVariantText(workload: Workload, text: string): string {
  if (workload.payloadText !== 'ndjson') return hostileVariantText(workload, text);
  const records = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parse(line) as unknown);
  const hostile = hostileVariant(workload.schema, workload.wire?.naming, records).value as unknown[];
  return hostile.map((r) => stringify(r)).join('\n') + '\n';
}

/**
 * Most records (the workload's size) the gate's variant payload holds. The variant checks content
 * (another seed, hostile strings), not scale: on orders/10000 a variant as large as the payload cost
 * every side of every launch about 0.5 s of CPU time in the gate and 0.3 s in the changed-in-place
 * check (an instrumented group launch, load ~6), for no case the smaller variant would pass.
 */
export const VARIANT_MAX_SIZE = 1000;

/**
 * The size of the gate's variant for a payload of `size`: `size` itself up to {@link VARIANT_MAX_SIZE},
 * else the largest size the workload declares that is at most that (a workload's build() is only
 * known to accept its declared sizes), else `size`.
 */
export function variantSizeOf(workload: Pick<Workload, 'sizes'>, size: number): number {
  if (size <= VARIANT_MAX_SIZE) return size;
  const fits = workload.sizes.filter((n) => n <= VARIANT_MAX_SIZE);
  return fits.length ? Math.max(...fits) : size;
}

/**
 * Makes the run's payload folder, refusing a symbolic link in its place: a link planted in the
 * output folder would carry the payload writes out of it (a hostile tester's `payloads` →
 * /tmp/…). @throws Error (code ELOOP, naming the folder and where it points)
 */
function payloadFolder(dir: string): void {
  if (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink())
    throw Object.assign(
      new Error(
        `${dir} is a symbolic link (to ${readlinkSync(dir)}): jsonbench writes the run's payload files there and does not follow a link out of the output folder; remove it, or give another --out`,
      ),
      { code: 'ELOOP', syscall: 'open', path: dir },
    );
  makeFolder(dir);
}

/**
 * Builds (in a worker thread, see {@link buildPayloadTexts}) and writes
 * `<dir>/<workload>-<size>.json` and its `.variant.json` (another seed, with hostile strings in
 * its plain-string fields: {@link hostileVariantText}; at most {@link variantSizeOf} records);
 * returns the main file's facts.
 * @throws WorkloadError as {@link buildPayloadTexts}.
 */
export async function writePayload(
  dir: string,
  workload: Workload,
  size: number,
  seed: number,
  source: PayloadSource = {},
): Promise<PayloadFile> {
  const small = variantSizeOf(workload, size);
  const [text, variant] =
    small === size
      ? await buildPayloadTexts(workload, size, [seed, variantSeed(seed)], source, [1])
      : [
          (await buildPayloadTexts(workload, size, [seed], source))[0],
          (await buildPayloadTexts(workload, small, [variantSeed(seed)], source, [0]))[0],
        ];
  payloadFolder(dir);
  const key = payloadKeyOf(workload.id, size);
  const path = join(dir, `${key}.json`);
  writeFileNamed(path, text);
  writeFileNamed(variantPathOf(path), variant);
  return { key, path, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}

/**
 * Writes given texts as a workload's payload at a size: a user's payload, whose text is their
 * file's own bytes (`.json` for a document, `.ndjson` for records) and whose variant is a
 * generated payload of the same shape (the gate's second payload). The file name keeps only
 * `[A-Za-z0-9._@-]` of the key (`payload:api` → `payload_api-1.json`).
 */
export function writePayloadTexts(
  dir: string,
  workload: Workload,
  size: number,
  text: string,
  variant: string,
): PayloadFile {
  payloadFolder(dir);
  const key = payloadKeyOf(workload.id, size);
  const path = join(dir, `${key.replace(/[^\w.@-]/g, '_')}.${workload.payloadText === 'ndjson' ? 'ndjson' : 'json'}`);
  writeFileNamed(path, text);
  writeFileNamed(variantPathOf(path), variant);
  const spec = payloadSpecOf(workload);
  return {
    key,
    path,
    bytes: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
    ...(spec ? { spec } : {}),
  };
}
