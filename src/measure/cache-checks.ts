import type { Workload } from '../workloads/types.js';
import { propertyPath, wireSchema, type SchemaNode } from '../workloads/schema.js';
import type { GateFailure } from './gate.js';

/**
 * The cache checks, made once after a side's timed rounds (nothing is timed after them): a memo
 * keyed on the input returns right output, so the gate and the timed checks cannot see it, while
 * its time is a lookup's (hostile tester hx1 1.1: a parser caching by text was recommended as 1706×
 * faster than JSON.parse; serializers caching by a cheap key of their input — its key count and
 * first values — were ranked 2.9–3.1× faster than JSON.stringify). What a cache does differently
 * from the work is checked by behaviour:
 *
 * - **serialize** — {@link inputCacheCost}: calls on input objects it never saw (every value its
 *   schema lets change changed, made before timing) must cost about what calls on the input the
 *   rounds were timed on cost — a cache keyed by the input object that validates a hit by walking the
 *   input (hx7 leafcache: every key and leaf compared with `===`, "4.71× faster" than JSON.stringify)
 *   misses on any change in place, so every check of behaviour passes, and its walk costs far less
 *   than serializing (this file once claimed such a cache costs about the work). Then
 *   {@link leafChanges}: leaves of the input the op was timed on are changed in
 *   place, one after the other (the first, a middle and the last leaf in document order, each to
 *   another value its schema allows), and after each change the serializer's output must be the
 *   changed input's. A cache keyed by the input object, or by part of its contents, answers the old
 *   text. (measure/in-place.ts already replaces the whole contents of the other copy.)
 * - **deserialize** — {@link sharedResult}: one call's result has a leaf changed (the first, a
 *   middle and the last), and the next call on the same text must still give the payload's value,
 *   in another object: a result returned twice is a cache. {@link sameLengthText}: a text of the
 *   timed text's exact length, its digits and letters changed in place (only where the schema
 *   allows any value of that type), must be parsed to its own value: a cache keyed by the text's
 *   length, or by a prefix of it, answers the timed text's value.
 *
 *   {@link textCacheCost}: calls on texts it never saw (one value changed) must cost about what
 *   calls on the repeated text cost — a cache keyed on the whole text that copies its result out
 *   passes every check above, and its copy is far cheaper than the work (hx4 copy-cache: 0.26× of
 *   a parse on users · 100 · list, "3.90× faster"; this file once claimed such a copy costs about
 *   the work itself).
 * - **serialize, between timed calls** — {@link backToBackChanges}: the changes of
 *   {@link leafChanges}, made on the last op of a round's last sample, inside the sample
 *   (timed-check.ts roundChange), for a cache that forgets itself on any pause.
 *
 * What stays out of reach is bounded physically (analysers/too-fast.ts: bytes per ns). What these
 * cannot see: a cache whose hit costs more than 1/T of the work (T: {@link INPUT_CACHE_RATIO},
 * {@link TEXT_CACHE_RATIO}): it can claim up to about T× faster than it is; a cache that is wrong on
 * no input it is ever handed.
 */

const { parse, stringify } = JSON;
const { keys: ownKeys, getPrototypeOf, is } = Object;
const { isArray } = Array;

/** The next letter or digit of the same kind (`a`→`b`, `z`→`a`, `9`→`0`): the one character change the checks make in a string. */
function nextChar(c: string): string {
  const code = c.charCodeAt(0);
  if (c >= '0' && c <= '9') return String.fromCharCode(48 + ((code - 47) % 10));
  if (c >= 'a' && c <= 'z') return String.fromCharCode(97 + ((code - 96) % 26));
  return String.fromCharCode(65 + ((code - 64) % 26));
}
const ALNUM = /[A-Za-z0-9]/;

/** A string of the same length with its first letter or digit changed ({@link nextChar}); `x` for the empty string; null when it holds neither. */
function changedString(s: string): string | null {
  if (s === '') return 'x';
  const i = s.search(ALNUM);
  return i < 0 ? null : s.slice(0, i) + nextChar(s[i]) + s.slice(i + 1);
}

/** Another number of the same kind: an integer's last digit moved by one, toward zero unless it is 0 (never out of its width); a fraction + 1. */
function changedNumber(n: number): number | null {
  if (!Number.isFinite(n)) return null;
  if (!Number.isInteger(n)) return n + 1;
  const m = Math.abs(n);
  const moved = m % 10 > 0 ? m - 1 : m + 1;
  const out = n < 0 ? -moved : moved;
  return out === n ? null : out;
}

/**
 * The value a leaf of schema `node` may become, or undefined when none is sure to be allowed. A leaf of no known
 * schema (`node` undefined: under a union or a discriminated union, {@link childNode}) is never changed, as in
 * {@link changedToken}: treated as any value, api-response.json's attachments[].type (a discriminated union's tag)
 * became "jmage" at a random leaf, matched neither branch, and fast-json-stringify and typia threw in the timed
 * rounds ("does not match schema definition": the case failed, about 1 run in 12). Enum leaves are left too.
 */
function changeFor(node: SchemaNode | undefined, v: unknown): unknown {
  if (!node) return undefined;
  const any = node.type === 'unknown';
  if (typeof v === 'string' && (any || (node.type === 'string' && !node.format))) return changedString(v) ?? undefined;
  if (typeof v === 'number' && (any || node.type === 'number')) return changedNumber(v) ?? undefined;
  if (typeof v === 'boolean' && (any || node.type === 'boolean')) return !v;
  return undefined;
}

/** The schema of a child of a container node (undefined: not known for sure, nothing under it is changed); `UNKNOWN` under `unknown`. */
const UNKNOWN: SchemaNode = { type: 'unknown' };
function childNode(node: SchemaNode | undefined, key: string | number): SchemaNode | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'unknown':
      return UNKNOWN;
    case 'array':
      return node.empty ? undefined : node.items;
    case 'record':
      return node.values;
    case 'object':
      return Object.hasOwn(node.properties, key) ? node.properties[key] : node.additionalProperties;
    default:
      return undefined;
  }
}

/**
 * The leaves of a value (primitives and Dates in plain objects and arrays) in document order —
 * depth first, keys in order, as JSON text has them — with the schema each falls under. Iterative;
 * paths are built only for the leaves asked ({@link Leaves.path}), so a 10,000-record list costs
 * one walk.
 */
class Leaves {
  /** per leaf: its holder, key and schema node, and the index of its container in `containers` */
  readonly holder: (Record<string | number, unknown> | unknown[])[] = [];
  readonly key: (string | number)[] = [];
  readonly node: (SchemaNode | undefined)[] = [];
  private readonly within: number[] = [];
  /** per container: its parent's index (-1: the root) and its key there */
  private readonly containers: { parent: number; key: string | number }[] = [];

