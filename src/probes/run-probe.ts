import { messageOfThrown } from '../host/describe-thrown.js';
import type { CaseClass } from '../case/coordinates.js';
import type { SerializerAdapter } from '../serializers/types.js';
import type { Workload } from '../workloads/types.js';
import { prepareCase, type PreparedCase } from '../measure/prepare-case.js';
import { judge } from './judge.js';
import type { Accept, Outcome, Probe, ProbeDirection, Verdict } from './types.js';

/**
 * Runs one side of a probe against one adapter in this process (inside a worker, or in a test), and
 * judges the outcome. The adapter is prepared through the lab's one {@link prepareCase}, exactly as
 * a timed case's side is, with the probe as a one-document workload; the call is the prepared
 * side's `call`. Whether the adapter serves the direction and supports the probe's schema, and
 * whether jsonbench can state the schema at all, was decided before (plan/probe-plan.ts): this
 * runs what was planned. Never throws; a hang or a process crash cannot be caught here — the host
 * turns those into ✗ hang / ✗ crash (run/probe-runner.ts).
 */

/** The probe as the one-document workload its adapter is prepared with (never built: probes bring their own input). */
export function probeWorkload(probe: Probe): Workload {
  return {
    id: `probe:${probe.id}`,
    description: probe.title,
    sizes: [1],
    defaultSizes: [1],
    shapes: ['single'],
    schema: probe.schema,
    wire: probe.wire,
    serializeFrom: probe.serializeFrom,
    build() {
      throw new Error(`probe ${probe.id} builds no payload: it brings its own input`);
    },
  };
}

/** The case class a probe side runs in for this adapter: `serialize`, or the adapter's deserialize class. */
export function probeClass(adapter: Pick<SerializerAdapter, 'deserializeClass'>, direction: ProbeDirection): CaseClass {
  return direction === 'serialize' ? 'serialize' : (adapter.deserializeClass ?? 'parse');
}

/** The behaviours a probe side accepts from this adapter (deserialize: by its guarantee class). */
export function acceptsFor(
  probe: Probe,
  adapter: Pick<SerializerAdapter, 'deserializeClass'>,
  direction: ProbeDirection,
): readonly Accept[] {
  if (direction === 'serialize') return probe.serialize!.accept;
  return probe.deserialize!.accept(adapter.deserializeClass ?? 'parse');
}

type ProtoSnapshot = Map<string | symbol, unknown>;

function snapshotObjectPrototype(): ProtoSnapshot {
  const snap: ProtoSnapshot = new Map();
  for (const k of Reflect.ownKeys(Object.prototype))
    snap.set(k, Object.getOwnPropertyDescriptor(Object.prototype, k)!.value);
  return snap;
}

/** Names of Object.prototype members added or replaced since `before`; restores them so later probes start clean. */
function pollutionSince(before: ProtoSnapshot): string[] {
  const changed: string[] = [];
  for (const k of Reflect.ownKeys(Object.prototype)) {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, k)!.value;
    if (!before.has(k)) {
      changed.push(String(k));
      delete (Object.prototype as Record<string | symbol, unknown>)[k];
    } else if (before.get(k) !== now) {
      changed.push(String(k));
      Object.defineProperty(Object.prototype, k, { value: before.get(k) });
    }
  }
  return changed;
}

/**
 * A thrown value's `name` when it is a string, else `fallback`; never calls the value's code beyond one property
 * read, never throws (hx37 a08: `String(e.message)` on a message whose toString loops forever hung the probe side
 * until its timeout, and every later probe of the serializer was skipped as hung).
 */
function thrownName(e: unknown, fallback: string): string {
  try {
    const name = (e as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : fallback;
  } catch {
    return fallback;
  }
}

const isStackOverflow = (e: unknown) => {
  try {
    return e instanceof RangeError && /call stack/i.test(e.message);
  } catch {
    return false;
  }
};

/**
 * Prepared sides by direction and probe schema, so probes that share a schema share one
 * `prepare()` (as every input of a timed case shares one): ajv compiles for ~0.4 s, and hundreds of
 * string probes share six schemas. One cache per adapter (per worker launch).
 */
export type PrepareCache = Map<string, Promise<PreparedCase>>;

function prepareKey(probe: Probe, direction: ProbeDirection): string {
  return JSON.stringify([direction, probe.schema, probe.wire ?? null, probe.serializeFrom ?? 'wire']);
}

/** Runs the probe side and returns what happened (not yet judged). `onPrepared` is called once the adapter is prepared, before the call. */
export async function runProbeOutcome(
  adapter: SerializerAdapter,
  probe: Probe,
  direction: ProbeDirection,
  cache?: PrepareCache,
  onPrepared?: () => void,
): Promise<Outcome> {
  let prepared: PreparedCase;
  try {
    const make = () =>
      prepareCase(adapter, probeWorkload(probe), {
        shape: 'single',
        direction,
        caseClass: probeClass(adapter, direction),
      });
    if (cache) {
      const key = prepareKey(probe, direction);
      let p = cache.get(key);
      if (!p) cache.set(key, (p = make()));
      prepared = await p;
    } else {
      prepared = await make();
    }
  } catch (e) {
    if (probe.deepSchema) {
      // The deep schema stands in for a recursive one: its refusal answers "can you compile a 1,000-level schema", not "can you handle deep values".
      const why = isStackOverflow(e) ? 'the stack overflowed' : messageOfThrown(e).slice(0, 120);
      return {
        kind: 'inexpressible',
        reason: `needs recursive: preparing the ${probe.id.match(/\d+$/)?.[0] ?? 'deep'}-level non-recursive stand-in schema failed (${why})`,
      };
    }
    return { kind: 'threw', stage: 'prepare', name: thrownName(e, 'Error'), message: messageOfThrown(e) };
  }
  let input: unknown;
  try {
    input = direction === 'serialize' ? probe.serialize!.input() : probe.deserialize!.text();
  } catch (e) {
    throw new Error(`probe ${probe.id}: building its ${direction} input threw: ${(e as Error).message}`);
  }
  onPrepared?.();
  const before = snapshotObjectPrototype();
  try {
    const value = prepared.call(input);
    if (direction === 'deserialize' && value !== null && typeof value === 'object') {
      // What application code does next with a parsed body; neither may reach Object.prototype.
      void { ...(value as object) };
      Object.assign({}, value);
    }
    const polluted = pollutionSince(before);
    return { kind: 'returned', value, ...(polluted.length ? { polluted } : {}) };
  } catch (e) {
    const polluted = pollutionSince(before);
    return {
      kind: 'threw',
      stage: 'call',
      name: thrownName(e, typeof e),
      message: messageOfThrown(e),
      ...(polluted.length ? { polluted } : {}),
    };
  }
}

/** Runs one side of a probe and judges it; null when the probe has no such side. */
export async function runProbe(
  adapter: SerializerAdapter,
  probe: Probe,
  direction: ProbeDirection,
  cache?: PrepareCache,
  onPrepared?: () => void,
): Promise<Verdict | null> {
  if (!probe[direction]) return null;
  const outcome = await runProbeOutcome(adapter, probe, direction, cache, onPrepared);
  return judge(direction, acceptsFor(probe, adapter, direction), outcome);
}
