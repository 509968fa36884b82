import type { Shape } from '../case/coordinates.js';
import type { SchemaNode, WireOptions } from './schema.js';

/**
 * A benchmark payload family. One file per workload under src/workloads/, registered in
 * src/workloads/index.ts. Everything is deterministic from (size, seed).
 */
export interface Workload {
  /** Stable id used on the command line and in results (kebab-case). */
  id: string;
  description: string;
  /** Every size the workload can build (records, or employees for `company`); `[1]` for a single document. */
  sizes: readonly number[];
  /** Sizes measured by the default policy (subset of `sizes`). */
  defaultSizes: readonly number[];
  shapes: readonly Shape[];
  /** Schema of one unit: the document (`single`), or one record (`list` and `many`). */
  schema: SchemaNode;
  /** Naming policy and indentation of the payload text. Default: compact, model names. */
  wire?: WireOptions;
  /**
   * Build the value as it stands on the wire (wire key names, numeric strings as strings):
   * the document for `single`, the array of records otherwise. Must be JSON-safe.
   */
  build(size: number, seed: number): unknown;
  /**
   * The typed model a `transform`-class deserializer must produce from one wire unit
   * (numeric strings → numbers, dates → Date, wire names → model names). Default: the
   * unit unchanged.
   */
  toModel?(wireUnit: unknown): unknown;
  /**
   * What a serializer is given: `wire` (default) serializes the wire value itself; `model`
   * serializes the typed model and must write wire names and indentation (the settings variant).
   */
  serializeFrom?: 'wire' | 'model';
  /**
   * The workload's own extra rule for serializer output, after value equality (e.g. "indented
   * with 2 spaces"). Returns a reason when the text breaks it, else null.
   */
  checkText?(text: string): string | null;
  /**
   * Set for a user's payload (src/workloads/payload.ts): the payload file is the user's own text,
   * kept byte for byte — `document`, one JSON text (shape `single`), or `ndjson`, one record per
   * line (`list`, `many`) — and deserialize cases parse that text itself, not a re-rendering of its
   * value ({@link readUnits}). Absent: the payload file is JSON written by jsonbench from `build()`.
   */
  payloadText?: PayloadText;
  /**
   * How the .NET worker's code for this workload is shaped ({@link DotnetCodeShape}); absent: settable-property
   * classes with string ids and settings made once per process. The JavaScript side is unchanged.
   */
  dotnet?: DotnetCodeShape;
  /**
   * The workload whose payload this one shares, when it differs from it only in how a platform's code is
   * shaped (`users-record`: `users`' payload, study 001's .NET records): measured only when `--workload` names it,
   * and only by the .NET serializers (a JavaScript serializer's case is `unsupported`, pointing at `variantOf`).
   */
  variantOf?: string;
}

/**
 * The shape of the .NET code a workload is measured with (study 001's code, issue 26):
 * - `dto: 'record'`: each object is a positional `record` (`record Unit(Guid Id, string FirstName, …)`) that both
 *   libraries bind through its constructor on deserialize, and strings of format `uuid` are `Guid`s (written in
 *   lowercase "D" form, as both libraries write a Guid); `'class'` (default): settable properties, strings stay strings;
 * - `settings: 'per-call'`: `stj` and `newtonsoft` build their options object inside each call
 *   (`JsonSerializer.Serialize(v, new JsonSerializerOptions { … })`, `new JsonSerializerSettings { ContractResolver =
 *   new DefaultContractResolver { … } }`), as study 001 wrote them; `'shared'` (default): once per process, as a
 *   service holds them. `stj-sourcegen`'s options are its context's, fixed at compile time either way.
 */
export interface DotnetCodeShape {
  dto?: 'class' | 'record';
  settings?: 'shared' | 'per-call';
}

/** How a user's payload file holds its text: one JSON document, or NDJSON (one record per line). */
export type PayloadText = 'document' | 'ndjson';

/** Identity helper that only adds type inference for a user's workload in `jsonbench.config.*`. */
export function defineWorkload(workload: Workload): Workload {
  return workload;
}