  constructor(value: unknown, schema: SchemaNode | undefined) {
    const container = (v: unknown): v is Record<string, unknown> | unknown[] =>
      v !== null && typeof v === 'object' && !(v instanceof Date);
    if (!container(value)) return;
    // what is left to visit, the next on top: a container to open (its index), or a leaf
    type Item =
      { open: Record<string, unknown> | unknown[]; node: SchemaNode | undefined; at: number } | { leaf: number };
    const pending: {
      holder: Record<string | number, unknown>;
      key: string | number;
      node: SchemaNode | undefined;
      at: number;
    }[] = [];
    this.containers.push({ parent: -1, key: '' });
    const stack: Item[] = [{ open: value, node: schema, at: 0 }];
    while (stack.length) {
      const item = stack.pop()!;
      if ('leaf' in item) {
        const l = pending[item.leaf];
        this.holder.push(l.holder);
        this.key.push(l.key);
        this.node.push(l.node);
        this.within.push(l.at);
        continue;
      }
      const { open, node, at } = item;
      const holder = open as Record<string | number, unknown>;
      const keys: (string | number)[] = isArray(open) ? open.map((_, i) => i) : ownKeys(open);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        const child = holder[k];
        const n = childNode(node, k);
        if (container(child)) {
          this.containers.push({ parent: at, key: k });
          stack.push({ open: child, node: n, at: this.containers.length - 1 });
        } else {
          pending.push({ holder, key: k, node: n, at });
          stack.push({ leaf: pending.length - 1 });
        }
      }
    }
  }

  get length(): number {
    return this.key.length;
  }

  /** The keys from the root to leaf `i`. */
  keys(i: number): (string | number)[] {
    const out: (string | number)[] = [this.key[i]];
    for (let c = this.within[i]; c > 0; c = this.containers[c].parent) out.push(this.containers[c].key);
    return out.reverse();
  }

  /** The JSON path of leaf `i` (`$.sensors[0].temp`). */
  path(i: number): string {
    return this.keys(i).reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : propertyPath(p, k)), '$');
  }
}

/** The first, a middle and the last of `xs` (fewer when there are fewer). */
export function firstMiddleLast<T>(xs: readonly T[]): T[] {
  if (xs.length <= 3) return [...xs];
  return [xs[0], xs[Math.floor(xs.length / 2)], xs[xs.length - 1]];
}

/** A plain object or array (what JSON.parse makes, or a model built of them). */
const plain = (v: unknown): v is Record<string, unknown> =>
  v !== null &&
  typeof v === 'object' &&
  (isArray(v) || getPrototypeOf(v) === Object.prototype || getPrototypeOf(v) === null);

/**
 * Makes `target` hold `source`'s values by changing only what differs, in place: plain objects and
 * arrays are walked, any other differing value (a primitive, a Date of another time) assigned.
 * The input object the serializer was timed on keeps its identity, and each of its objects theirs.
 */
export function syncInPlace(target: unknown, source: unknown): void {
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [];
  if (plain(target) && plain(source)) stack.push([target, source]);
  while (stack.length) {
    const [t, s] = stack.pop()!;
    for (const k of ownKeys(s)) {
      const tv = t[k];
      const sv = s[k];
      if (plain(tv) && plain(sv) && isArray(tv) === isArray(sv)) stack.push([tv, sv]);
      else if (!(is(tv, sv) || (tv instanceof Date && sv instanceof Date && is(tv.getTime(), sv.getTime())))) t[k] = sv;
    }
  }
}

/** What a serialize check needs of its case. */
export interface SerializeCheck {
  /** the unit view of the case */
  view: Workload;
  /** a fresh wire unit of the payload, the one `input` holds (the last unit of the copy) */
  wire: unknown;
  /** whether the serializer is given the wire unit itself (else its model: workloads/types.ts serializeFrom) */
  wireInput: boolean;
  /** what a serializer is given for a wire unit (the unit itself, or the model) */
  inputOf(wire: unknown): unknown;
  /** the input object the op was timed on (changed in place) */
  input: unknown;
  /** the serializer's call (bytes decoded to text by the caller) */
  call(input: unknown): unknown;
  /** the gate's check of a serializer's result against the wire value it must equal: a failure or null */
  check(wire: unknown, out: unknown): GateFailure | null;
}

/**
 * The serialize check ({@link SerializeCheck}): the first, a middle and the last changeable leaf of
 * the timed input are changed in place, in turn (each change kept), and the output checked after
 * each. Returns the first failure (its reason names the leaf), else null; null also when the input
 * has no leaf the schema lets change.
 */
export function leafChanges(c: SerializeCheck): GateFailure | null {
  const leaves = new Leaves(c.wire, wireSchema(c.view.schema, c.view.wire?.naming));
  const changeable: { i: number; to: unknown }[] = [];
  for (let i = 0; i < leaves.length; i++) {
    const to = changeFor(leaves.node[i], (leaves.holder[i] as Record<string | number, unknown>)[leaves.key[i]]);
    if (to !== undefined) changeable.push({ i, to });
  }
  // the copy may hold another side's changes (the sides of a launch share their inputs): back to the payload first, in place
  syncInPlace(c.input, c.inputOf(c.wire));
  for (const { i, to } of firstMiddleLast(changeable)) {
    (leaves.holder[i] as Record<string | number, unknown>)[leaves.key[i]] = to;
    if (c.wireInput) {
      // the input is the wire value's copy: the same place in it, reached key by key
      const keys = leaves.keys(i);
      let at = c.input as Record<string | number, unknown>;
      for (let k = 0; k < keys.length - 1; k++) at = at[keys[k]] as Record<string | number, unknown>;
      at[keys[keys.length - 1]] = to;
    } else syncInPlace(c.input, c.inputOf(c.wire));
    const f = c.check(c.wire, c.call(c.input));
    if (f)
      return {
        ...f,
        reason: `the output did not follow a change made in place to the input it was timed on (${leaves.path(i)} set to ${JSON.stringify(to)} after the timed rounds): ${f.reason} — what a result cached by the input object, or by part of its contents, gives`,
      };
  }
  return null;
}

/**
 * A change of one leaf of a serializer's timed input, made in place on the last unit of both input
 * copies right after a sample's timed calls and undone after one more call ({@link backToBackChanges};
 * timed-check.ts `roundEnd`).
 */
export interface BackToBackChange {
  /** the JSON path of the wire leaf changed (`$.sensors[0].temp`) */
  path: string;
  /** what is set in a unit (the input the serializer is given): the keys from its root, and the value */
  sets: { keys: (string | number)[]; to: unknown }[];
  /** the wire unit with the change: what the output must now equal */
  wire: unknown;
}

/**
 * The changes {@link leafChanges} makes after the rounds (the first, a middle and the last leaf its
 * schema lets change), as sets on the input a serializer is given: for a wire input the leaf's own
 * keys; for a model input, the leaves where the model of the changed wire value differs from the
 * model of the payload's. Made once, before timing. Empty when no leaf can change. `pick` chooses
 * other leaves among the changeable ones (in-place.ts roundChanges: some drawn at random).
 */
