import type { Workload } from '../workloads/types.js';
import { isOptional, propertyPath, wireSchema, type SchemaNode } from '../workloads/schema.js';
import { renderUnit } from '../workloads/unit.js';
import { renderValue } from './verify.js';
import type { GateFailure } from './gate.js';

/**
 * The gate's check that a `validate` or `transform` deserializer validates (hostile tester hx1 1.2:
 * a "validator" whose deserialize was plain JSON.parse passed the gate, since every payload it was
 * given was valid, and was recommended for "parsing with type validation", 1.26× faster than
 * TypeBox). Those two classes promise types checked against the workload's schema
 * (case/coordinates.ts), so besides the valid payload the gate gives the deserializer texts the
 * schema rejects, made from the payload's first unit:
 *
 * - **a wrong type**: the first required property (depth first, the first item of an array) whose
 *   schema is a plain string, number, boolean or enum gets a value of another type (a string gets
 *   `12345`, a number `"12345"`, a boolean `"true"`, an enum `12345`);
 * - **a missing required key**: the first required property (depth first) whose schema is neither
 *   `unknown` nor `null` is left out.
 *
 * Each must throw; one that returns is `incorrect`: "does not validate: accepted …". Only what the
 * schema states for sure is used: no union, nullable-only, `unknown` or optional property, no
 * record key. What this cannot see: a validator that checks only some fields (it rejects these
 * two and accepts a wrong type elsewhere); a schema with no such property (nothing to make).
 */

const { parse } = JSON;

/** A text the schema rejects, with what is wrong in it. */
export interface InvalidText {
  /** `a wrong type at $.a (12345 where the schema says string)`, `no required key $.b` */
  what: string;
  /** where it is wrong */
  path: string;
  /** what the schema wants there */
  wants: string;
  text: string;
}

/** The value of another JSON type the schema rejects for a plain node, or undefined when the node is not plain. */
function wrongFor(node: SchemaNode): unknown {
  switch (node.type) {
    case 'string':
    case 'enum':
      return 12345;
    case 'number':
      return '12345';
    case 'boolean':
      return 'true';
    default:
      return undefined;
  }
}

/** What a node wants, in the words of a reason. */
function wanted(node: SchemaNode): string {
  if (node.type === 'enum') return `one of ${node.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.type === 'number') return node.integer ? 'an integer' : 'a number';
  return `a ${node.type}`;
}

interface Found {
  /** the object holding the property, and its key */
  holder: Record<string, unknown>;
  key: string;
  node: SchemaNode;
  path: string;
}

/**
 * Walks `value` along `node` depth first (required properties in order, the first item of an
 * array) for the first required property `accept`s; iterative, at most `limit` steps.
 */
function firstRequired(
  value: unknown,
  node: SchemaNode,
  accept: (f: Found) => boolean,
  limit = 10_000,
): Found | undefined {
  /** the required properties directly under `v` (through the first item of arrays), in document order */
  const children = (v: unknown, n: SchemaNode, path: string): Found[] => {
    while (n.type === 'array' && Array.isArray(v)) {
      if (!v.length) return [];
      [v, n, path] = [v[0], n.items, `${path}[0]`];
    }
    if (n.type !== 'object' || v === null || typeof v !== 'object' || Array.isArray(v)) return [];
    const holder = v as Record<string, unknown>;
    return Object.entries(n.properties)
      .filter(([key]) => !isOptional(n, key) && Object.hasOwn(holder, key))
      .map(([key, child]) => ({ holder, key, node: child, path: propertyPath(path, key) }));
  };
  const stack = children(value, node, '$').reverse();
  for (let steps = 0; stack.length && steps < limit; steps++) {
    const f = stack.pop()!;
    if (accept(f)) return f;
    stack.push(...children(f.holder[f.key], f.node, f.path).reverse());
  }
  return undefined;
}

/**
 * The texts a validating deserializer must reject, made from one unit's text (`unitText`, valid
 * for `view`'s schema): the wrong type and the missing required key described above, those the
 * schema allows. Empty when neither can be made.
 */
export function invalidTexts(view: Workload, unitText: string): InvalidText[] {
  const schema = wireSchema(view.schema, view.wire?.naming);
  const out: InvalidText[] = [];
  const typed = parse(unitText) as unknown;
  const leaf = firstRequired(typed, schema, (f) => wrongFor(f.node) !== undefined);
  if (leaf) {
    const wrong = wrongFor(leaf.node);
    leaf.holder[leaf.key] = wrong;
    out.push({
      what: `a wrong type at ${leaf.path} (${renderValue(wrong)} where the schema says ${wanted(leaf.node)})`,
      path: leaf.path,
      wants: wanted(leaf.node),
      text: renderUnit(view, typed),
    });
  }
  const missing = parse(unitText) as unknown;
  // a key of any value (`unknown`) or always null is left alone: a validator may read its absence as that value
  const key = firstRequired(missing, schema, (f) => f.node.type !== 'unknown' && f.node.type !== 'null');
  if (key) {
    delete key.holder[key.key];
    out.push({
      what: `no ${key.path}, a required key`,
      path: key.path,
      wants: 'the key, which the schema requires',
      text: renderUnit(view, missing),
    });
  }
  return out;
}

/**
 * Calls `deserialize` on each of `invalid`; the first it returns from (instead of throwing) is the
 * gate's failure, else null.
 */
export function acceptsInvalid(
  deserialize: (text: string) => unknown,
  invalid: readonly InvalidText[],
  where = '',
): GateFailure | null {
  for (const bad of invalid) {
    let out: unknown;
    try {
      out = deserialize(bad.text);
    } catch {
      continue;
    }
    return {
      path: bad.path,
      expected: `an error (the schema wants ${bad.wants})`,
      actual: `accepted: ${renderValue(out)}`,
      reason: `does not validate: accepted a payload with ${bad.what}${where}; a validate or transform deserializer must throw on input its schema rejects`,
    };
  }
  return null;
}
