import { wireName, type SchemaNode, type WireOptions } from '../workloads/schema.js';
import { HOSTILE_CLASSES, combinedHostileString, hostileString } from './hostile-strings.js';
import { defineOwn } from '../case/own-key.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * The gate learns from the string probes (issue 11): a *hostile variant* of a payload carries
 * hostile strings in the payload's own plain-string fields, so a timed case whose output breaks
 * on them fails the gate (`incorrect`) even when nobody asked for probes. The gate's second
 * payload is `hostileVariant(workload.schema, workload.wire?.naming, build(size, variantSeed(seed)))`
 * (plan/payloads.ts `hostileVariantText`, written in the build thread), and the gate requires
 * serialize output to be well-formed Unicode, without which a raw lone surrogate would pass
 * (`JSON.parse` accepts it).
 *
 * Which fields: plain strings only — no `format` (uuid, email, date-time: a validator may check
 * them), no `asDate`, no numeric strings (`fromString` numbers are typed number), no enums, and
 * null stays null — so every validator still accepts the variant and every `toModel` still maps
 * it. Which strings: first one string of 100 characters holding every hostile character of every
 * class (so a payload with a single string field still meets them all), then each class at 40
 * and 41 characters (both sides of fast-json-stringify's 42-character switch), at 100 and at
 * 5,000, and every class together at 5,000, placed in document order.
 * Pure and deterministic: the same input gives the same variant.
 */

/** Lengths of the hostile samples the variant places, in placement order. */
export const VARIANT_LENGTHS: readonly number[] = deepFreeze([40, 41, 100, 5_000]);

/** The samples in placement order: every class together at 100, each class at 40, 41, 100, 5,000, every class together at 5,000. */
export function variantSamples(): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [{ name: 'all-classes.L100', value: combinedHostileString(100) }];
  for (const length of VARIANT_LENGTHS) {
    for (const cls of HOSTILE_CLASSES) {
      const s = hostileString(cls, length);
      if (s !== null) out.push({ name: `${cls}.L${length}`, value: s });
    }
  }
  out.push({ name: 'all-classes.L5000', value: combinedHostileString(5_000) });
  return out;
}

export interface HostilePlacement {
  path: string;
  sample: string;
}

/**
 * A copy of the wire value `wire` (a unit, or the array of records for list/many workloads) with
 * hostile samples written into its plain-string fields. `schema` is the model schema of one
 * unit, or of one record when `wire` is their array; `naming` the workload's wire naming.
 * Returns the copy and where each sample went (JSONPath-like).
 */
export function hostileVariant(
  schema: SchemaNode,
  naming: WireOptions['naming'],
  wire: unknown,
): { value: unknown; placed: HostilePlacement[] } {
  const samples = variantSamples();
  const placed: HostilePlacement[] = [];
  const next = (path: string): string | undefined => {
    const s = samples[placed.length];
    if (s) placed.push({ path, sample: s.name });
    return s?.value;
  };
  const walk = (node: SchemaNode, v: unknown, path: string): unknown => {
    if (v === null || v === undefined) return v;
    switch (node.type) {
      case 'string':
        return !node.format && !node.asDate && typeof v === 'string' ? (next(path) ?? v) : v;
      case 'array':
        return Array.isArray(v) ? v.map((item, i) => walk(node.items, item, `${path}[${i}]`)) : v;
      case 'object': {
        if (typeof v !== 'object') return v;
        const src = v as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        const declared = new Map(Object.entries(node.properties).map(([k, child]) => [wireName(k, naming), child]));
        for (const key of Object.keys(src)) {
          const child = declared.get(key);
          const value = child ? walk(child, src[key], `${path}.${key}`) : src[key];
          defineOwn(out, key, value);
        }
        return out;
      }
      default:
        return v;
    }
  };
  const root = Array.isArray(wire) && schema.type !== 'array' ? { type: 'array' as const, items: schema } : schema;
  return { value: walk(root, wire, '$'), placed };
}
