import type { Direction, Family, GuaranteeClass, Platform } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';

/** The functions a prepared adapter exposes for one workload; only the prepared direction is needed. */
export interface PreparedSerializer {
  /** value → JSON text */
  serialize?(value: unknown): string;
  /** JSON text → value (must throw on invalid input for `validate` and `transform` classes) */
  deserialize?(text: string): unknown;
}

/**
 * What the planner, `jsonbench list` and the reports know of a serializer on any platform: its
 * id, family, directions, class, and which workloads it can do. A JavaScript serializer is a
 * {@link SerializerAdapter} (it also prepares the call a JavaScript worker times); a .NET one is a
 * {@link DotnetSerializer} (its code lives in the C# worker, workers/dotnet/).
 */
export interface SerializerInfo {
  /** Stable id used on the command line and in results. */
  id: string;
  /** where it runs: only on targets of this platform (absent: `javascript`) */
  platform?: Platform;
  family: Family;
  /** The directions it serves; a one-way library lists one (the planner makes the other an `unsupported` pair). */
  directions: readonly Direction[];
  /** Why a one-way library lacks the other direction, shown as that pair's reason (default: "<id> has no serializer|deserializer"). */
  missingDirection?: string;
  /** Class of its deserializer; required when it serves `deserialize`. */
  deserializeClass?: GuaranteeClass;
  /**
   * `false` when the adapter never reads the schema's types, only `wire.naming` and `wire.indent`
   * (drop-in replacements of `JSON`, superjson): the probes (src/probes/) then run a probe whose
   * type construct the schema language cannot state yet, since this adapter would ignore it anyway.
   * Default: it reads the schema.
   */
  readsSchema?: boolean;
  /** npm package whose installed version is recorded with every result. */
  packageName?: string;
  /** For a direction it serves: `true`, or the reason this workload cannot be done (reported as `unsupported`). */
  supports(workload: Workload, direction: Direction): true | string;
  /** The call being measured, shown in reports ("the code being measured"). */
  code?: { serialize?: string; deserialize?: string };
}

/**
 * A serializer adapter: one file per JavaScript library under src/serializers/, registered in
 * src/serializers/index.ts. Users add their own through `jsonbench.config.*` with the same shape
 * (see {@link defineSerializer}).
 */
export interface SerializerAdapter extends SerializerInfo {
  platform?: 'javascript';
  /**
   * Compile/build what the library needs for this workload (schemas, classes); runs once per
   * worker process, before the correctness gate, never timed. May be async. Throws → `failed`.
   */
  prepare(workload: Workload, direction: Direction): PreparedSerializer | Promise<PreparedSerializer>;
  /**
   * What its translation of this workload's schema checks or writes more loosely than the schema
   * says (one sentence each, naming the library, the construct and the JSON path: "ajv JTD has no
   * integer type wider than 32 bits (RFC 8927): $.id is checked as float64"), shown beside its
   * cases. Only asked for a pair `supports()` accepted; absent: it expresses the schema exactly.
   * Constructs it cannot express at all are `supports()` reasons instead (unsupported cases).
   */
  notes?(workload: Workload, direction: Direction): string[];
  /** The call being measured, shown in reports ("the code being measured"). */
  code?: { serialize?: string; deserialize?: string };
}

/**
 * A .NET serializer: one file per library under src/serializers/dotnet/, registered in
 * src/serializers/dotnet/index.ts. The C# worker (workers/dotnet/src/Serializers.cs) holds the
 * code with the same id; this side says what the planner needs. Its deserializers are class
 * `transform` (typed: they produce the workload's model through the generated DTOs).
 */
export interface DotnetSerializer extends SerializerInfo {
  platform: 'dotnet';
  /** the assembly its code comes from (`System.Text.Json`, `Newtonsoft.Json`); the worker reports the version it loaded */
  assembly: string;
}

/** The platform of a serializer (`javascript` when it does not say). */
export function platformOf(s: Pick<SerializerInfo, 'platform'>): Platform {
  return s.platform ?? 'javascript';
}

/** Identity helper that only adds type inference for a user's adapter in `jsonbench.config.*`. */
export function defineSerializer(adapter: SerializerAdapter): SerializerAdapter {
  return adapter;
}
