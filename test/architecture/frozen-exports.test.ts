import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Every exported object of src/ is read-only all the way down (hx8, issue 25: a config runs in
 * jsonbench's own process and can import any module under build/src/; it emptied `NO_NUMBER_STATUSES`
 * and rewrote the policy table, and `--fail-on incorrect` passed an incorrect case). This test imports
 * every compiled module and walks each export that is not a function: every object and array under it
 * must be frozen (own data properties; accessors are not called, functions are not followed), and none
 * may be a Set or a Map (they cannot be frozen). A new exported table fails here until it is frozen
 * (src/case/frozen.ts deepFreeze) or listed below with why.
 */

/** build/src/ (tests run from build/test/architecture/). */
const BUILD_SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Modules not imported, each with why: importing one does something (the CLI runs, a worker waits
 * for its job). Their exports are still checked where another module re-exports them.
 */
const NOT_IMPORTED: Readonly<Record<string, string>> = {
  'worker/main.js': 'a worker process entry: reads its job and exits when imported (no exports)',
  'instructions/count-entry.js': 'the entry valgrind runs: counts a case and exits when imported (no exports)',
  'runtimes/quickjs-runner.js': "QuickJS's runner process entry: runs its job and exits when imported (no exports)",
  'plan/build-thread.js':
    'a worker thread entry: builds its payload and posts it to its parent when imported (no exports)',
  'payload/constraint-thread.js':
    'a worker thread entry: checks a payload against a schema and posts the answer when imported (no exports)',
};

/**
 * Exports that are not deeply frozen, on purpose: `module.js:name` → why a config's change to it
 * cannot reach a result. Keep it short: every entry is a way in.
 */
const ALLOWED_MUTABLE: Readonly<Record<string, string>> = {};

/** Folders not imported, each with why. */
const NOT_IMPORTED_FOLDERS: Readonly<Record<string, string>> = {
  'serializers/typia/templates':
    "typia's input: the build generates serializers/typia/generated/ from these; untransformed, they throw when imported (nothing imports them)",
};

function moduleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const rel = relative(BUILD_SRC, path).split(sep).join('/');
    if (statSync(path).isDirectory()) return rel in NOT_IMPORTED_FOLDERS ? [] : moduleFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

/** The first thing under `value` that is not read-only, as `path: why`, or undefined. */
function firstMutable(value: object, path: string): string | undefined {
  const seen = new Set<object>();
  const stack: [object, string][] = [[value, path]];
  while (stack.length) {
    const [o, at] = stack.pop()!;
    if (seen.has(o)) continue;
    seen.add(o);
    if (o instanceof Set || o instanceof Map || o instanceof WeakMap || o instanceof WeakSet)
      return `${at}: a ${o.constructor.name} (it cannot be frozen: use a frozen array or a function)`;
    // a RegExp keeps lastIndex writable (libraries write it: src/case/frozen.ts); nothing may be added to it
    if (o instanceof RegExp) {
      if (Object.isExtensible(o)) return `${at}: a RegExp that can be extended (its own test or exec)`;
      continue;
    }
    if (!Object.isFrozen(o)) return `${at}: not frozen`;
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key)!;
      if ('value' in d && d.value !== null && typeof d.value === 'object')
        stack.push([d.value as object, `${at}.${String(key)}`]);
    }
  }
  return undefined;
}

test('every exported object of src/ is deeply frozen before any config can reach it (hx8: a config rewrote them)', async () => {
  const files = moduleFiles(BUILD_SRC);
  assert.ok(files.length > 300, `only ${files.length} modules under ${BUILD_SRC}: is the build there?`);
  const found: string[] = [];
  const checked: string[] = [];
  for (const file of files) {
    const rel = relative(BUILD_SRC, file).split(sep).join('/');
    if (rel in NOT_IMPORTED) continue;
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (e) {
      found.push(`${rel}: cannot be imported: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    for (const [name, value] of Object.entries(mod)) {
      if (value === null || typeof value !== 'object') continue;
      // another module's namespace (`export * as x`): that module is checked itself
      if ((value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module') continue;
      const key = `${rel}:${name}`;
      checked.push(key);
      if (key in ALLOWED_MUTABLE) continue;
      const bad = firstMutable(value, key);
      if (bad) found.push(bad);
    }
  }
  assert.deepEqual(found, [], `exported objects a config could change:\n${found.join('\n')}`);
  // the two hx8 changed are among those checked (the walk reached them)
  for (const key of ['cli/run.js:NO_NUMBER_STATUSES', 'config/policies.js:policies'])
    assert.ok(checked.includes(key), `${key} was not checked`);
  for (const key of Object.keys(ALLOWED_MUTABLE))
    assert.ok(checked.includes(key), `${key} is allowed but not exported`);
});

test('a config cannot change the policy table or the no-number statuses: each assignment throws', async () => {
  const { policies } = await import('../../src/config/policies.js');
  const { NO_NUMBER_STATUSES } = await import('../../src/cli/run.js');
  assert.throws(() => {
    (policies.default as { launches: number }).launches = 1;
  }, TypeError);
  assert.throws(() => {
    (policies.quick.measure as { confidence: number }).confidence = 0.5;
  }, TypeError);
  assert.throws(() => {
    (policies as Record<string, unknown>).default = policies.quick;
  }, TypeError);
  assert.throws(() => {
    (NO_NUMBER_STATUSES as unknown as string[]).length = 0;
  }, TypeError);
  assert.equal(policies.default.launches, 2);
  assert.equal(policies.quick.measure.confidence, 0.999);
  assert.deepEqual([...NO_NUMBER_STATUSES], ['incorrect', 'failed', 'timeout', 'crashed']);
});