export function backToBackChanges(
  c: Pick<SerializeCheck, 'view' | 'wire' | 'wireInput' | 'inputOf'>,
  pick: <T>(changeable: readonly T[]) => T[] = firstMiddleLast,
): BackToBackChange[] {
  const leaves = new Leaves(c.wire, wireSchema(c.view.schema, c.view.wire?.naming));
  const changeable: { i: number; to: unknown }[] = [];
  for (let i = 0; i < leaves.length; i++) {
    const to = changeFor(leaves.node[i], (leaves.holder[i] as Record<string | number, unknown>)[leaves.key[i]]);
    if (to !== undefined) changeable.push({ i, to });
  }
  const out: BackToBackChange[] = [];
  const before = c.wireInput ? undefined : c.inputOf(c.wire);
  for (const { i, to } of pick(changeable)) {
    const keys = leaves.keys(i);
    const wire = parse(stringify(c.wire)) as unknown;
    let at = wire as Record<string | number, unknown>;
    for (let k = 0; k < keys.length - 1; k++) at = at[keys[k]] as Record<string | number, unknown>;
    at[keys[keys.length - 1]] = to;
    const sets = c.wireInput ? [{ keys, to }] : differences(before, c.inputOf(wire));
    if (sets.length) out.push({ path: leaves.path(i), sets, wire });
  }
  return out;
}

/** Where `b` differs from `a` (plain objects, arrays and class instances walked; Dates compared by time): the keys and `b`'s value there. */
function differences(a: unknown, b: unknown): { keys: (string | number)[]; to: unknown }[] {
  const out: { keys: (string | number)[]; to: unknown }[] = [];
  const walkable = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !(v instanceof Date);
  const stack: [unknown, unknown, (string | number)[]][] = [[a, b, []]];
  while (stack.length) {
    const [x, y, keys] = stack.pop()!;
    if (walkable(x) && walkable(y) && isArray(x) === isArray(y)) {
      for (const k of isArray(y) ? y.map((_, n) => n) : ownKeys(y))
        stack.push([
          (x as Record<string | number, unknown>)[k],
          (y as Record<string | number, unknown>)[k],
          [...keys, k],
        ]);
    } else if (!(is(x, y) || (x instanceof Date && y instanceof Date && is(x.getTime(), y.getTime()))))
      out.push({ keys, to: y });
  }
  return out;
}

/**
 * The writes that make `change` on each of `units`, resolved now (each set's holder object found by its
 * keys): `apply` makes them and `undo` puts the old values back (in reverse order), no lookup left
 * but the holders' own keys — so applying it between two timed calls adds well under a microsecond.
 * Both run once here, outside any timing, so neither is compiled inside a sample.
 */
export function changeWrites(units: readonly unknown[], change: BackToBackChange): { apply(): void; undo(): void } {
  const holders: Record<string | number, unknown>[] = [];
  const keys: (string | number)[] = [];
  const values: unknown[] = [];
  const olds: unknown[] = [];
  for (const unit of units)
    for (const set of change.sets) {
      let at = unit as Record<string | number, unknown>;
      for (let k = 0; k < set.keys.length - 1; k++) at = at[set.keys[k]] as Record<string | number, unknown>;
      holders.push(at);
      keys.push(set.keys[set.keys.length - 1]);
      values.push(set.to);
      olds.push(at[set.keys[set.keys.length - 1]]);
    }
  const writes = {
    apply(): void {
      for (let n = 0; n < holders.length; n++) holders[n][keys[n]] = values[n];
    },
    undo(): void {
      for (let n = holders.length - 1; n >= 0; n--) holders[n][keys[n]] = olds[n];
    },
  };
  writes.apply();
  writes.undo();
  return writes;
}

/** What a deserialize check needs of its case. */
export interface DeserializeCheck {
  view: Workload;
  /** the text of one unit the op was timed on */
  text: string;
  /** the value a deserializer must produce from a unit text (the wire value, or its model for `transform`) */
  expectedOf(text: string): unknown;
  call(text: string): unknown;
  /** the gate's check of a result against its expected value */
  check(expected: unknown, out: unknown): GateFailure | null;
}

/** What a check writes into a result's leaf: a value no JSON text can hold. */
const MARK = Symbol('changed by jsonbench');

/**
 * The deserialize sharing check: a result of `text` gets its first, middle and last leaf changed
 * (to a symbol), then `text` is deserialized again; that result must be the payload's value, in
 * another object. Null when it is, or when the result has no leaf it can change (a primitive, a
 * frozen object); else the failure.
 */
export function sharedResult(c: DeserializeCheck): GateFailure | null {
  const first = c.call(c.text);
  const shared = sharedObjectAt(first, c.call(c.text));
  if (shared)
    return {
      path: shared,
      expected: 'a new object in each call',
      actual: 'the object of the call before',
      reason: `two calls on the same text, after the timed rounds, returned the same object at ${shared}: one call's result is changed by a change to another's (a cache of values)`,
    };
  const leaves = new Leaves(first, undefined);
  let changed: string | undefined;
  for (const i of firstMiddleLast(leaves.key.map((_, n) => n)))
    if (Reflect.set(leaves.holder[i], leaves.key[i], MARK)) changed ??= leaves.path(i);
  const again = c.call(c.text);
  if (first !== null && typeof first === 'object' && again === first)
    return {
      path: '$',
      expected: 'a new result',
      actual: 'the same object as the call before',
      reason:
        'returned the same object on two calls with the same text, after the timed rounds: a result cached by the text, not a parse',
    };
  if (changed === undefined) return null;
  const f = c.check(c.expectedOf(c.text), again);
  return f
    ? {
        ...f,
        reason: `a change made to one call's result (${changed} and others) showed in the next call's result on the same text: the results share objects, as a cache's do (${f.reason})`,
      }
    : null;
}

/**
 * The path of the first object (a Date too) of `b` that is also in `a`, in document order, or undefined: two results
 * of a parse sharing one (hx29 C-datememo: one Date per distinct string, handed to every result — a change to one
 * result's date changed the next's; Dates are leaves, which {@link sharedResult}'s changes replace, never mutate).
 * Frozen objects are not counted (nothing can change them). Iterative.
 */
function sharedObjectAt(a: unknown, b: unknown): string | undefined {
  const seen = new Set<object>();
  const stack: unknown[] = [a];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof Date) continue;
    for (const k of ownKeys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  const walk: [unknown, string][] = [[b, '$']];
  while (walk.length) {
    const [v, path] = walk.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (seen.has(v) && !Object.isFrozen(v)) return path;
    if (v instanceof Date) continue;
    const keys = ownKeys(v);
    for (let i = keys.length - 1; i >= 0; i--)
      walk.push([
        (v as Record<string, unknown>)[keys[i]],
        isArray(v) ? `${path}[${keys[i]}]` : propertyPath(path, keys[i]),
      ]);
  }
  return undefined;
}

/** One JSON value token of a text: where it is, whether a string or a number, the schema it falls under (undefined: not known). */
interface Token {
  start: number;
  end: number;
  kind: 'string' | 'number';
  node: SchemaNode | undefined;
}

/**
 * The string and number value tokens of a JSON text, each with the schema node it falls under
 * (keys are not values). Iterative, one pass; assumes valid JSON (the payload passed the gate).
 */
