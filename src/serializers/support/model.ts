import { wireName, type SchemaNode, type WireOptions } from '../../workloads/schema.js';
import type { Workload } from '../../workloads/types.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Shared helpers for adapters that build their library's schema from a workload's
 * {@link SchemaNode}: wire/model key pairs, the numeric-string grammar and the common
 * "cannot do this" reasons.
 *
 * Policy shared by every `validate`/`transform` adapter: they check JSON *types* (string, number,
 * integer, boolean, enum member, null where nullable, array, object with every declared key) —
 * not string formats (uuid, email), which ajv's JTD cannot express, so the `validate` class
 * compares like with like. `transform` adapters additionally reject numeric-string fields that
 * are not numbers and date strings that are not ISO 8601, since they convert them.
 */

/** One property of an object node: its wire key, its model key and its schema. */
export interface PropertyEntry {
  wire: string;
  model: string;
  node: SchemaNode;
}

/** The properties of an object node with wire and model names under `naming`. */
export function propertyEntries(
  node: Extract<SchemaNode, { type: 'object' }>,
  naming: WireOptions['naming'],
): PropertyEntry[] {
  return Object.entries(node.properties).map(([model, child]) => ({
    wire: wireName(model, naming),
    model,
    node: child,
  }));
}

/**
 * A function copying a validated wire object to one with model keys, or null when every wire
 * key already is its model key (no renaming needed). Values are taken as they are.
 */
export function wireToModelKeys(
  entries: readonly PropertyEntry[],
): ((o: Record<string, unknown>) => Record<string, unknown>) | null {
  if (entries.every((e) => e.wire === e.model)) return null;
  return (o) => {
    const out: Record<string, unknown> = {};
    for (const e of entries) out[e.model] = o[e.wire];
    return out;
  };
}

/**
 * A JSON number written as a string ("29.920", "-3", "1e5"): what a numeric-string field must
 * hold for a `transform` deserializer to turn it into a number (like .NET's
 * `JsonNumberHandling.AllowReadingFromString`). Empty or non-numeric strings are rejected.
 */
export const NUMERIC_STRING = deepFreeze(/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/);

/** True when the workload's serializer is handed the model and must write other (wire) key names. */
export function serializerMustRename(workload: Workload): boolean {
  return workload.serializeFrom === 'model' && workload.wire?.naming !== undefined;
}

/**
 * The reason a serializer without a naming policy or indentation cannot write this workload, or
 * null when the workload needs neither (compact, and no renaming from model to wire names).
 */
export function noNamingOrIndentReason(workload: Workload, library: string): string | null {
  const needs: string[] = [];
  if (serializerMustRename(workload)) needs.push(`${workload.wire!.naming} keys`);
  if (workload.wire?.indent) needs.push(`${workload.wire.indent}-space indentation`);
  if (needs.length === 0) return null;
  return `${library} has no naming policy or indentation (${workload.id} needs ${needs.join(' and ')})`;
}
