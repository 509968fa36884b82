import { positionIn } from './position.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * Numbers a JSON text holds that a double cannot (RFC 8259 §6 allows any; IEEE 754 binary64 holds
 * magnitudes from 2^-1074 to about 1.8e308): `1e400` overflows, and JSON.parse reads it as Infinity;
 * a non-zero `0.1e-400` underflows, and JSON.parse reads it as 0. Inference (refine.ts) describes
 * such a field as the number it is and says where the first one is, file:line:column.
 */

/** Text that may hold such a number: an exponent of 3 or more digits, or 300 digits in a row. A cheap filter before the lossless parse. */
export const MAY_LEAVE_DOUBLE = deepFreeze(/\d[eE][+-]?\d{3}|\d{300}/);

/** A JSON number literal as JSON.parse reads it: `overflow` (±Infinity), `underflow` (non-zero, read as 0), or null (a double holds it, rounded or not). */
export function beyondDouble(literal: string): 'overflow' | 'underflow' | null {
  const n = Number(literal);
  if (!Number.isFinite(n)) return 'overflow';
  if (n === 0 && /[1-9]/.test(literal.split(/[eE]/)[0])) return 'underflow';
  return null;
}

/** JSON strings (skipped) and number literals, in text order: a string cannot hide a number from it. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Where `literal` first stands as a number in the samples' texts: `file:line:column` (a record of
 * an NDJSON file, whose source is already `file:line`: `file:line:column`), or undefined.
 */
export function numberPosition(
  samples: readonly { text?: string; source?: string }[],
  literal: string,
): string | undefined {
  for (const s of samples) {
    if (s.text === undefined || !s.text.includes(literal)) continue;
    for (const m of s.text.matchAll(TOKENS)) {
      if (m[0] === literal) return positionIn(s.text, m.index, s.source ?? 'payload');
    }
  }
  return undefined;
}

/**
 * The first number of the units' texts that overflows a double (`1e400`: JSON.parse reads it as
 * ±Infinity), with where it stands (`file:line:column`), or undefined. JSON has no Infinity, so no
 * serializer can write such a value back: a payload holding one cannot be measured serializing
 * (issue 25: every serializer, the baseline too, was called incorrect for writing null).
 */
export function firstOverflow(
  units: readonly { text: string; source: string }[],
): { literal: string; at: string } | undefined {
  for (const u of units) {
    if (!MAY_LEAVE_DOUBLE.test(u.text)) continue;
    for (const m of u.text.matchAll(TOKENS))
      if (m[0][0] !== '"' && beyondDouble(m[0]) === 'overflow')
        return { literal: m[0], at: positionIn(u.text, m.index, u.source) };
  }
  return undefined;
}
