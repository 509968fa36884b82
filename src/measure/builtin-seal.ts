import type { GateFailure } from './gate.js';

/**
 * The worker's seal of the built-ins the baseline calls (hostile tester hx2, false success: a
 * serializer whose prepare() replaced JSON.stringify with one 1.2× slower was ranked "1.16× faster
 * than JSON.stringify"; the `⊘` finding, analysers/baseline-slowed.ts, only catches a baseline
 * slowed 2× or more). A pair launch takes the seal before it loads the user's config
 * (worker/job-seal.ts); the launch compares with it after the sides are prepared, after each round
 * and before `done`: any change, whatever its size, fails the serializer's side as `incorrect`,
 * since its ratio would be measured against a baseline it changed.
 *
 * Watched, by identity and property descriptor (value, getter, setter): the keys of `JSON`; the
 * global names the baseline reaches (`JSON`, `TextEncoder`, `Buffer`, `Uint8Array`, `Object`,
 * `Array`, `String`); every own key of the prototypes whose members JSON.stringify and the UTF-8
 * encoding call or inherit (`Object`, `Array`, `String`, `Number`, `Boolean`, `BigInt`, `Date`,
 * `Function`, `Uint8Array`, the typed-array prototype, `TextEncoder`): a key replaced, deleted or
 * added (a `toJSON` getter on Object.prototype slows every JSON.stringify); and `Buffer`'s own keys
 * (Node, Bun, Deno). Plain JavaScript only (no `node:` import): it runs in every target's worker.
 * About 700 keys: tens of microseconds, outside the timed samples.
 */

/** Taken when this module loads, before any user code runs in the worker. */
const { getOwnPropertyDescriptor, ownKeys } = Reflect;
const { is, getPrototypeOf } = Object;

type Kind = 'prototype' | 'namespace' | 'globals';
const GLOBAL_NAMES = ['JSON', 'TextEncoder', 'Buffer', 'Uint8Array', 'Object', 'Array', 'String'];

/** The objects watched, as `[name, object, kind]` (a missing one, e.g. `Buffer` in a browser, is left out). */
function watched(): [string, object, Kind][] {
  const g = globalThis as Record<string, unknown>;
  const out: [string, object, Kind][] = [
    ['JSON', JSON, 'namespace'],
    ['globalThis', globalThis, 'globals'],
    ['Object.prototype', Object.prototype, 'prototype'],
    ['Array.prototype', Array.prototype, 'prototype'],
    ['String.prototype', String.prototype, 'prototype'],
    ['Number.prototype', Number.prototype, 'prototype'],
    ['Boolean.prototype', Boolean.prototype, 'prototype'],
    ['BigInt.prototype', BigInt.prototype, 'prototype'],
    ['Date.prototype', Date.prototype, 'prototype'],
    ['Function.prototype', Function.prototype, 'prototype'],
    ['Uint8Array.prototype', Uint8Array.prototype, 'prototype'],
    ['TypedArray.prototype', getPrototypeOf(Uint8Array.prototype) as object, 'prototype'],
  ];
  const encoder = (g.TextEncoder as { prototype?: unknown } | undefined)?.prototype;
  if (encoder && typeof encoder === 'object') out.push(['TextEncoder.prototype', encoder, 'prototype']);
  const buffer = g.Buffer;
  if (typeof buffer === 'function') out.push(['Buffer', buffer, 'namespace']);
  return out;
}

/**
 * Takes the seal; returns a function naming what changed since (`''` when nothing did):
 * `JSON.stringify`, `Object.prototype.toJSON (added)`, `globalThis.JSON`. The returned function
 * calls nothing user code can replace (Reflect's and Object's functions taken above, index
 * assignments, string concatenation).
 */
export function sealBuiltins(): () => string {
  const objects = watched();
  const keys: PropertyKey[][] = [];
  const descriptors: (PropertyDescriptor | undefined)[][] = [];
  for (let j = 0; j < objects.length; j++) {
    const [, o, kind] = objects[j];
    const all = ownKeys(o);
    keys[j] = [];
    descriptors[j] = [];
    for (let i = 0; i < all.length; i++) {
      if (kind === 'globals') {
        let named = false;
        for (let n = 0; n < GLOBAL_NAMES.length && !named; n++) named = GLOBAL_NAMES[n] === all[i];
        if (!named) continue;
      }
      keys[j][keys[j].length] = all[i];
      descriptors[j][descriptors[j].length] = getOwnPropertyDescriptor(o, all[i]);
    }
  }
  return () => {
    let changed = '';
    const note = (j: number, k: PropertyKey, what: string) => {
      const name = objects[j][0] + (typeof k === 'symbol' ? '[' + k.toString() + ']' : '.' + k) + what;
      changed += (changed ? ', ' : '') + name;
    };
    for (let j = 0; j < objects.length; j++) {
      const [, o, kind] = objects[j];
      for (let i = 0; i < keys[j].length; i++) {
        const d = descriptors[j][i]!;
        const c = getOwnPropertyDescriptor(o, keys[j][i]);
        if (c && is(c.value, d.value) && c.get === d.get && c.set === d.set) continue;
        note(j, keys[j][i], c ? '' : ' (deleted)');
      }
      if (kind !== 'prototype') continue;
      const now = ownKeys(o);
      for (let i = 0; i < now.length; i++) {
        let known = false;
        for (let n = 0; n < keys[j].length && !known; n++) known = keys[j][n] === now[i];
        if (!known) note(j, now[i], ' (added)');
      }
    }
    return changed;
  };
}

/** The serializer side's failure for `changed` (what {@link sealBuiltins}'s check named), found `when`. */
export function builtinsChanged(changed: string, when: string): GateFailure {
  return {
    path: '$',
    expected: 'the built-ins the baseline calls, as they were',
    actual: changed,
    reason: `it changed built-ins the baseline calls (${when}): ${changed}. Its ratio would be against a baseline it changed; a serializer must use its own copies instead of patching the built-ins`,
  };
}
