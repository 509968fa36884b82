/**
 * The correctness gate: value equality with the first differing JSON path. Serializer output is
 * compared as a value (`JSON.parse(output)`), never as bytes, since key order and number spelling
 * may differ. Dates compare by time (two invalid Dates are equal); `undefined` properties count
 * as absent (as JSON drops them); arrays compare by length then element.
 *
 * Objects compare by their **own** enumerable keys only (what JSON writes), so a key named like an
 * `Object.prototype` member (`constructor`, `toString`) is an ordinary key, and so is
 * `"__proto__"`: `JSON.parse` makes it an own property, and a result that dropped it (or turned it
 * into a prototype) differs.
 *
 * The walk is iterative (an explicit stack, and the path built only for the mismatch it reports),
 * so a payload nested 100,000 deep is compared without touching the call stack.
 */
export interface Mismatch {
  /** JSONPath-like location of the first difference, e.g. `$.sensors[0].data[0].temp` */
  path: string;
  /** short renderings of the expected and actual values at that path */
  expected: string;
  actual: string;
}

const MAX_RENDER = 80;

/**
 * The built-ins the comparison relies on, taken when this module loads — before any adapter code
 * runs in the worker — so an adapter that replaces `Object.keys` or `JSON.parse` in its realm
 * (a polyfill, or on purpose) cannot change what the gate sees.
 */
const { keys: ownKeys, hasOwn, is: sameValue } = Object;
const enumerable = Object.prototype.propertyIsEnumerable;
const { isArray } = Array;
const { stringify } = JSON;

/**
 * Short text of a value for a mismatch report (type-tagged so "1" and 1 differ visibly). Values
 * JSON cannot write keep their own spelling instead of JSON's (`JSON.stringify(NaN)` is `null`,
 * which made a build() that returned NaN read "null became null"): `NaN`, `Infinity`,
 * `-Infinity`, `-0`, `12n` (BigInt), `undefined (absent)`, `Symbol(x)`, `function f`.
 */
