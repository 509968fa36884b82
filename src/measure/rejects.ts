import type { Workload } from '../workloads/types.js';
import { isOptional, propertyPath, wireSchema, type SchemaNode } from '../workloads/schema.js';
import { renderUnit } from '../workloads/unit.js';
import { renderValue } from './verify.js';
import type { GateFailure } from './gate.js';
import { drawn, randomBelow } from './check-schedule.js';
import { defineOwn } from '../case/own-key.js';

/**
 * The gate's check that a `validate` or `transform` deserializer validates (hostile tester hx1 1.2:
 * a "validator" whose deserialize was plain JSON.parse passed the gate, since every payload it was
 * given was valid, and was recommended for "parsing with type validation", 1.26× faster than
 * TypeBox). Those two classes promise types checked against the workload's schema
 * (case/coordinates.ts), so besides the valid payload the gate gives the deserializer texts the
 * schema rejects, made from the payload's first unit, one per property path the schema states for sure:
 *
 * - **a wrong type** at every required property path (through objects and array items) whose schema is
 *   a plain string, number, boolean or enum (a string gets `12345`, a number `"12345"`, a boolean
 *   `"true"`, an enum `12345`);
 * - **a missing required key** for every required property path whose schema is neither `unknown` nor
 *   `null`.
 *
 * Where a path goes through an array, the item changed is drawn at random (one that has the path), and
 * when there are more than {@link MAX_INVALID_TEXTS} texts to make (fewer on a unit of megabytes:
 * {@link MAX_INVALID_BYTES}), that many are drawn at random: both
 * from check-schedule.ts's generator, seeded per launch from the platform's random source, which the
 * config cannot read (not the run's seed). Each text must throw; one that returns is `incorrect`:
 * "does not validate: accepted …". Only what the schema states for sure is used: no union, nullable-only,
 * `unknown` or optional property, no record key.
 *
 * Why every path (hx8 section 6, cfg8/fewcheck: a "validator" that checked only what the two texts of
 * before probed — the first required plain property depth first, the first required key — passed every
 * built-in validate case and was tabled as a validator): a validator that skips a field, or checks only
 * the first item of an array, is now given a wrong value there with probability at least
 * min(1, {@link MAX_INVALID_TEXTS} ÷ paths) for the field, and 1 ÷ items for the item. What this cannot
 * see: a validator that checks every field's type but not values the schema does not type (formats,
 * integer-ness, enum members of the right type), and, on a schema with more than
 * {@link MAX_INVALID_TEXTS} paths, a skipped field with the probability above.
 */

const { parse } = JSON;

/**
 * At most this many texts per case (wrong types and missing keys together; drawn at random beyond it). The gate's
 * cost grows with it (each text is rendered and deserialized once): see docs/limits.md "Validators that check only
 * some fields" for the measured cost.
 */
export const MAX_INVALID_TEXTS = 48;

/**
 * At most this many bytes of texts per case (about: the unit text's length × texts): a unit of more than
 * MAX_INVALID_BYTES ÷ {@link MAX_INVALID_TEXTS} characters gets fewer texts (at least 2), drawn at random. Each text is
 * as large as the timed one (a validator cannot tell a reject text by its size). Measured (bench/gate-rejects.ts,
 * 2026-12-06, load 17–22): deserializing a rejected 1.7 MB text costs 20–180 ms (ajv-jtd on citm_catalog.json the
 * most), so 39 texts there added 1.2–9.8 s to each launch's gate; at 8 MiB, 4 texts.
 */
export const MAX_INVALID_BYTES = 8 * 1024 * 1024;

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

/** A step of a schema path: a required property's key, or (`ITEM`) an item of an array. */
const ITEM = Symbol('item');
type Step = string | typeof ITEM;

/** A required property path of the schema, and what to make there. */
interface Target {
  steps: Step[];
  node: SchemaNode;
  kind: 'type' | 'missing';
}

/** Deepest schema path followed (a schema nested deeper is cut there). */
const MAX_DEPTH = 64;
/** Most paths listed (a larger schema is cut there, before the random draw). */
const MAX_PATHS = 10_000;

/**
 * Every required property path of `schema` (depth first, document order), through objects and array items only
 * (the constructs a schema states for sure), each as a wrong-type target when its node is plain and a missing-key
 * target when its node is neither `unknown` nor `null`.
 */
