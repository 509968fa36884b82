import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Workload } from '../workloads/types.js';
import { variantPathOf } from '../case/coordinates.js';
import { firstMismatch } from '../measure/verify.js';

/** A payload file made once by the host and handed to every worker as the same bytes. */
export interface PayloadFile {
  key: string;
  path: string;
  /** UTF-8 bytes of the payload text */
  bytes: number;
  /** hex SHA-256 of the payload text */
  sha256: string;
}

/** A workload that cannot build its payload (a user's workload bug): the CLI exits 2 with the message. */
export class WorkloadError extends Error {
  readonly code = 'E_WORKLOAD';
}

/** Seed of the variant payload the gate also checks (so a serializer that returns a cached string fails). */
export const variantSeed = (seed: number) => seed + 1;

/**
 * How long building one payload (main and variant) may take before it is abandoned (ms). The
 * largest built-in payload (company/100000, 8 MB) builds in about 0.9 s on a loaded 2-core machine
 * (load average 8), so 60 s only ever stops a build that hangs.
 */
export const BUILD_TIMEOUT_MS = 60_000;

/** JSON's own functions, taken before any workload code runs in this realm (a build() may replace the globals). */
const { stringify, parse } = JSON;

const isThenable = (v: unknown): v is PromiseLike<unknown> => v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as { then?: unknown }).then === 'function';

/**
 * The payload text of a value `build(size, seed)` returned, checked to survive JSON. Strings are
 * flattened by going through `JSON.parse` of the text (on newer V8s `JSON.stringify` of
 * concatenated "cons" strings is up to 10× slower than of parsed ones): workers always parse this text.
 * @throws WorkloadError naming the workload when the value is not JSON-safe, or nested deeper than
 * `JSON.stringify` can write (about 5,000–10,000 levels on Node 20).
 */
export function payloadText(workload: Workload, size: number, seed: number, value: unknown): string {
  let text: string | undefined;
  try { text = stringify(value, null, workload.wire?.indent); } catch (e) {
    const deep = e instanceof RangeError ? ' (nested deeper than JSON.stringify can write)' : '';
    throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) returned a value JSON cannot write${deep}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof text !== 'string') throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) did not return a JSON value (got ${typeof value})`);
  const m = firstMismatch(value, parse(text));
  if (m) throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) returned a value that does not survive JSON at ${m.path}: ${m.expected} became ${m.actual} (NaN, Infinity, a Date or a class instance?)`);
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
  try { value = workload.build(size, seed); } catch (e) {
    throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) threw: ${(e as Error)?.message ?? String(e)}`);
  }
  if (isThenable(value)) throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) returned a Promise; renderPayload needs the value itself (writePayload awaits it)`);
  return payloadText(workload, size, seed, value);
}

/** Where the build thread finds a workload: a built-in id, or the user's compiled config module. */
export interface PayloadSource {
  /** compiled jsonbench.config module that defines the workload (omit for built-ins) */
  configPath?: string;
  /** default {@link BUILD_TIMEOUT_MS} */
  timeoutMs?: number;
}

/** What the build thread is given, and what it answers. */
export interface BuildRequest { workload: string; configPath?: string; size: number; seeds: number[] }
export type BuildReply = { texts: string[] } | { error: string };

const buildThread = new URL('./build-thread.js', import.meta.url);

/**
 * Builds the payload texts of `seeds` in a worker thread: a build() that loops, never settles or
 * throws cannot hang or crash the host, an async build() is awaited, and what it does to its
 * globals stays in that thread.
 * @throws WorkloadError naming the workload, the size and what went wrong (threw, timed out,
 * never settled, not JSON-safe).
 */
export function buildPayloadTexts(workload: Workload, size: number, seeds: number[], source: PayloadSource = {}): Promise<string[]> {
  const timeoutMs = source.timeoutMs ?? BUILD_TIMEOUT_MS;
  const request: BuildRequest = { workload: workload.id, size, seeds, ...(source.configPath ? { configPath: source.configPath } : {}) };
  const what = `workload ${workload.id}: build(${size}, ${seeds.join(' and ')})`;
  return new Promise((resolve, reject) => {
    // execArgv: none of the host's (an --input-type or --eval of the host's own would stop the thread from starting)
    const thread = new Worker(buildThread, { workerData: request, stdout: true, stderr: true, execArgv: [] });
    // what build() prints goes to stderr: the host's stdout carries tables or --json results
    thread.stdout.pipe(process.stderr, { end: false });
    thread.stderr.pipe(process.stderr, { end: false });
    let settled = false;
    const settle = (fn: () => void) => { if (!settled) { settled = true; clearTimeout(timer); fn(); } };
    const timer = setTimeout(() => {
      settle(() => reject(new WorkloadError(`${what} did not finish within ${(timeoutMs / 1000).toFixed(0)} s (a loop that never ends, or a Promise that never settles?)`)));
      void thread.terminate();
    }, timeoutMs);
    thread.on('message', (reply: BuildReply) => settle(() => ('texts' in reply ? resolve(reply.texts) : reject(new WorkloadError(reply.error)))));
    thread.on('error', (e) => settle(() => reject(new WorkloadError(`${what} crashed its build thread: ${e?.message ?? String(e)}`))));
    thread.on('exit', (code) => settle(() => reject(new WorkloadError(`${what} never settled: its build thread ran out of work (exit code ${code}) before the value was ready (a Promise that never resolves?)`))));
  });
}

/**
 * Builds (in a worker thread, see {@link buildPayloadTexts}) and writes
 * `<dir>/<workload>-<size>.json` and its `.variant.json`; returns the main file's facts.
 * @throws WorkloadError as {@link buildPayloadTexts}.
 */
export async function writePayload(dir: string, workload: Workload, size: number, seed: number, source: PayloadSource = {}): Promise<PayloadFile> {
  const [text, variant] = await buildPayloadTexts(workload, size, [seed, variantSeed(seed)], source);
  makeFolder(dir);
  const key = `${workload.id}-${size}`;
  const path = join(dir, `${key}.json`);
  writeFileSync(path, text);
  writeFileSync(variantPathOf(path), variant);
  return { key, path, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}
