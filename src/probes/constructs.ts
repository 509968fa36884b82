import type { Construct, Probe, ProbeDirection } from './types.js';

/**
 * What jsonbench's schema language can say today, and which built-in adapters never read it.
 * A construct joins {@link AVAILABLE} when schema.ts and every adapter's translator learn it
 * (issue 10); an adapter that never reads the schema declares `readsSchema: false` in its own file.
 */

/**
 * Constructs of the schema language beyond `core` that the probe schemas state today (issue 24):
 * optional members (`ObjectSchema.optional`) and the `date` / `time` string formats. The language
 * also has records, unions, int64 and unknown (issue 10), but the probes that need those still
 * carry an approximate schema, so they stay – until their schemas are rewritten.
 */
// a frozen array, not a Set (a Set cannot be frozen: a config in the host could add to it; test/architecture/frozen-exports.test.ts)
export const AVAILABLE: readonly Construct[] = Object.freeze<Construct[]>(['optional', 'format-date', 'format-time']);

/**
 * Constructs a schema-free serializer cannot honour, because only a schema carries them: how
 * names and values are written, and rules the value itself does not hold (a forbidden extra
 * property, a default). A probe missing one is – for every serializer; the other (type)
 * constructs only describe what the value already holds, so a schema-free serializer can run it.
 */
const SCHEMA_ONLY: ReadonlySet<Construct> = new Set<Construct>([
  'property-name',
  'naming-kebab',
  'naming-camel',
  'converter',
  'additional-properties-policy',
  'default',
]);

/** Constructs the probe needs that the schema language lacks today. */
export function missingConstructs(probe: Probe): Construct[] {
  return (probe.needs ?? []).filter((c) => !AVAILABLE.includes(c));
}

/** An adapter as the probes see it: its id, and whether it reads the schema (`SerializerAdapter.readsSchema`). */
export interface SchemaReader {
  id: string;
  readsSchema?: boolean;
}

/** Whether the adapter never reads the schema's types (it declares `readsSchema: false`). */
export function isSchemaFree(adapter: SchemaReader): boolean {
  return adapter.readsSchema === false;
}

/**
 * Why this serializer cannot be asked this probe in this direction yet (a limit of jsonbench, shown
 * as –), or null when it can.
 */
export function inexpressibleReason(probe: Probe, adapter: SchemaReader, direction: ProbeDirection): string | null {
  const missing = missingConstructs(probe);
  if (missing.length === 0) return null;
  if (!missing.some((c) => SCHEMA_ONLY.has(c)) && isSchemaFree(adapter)) return null;
  return `needs ${missing.join(', ')}, which jsonbench's schema language lacks today${probe.intended ? ` (intended: ${probe.intended})` : ''}`;
}
