/**
 * The probe plan: which probe sides each serializer is asked, decided on the host as cases are —
 * a side an adapter does not serve or whose schema its `supports()` refuses is ✘ with its reason
 * (the planner's {@link supportOf}), a side whose schema jsonbench cannot state yet is – (the
 * construct it needs), and the rest go to a worker. Also chooses the probes relevant to a timed
 * run's payloads (their schemas' string formats, numbers, dates, nullable fields, arrays, wire
 * options; safety always; conformance when a folder is given).
 */
import { DIRECTIONS, type Direction } from '../case/coordinates.js';
import type { Verdict } from '../case/probe.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { acceptsNull, type SchemaNode } from '../workloads/schema.js';
import type { Workload } from '../workloads/types.js';
import { inexpressibleReason } from '../probes/constructs.js';
import { probeWorkload } from '../probes/run-probe.js';
import type { Probe } from '../probes/types.js';
import { supportOf } from './plan.js';

/** A serializer row of the probe matrix: its adapter (as the host loaded it), its row label and version. */
export interface ProbeRow {
  adapter: SerializerAdapter;
  label: string;
  version: string;
}

/** One probe side for one row: a verdict decided here, or null when a worker must run it. */
export interface PlannedProbe {
  probe: string;
  direction: Direction;
  row: string;
  decided: Verdict | null;
}

/**
 * What the plan says about one probe side for one adapter before any worker runs: ✘ (the adapter's
 * own declaration: a direction it does not serve, or a reason from `supports()`), ⚠ (supports()
 * itself misbehaved: a bug in the adapter, said as prepare-stage trouble), – (the schema needs a
 * construct jsonbench lacks), or null: run it. Declarations come first, as for cases.
 */
export function decideProbe(adapter: SerializerAdapter, probe: Probe, direction: Direction): Verdict | null {
  const support = supportOf(adapter, probeWorkload(probe), direction);
  if (support.status === 'unsupported') return { mark: '✘', reason: support.reason };
  if (support.status === 'failed') return { mark: '⚠', stage: 'prepare', message: support.reason };
  const inexpressible = inexpressibleReason(probe, adapter, direction);
  return inexpressible ? { mark: '–', reason: inexpressible } : null;
}

/** Every probe side × row in the given directions (a probe without a side in a direction has no cell there). */
export function planProbes(
  probes: readonly Probe[],
  rows: readonly ProbeRow[],
  directions: readonly Direction[] = DIRECTIONS,
): PlannedProbe[] {
  const out: PlannedProbe[] = [];
  for (const row of rows) {
    for (const probe of probes) {
      for (const direction of directions) {
        if (!probe[direction]) continue;
        out.push({ probe: probe.id, direction, row: row.label, decided: decideProbe(row.adapter, probe, direction) });
      }
    }
  }
  return out;
}

/** What a schema holds, as far as choosing probes goes. */
export interface SchemaFacts {
  /** string formats of its string fields (`plain` for a string without one), dates included */
  formats: Set<string>;
  /** it has fields read as Dates (transform class) */
  dates: boolean;
  integers: boolean;
  /** it has an integer field whose text held values beyond 2^53 (width 64) */
  int64: boolean;
  /** the names of its declared object properties */
  keys: Set<string>;
  numbers: boolean;
  nullable: boolean;
  arrays: boolean;
  objects: boolean;
}

/** Walks a schema and says what it holds. */
export function schemaFacts(schema: SchemaNode): SchemaFacts {
  const f: SchemaFacts = {
    formats: new Set(),
    dates: false,
    integers: false,
    int64: false,
    keys: new Set(),
    numbers: false,
    nullable: false,
    arrays: false,
    objects: false,
  };
  const walk = (n: SchemaNode) => {
    if (acceptsNull(n)) f.nullable = true;
    switch (n.type) {
      case 'string':
        f.formats.add(n.format ?? 'plain');
        if (n.asDate) f.dates = true;
        break;
      case 'number':
        f.numbers = true;
        if (n.integer) f.integers = true;
        if (n.integer && n.width === 64) f.int64 = true;
        break;
      case 'array':
        f.arrays = true;
        walk(n.items);
        break;
      case 'object':
        f.objects = true;
        for (const k of Object.keys(n.properties)) f.keys.add(k);
        for (const c of Object.values(n.properties)) walk(c);
        if (n.additionalProperties) walk(n.additionalProperties);
        break;
      case 'record':
        f.objects = true;
        walk(n.values);
        break;
      case 'union':
        for (const m of n.anyOf) walk(m);
        break;
      case 'discriminated':
        f.objects = true;
        for (const o of Object.values(n.mapping)) walk(o);
        break;
      default:
        break;
    }
  };
  walk(schema);
  return f;
}