function valueTokens(text: string, schema: SchemaNode): Token[] {
  const out: Token[] = [];
  interface Frame {
    array: boolean;
    node: SchemaNode | undefined;
    key: string;
    index: number;
    expectKey: boolean;
  }
  const frames: Frame[] = [];
  const here = (): SchemaNode | undefined => {
    const f = frames[frames.length - 1];
    return f ? childNode(f.node, f.array ? f.index : f.key) : schema;
  };
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b)
      frames.push({ array: c === 0x5b, node: here(), key: '', index: 0, expectKey: c === 0x7b });
    else if (c === 0x7d || c === 0x5d) frames.pop();
    else if (c === 0x2c) {
      const f = frames[frames.length - 1];
      if (f?.array) f.index++;
      else if (f) f.expectKey = true;
    } else if (c === 0x22) {
      let j = i + 1;
      let escaped = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) {
          escaped = true;
          j++;
        } else if (d === 0x22) break;
      }
      const f = frames[frames.length - 1];
      if (f && !f.array && f.expectKey) {
        f.key = escaped ? (parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        f.expectKey = false;
      } else out.push({ start: i, end: j + 1, kind: 'string', node: here() });
      i = j;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        // digits . e E + -
        if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d)) break;
      }
      out.push({ start: i, end: j, kind: 'number', node: here() });
      i = j - 1;
    }
  }
  return out;
}

/** A token's text changed in place, same length (see {@link sameLengthVariants}); null when this token cannot change. */
function changedToken(text: string, t: Token): string | null {
  const n = t.node;
  const tok = text.slice(t.start, t.end);
  if (t.kind === 'string' && (n?.type === 'unknown' || (n?.type === 'string' && !n.format))) {
    for (let j = 1; j < tok.length - 1; j++) {
      if (tok[j] === '\\') {
        j += tok[j + 1] === 'u' ? 5 : 1;
        continue;
      }
      if (ALNUM.test(tok[j])) return tok.slice(0, j) + nextChar(tok[j]) + tok.slice(j + 1);
    }
    return null;
  }
  if (t.kind === 'number' && (n?.type === 'unknown' || n?.type === 'number')) {
    let k = 0;
    while (k < tok.length && /[-0-9]/.test(tok[k])) k++;
    const last = k - 1;
    if (last < 0 || tok[last] < '0' || tok[last] > '9') return null;
    const d = tok.charCodeAt(last) - 48;
    return tok.slice(0, last) + String(d > 0 ? d - 1 : 1) + tok.slice(last + 1);
  }
  return null;
}

/**
 * Texts of `text`'s exact length, each with one value changed in place: the first, a middle and
 * the last value the schema lets hold any value of its type — a string (no format, no enum; or
 * under `unknown`) gets its first letter or digit outside an escape moved on ({@link nextChar}), a
 * number the last digit of its integer part moved by one toward zero (0 → 1), keeping its kind
 * and width. One value at a time, in three places: a cache keyed by the length and any part of the
 * text (a prefix, a suffix) misses at least one of them. Keys, formats, enums, booleans and nulls
 * are left as they are. Empty when no value can change.
 */
export function sameLengthVariants(text: string, schema: SchemaNode): string[] {
  const changeable: { t: Token; to: string }[] = [];
  for (const t of valueTokens(text, schema)) {
    const to = changedToken(text, t);
    if (to !== null) changeable.push({ t, to });
  }
  return firstMiddleLast(changeable).map(({ t, to }) => text.slice(0, t.start) + to + text.slice(t.end));
}

/**
 * The deserialize length check: each of {@link sameLengthVariants} of the timed unit text must be
 * deserialized to its own value. Null when they are (or no such text can be made), else the first failure.
 */
export function sameLengthText(c: DeserializeCheck): GateFailure | null {
  for (const variant of sameLengthVariants(c.text, wireSchema(c.view.schema, c.view.wire?.naming))) {
    const f = c.check(c.expectedOf(variant), c.call(variant));
    if (f)
      return {
        ...f,
        reason: `for a text of the timed text's length with one value's digits or letters changed in place, ${f.reason}: what a result cached by the text's length, or by a part of it, gives`,
      };
  }
  return null;
}

/**
 * The deserialize text cache cost check's threshold ({@link textCacheCost}) where the runtime was not calibrated
 * ({@link cacheCostThresholds}): new texts costing more than this many times the repeated text per call, in two
 * passes in a row, fail the case. A cache of whole texts whose hit costs more than 1/T of a miss (a copy, or a spin)
 * stays under it: a threshold T lets such a cheat claim up to about T× faster than it is (hx7 tcopy spun to 0.55×
 * of a parse reads 2.0–2.3×: caught; spun to 0.7×, 1.75–1.8×: at the line; to 0.8×, 1.56–1.64×: passes, ranked
 * about 1.25× faster). Set on Node 20 by the process CPU clock (bench/cache-cost.ts; docs/limits.md has the table):
 * every built-in × the quick suite's cases, users · 1000 and 10000 and canada/citm_catalog, 264 measurements per
 * run, three runs on 2026-12-06 at load 6–15: the check's statistic (the lesser of two passes) at most 1.25 and
 * 1.23 with the two warm blocks (p99 1.23, 1.20), 1.50 with one; a single pass at most 1.82.
 */
const DEFAULT_TEXT_CACHE_RATIO = 1.75;
/**
 * The serialize input cache cost check's threshold ({@link inputCacheCost}) where the runtime was not calibrated
 * ({@link cacheCostThresholds}), as {@link DEFAULT_TEXT_CACHE_RATIO} for new input objects against the repeated
 * timed input: a cache keyed by the input object (or validated by a walk over it) whose hit costs more than 1/T of
 * serializing can claim up to about T× faster than it is (hx7 leafcache reads 2.0–5.9×). On the process clock,
 * Node 20: the statistic at most 1.21 and 1.30 in two runs; on node@22 typia serializing a 70-byte order read
 * 1.6–1.8× in both passes, honestly (3 of 8 quick runs failed at 1.6, 2026-12-06, load 2–3: new values cost V8 more
 * the first time they are serialized, on a tiny unit a large share of the work). So 2.5, 39% over that.
 */
const DEFAULT_INPUT_CACHE_RATIO = 2.5;

/** The runtime a cost threshold is chosen for: `node` with its major version, `bun`, `deno`, or `other` (browsers, QuickJS). */
export interface CostRuntime {
  name: 'node' | 'bun' | 'deno' | 'other';
  /** Node's major version (20 for 20.20.2); absent for the others */
  major?: number;
}

/** The runtime this module runs on (the worker's, where the checks run), from its globals: `Deno`, `Bun`, then `process.versions.node`. */
export function costRuntime(g: Record<string, unknown> = globalThis as Record<string, unknown>): CostRuntime {
  if (g.Deno !== undefined) return { name: 'deno' };
  if (g.Bun !== undefined) return { name: 'bun' };
  const node = (g.process as { versions?: { node?: unknown } } | undefined)?.versions?.node;
  if (typeof node === 'string') return { name: 'node', major: Number(node.split('.')[0]) };
  return { name: 'other' };
}

/** The margin over the honest maximum a calibrated threshold keeps (a threshold T lets a cache claim up to about T× faster). */
const COST_MARGIN = 1.25;