export function renderValue(value: unknown): string {
  if (value instanceof Date) {
    const time = timeOf(value);
    if (time === undefined) return 'an object passing as a Date (not a Date)';
    return `Date(${Number.isNaN(time) ? 'Invalid' : isoOf.call(value)})`;
  }
  if (value === undefined) return 'undefined (absent)';
  if (typeof value === 'number' && (!Number.isFinite(value) || sameValue(value, -0)))
    return sameValue(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return String(value);
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  let text: string;
  try {
    text = stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? '[…]' : typeof value === 'object' && value ? '{…}' : String(value);
  }
  return text.length > MAX_RENDER ? text.slice(0, MAX_RENDER - 1) + '…' : text;
}

/** One step of a path, linked to its parent; turned into text only when a mismatch is reported. */
interface PathStep {
  parent: PathStep | null;
  key: string | number;
}

function pathText(step: PathStep | null, suffix = ''): string {
  const parts: string[] = [];
  for (let s = step; s; s = s.parent) {
    const k = s.key;
    parts.push(typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${stringify(k)}]`);
  }
  return '$' + parts.reverse().join('') + suffix;
}

/** `o`'s own enumerable value at `k` (what JSON writes), else undefined: a non-enumerable own value is absent (hx29 C-nonenum: a result whose every value was hidden from Object.keys, JSON.stringify writing "{}", compared equal). */
const own = (o: object, k: string): unknown =>
  hasOwn(o, k) && enumerable.call(o, k) ? (o as Record<string, unknown>)[k] : undefined;
/** Date.prototype.getTime as it was at load: its brand check throws on anything that is not a real Date (hx29 C-fakedate: an object with Date.prototype and its own getTime passed as a Date). */
const dateTime = Date.prototype.getTime;
const isoOf = Date.prototype.toISOString;
/** A real Date's time, or undefined for a look-alike (`instanceof Date` without the Date's internal slot). */
function timeOf(d: Date): number | undefined {
  try {
    return dateTime.call(d);
  } catch {
    return undefined;
  }
}

/** A pending comparison, or (after an object's or array's children) its closing check. */
type Task =
  | { kind: 'value'; expected: unknown; actual: unknown; at: PathStep | null }
  | { kind: 'extra-keys'; expected: object; actual: object; at: PathStep | null }
  | { kind: 'length'; expected: unknown[]; actual: unknown[]; at: PathStep | null };

/**
 * First difference between `expected` and `actual` in document order, or null when they are
 * equal. Never recurses; cost is linear in the size of `expected`. -0 and 0 are equal unless
 * `options.negativeZero` is `strict` (a parser's result: JSON.parse reads "-0" as -0; a serializer's
 * text is compared parsed, and JSON.stringify writes -0 as "0").
 */
export function firstMismatch(
  expected: unknown,
  actual: unknown,
  options: { negativeZero?: 'strict' } = {},
): Mismatch | null {
  const zeros = options.negativeZero !== 'strict';
  const stack: Task[] = [{ kind: 'value', expected, actual, at: null }];
  while (stack.length) {
    const t = stack.pop()!;
    if (t.kind === 'length') {
      if (t.expected.length !== t.actual.length)
        return {
          path: pathText(t.at, '.length'),
          expected: String(t.expected.length),
          actual: String(t.actual.length),
        };
      continue;
    }
    if (t.kind === 'extra-keys') {
      for (const k of ownKeys(t.actual)) {
        if (own(t.actual, k) !== undefined && own(t.expected, k) === undefined) {
          return {
            path: pathText({ parent: t.at, key: k }),
            expected: 'undefined (absent)',
            actual: renderValue(own(t.actual, k)),
          };
        }
      }
      continue;
    }
    const e = t.expected;
    const a = t.actual;
    const differ = (): Mismatch => ({ path: pathText(t.at), expected: renderValue(e), actual: renderValue(a) });
    if (e instanceof Date || a instanceof Date) {
      if (!(e instanceof Date) || !(a instanceof Date)) return differ();
      const te = timeOf(e);
      const ta = timeOf(a);
      if (ta === undefined)
        return { path: pathText(t.at), expected: renderValue(e), actual: 'an object passing as a Date (not a Date)' };
      if (te === ta || (Number.isNaN(te) && Number.isNaN(ta))) continue;
      return differ();
    }
    if (e === null || a === null || typeof e !== 'object' || typeof a !== 'object') {
      if (sameValue(e, a) || (zeros && e === 0 && a === 0)) continue;
      return differ();
    }
    if (isArray(e) !== isArray(a)) return differ();
    if (isArray(e)) {
      const arr = a as unknown[];
      stack.push({ kind: 'length', expected: e, actual: arr, at: t.at });
      for (let i = Math.min(e.length, arr.length) - 1; i >= 0; i--)
        stack.push({ kind: 'value', expected: e[i], actual: arr[i], at: { parent: t.at, key: i } });
      continue;
    }
    stack.push({ kind: 'extra-keys', expected: e, actual: a, at: t.at });
    const keys = ownKeys(e);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      const ev = own(e, k);
      if (ev === undefined) continue;
      stack.push({ kind: 'value', expected: ev, actual: own(a, k), at: { parent: t.at, key: k } });
    }
  }
  return null;
}

/** A UTF-16 code unit that is half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Index of the first lone surrogate in `text`, or -1 when it is well-formed Unicode (what a UTF-8
 * encoder can write without replacing anything by U+FFFD). Uses `String.prototype.isWellFormed`
 * (ES2024; Node ≥ 20) when the runtime has it.
 */
export function loneSurrogateAt(text: string): number {
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof wellFormed === 'function' && wellFormed.call(text)) return -1;
  const m = LONE_SURROGATE.exec(text);
  return m ? m.index : -1;
}
