/**
 * Entry of the worker thread that checks a payload against a `--schema`'s own constraints (payload/conform.ts
 * constraintMismatch): posts `{ mismatch }`, null when every value meets the schema or ajv cannot compile it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { jsonSchemaMismatch } from './conform.js';

const { values, jsonSchema } = workerData as { values: unknown[]; jsonSchema: unknown };
let mismatch = null;
try {
  mismatch = jsonSchemaMismatch(values, jsonSchema);
} catch {
  mismatch = null;
}
parentPort!.postMessage({ mismatch });
