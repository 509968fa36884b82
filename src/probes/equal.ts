import type { Mismatch } from '../measure/verify.js';

/** A mismatch with the raw values at its path (for classifying the fault; never serialized). */
export interface ProbeMismatch extends Mismatch {
  raw: { expected: unknown; actual: unknown };
}

/**
 * Strict value equality for probes, with the first difference. Stricter than the gate's
 * `firstMismatch` (measure/verify.ts), because probes are about exactly the values JSON bends:
 * numbers compare with `Object.is` (so -0 ≠ 0, NaN = NaN), BigInt by value and never equal to a
 * number, Maps and Sets by entries (the gate would call a Map equal to `{}`), class instances
 * must keep their prototype, and differing strings report the first differing character.
 * Like the gate, an `undefined` property counts as absent and Dates compare by time.
 */

const MAX_RENDER = 80;

/** Short type-tagged text of a value: bigint as `1n`, -0, NaN, ±Infinity, Map/Set/class names, lone surrogates escaped. */
export function renderProbeValue(value: unknown): string {
  const clip = (s: string) => (s.length > MAX_RENDER ? s.slice(0, MAX_RENDER - 1) + '…' : s);
  switch (typeof value) {
    case 'undefined':
      return 'undefined (absent)';
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return clip(JSON.stringify(value)) + (value.length > MAX_RENDER ? ` (${value.length} chars)` : '');
    case 'symbol':
      return value.toString();
    case 'function':
      return `function ${value.name || '(anonymous)'}`;
    default:
      break;
  }
  if (value === null) return 'null';
  if (value instanceof Date) return dateText(value);
  if (value instanceof Map) return clip(`Map(${value.size}) ${safeJson([...value])}`);
  if (value instanceof Set) return clip(`Set(${value.size}) ${safeJson([...value])}`);
  const proto = Object.getPrototypeOf(value);
  const cls =
    proto && proto !== Object.prototype && proto !== Array.prototype ? `${proto.constructor?.name ?? 'instance'} ` : '';
  return clip(cls + safeJson(value));
}

/** Marks a number JSON.stringify would write as null (NaN, ±Infinity) or as 0 (-0), or a Date, unquoted again after stringify. */
const NUMBER_MARK = '\u0000num:';

/** A Date as {@link renderProbeValue} shows it: `Date(2024-02-29T12:34:56.789Z)`, `Date(Invalid)`. */
const dateText = (d: Date) => `Date(${Number.isNaN(d.getTime()) ? 'Invalid' : d.toISOString()})`;

function safeJson(value: unknown): string {
  try {
    // a Date inside is shown as one, as at the top (its toJSON runs before the replacer: an Invalid Date read `null`,
    // the very substitute the edge.date.invalid probe fails a serializer for — new user nu13)
    const text = JSON.stringify(value, function (this: Record<string, unknown>, k, v: unknown) {
      const raw = this[k];
      if (raw instanceof Date) return `${NUMBER_MARK}${dateText(raw)}`;
      return typeof v === 'bigint'
        ? `${v}n`
        : typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))
          ? `${NUMBER_MARK}${Object.is(v, -0) ? '-0' : String(v)}`
          : v;
    });
    return text?.replace(/"\\u0000num:([^"]*)"/g, '$1') ?? String(value);
  } catch {
    return '[unserializable: cycle?]';
  }
}

/** Longest key a path spells out whole (a hostile 100,000-character key made 100 KB paths). */
const MAX_KEY_IN_PATH = 40;

function keyPath(path: string, k: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(k) && k.length <= MAX_KEY_IN_PATH) return `${path}.${k}`;
  if (k.length <= MAX_KEY_IN_PATH) return `${path}[${JSON.stringify(k)}]`;
  return `${path}[${JSON.stringify(k.slice(0, 32)).slice(0, -1)}…" (${k.length} chars)]`;
}

function stringMismatch(path: string, e: string, a: string): ProbeMismatch {
  let i = 0;
  while (i < e.length && i < a.length && e.charCodeAt(i) === a.charCodeAt(i)) i++;
  const window = (s: string) =>
    renderProbeValue(s.slice(Math.max(0, i - 8), i + 24)) + (s.length > 32 ? ` (${s.length} chars)` : '');
  return {
    path: e.length > 32 || a.length > 32 ? `${path} (char ${i})` : path,
    expected: window(e),
    actual: window(a),
    raw: { expected: e, actual: a },
  };
}

/** First difference between `expected` and `actual` under the strict rules above, or null when equal. */
export function strictMismatch(
  expected: unknown,
  actual: unknown,
  path = '$',
  seen = new Set<unknown>(),
): ProbeMismatch | null {
  const at = (
    p: string,
    e: unknown,
    a: unknown,
    eText = renderProbeValue(e),
    aText = renderProbeValue(a),
  ): ProbeMismatch => ({ path: p, expected: eText, actual: aText, raw: { expected: e, actual: a } });
  const differ = (): ProbeMismatch => at(path, expected, actual);
  if (typeof expected === 'string' && typeof actual === 'string')
    return expected === actual ? null : stringMismatch(path, expected, actual);
  if (expected === null || actual === null || typeof expected !== 'object' || typeof actual !== 'object') {
    return Object.is(expected, actual) ? null : differ();
  }
  if (seen.has(expected)) return null;
  seen.add(expected);
  if (expected instanceof Date || actual instanceof Date) {
    if (!(expected instanceof Date) || !(actual instanceof Date)) return differ();
    return Object.is(expected.getTime(), actual.getTime()) ? null : differ();
  }
  if (expected instanceof Map || expected instanceof Set) {
    if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) return differ();
    const e = [...expected.entries()];
    const a = actual as Map<unknown, unknown> | Set<unknown>;
    if (e.length !== a.size) return at(`${path}.size`, e.length, a.size);
    for (const [k, v] of e) {
      if (!a.has(k)) return at(`${path}.get(${renderProbeValue(k)})`, v, undefined);
      if (a instanceof Map) {
        const m = strictMismatch(v, a.get(k), `${path}.get(${renderProbeValue(k)})`, seen);
        if (m) return m;
      }
    }
    return null;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) return differ();
  if (Array.isArray(expected)) {
    const a = actual as unknown[];
    // A shorter array lost elements (holes compacted, items dropped): say so before any shifted element.
    if (a.length < expected.length) return at(`${path}.length`, expected.length, a.length);
    for (let i = 0; i < Math.min(expected.length, a.length); i++) {
      const m = strictMismatch(expected[i], a[i], `${path}[${i}]`, seen);
      if (m) return m;
    }
    return expected.length === a.length ? null : at(`${path}.length`, expected.length, a.length);
  }
  const proto = Object.getPrototypeOf(expected);
  if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(actual) !== proto) {
    return at(path, expected, actual, `an instance of ${proto.constructor?.name ?? 'its class'}`);
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  for (const k of Object.keys(e)) {
    if (e[k] === undefined) continue;
    const m = strictMismatch(e[k], own(a, k) ? a[k] : undefined, keyPath(path, k), seen);
    if (m) return m;
  }
  for (const k of Object.keys(a)) {
    if (a[k] !== undefined && !(own(e, k) && e[k] !== undefined)) return at(keyPath(path, k), undefined, a[k]);
  }
  return null;
}
