import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
 * Builds the wire value of a workload at a size, then its text. Strings are flattened by going
 * through `JSON.parse` of the text (on newer V8s `JSON.stringify` of concatenated "cons" strings
 * is up to 10× slower than of parsed ones): workers always parse this text.
 * @throws Error naming the workload when build() throws or returns a value that is not JSON-safe.
 */
export function renderPayload(workload: Workload, size: number, seed: number): string {
  let value: unknown;
  try { value = workload.build(size, seed); } catch (e) {
    throw new WorkloadError(`workload ${workload.id}: build(${size}, ${seed}) threw: ${(e as Error).message}`);
  }
  let text: string | undefined;
  try { text = JSON.stringify(value, null, workload.wire?.indent); } catch (e) {
    throw new WorkloadError(`workload ${workload.id}: build(${size}) returned a value JSON cannot write: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof text !== 'string') throw new WorkloadError(`workload ${workload.id}: build(${size}) did not return a JSON value (got ${typeof value})`);
  const m = firstMismatch(value, JSON.parse(text));
  if (m) throw new WorkloadError(`workload ${workload.id}: build(${size}) returned a value that does not survive JSON at ${m.path}: ${m.expected} became ${m.actual} (NaN, Infinity, a Date or a class instance?)`);
  return text;
}

/** Writes `<dir>/<workload>-<size>.json` and its `.variant.json`; returns the main file's facts. */
export function writePayload(dir: string, workload: Workload, size: number, seed: number): PayloadFile {
  mkdirSync(dir, { recursive: true });
  const key = `${workload.id}-${size}`;
  const path = join(dir, `${key}.json`);
  const text = renderPayload(workload, size, seed);
  writeFileSync(path, text);
  writeFileSync(variantPathOf(path), renderPayload(workload, size, variantSeed(seed)));
  return { key, path, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}