/**
 * The honest maxima of the two cost checks' statistic (the lesser of two passes: what fails a case) per calibrated
 * runtime (key: `node@<major>`, `bun`, `deno`), from bench/cache-cost.ts on the measuring thread's CPU clock
 * (prepare-case.ts costClock), every built-in JavaScript serializer × the quick suite's cases, users · 1000 · list,
 * canada.json and citm_catalog.json, two measurements each, 2026-12-06 15:16–15:45 UTC at load 5.5–10
 * (docs/limits.md "How the thresholds were set": the table, the command). node@22's input maximum is
 * fast-json-stringify's 1.36 on a 70-byte order on the thread clock (the order of test/runtimes/bundle-packages.test.ts,
 * where typia read 1.6–1.8 on the process clock; on the thread clock typia reads at most 1.31), over the bench's 1.30; node@24's
 * text maximum is ajv-jtd's first check on citm_catalog.json (2.14, and 2.1× in 3 of 3 quick runs: failed
 * `incorrect` at 1.75). A runtime absent here keeps 2.5 and 1.75.
 */
const HONEST_MAXIMA: Readonly<Record<string, { input: number; text: number }>> = {
  'node@20': { input: 1.34, text: 1.3 },
  'node@22': { input: 1.36, text: 1.14 },
  'node@24': { input: 1.32, text: 2.14 },
  bun: { input: 1.3, text: 1.56 },
  deno: { input: 1.28, text: 1.24 },
};

/** `max` × {@link COST_MARGIN}, rounded up to 0.05 (1.26 → 1.6; 2.14 → 2.7). */
const withMargin = (max: number) => Math.ceil(max * COST_MARGIN * 20 - 1e-9) / 20;

/**
 * The input (serialize, {@link inputCacheCost}) and text (deserialize, {@link textCacheCost}) cost thresholds for
 * `runtime`: its honest maxima ({@link HONEST_MAXIMA}) × {@link COST_MARGIN} rounded up to 0.05, else 2.5 and 1.75
 * ({@link DEFAULT_INPUT_CACHE_RATIO}, {@link DEFAULT_TEXT_CACHE_RATIO}: browsers, QuickJS, Node versions not
 * calibrated). Pure; never throws.
 */
export function cacheCostThresholds(runtime: CostRuntime): { input: number; text: number } {
  const key = runtime.name === 'node' ? `node@${runtime.major}` : runtime.name;
  if (!Object.hasOwn(HONEST_MAXIMA, key)) return { input: DEFAULT_INPUT_CACHE_RATIO, text: DEFAULT_TEXT_CACHE_RATIO };
  const m = HONEST_MAXIMA[key];
  return { input: withMargin(m.input), text: withMargin(m.text) };
}

const here = cacheCostThresholds(costRuntime());
/** The deserialize text cache cost threshold on this runtime ({@link cacheCostThresholds}): the worker's, where the check runs. */
export const TEXT_CACHE_RATIO = here.text;
/** The serialize input cache cost threshold on this runtime ({@link cacheCostThresholds}): the worker's, where the check runs. */
export const INPUT_CACHE_RATIO = here.input;
/** At most this many bytes of new texts (or of new inputs' texts) are made for a cost check (16 MiB): fewer calls per block on a large payload. */
const COST_CHECK_BYTES = 16 * 1024 * 1024;
/** Blocks of new inputs a cost check makes: two untimed warm blocks, then two passes of five. */
const COST_BLOCKS = 12;
/** The untimed warm blocks among {@link COST_BLOCKS}. */
const WARM_BLOCKS = 2;

/** Calls per block of a cost check for a unit text of `length` UTF-16 code units: 1–32, fewer on a large payload (a block of a small unit then lasts tens of µs, well above the clock's 1 µs steps). */
const callsPerBlock = (length: number) =>
  Math.max(1, Math.min(32, Math.floor(COST_CHECK_BYTES / (COST_BLOCKS * Math.max(1, length * 2)))));

/**
 * New texts of `text`'s length and schema, each never seen by the deserializer: one string value's
 * letters or digits moved on `step` places (1–9) in turn, then each number's last integer digit moved
 * by one ({@link changedToken}); each made a flat string (not a concatenation V8 flattens on first use).
 * At most `count`; fewer when the text has fewer values to change.
 */
function freshTexts(text: string, schema: SchemaNode, count: number): string[] {
  const tokens = valueTokens(text, schema);
  const out: string[] = [];
  for (let step = 1; step <= 9 && out.length < count; step++)
    for (const t of tokens) {
      if (out.length >= count) break;
      let to: string | null = null;
      if (t.kind === 'string') to = movedString(text.slice(t.start, t.end), t, step);
      else if (step === 1) to = changedToken(text, t);
      if (to !== null) out.push(flatString(text.slice(0, t.start) + to + text.slice(t.end)));
    }
  return out;
}

// TextEncoder is absent from some runtimes jsonbench measures on (QuickJS): there a concatenation stays as it is
const codec =
  typeof TextEncoder === 'function' && typeof TextDecoder === 'function'
    ? { encoder: new TextEncoder(), decoder: new TextDecoder() }
    : undefined;
/** `t` as one flat string (decoded from its UTF-8 bytes), not a tree of concatenations; `t` itself where there is no TextEncoder. */
const flatString = (t: string) => (codec ? codec.decoder.decode(codec.encoder.encode(t)) : t);

/** A string token (with its quotes) with its first letter or digit moved on `step` places ({@link changedToken} `step` times); null when it has none. */
function movedString(tok: string, t: Token, step: number): string | null {
  let to: string | null = tok;
  for (let k = 0; k < step && to !== null; k++) to = changedToken(to, { ...t, start: 0, end: to.length });
  return to;
}

/**
 * Texts of a unit `text`'s length and schema with every value the schema lets change changed at once
 * ({@link changedToken}: a string without format or enum gets its first letter or digit moved on, a number the
 * last digit of its integer part moved toward zero). So that the texts also differ from each other, text `n`
 * moves its `k`-th string `1 + ⌊n / 9^k⌋ mod 9` places (the first six strings: the digits of `n` in base 9; any
 * further string one place), and leaves its `n`-th changeable number (of at least two) as it was. Keys, formats,
 * enums, booleans and nulls stay as they are. At most `count`; none when no value can change.
 */