/**
 * True when a value holds something JSON text cannot: a BigInt, NaN or ±Infinity, undefined, an
 * array hole, an Invalid Date, a Symbol or a function (depth-first; Maps, Sets and class instances are looked into as
 * plain objects would be: their own enumerable values).
 */
export function holdsNonJsonValue(v: unknown, seen = new Set<unknown>()): boolean {
  if (v === undefined || typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function') return true;
  if (typeof v === 'number') return !Number.isFinite(v);
  if (v instanceof Date) return Number.isNaN(v.getTime());
  if (v === null || typeof v !== 'object' || seen.has(v)) return false;
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || holdsNonJsonValue(v[i], seen)) return true;
    return false;
  }
  return Object.values(v).some((x) => holdsNonJsonValue(x, seen));
}

/**
 * True when a probe asks only about a value JSON text cannot contain (serialize side only, its
 * input holds a BigInt, NaN/±Infinity, undefined, an array hole or an Invalid Date: see
 * {@link holdsNonJsonValue}). A workload's values come from JSON text (a user's payload, or a
 * built-in's JSON-safe `build`), so such a probe is never relevant to one; `jsonbench probe` still
 * runs it when asked.
 */
export function notInJsonText(probe: Probe): boolean {
  return probe.deserialize === undefined && probe.serialize !== undefined && holdsNonJsonValue(probe.serialize.input());
}

/**
 * Whether a probe is relevant to a workload's payload: never one about a value JSON text cannot
 * contain ({@link notInJsonText}) but NaN/±Infinity for numbers and an Invalid Date for dates (a
 * service makes those before writing); a payload probe for its own workload; safety when it has
 * objects (a declared prototype key only when the schema declares it); integers beyond 2^53 only
 * when a field held some; string probes as values in
 * the formats its strings have (hostile keys need records, which the schema language lacks: none);
 * integer, number and date edge values for fields of those kinds; holes and undefined elements
 * when it has arrays, undefined members when it has objects; nullable permutations when a field is
 * nullable; empty objects and arrays; its naming policy and indentation; every conformance file.
 * Depth and the 50 MiB document are not: they concern recursive schemas and sizes, which the run
 * itself measures.
 */
export function isRelevant(probe: Probe, workload: Workload): boolean {
  const f = schemaFacts(workload.schema);
  const id = probe.id;
  const [, topic, variant] = id.split('.');
  // a value JSON text cannot hold (NaN, Infinity, an Invalid Date) is still one a service's numbers or
  // dates can hold before they are written: those edge values are relevant to fields of their kind (issue 24)
  const madeBeforeWriting = probe.family === 'edge' && (topic === 'number' || topic === 'date');
  if (notInJsonText(probe) && !madeBeforeWriting) return false;
  switch (probe.family) {
    case 'payload':
      return probe.workload === workload.id;
    case 'safety':
      // a declared property named __proto__ only where the schema declares one; an undeclared one can reach any
      // object (a payload that drifts); a file of arrays and numbers can pay neither (issue 24)
      return topic === 'declared' ? f.keys.has(variant) : f.objects;
    case 'conformance':
      return true;
    case 'string':
      return topic === 'value' && f.formats.has(variant);
    case 'edge':
      // integers a double cannot hold only where the payload's text held some (width 64): a field of small ids cannot pay them
      if (topic === 'int' || topic === 'bigint') return f.integers && (f.int64 || !/^-?2\^(53\+|63)/.test(variant));
      if (topic === 'number') return f.numbers;
      if (topic === 'date') return f.dates || f.formats.has('date-time') || f.formats.has('date');
      if (topic === 'array') return f.arrays;
      if (topic === 'undefined') return f.objects;
      return false;
    case 'structure':
      if (topic === 'nullable') return f.nullable;
      if (topic === 'empty')
        return variant.startsWith('member-array') || variant === 'array-of-empty' ? f.arrays : f.objects;
      return false;
    case 'feature':
      if (topic === 'naming') return variant === workload.wire?.naming;
      if (topic === 'indent') return workload.wire?.indent !== undefined && variant === String(workload.wire.indent);
      return false;
  }
}

/** The probes relevant to any of the workloads, and for each the workloads it was chosen for. */
export function relevantProbes(
  probes: readonly Probe[],
  workloads: readonly Workload[],
): { probes: Probe[]; relevantTo: Record<string, string[]> } {
  const relevantTo: Record<string, string[]> = {};
  const chosen: Probe[] = [];
  for (const p of probes) {
    const ws = workloads.filter((w) => isRelevant(p, w)).map((w) => w.id);
    if (ws.length) {
      chosen.push(p);
      relevantTo[p.id] = ws;
    }
  }
  return { probes: chosen, relevantTo };
}
