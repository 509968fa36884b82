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
}

/** Identity helper that only adds type inference for a user's workload in `jsonbench.config.*`. */
export function defineWorkload(workload: Workload): Workload {
  return workload;
}
