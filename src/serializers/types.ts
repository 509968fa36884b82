import type { Direction, Family, GuaranteeClass } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';

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
  /** The directions it serves; a one-way library lists one (the planner makes the other an `unsupported` pair). */
  directions: readonly Direction[];
  /** Why a one-way library lacks the other direction, shown as that pair's reason (default: "<id> has no serializer|deserializer"). */
  missingDirection?: string;
  /** Class of its deserializer; required when it serves `deserialize`. */
  deserializeClass?: GuaranteeClass;
  /** npm package whose installed version is recorded with every result. */
  packageName?: string;
  /** For a direction it serves: `true`, or the reason this workload cannot be done (reported as `unsupported`). */
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
