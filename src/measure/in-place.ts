import type { SideChecks } from './timed-check.js';
import { backToBackChanges, type BackToBackChange, type SerializeCheck } from './cache-checks.js';
import { drawn, randomBelow } from './check-schedule.js';

/**
 * The changed-in-place check (issue 9: a serializer that caches its result per input object — a
 * WeakMap — was measured at lookup speed and ranked). The DCE guard alternates two input copies
 * (sink.ts), so such a cache hits on every timed call after the first two: its timing measures the
 * cache, not the work, and its output stays right. After the last round (nothing is timed after it),
 * the serializer is handed one of those same copies, its contents replaced in place by the variant
 * payload's (same shapes, other values: the gate accepted the variant too); its result must be the
 * variant's. A cache keyed by the input object (or by anything the variant changes) returns the
 * old text, and the case fails. The reason says what was seen, not a cause: the variant's contents
 * are then given once more in a fresh object; a right result there means the result follows the
 * input object (a cache per object does that), a wrong one that the serializer went wrong after
 * the gate whatever its input (one that counts its calls does that).
 *
 * Timing the serializer on fresh copies against the reused ones was tried first: the built-ins read
 * 0.02–3.8× (every built-in × the smallest size of each workload, both directions, load average
 * 15–18 on 2 cores) and a WeakMap cache of JSON.stringify on weather-station only 11× under that
 * load: too close to draw a line. This check needs no threshold.
 *
 * What it cannot see: deserialize inputs are strings, which cannot change in place (a cache keyed by
 * the text's content hits on any copy, and no copy can differ from it); a cache that notices the
 * change (a hidden version counter, a deep compare that costs the work anyway); a payload whose
 * variant equals it.
 */

/** Replaces the contents of `target` by those of `source` in place (same identity and prototype); false when it cannot (a primitive). */
export function becomeLike(target: unknown, source: unknown): boolean {
  if (target === null || typeof target !== 'object' || source === null || typeof source !== 'object') return false;
  if (Array.isArray(target) !== Array.isArray(source)) return false;
  if (Array.isArray(target)) {
    target.length = 0;
    for (const x of source as unknown[]) target.push(x);
    return true;
  }
  const t = target as Record<PropertyKey, unknown>;
  for (const k of Reflect.ownKeys(t)) delete t[k];
  // defined, not assigned: an own "__proto__" key stays a key (assigning it would set the prototype)
  for (const k of Object.keys(source))
    Object.defineProperty(t, k, {
      value: (source as Record<string, unknown>)[k],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return true;
}

/**
 * Runs the check for one side of a serialize case. `copy` is one of the timed input copies (one
 * entry per unit), `variant` a fresh copy of the variant payload's inputs (as many units, or fewer:
 * the variant of a large payload is smaller, plan/payloads.ts variantSizeOf), `call` the side's call,
 * `checks` the timed checks against the variant's gated result. The last `variant.length` units of
 * the copy take the variant's contents and are serialized again; the last result must be the
 * variant's last unit's. Returns false when the check could not be made (the variant has more units
 * than the copy, or a unit is not an object), true when it passed.
 * @throws TimedCheckFailure (from `checks.full`) when the result is not the variant's (after one
 *   more call, on a fresh object holding the variant, which chooses the reason's words)
 */
export function checkChangedInPlace(
  copy: readonly unknown[],
  variant: readonly unknown[],
  call: (input: unknown) => unknown,
  checks: SideChecks,
): boolean {
  if (!variant.length || variant.length > copy.length) return false;
  // a copy the serializer froze cannot be changed in place: that is its finding, said before the check breaks on it
  const from = copy.length - variant.length;
  checks.unlocked?.(copy.slice(from), 'before the changed-in-place check');
  for (let i = 0; i < variant.length; i++) if (!becomeLike(copy[from + i], variant[i])) return false;
  let last: unknown;
  for (let i = from; i < copy.length; i++) last = call(copy[i]);
  if (passes(() => checks.full(last, CHANGED_IN_PLACE))) return true;
  // say what was seen, not a guess at why: the variant's contents in a fresh object, called once more
  const fresh = call(variant[variant.length - 1]);
  const what = passes(() => checks.full(fresh, 'a fresh object holding the variant payload'))
    ? 'the result follows the input object, not its contents (a fresh object with the same contents got the right result)'
    : 'the result went wrong after the gate accepted it (a fresh object with the same contents got a wrong result too)';
  checks.full(last, CHANGED_IN_PLACE, what);
  return true;
}

/** Where the check's failure happened, in its reason. */
const CHANGED_IN_PLACE = 'the input it was timed on, changed in place to the variant payload';

/** Whether a check passes (does not throw). */
function passes(check: () => void): boolean {
  try {
    check();
    return true;
  } catch {
    return false;
  }
}

/**
 * Changeable leaves drawn at random per launch for the changes made in place between timed calls (below): a
 * cache validated by probing some leaves misses a change at a leaf it does not probe.
 */
export const RANDOM_LEAF_CHANGES = 3;

/**
 * The changes in place the rounds make between two timed calls (timed-check.ts `roundChange`, one per checked round,
 * in this order, then again from the first): {@link RANDOM_LEAF_CHANGES} leaves drawn at random among those the
 * schema lets change (check-schedule.ts's generator, seeded per launch out of the config's reach; in random order),
 * then the first, a middle and the last such leaf (cache-checks.ts backToBackChanges).
 *
 * Why random leaves (hx8 section 7, cfg8/throttled-sparsecache.config.mjs): a cache keyed by the input object and
 * validated only at the leaves the fixed changes touch (first, middle, last, ±8 around each, and the root's key count)
 * passed the changes in place and — its hit spun to 0.85× of a miss, under the cost checks' 2.5× — read "tsparse
 * looks 1.26× faster". A change at a leaf drawn at random is outside a prober's P probed leaves of L with probability
 * 1 − P/L (users · 1000 · list: 51 of about 10,000 leaves, 99.5%), and a round's output on it must follow it: a
 * cache whose hit probes fewer leaves than it would take to see every change is caught whatever its hit costs; one
 * that probes every leaf costs a walk of the input (see docs/limits.md, "A cache that probes some leaves").
 */
export function roundChanges(c: Pick<SerializeCheck, 'view' | 'wire' | 'wireInput' | 'inputOf'>): BackToBackChange[] {
  const random = backToBackChanges(c, (xs) => shuffled(drawn(xs, RANDOM_LEAF_CHANGES)));
  return [...random, ...backToBackChanges(c)];
}

/** `xs` in random order (a copy). */
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
