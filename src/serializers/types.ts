import type { Direction, Workload } from '../workloads/types.js';

/**
 * Where a serializer comes from, as the .NET studies class them: the built-in (`JSON`, like
 * System.Text.Json reflection), schema-compiled (source-generated STJ), reflection/decorator
 * libraries (Newtonsoft), and validators used for typed deserialization.
 */
export type Family = 'builtin' | 'schema-compiled' | 'reflection' | 'validator';

/**
 * What a deserializer guarantees, which decides what its output is checked against and which
 * cases it is ranked with (ratios are only drawn inside one class):
 * - `parse`: untyped; result equals the wire value.
 * - `validate`: types checked against the workload schema; result equals the wire value.
 * - `transform`: also converts (numeric strings → numbers, ISO strings → Date, wire names →
 *   model names); result equals the workload's model.
 * Serialize cases all belong to class `serialize`.
 */
export type GuaranteeClass = 'parse' | 'validate' | 'transform';
export type CaseClass = GuaranteeClass | 'serialize';

/** The functions a prepared adapter exposes for one workload; only the prepared direction is needed. */
export interface PreparedSerializer {
  /** value → JSON text */
  serialize?(value: unknown): string;
  /** JSON text → value (must throw on invalid input for `validate` and `transform` classes) */
  deserialize?(text: string): unknown;
}

/**
 * A serializer adapter: one file per library under src/serializers/, registered in
 * src/serializers/index.ts. Users add their own through `jsonbench.config.*` with the same shape
 * (see {@link defineSerializer}).
 */
export interface SerializerAdapter {
  /** Stable id used on the command line and in results. */
  id: string;
  family: Family;
  /** Class of its deserializer; omit when it cannot deserialize. */
  deserializeClass?: GuaranteeClass;
  /** npm package whose installed version is recorded with every result. */
  packageName?: string;
  /** `true`, or the reason this workload/direction pair cannot be done (reported as `unsupported`). */
  supports(workload: Workload, direction: Direction): true | string;
  /**
   * Compile/build what the library needs for this workload (schemas, classes); runs once per
   * worker process, before the correctness gate, never timed. May be async. Throws → `failed`.
   */
  prepare(workload: Workload, direction: Direction): PreparedSerializer | Promise<PreparedSerializer>;
  /** The call being measured, shown in reports ("the code being measured"). */
  code?: { serialize?: string; deserialize?: string };
}

/** Identity helper that only adds type inference for a user's adapter in `jsonbench.config.*`. */
export function defineSerializer(adapter: SerializerAdapter): SerializerAdapter {
  return adapter;
}