function everyValueChanged(text: string, schema: SchemaNode, count: number): string[] {
  // per changeable value, made once (a 1.8 MB unit has ~60,000): the text before it, itself, and its changed
  // forms (a string moved 1–9 places, a number changed once); each new text is then a join of pieces
  const gaps: string[] = [];
  const originals: string[] = [];
  const forms: string[][] = [];
  const numbers: number[] = [];
  const isNumber: boolean[] = [];
  let at = 0;
  for (const t of valueTokens(text, schema)) {
    const first = changedToken(text, t);
    if (first === null) continue;
    const f = [first];
    if (t.kind === 'string')
      for (let step = 2; step <= 9; step++) {
        const next = changedToken(f[f.length - 1], { ...t, start: 0, end: f[f.length - 1].length });
        if (next === null) break;
        f.push(next);
      }
    if (t.kind === 'number') numbers.push(forms.length);
    isNumber.push(t.kind === 'number');
    gaps.push(text.slice(at, t.start));
    originals.push(text.slice(t.start, t.end));
    forms.push(f);
    at = t.end;
  }
  if (!forms.length) return [];
  const tail = text.slice(at);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const kept = numbers.length >= 2 ? numbers[n % numbers.length] : -1;
    const parts: string[] = [];
    let k = 0;
    for (let i = 0; i < forms.length; i++) {
      const f = forms[i];
      let to: string;
      if (isNumber[i]) to = i === kept ? originals[i] : f[0];
      else {
        const step = 1 + (k < 6 ? Math.floor(n / 9 ** k) % 9 : 0);
        to = f[Math.min(step, f.length) - 1];
        k++;
      }
      parts.push(gaps[i], to);
    }
    parts.push(tail);
    out.push(parts.join(''));
  }
  return out;
}

/**
 * The clocks a cost check times its blocks on ({@link newVersusRepeated}): `cpu`, the clock for blocks of the work
 * (prepare-case.ts costClock: the measuring thread's CPU clock, whose read costs 10–35 µs of that thread's CPU), and
 * `wall` (clock.ts fineWallNowNs: `performance.now` taken at load, its smallest `step` in ns) for blocks shorter
 * than {@link SHORT_BLOCK_NS}, where a read of the thread clock would be most of the block: hx26 T1, a serializer
 * returning the payload's text made at load when a few `===` checks matched its values (~0.2 µs per call beside
 * JSON.stringify's ~0.9 µs, 67 bytes) read 1.0–1.9× new against repeated on the thread clock, whose reads added
 * about 1 µs to every call of a block of 32: "use const-cheat (faster by 5.38×)". `perCallNs`: the time per call
 * its timed rounds read, when known — the block's length is estimated from the lesser of it and one block on the
 * wall clock, so a case cannot lengthen its estimate past what it was timed at.
 */
export interface CostClocks {
  cpu: () => number;
  wall?: { now: () => number; step: number };
  perCallNs?: number;
}

/**
 * Blocks estimated shorter than this (ns) are timed on the wall clock ({@link CostClocks}): the thread clock's read
 * (10–35 µs of the thread's CPU, more under load) stays under about a tenth of a block above it.
 */
const SHORT_BLOCK_NS = 250_000;

/** What one cost measurement found ({@link newVersusRepeated}). */
export interface CostRatios {
  /** per pass run, the median time per call on new inputs ÷ that on the repeated input (the second pass runs only when the first is over the threshold) */
  ratios: number[];
  /** calls per block */
  perBlock: number;
  /** the clock the passes read ({@link CostClocks}): `wall` for short blocks */
  clock?: 'wall';
  /** the first new input whose result was wrong: its index in the made inputs, and the check's failure */
  wrong?: GateFailure;
  /** the least time per call on the repeated input in each pass run, the greatest of them (ns, on the check's clock) */
  repeatedNs?: number;
  /** the least time per call on new inputs in each pass run, the greatest of them (ns, on the check's clock) */
  newNs?: number;
}

/**
 * How many times its time per call in the timed rounds a call on the very input the rounds were timed on may take in
 * the cost check before the case fails ({@link slowerThanTimed}). hx10's leafoff and textoff cached during the rounds
 * and switched the cache off when the check's unseen inputs began ("4.23× faster", "4.09× faster"): new and repeated
 * then cost the same, and the new-versus-repeated ratio passed. Generous (the rounds run in a tight loop on the
 * process clock, the check's blocks on the thread clock between blocks of new inputs that may evict the CPU caches):
 * a cache that switches off on the check can still claim up to about this many times faster.
 */
export const SLOWER_THAN_TIMED = 3;

/**
 * The least time per op in the rounds (ns) at which {@link slowerThanTimed} compares. Below it honest serializers
 * read far over 1: on weather-station (409 bytes, 0.9–5.7 µs per call) class-transformer read 2.56, ajv-jtd 2.20 and
 * the others up to 1.78 on the thread clock, while every case of 38 µs or more read at most 1.37 (the quick suite,
 * every built-in, 2026-12-06 17:50 UTC, load 4.8–5.2). Timing such blocks on the wall clock ({@link SHORT_BLOCK_NS})
 * did not make the floor safe to drop: in quick suite runs on node@22 (2026-12-07 05:26–05:32 UTC, load 1.4–2)
 * class-transformer serialize read 4.3× and ajv-jtd deserialize 3.6× on weather-station, honestly, while
 * bench/cache-cost.ts read them at 0.2–0.95.
 */
export const SLOWER_THAN_TIMED_FLOOR_NS = 20_000;

/**
 * The failure of a case whose calls on its timed input cost more than {@link SLOWER_THAN_TIMED}× in the cost check
 * (`repeatedNs`, the least per call there) than per op in its timed rounds (`timedNs`, the median of the rounds'
 * samples, per op of one call), else null (also when either is unknown, or the rounds' time and its baseline's in
 * the same rounds, `baselineNs`, are both under {@link SLOWER_THAN_TIMED_FLOOR_NS}: the floor reads the baseline's
 * too, since a cache lowers its own time below the floor and so switched the check off (hx22 C2: leafpad at
 * 13.5–18.1 µs per op beside JSON.stringify's 55.4 µs, "4.27× faster"), and nothing the code measured makes its
 * baseline faster).
 */
export function slowerThanTimed(
  repeatedNs: number | undefined,
  timedNs: number | undefined,
  newNs?: number,
  baselineNs?: number,
): GateFailure | null {
  if (timedNs === undefined || !(Math.max(timedNs, baselineNs ?? 0) >= SLOWER_THAN_TIMED_FLOOR_NS)) return null;
  // inputs it had never seen, against the rounds: a cache's whole gain, however its hits are padded to sit under the
  // new-versus-repeated bound (hx11's leafpad: "4.16× faster" with 4 extra walks per hit)
  const fresh = newNs !== undefined && newNs > 0 ? newNs / timedNs : 0;
  const same = repeatedNs !== undefined && repeatedNs > 0 ? repeatedNs / timedNs : 0;
  if (fresh > SLOWER_THAN_TIMED && fresh >= same)
    return {
      path: '$',
      expected: `about its time per call in the timed rounds on inputs of the same schema (at most ${SLOWER_THAN_TIMED}×)`,
      actual: `${fresh.toFixed(1)}× (the least time per call of the cost check's blocks on new inputs, against the median of the rounds' samples)`,
      reason: `an input it had never seen (every value changed, same schema) cost ${fresh.toFixed(1)}× its time per op in the rounds: the timed calls did not do the work a new input takes (a cache)`,
    };
  const ratio = same;
  if (!(ratio > SLOWER_THAN_TIMED)) return null;
  return {
    path: '$',
    expected: `about its time per call in the timed rounds on the same input after them (at most ${SLOWER_THAN_TIMED}×)`,
    actual: `${ratio.toFixed(1)}× (the least time per call of the cost check's blocks on that input, against the median of the rounds' samples)`,
    reason: `on the very input its rounds were timed on, a call cost ${ratio.toFixed(1)}× its time in the rounds once the cost check began: the timed calls did not do the work its calls do (a cache that stops when it sees inputs it has not seen)`,
  };
}

