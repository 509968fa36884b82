import type { Mismatch } from './verify.js';

/** A gate failure (gate.ts GateFailure, spelled out here: gate.ts imports this module). */
type GateFailure = Mismatch & { reason: string };

/**
 * Whether a deserializer's result is a real value, materialised when the timed op returns, and not
 * a lazy stand-in that parses when it is read (hostile tester hx2: a "parser" returning a Proxy that
 * called JSON.parse on first read compared equal, since the gate's reads parsed it, and was
 * recommended "215× faster than JSON.parse"; a plain object of getters does the same).
 *
 * Two checks, portable to every JavaScript target (no `node:util` isProxy, which a browser worker
 * lacks):
 * - a Proxy anywhere in the result: `structuredClone` refuses one (V8, JavaScriptCore and
 *   SpiderMonkey throw a DataCloneError); it is about 4× a JSON.parse of the same value (response.json:
 *   0.26 ms vs 0.066 ms, load 19), run by the gate and by the timed checks within their budget.
 *   Where `structuredClone` is missing (QuickJS) this check is skipped. A result the expected value
 *   shares the failure with (a transform's model holding a function) is not blamed;
 * - a getter or setter as an own property where the expected value has a plain value, or no own property at all
 *   (a hole, read through the prototype) where it has a defined one.
 */

/** Taken when this module loads, before any adapter code runs in the worker. */
const clone: ((v: unknown) => unknown) | undefined =
  typeof globalThis.structuredClone === 'function' ? globalThis.structuredClone : undefined;
const { getOwnPropertyDescriptor, ownKeys } = Reflect;
const { isArray } = Array;

/** True when `structuredClone` refuses `v` (a Proxy or a function inside); false when it clones, or there is no structuredClone. */
function refusesClone(v: unknown): boolean {
  if (!clone) return false;
  try {
    clone(v);
    return false;
  } catch {
    return true;
  }
}

/**
 * The first place `out` does not hold as its own value what `expected` holds as one (walked where both have the key
 * as data properties), or undefined: `getter`, an own accessor property where `expected` has a value; `inherited`,
 * no own property where `expected` has a defined value — a hole read through the prototype (hx28 A01: an array of
 * holes whose prototype was a Proxy parsing the text on the first element read, "faster by 26.7×" than JSON.parse;
 * structuredClone copies holes and never looks at a prototype).
 */
function notOwnValueAt(
  expected: unknown,
  out: unknown,
): { path: string; kind: 'getter' | 'inherited' | 'toJSON' } | undefined {
  const stack: [unknown, unknown, string][] = [[expected, out, '$']];
  while (stack.length) {
    const [e, o, path] = stack.pop()!;
    if (o === null || typeof o !== 'object' || e === null || typeof e !== 'object') continue;
    // a toJSON the expected value has not: right when read, other text when written again (hx29 C-tojson)
    if (
      typeof (o as { toJSON?: unknown }).toJSON === 'function' &&
      typeof (e as { toJSON?: unknown }).toJSON !== 'function'
    )
      return { path, kind: 'toJSON' };
    const names = ownKeys(e);
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      if (typeof k !== 'string') continue;
      const de = getOwnPropertyDescriptor(e, k);
      if (!de || de.get || de.set) continue;
      const step = isArray(o) ? `${path}[${k}]` : `${path}.${k}`;
      const d = getOwnPropertyDescriptor(o, k);
      if (!d) {
        if (de.value !== undefined) return { path: step, kind: 'inherited' };
        continue;
      }
      if (d.get || d.set) return { path: step, kind: 'getter' };
      stack.push([de.value, d.value, step]);
    }
  }
  return undefined;
}

/**
 * The gate's failure when `out` (a deserializer's result that compared equal to `expected`) is not
 * materialised: a Proxy somewhere in it, or a getter where a value belongs; null when it is plain.
 * `where` ends the reason (` (record 3)`).
 */
export function unmaterialised(expected: unknown, out: unknown, where = ''): GateFailure | null {
  if (out !== null && typeof out === 'object' && refusesClone(out) && !refusesClone(expected))
    return {
      path: '$',
      expected: 'a plain value',
      actual: 'a value structuredClone refuses (a Proxy)',
      reason: `the result is a Proxy (structuredClone refuses it)${where}: a lazy value computes when read, outside the timed op, so its time is not the parse's`,
    };
  const at = notOwnValueAt(expected, out);
  if (at)
    return {
      path: at.path,
      expected: 'a value',
      actual:
        at.kind === 'getter'
          ? 'a getter'
          : at.kind === 'toJSON'
            ? 'a toJSON method'
            : 'no value of its own (read through its prototype)',
      reason:
        at.kind === 'getter'
          ? `the result has a getter at ${at.path}${where}: a lazy value computes when read, outside the timed op, so its time is not the parse's`
          : at.kind === 'toJSON'
            ? `the result has a toJSON method at ${at.path}${where} that the payload's value has not: JSON.stringify of it writes something else than the payload`
            : `the result holds no value of its own at ${at.path}${where} (it is read through its prototype): a lazy value computes when read, outside the timed op, so its time is not the parse's`,
    };
  return null;
}
