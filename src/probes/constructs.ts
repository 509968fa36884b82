import type { Construct, Probe, ProbeDirection } from './types.js';

/**
 * What jsonbench's schema language can say today, and which built-in adapters never read it.
 * Phase 2 moves both into their owners: a construct joins {@link AVAILABLE} when schema.ts and
 * every adapter's translator learn it (issue 10), and an adapter declares `readsSchema: false`
 * in its own file instead of the {@link SCHEMA_FREE} table below.
 */

/** Constructs of the schema language beyond `core` that exist today: none yet (issue 10 adds optional, record, union, int64, any, date/time formats). */
export const AVAILABLE: ReadonlySet<Construct> = new Set<Construct>([]);

/**
 * Constructs a schema-free serializer cannot honour, because only a schema carries them: how
 * names and values are written, and rules the value itself does not hold (a forbidden extra
 * property, a default). A probe missing one is – for every serializer; the other (type)
 * constructs only describe what the value already holds, so a schema-free serializer can run it.
 */
const SCHEMA_ONLY: ReadonlySet<Construct> = new Set<Construct>(['property-name', 'naming-kebab', 'naming-camel', 'converter', 'additional-properties-policy', 'default']);

/**
 * Built-in adapters that never read the schema's types in a direction (checked against their
 * source: they read only `wire.naming`/`wire.indent`): drop-in replacements and superjson.
 * They can run a probe whose *type* construct is missing, since they would ignore it anyway.
 */
export const SCHEMA_FREE: Readonly<Record<ProbeDirection, ReadonlySet<string>>> = {
  serialize: new Set(['json', 'safe-stable-stringify', 'superjson']),
  deserialize: new Set(['json', 'secure-json-parse', 'superjson']),
};

/** Constructs the probe needs that the schema language lacks today. */
export function missingConstructs(probe: Probe): Construct[] {
  return (probe.needs ?? []).filter((c) => !AVAILABLE.has(c));
}

/**
 * An adapter as the probes see it: a user's (or a shelf fixture's) adapter may declare
 * `readsSchema: false` itself; phase 2 moves that field into SerializerAdapter and drops the table.
 */
export interface SchemaReader { id: string; readsSchema?: boolean }

/** Whether the adapter never reads the schema's types in this direction. */
export function isSchemaFree(adapter: SchemaReader, direction: ProbeDirection): boolean {
  return adapter.readsSchema === false || SCHEMA_FREE[direction].has(adapter.id);
}

/**
 * Why this serializer cannot be asked this probe in this direction yet (a limit of jsonbench, shown
 * as –), or null when it can.
 */
export function inexpressibleReason(probe: Probe, adapter: SchemaReader, direction: ProbeDirection): string | null {
  const missing = missingConstructs(probe);
  if (missing.length === 0) return null;
  if (!missing.some((c) => SCHEMA_ONLY.has(c)) && isSchemaFree(adapter, direction)) return null;
  return `needs ${missing.join(', ')}, which jsonbench's schema language lacks today${probe.intended ? ` (intended: ${probe.intended})` : ''}`;
}