/**
 * The core of both cost checks: blocks of `perBlock` calls on inputs the code measured has never seen (`made`,
 * each called once: the first {@link WARM_BLOCKS} blocks untimed, to warm the code to inputs made this way) alternate with blocks
 * on the `repeated` timed input, in two passes; per pass, the least time per call of each kind (`now`: a clock in
 * ns; the process CPU clock where there is one) is compared. The least, not the median: what a loaded machine,
 * a GC or a deoptimisation adds to a block only lengthens it, and nothing makes a call on a new input cheaper than
 * the work (a median of five blocks read up to 5.4× on honest deserializers at load 11 by wall time; see
 * docs/limits.md). The second pass runs only when the first read more than `threshold` (a threshold of 0 always
 * runs both). The first, middle and last result of a pass are checked (`checkOut(n, out)` for `made[n]`), the
 * others dropped at once (keeping them all would put their garbage on the new inputs' side). Errors the code
 * throws propagate.
 */
function newVersusRepeated<T>(
  repeated: T,
  made: readonly T[],
  perBlock: number,
  call: (input: T) => unknown,
  checkOut: (n: number, out: unknown) => GateFailure | null,
  clocks: (() => number) | CostClocks,
  threshold: number,
): CostRatios {
  // the first blocks warm the code to inputs made this way (untimed): it may have been specialised on the timed
  // input's representation (ajv-jtd: 4.9× on the first block only, on a text; with one warm block, 1.62× and
  // 1.50× on company · 1000 in a first measurement, 0.90× and 0.97× in the next)
  const warm = WARM_BLOCKS * perBlock;
  for (let n = 0; n < warm; n++) {
    call(made[n]);
    call(repeated);
  }
  const { now, floorNs, wall } = blockClock(
    clocks,
    () => {
      for (let k = 0; k < perBlock; k++) call(repeated);
    },
    perBlock,
  );
  const rest = made.length - warm;
  const passes: [number, number][] = [
    [warm, warm + Math.floor(rest / 2)],
    [warm + Math.floor(rest / 2), made.length],
  ];
  const ratios: number[] = [];
  let repeatedNs = 0;
  let newNs = 0;
  for (const [from, to] of passes) {
    const blocks = Math.floor((to - from) / perBlock);
    const same: number[] = [];
    const first: number[] = [];
    const checked = new Set(firstMiddleLast(Array.from({ length: blocks * perBlock }, (_, n) => from + n)));
    const kept = new Map<number, unknown>();
    for (let b = 0; b < blocks; b++) {
      let t0 = now();
      for (let k = 0; k < perBlock; k++) call(repeated);
      same.push((now() - t0) / perBlock);
      t0 = now();
      for (let k = 0; k < perBlock; k++) {
        const n = from + b * perBlock + k;
        const out = call(made[n]);
        if (checked.has(n)) kept.set(n, out);
      }
      first.push((now() - t0) / perBlock);
    }
    for (const [n, out] of kept) {
      const f = checkOut(n, out);
      if (f) return { ratios, perBlock, ...(wall ? { clock: 'wall' as const } : {}), wrong: f };
    }
    // a clock that read no time over every block on the repeated input (0/0: NaN, which passed `!(r > T)`: hx10
    // froze the thread clock's file) cannot tell a cache from the work: over the threshold, never under it
    const base = Math.max(Math.min(...same), floorNs);
    // the greatest of the passes' least times: a cache switched off by the first pass's new inputs is slow in the next
    // (hx10's leafoff: 98 µs per call in the first pass, 410 µs in the second, 121 µs in the rounds)
    repeatedNs = Math.max(repeatedNs, base);
    newNs = Math.max(newNs, Math.min(...first));
    ratios.push(base > 0 ? Math.min(...first) / base : Infinity);
    if (!(ratios[ratios.length - 1] > threshold)) break;
  }
  return {
    ratios,
    perBlock,
    ...(wall ? { clock: 'wall' as const } : {}),
    ...(Number.isFinite(repeatedNs) && repeatedNs > 0 ? { repeatedNs } : {}),
    ...(Number.isFinite(newNs) && newNs > 0 ? { newNs } : {}),
  };
}

/**
 * The clock a cost check's passes read ({@link CostClocks}): `wall` when a block of `perBlock` calls, estimated from
 * the lesser of `perCallNs` and one `block` timed on it, would last under {@link SHORT_BLOCK_NS}; else `cpu`.
 * `floorNs`: the least per-call time a block can read on it (the wall clock's step over a block; 0 on `cpu`), so a
 * block of calls too cheap for any step reads as a cache, not as a clock that stood still.
 */
function blockClock(
  clocks: (() => number) | CostClocks,
  block: () => void,
  perBlock: number,
): { now: () => number; floorNs: number; wall?: true } {
  if (typeof clocks === 'function') return { now: clocks, floorNs: 0 };
  const { cpu, wall, perCallNs } = clocks;
  if (!wall) return { now: cpu, floorNs: 0 };
  const t0 = wall.now();
  block();
  const measured = (wall.now() - t0) / perBlock;
  const per = Math.min(measured, perCallNs !== undefined && perCallNs > 0 ? perCallNs : Infinity);
  return per * perBlock < SHORT_BLOCK_NS
    ? { now: wall.now, floorNs: wall.step / perBlock, wall: true }
    : { now: cpu, floorNs: 0 };
}

/**
 * The ratios of the deserialize text cache cost check ({@link textCacheCost}) on `c`, for `threshold` (0: both
 * passes always, as the calibration in bench/timed-check.ts reads them). Null when the text has too few values to
 * change, or a call on a new text throws (a validator's own rule: the check proves nothing then).
 */
export function textCacheRatios(
  c: DeserializeCheck,
  now: (() => number) | CostClocks,
  threshold = 0,
): CostRatios | null {
  const perBlock = callsPerBlock(c.text.length);
  const schema = wireSchema(c.view.schema, c.view.wire?.naming);
  let made = freshTexts(c.text, schema, COST_BLOCKS * perBlock);
  // a small unit (one record of `many`) has too few values for one change each: every value changed, in turn
  if (made.length < COST_BLOCKS * perBlock)
    made = everyValueChanged(c.text, schema, COST_BLOCKS * perBlock).map(flatString);
  if (made.length < COST_BLOCKS * perBlock) return null;
  try {
    return newVersusRepeated(
      c.text,
      made,
      perBlock,
      c.call,
      (n, out) => c.check(c.expectedOf(made[n]), out),
      now,
      threshold,
    );
  } catch {
    return null;
  }
}

