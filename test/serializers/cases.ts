import type { GateFailure } from '../../src/measure/gate.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { supportOf } from '../../src/plan/plan.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { CaseClass, Direction, Shape } from '../../src/case/coordinates.js';
import { wireName, wireSchema, type SchemaNode, type WireOptions } from '../../src/workloads/schema.js';
import type { Workload } from '../../src/workloads/types.js';
import { renderUnit, unitView, unitsOf } from '../../src/workloads/unit.js';

/**
 * Test helpers: run one adapter × workload × shape × direction case through the correctness
 * gate, and build wrong payloads for the rejection tests.
 */

/** Outcome of one case: passed the gate, unsupported (with the reason), or the first mismatch. */
export type CaseOutcome =
  { status: 'ok' } | { status: 'unsupported'; reason: string } | { status: 'incorrect'; failure: GateFailure };

/** The seed every adapter test builds its payloads with. */
export const SEED = 42;

/** The workload's smallest size, capped at 100 when it allows one that small. */
export function testSize(workload: Workload): number {
  const smallest = Math.min(...workload.sizes);
  return smallest > 100 ? smallest : Math.min(100, Math.max(...workload.sizes.filter((s) => s <= 100)));
}

/** The wire value for tests: built, then round-tripped through JSON (as the host does). */
export function wireValue(workload: Workload): unknown {
  return JSON.parse(JSON.stringify(workload.build(testSize(workload), SEED)));
}

/** The class a case of this adapter and direction is checked as. */
export function caseClassOf(adapter: SerializerAdapter, direction: Direction): CaseClass {
  return direction === 'serialize' ? 'serialize' : (adapter.deserializeClass ?? 'parse');
}

/** Prepares the adapter on the unit view and runs every unit of the case through `checkCase`. */
export async function runCase(
  adapter: SerializerAdapter,
  workload: Workload,
  shape: Shape,
  direction: Direction,
): Promise<CaseOutcome> {
  const supported = supportOf(adapter, unitView(workload, shape), direction);
  if (supported.status !== 'planned') return { status: 'unsupported', reason: supported.reason };
  const prepared = await prepareCase(adapter, workload, {
    shape,
    direction,
    caseClass: caseClassOf(adapter, direction),
  });
  const failure = prepared.check(JSON.stringify(wireValue(workload)));
  return failure ? { status: 'incorrect', failure } : { status: 'ok' };
}

/** What to put where a leaf of this wire type is expected, so that the type is wrong. */
function wrongValue(node: SchemaNode): unknown {
  if (node.type === 'string' || node.type === 'enum') return 12345;
  if (node.type === 'number') return 'not a number';
  return 'not a boolean';
}

/**
 * Replaces, in place, the first leaf of a wire unit that `pick` accepts with `replace(leaf)`,
 * walking the *model* schema `node` in key order (wire keys by `naming`) and into the first
 * element of arrays. Returns the wire path replaced, or null when no leaf matched.
 */
export function replaceFirstLeaf(
  node: SchemaNode,
  naming: WireOptions['naming'],
  value: unknown,
  pick: (n: SchemaNode) => boolean,
  replace: (n: SchemaNode) => unknown,
  path = '$',
): string | null {
  const isLeaf = (n: SchemaNode) => n.type !== 'object' && n.type !== 'array';
  if (node.type === 'array') {
    const arr = value as unknown[];
    if (!Array.isArray(arr) || arr.length === 0) return null;
    if (isLeaf(node.items)) {
      if (!pick(node.items)) return null;
      arr[0] = replace(node.items);
      return `${path}[0]`;
    }
    return replaceFirstLeaf(node.items, naming, arr[0], pick, replace, `${path}[0]`);
  }
  if (node.type !== 'object' || value === null || typeof value !== 'object') return null;
  const obj = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(node.properties)) {
    const wire = wireName(key, naming);
    if (!isLeaf(child)) {
      const found = replaceFirstLeaf(child, naming, obj[wire], pick, replace, `${path}.${wire}`);
      if (found) return found;
    } else if (pick(child)) {
      obj[wire] = replace(child);
      return `${path}.${wire}`;
    }
  }
  return null;
}

/**
 * One wire unit of the workload (its first record, or the document) as payload text, with its
 * first leaf accepted by `pick` replaced by `replace(leaf)` (leaves are model schema nodes);
 * null when the workload has no such leaf.
 */
export function corruptedPayload(
  workload: Workload,
  pick: (n: SchemaNode) => boolean,
  replace: (n: SchemaNode) => unknown,
): { text: string; where: string } | null {
  const units = unitsOf(wireValue(workload), workload.shapes.includes('single') ? 'single' : 'many');
  const unit = structuredClone(units[0]);
  const where = replaceFirstLeaf(workload.schema, workload.wire?.naming, unit, pick, replace);
  return where ? { text: renderUnit(workload, unit), where } : null;
}

/** A payload whose first leaf has the wrong JSON type (a number where a string is expected, …). */
export function wrongTypePayload(workload: Workload): { text: string; where: string } | null {
  return corruptedPayload(
    workload,
    () => true,
    (n) => wrongValue(wireSchema(n, undefined)),
  );
}

/** A payload whose first numeric-string field holds a string that is not a number. */
export function nonNumericStringPayload(workload: Workload): { text: string; where: string } | null {
  return corruptedPayload(
    workload,
    (n) => n.type === 'number' && !!n.fromString,
    () => 'twenty',
  );
}

/** A payload whose first `asDate` field holds a string that is not a date. */
export function invalidDatePayload(workload: Workload): { text: string; where: string } | null {
  return corruptedPayload(
    workload,
    (n) => n.type === 'string' && !!n.asDate,
    () => 'not a date',
  );
}

/** A payload whose first nullable field is left out (nullable means present, possibly null). */
export function missingNullablePayload(workload: Workload): { text: string; where: string } | null {
  return corruptedPayload(
    workload,
    (n) => 'nullable' in n && !!n.nullable,
    () => undefined,
  );
}
