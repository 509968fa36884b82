import type { SchemaNode, WireOptions } from '../workloads/schema.js';
import type { Direction, GuaranteeClass } from '../case/coordinates.js';
import type { Fault, Mark, ProbeFamily, Verdict } from '../case/probe.js';

export type { Fault, Mark, ProbeFamily, Verdict };
export { PROBE_FAMILIES } from '../case/probe.js';

/**
 * The probe model (issue 11): a probe is a small case with an input, a schema and what a correct
 * serializer must do; running it against one serializer gives a {@link Verdict}. Probes are never
 * timed. The vocabulary lives here so the catalog (catalog/*.ts), the judge (judge.ts), the runner
 * (run-probe.ts) and, in phase 2, the worker and the reports share one set of words.
 */

/**
 * A schema construct a probe needs. `core` is what jsonbench's {@link SchemaNode} and
 * {@link WireOptions} hold today; the others are named so a probe that needs one reports
 * "not expressible yet" instead of being approximated (constructs.ts says which exist).
 * Type constructs describe what the value holds; the others exist only in a schema (how names
 * and values are written, a forbidden extra property, a default): a serializer that never reads
 * the schema can still run a probe whose missing construct is a type construct (constructs.ts).
 */
export type Construct =
  // type constructs
  | 'optional'
  | 'record'
  | 'union'
  | 'discriminated-union'
  | 'int64'
  | 'any'
  | 'recursive'
  | 'format-date'
  | 'format-time'
  // schema-only constructs
  | 'default'
  | 'additional-properties-policy'
  | 'property-name'
  | 'naming-kebab'
  | 'naming-camel'
  | 'converter';

/**
 * One acceptable behaviour. Exactly one of `json` (serialize: the output must `JSON.parse` to this
 * value), `text` (serialize: the output must be exactly this text), `value` (deserialize: the
 * result must equal this value) or `throws` (refusing is correct) is set. `label` names the
 * behaviour in the matrix when a probe accepts several ("rejects", "drops", "writes null").
 * `check` adds a rule after equality (indentation, prototype untouched, instance class); it
 * returns the problem or null.
 */
export interface Accept {
  label?: string;
  json?: unknown;
  text?: string;
  value?: unknown;
  throws?: true;
  check?: (result: unknown, text?: string) => string | null;
}

/** What a serialize probe feeds and expects. `input` builds a fresh value per run (cycles, class instances, Maps). */
export interface SerializeSide {
  input: () => unknown;
  accept: readonly Accept[];
}

/** What a deserialize probe feeds and expects, per guarantee class (`parse` need not check types; `validate`/`transform` must). */
export interface DeserializeSide {
  text: () => string;
  accept: (cls: GuaranteeClass) => readonly Accept[];
}

export interface Probe {
  /** Stable dotted id, `family.topic.variant` (e.g. `string.value.plain.controls.L41`). */
  id: string;
  family: ProbeFamily;
  /** A payload probe's workload (catalog/payload.ts): it is relevant to that workload alone. */
  workload?: string;
  /** One line a person reads in the matrix legend and the report. */
  title: string;
  /** Schema of the unit as the adapters see it (model names); the closest today's language allows when `needs` is not empty. */
  schema: SchemaNode;
  wire?: WireOptions;
  /** Whether the serializer is handed the model (and must rename) or the wire value; as Workload.serializeFrom. */
  serializeFrom?: 'wire' | 'model';
  /** Constructs beyond today's schema language, with the intended schema in words. */
  needs?: readonly Construct[];
  intended?: string;
  /** How reports show the input and what is expected, when building them is costly (the 50 MiB document, 100,000-deep nesting). */
  shown?: { input: string; expected: string };
  /** The schema is so deep that translating it may overflow a translator's stack: a stack overflow in prepare() is the harness's, not the library's. */
  deepSchema?: boolean;
  serialize?: SerializeSide;
  deserialize?: DeserializeSide;
}

/** A probe side's direction (the case vocabulary's). */
export type ProbeDirection = Direction;

/** What happened when one probe side ran (before judging). */
export type Outcome =
  | { kind: 'returned'; value: unknown; polluted?: readonly string[] }
  | { kind: 'threw'; stage: 'prepare' | 'call'; name: string; message: string; polluted?: readonly string[] }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'inexpressible'; reason: string }
  | { kind: 'crashed'; reason: string }
  | { kind: 'timeout'; ms: number };