/**
 * The deserialize text cache cost check (hx4 copy-cache: a parser keyed on the whole text that hands
 * out a fresh deep copy of its cached value passes every check of behaviour — a changed text misses,
 * each call returns another object — and was "3.90× faster" than JSON.parse; the copy cost 0.26× of
 * a parse). A text the deserializer has never seen cannot be in its cache: blocks of calls on new
 * texts of the payload's length and schema ({@link freshTexts}, one value changed each) alternate
 * with blocks on the timed text, and the median time per call of each kind is compared
 * ({@link newVersusRepeated}). A parser costs about as much on either (same length, same structure); a
 * cache of whole texts costs a lookup on the repeated one and the work on a new one. More than
 * {@link TEXT_CACHE_RATIO}× in two passes in a row is a failure: a cache whose hit costs more than
 * 1/TEXT_CACHE_RATIO of a miss (a throttled copy) passes, and can claim up to about that many times faster.
 * Each new text's result is checked too (a cache keyed on part of the text answers it wrong). Null when
 * the text has too few values to change, or a call on a new text throws; else the failure.
 */
export function textCacheCost(
  c: DeserializeCheck,
  now: (() => number) | CostClocks,
  timedNs?: number,
  baselineNs?: number,
): GateFailure | null {
  const r = textCacheRatios(c, now, TEXT_CACHE_RATIO);
  if (!r) return null;
  if (r.wrong)
    return {
      ...r.wrong,
      reason: `for a new text of the timed text's length with one value changed, ${r.wrong.reason}: what a result cached by a part of the text gives`,
    };
  // the new-versus-repeated statistic first (the plain cache's own reason), then the comparison with the rounds
  // (a cache that hides from the first: switched off, or its hits padded)
  if (r.ratios.length < 2 || !(r.ratios[1] > TEXT_CACHE_RATIO))
    return slowerThanTimed(r.repeatedNs, timedNs, r.newNs, baselineNs);
  const ratio = Math.min(...r.ratios);
  const still = standstill(ratio, r.perBlock);
  if (still) return still;
  return {
    path: '$',
    expected: `about the same time per call on a new text as on the repeated one (at most ${TEXT_CACHE_RATIO}×)`,
    actual: `${ratio.toFixed(1)}× (the lesser of two passes, each the least time per call of blocks of ${r.perBlock} calls)`,
    reason: `a text it had never seen cost ${ratio.toFixed(1)}× the repeated timed text per call (same length and schema, one value changed; twice in a row): results cached by the whole text, so the timed calls measured a lookup, not a parse`,
  };
}

/** A cost check's failure when its clock stood still over its blocks (a ratio of Infinity: {@link newVersusRepeated}), else null. */
function standstill(ratio: number, perBlock: number): GateFailure | null {
  return Number.isFinite(ratio)
    ? null
    : {
        path: '$',
        expected: 'CPU time read over each block of calls',
        actual: `0 ns over every block of ${perBlock} calls on the repeated input, in both passes`,
        reason:
          "the clock read no time over the cost check's blocks of calls (it stood still): a cache cannot be told from the work, so the timed calls are not believed",
      };
}

/** What the serialize input cache cost check needs of its case ({@link inputCacheCost}). */
export interface InputCostCheck {
  view: Workload;
  /** the wire unit the timed input holds, as the payload has it */
  wire: unknown;
  /** what a serializer is given for a wire unit (the unit itself, or the model: workloads/types.ts serializeFrom) */
  inputOf(wire: unknown): unknown;
  /** the input object the op was timed on (left as it is) */
  input: unknown;
  /** the serializer's call as the timed op makes it (its bytes not decoded) */
  call(input: unknown): unknown;
  /** the gate's check of a result of {@link call} against the wire value it must equal: a failure or null */
  check(wire: unknown, out: unknown): GateFailure | null;
}

/**
 * The ratios of the serialize input cache cost check ({@link inputCacheCost}) on `c`, for `threshold` (0: both
 * passes always). The new inputs are made here, before any of them is timed: the timed unit's JSON text with every
 * value its schema lets change changed ({@link everyValueChanged}), parsed (JSON.parse as this module loaded it) and
 * made the serializer's input as the timed input was. Null when no value can change. Errors the serializer throws
 * propagate (a serializer that fails on an input of its schema it has never seen is not measured).
 */
export function inputCacheRatios(
  c: InputCostCheck,
  now: (() => number) | CostClocks,
  threshold = 0,
): CostRatios | null {
  const text = stringify(c.wire);
  if (typeof text !== 'string') return null;
  const perBlock = callsPerBlock(text.length);
  const texts = everyValueChanged(text, wireSchema(c.view.schema, c.view.wire?.naming), COST_BLOCKS * perBlock);
  if (!texts.length) return null;
  const wires = texts.map((t) => parse(t) as unknown);
  const made = wires.map((w) => c.inputOf(w));
  return newVersusRepeated(c.input, made, perBlock, c.call, (n, out) => c.check(wires[n], out), now, threshold);
}

/**
 * The serialize input cache cost check (hx7 leafcache: a cache keyed by the input object that walks the input
 * comparing every key and leaf with `===` before answering passes every check of behaviour — any change in place
 * misses, so {@link leafChanges} and {@link backToBackChanges} see the right text — and the walk costs far less
 * than serializing: "4.71× faster" than JSON.stringify on users · 1000 · list). An input object the serializer has
 * never seen, with other values in every field, cannot be in any cache: blocks of calls on such new inputs
 * (made before timing; {@link inputCacheRatios}) alternate with blocks on the input the rounds were timed on, and
 * the median time per call of each kind is compared ({@link newVersusRepeated}). More than
 * {@link INPUT_CACHE_RATIO}× in two passes in a row is a failure; a cache whose hit costs more than
 * 1/INPUT_CACHE_RATIO of the work passes, and can claim up to about that many times faster. Each checked new
 * input's output must be its own JSON text (a cache keyed on part of the content answers it wrong). Null when it
 * passes, or no value can change; else the failure.
 */
export function inputCacheCost(
  c: InputCostCheck,
  now: (() => number) | CostClocks,
  timedNs?: number,
  baselineNs?: number,
): GateFailure | null {
  const r = inputCacheRatios(c, now, INPUT_CACHE_RATIO);
  if (!r) return null;
  if (r.wrong)
    return {
      ...r.wrong,
      reason: `for a new input object with every value its schema lets change changed, ${r.wrong.reason}: what a result cached by a part of the input's contents gives`,
    };
  // the new-versus-repeated statistic first (the plain cache's own reason), then the comparison with the rounds
  // (a cache that hides from the first: switched off, or its hits padded)
  if (r.ratios.length < 2 || !(r.ratios[1] > INPUT_CACHE_RATIO))
    return slowerThanTimed(r.repeatedNs, timedNs, r.newNs, baselineNs);
  const ratio = Math.min(...r.ratios);
  const still = standstill(ratio, r.perBlock);
  if (still) return still;
  return {
    path: '$',
    expected: `about the same time per call on a new input object as on the repeated one (at most ${INPUT_CACHE_RATIO}×)`,
    actual: `${ratio.toFixed(1)}× (the lesser of two passes, each the least time per call of blocks of ${r.perBlock} calls)`,
    reason: `an input object it had never seen (every value changed, same schema) cost ${ratio.toFixed(1)}× the input it was timed on per call (twice in a row): results cached by the input, so the timed calls measured a lookup, not serializing`,
  };
}