function targetsOf(schema: SchemaNode): Target[] {
  const out: Target[] = [];
  const walk = (node: SchemaNode, steps: Step[]) => {
    let items = false;
    while (node.type === 'array' && !node.empty && steps.length < MAX_DEPTH) {
      steps = [...steps, ITEM];
      node = node.items;
      items = true;
    }
    // an array's plain items ($.tags[*], $.coordinates[*][*]) get a wrong type too
    if (items && wrongFor(node) !== undefined && out.length < MAX_PATHS) out.push({ steps, node, kind: 'type' });
    if (node.type !== 'object' || steps.length >= MAX_DEPTH) return;
    for (const [key, child] of Object.entries(node.properties)) {
      if (out.length >= MAX_PATHS) return;
      if (isOptional(node, key)) continue;
      const at = [...steps, key];
      if (wrongFor(child) !== undefined) out.push({ steps: at, node: child, kind: 'type' });
      if (child.type !== 'unknown' && child.type !== 'null') out.push({ steps: at, node: child, kind: 'missing' });
      walk(child, at);
    }
  };
  walk(schema, []);
  return out;
}

/** Where a target lands in a value: the object (or array) holding it, its key (or index) and its JSON path. */
interface Place {
  holder: Record<string, unknown>;
  key: string;
  path: string;
}

/** The holder of a target's last key in `value` (arrays' items drawn at random among those that have it), or undefined. */
function resolve(value: unknown, steps: readonly Step[]): Place | undefined {
  const go = (v: unknown, i: number, path: string): Place | undefined => {
    const step = steps[i];
    if (step === ITEM) {
      if (!Array.isArray(v) || !v.length) return undefined;
      // from a random item on, the first that has the rest of the path (a plain item: any)
      const from = randomBelow(v.length);
      if (i === steps.length - 1)
        return { holder: v as unknown as Record<string, unknown>, key: String(from), path: `${path}[${from}]` };
      for (let k = 0; k < v.length; k++) {
        const j = (from + k) % v.length;
        const found = go(v[j], i + 1, `${path}[${j}]`);
        if (found) return found;
      }
      return undefined;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, step)) return undefined;
    const holder = v as Record<string, unknown>;
    if (i === steps.length - 1) return { holder, key: step, path: propertyPath(path, step) };
    return go(holder[step], i + 1, propertyPath(path, step));
  };
  return go(value, 0, '$');
}

/**
 * The texts a validating deserializer must reject, made from one unit's text (`unitText`, valid
 * for `view`'s schema): a wrong type at every required plain property path and every required key
 * left out, as described above (at most {@link MAX_INVALID_TEXTS}, and fewer for a unit text of more than
 * {@link MAX_INVALID_BYTES} ÷ that many characters; drawn at random beyond it; `max` overrides it). Empty when
 * none can be made.
 */
export function invalidTexts(
  view: Workload,
  unitText: string,
  max = Math.max(2, Math.min(MAX_INVALID_TEXTS, Math.floor(MAX_INVALID_BYTES / Math.max(1, unitText.length)))),
): InvalidText[] {
  const schema = wireSchema(view.schema, view.wire?.naming);
  const value = parse(unitText) as unknown;
  const out: InvalidText[] = [];
  for (const t of drawn(targetsOf(schema), max)) {
    const at = resolve(value, t.steps);
    if (!at) continue;
    const { holder, key, path } = at;
    const old = holder[key];
    if (t.kind === 'type') {
      const wrong = wrongFor(t.node);
      defineOwn(holder, key, wrong);
      out.push({
        what: `a wrong type at ${path} (${renderValue(wrong)} where the schema says ${wanted(t.node)})`,
        path,
        wants: wanted(t.node),
        text: renderUnit(view, value),
      });
      defineOwn(holder, key, old);
      continue;
    }
    // left out, then put back in its place (the keys after it are taken out and put back in order)
    const entries = Object.entries(holder);
    delete holder[key];
    out.push({
      what: `no ${path}, a required key`,
      path,
      wants: 'the key, which the schema requires',
      text: renderUnit(view, value),
    });
    for (const [k] of entries) delete holder[k];
    for (const [k, v] of entries) defineOwn(holder, k, v);
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
