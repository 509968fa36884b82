/**
 * Read-only module constants (hx8, issue 25: a config, loaded into jsonbench's own process, imported
 * build/src/cli/run.js and build/src/config/policies.js and emptied `NO_NUMBER_STATUSES` and rewrote
 * the policy table; `--fail-on incorrect` then passed an incorrect case and the report said "policy
 * default (1 launch)"). Every exported object, array or table of src/ is frozen through
 * {@link deepFreeze} (or `Object.freeze`) when its module loads, before any user code runs;
 * test/architecture/frozen-exports.test.ts imports every module and fails on one that is not.
 */

/**
 * Freezes `value` and every object and array under it (own data properties, string and symbol keys;
 * accessors are not called) and returns it. Functions under it are left as they are (the object
 * holding one is frozen, so it cannot be swapped); a RegExp is made non-extensible, not frozen (its
 * `lastIndex` is the state a global or sticky match, and zod, write). A Set or a Map
 * cannot be frozen: @throws TypeError naming the key path of one found under `value` (use a frozen
 * array, or a function, instead).
 */
export function deepFreeze<T>(value: T, at = 'value'): T {
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): void => {
    // functions are not followed: freezing one's prototype would break its instances (the override mistake)
    if (v === null || typeof v !== 'object') return;
    const o = v as object;
    if (seen.has(o)) return;
    seen.add(o);
    if (o instanceof Set || o instanceof Map || o instanceof WeakMap || o instanceof WeakSet)
      throw new TypeError(
        `${path} is a ${o.constructor.name}, which cannot be frozen: use a frozen array or a function`,
      );
    // a RegExp keeps `lastIndex` writable (zod sets it before each test: a frozen one threw in its
    // verify); no own property can be added (a config's own `test` or `exec`), and its prototype is
    // watched by the host guard (config/user-config.ts)
    if (o instanceof RegExp) {
      Object.preventExtensions(o);
      return;
    }
    Object.freeze(o);
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (d && 'value' in d) walk(d.value, `${path}.${String(key)}`);
    }
  };
  walk(value, at);
  return value;
}
