/**
 * The correctness gate: value equality with the first differing JSON path. Serializer output is
 * compared as a value (`JSON.parse(output)`), never as bytes, since key order and number spelling
 * may differ. Dates compare by time; `undefined` properties count as absent (as JSON drops them);
 * arrays compare by length then element.
 */
export interface Mismatch {
  /** JSONPath-like location of the first difference, e.g. `$.sensors[0].data[0].temp` */
  path: string;
  /** short renderings of the expected and actual values at that path */
  expected: string;
  actual: string;
}

const MAX_RENDER = 80;

/** Short text of a value for a mismatch report (type-tagged so "1" and 1 differ visibly). */
export function renderValue(value: unknown): string {
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'Invalid' : value.toISOString()})`;
  if (value === undefined) return 'undefined (absent)';
  let text: string;
  try { text = JSON.stringify(value) ?? String(value); } catch { text = String(value); }
  return text.length > MAX_RENDER ? text.slice(0, MAX_RENDER - 1) + '…' : text;
}

function key(path: string, k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
}

/** First difference between `expected` and `actual`, or null when they are equal. */
export function firstMismatch(expected: unknown, actual: unknown, path = '$'): Mismatch | null {
  const differ = (): Mismatch => ({ path, expected: renderValue(expected), actual: renderValue(actual) });
  if (expected instanceof Date || actual instanceof Date) {
    if (!(expected instanceof Date) || !(actual instanceof Date)) return differ();
    return expected.getTime() === actual.getTime() ? null : differ();
  }
  if (expected === null || actual === null || typeof expected !== 'object' || typeof actual !== 'object') {
    return Object.is(expected, actual) || (expected === 0 && actual === 0) ? null : differ();
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) return differ();
  if (Array.isArray(expected)) {
    const a = actual as unknown[];
    const n = Math.min(expected.length, a.length);
    for (let i = 0; i < n; i++) {
      const m = firstMismatch(expected[i], a[i], `${path}[${i}]`);
      if (m) return m;
    }
    if (expected.length !== a.length) return { path: `${path}.length`, expected: String(expected.length), actual: String(a.length) };
    return null;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (e[k] === undefined) continue;
    const m = firstMismatch(e[k], a[k], key(path, k));
    if (m) return m;
  }
  for (const k of Object.keys(a)) {
    if (a[k] !== undefined && !(k in e && e[k] !== undefined)) return { path: key(path, k), expected: 'undefined (absent)', actual: renderValue(a[k]) };
  }
  return null;
}
