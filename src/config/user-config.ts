import { pathToFileURL } from 'node:url';
import type { SerializerAdapter } from '../serializers/types.js';
import { serializers as builtinSerializers } from '../serializers/index.js';
import type { Workload } from '../workloads/types.js';
import { settleWithin, StepTimeout } from './settle.js';
import { schemaProblem } from '../workloads/check-schema.js';
import { describeThrown } from '../host/describe-thrown.js';
import { markOrigin } from '../host/user-code.js';

/** What a user's `jsonbench.config.*` default-exports: extra adapters and workloads, same interfaces as the built-ins. */
export interface UserConfig {
  serializers: SerializerAdapter[];
  workloads: Workload[];
  /** where `jsonbench run` records its runs (relative to the config file), or false for none; `--ledger`/`--no-ledger` win */
  ledger?: string | false;
}

/** A config file that does not have the expected shape; `key` names the offending entry. */
export class ConfigError extends Error {
  readonly code = 'E_CONFIG';
  constructor(
    readonly file: string,
    readonly key: string,
    problem: string,
  ) {
    super(`${file}: ${key}: ${problem}`);
  }
}

const FAMILIES = ['builtin', 'schema-compiled', 'reflection', 'validator'];
const CLASSES = ['parse', 'validate', 'transform'];
const SHAPES = ['single', 'list', 'many'];

function checkAdapter(file: string, key: string, a: Record<string, unknown>): void {
  if (typeof a.id !== 'string' || !/^[\w@.\-/]+$/.test(a.id))
    throw new ConfigError(file, `${key}.id`, 'must be a non-empty string of letters, digits, @ . - _ /');
  if (!FAMILIES.includes(a.family as string))
    throw new ConfigError(file, `${key}.family`, `must be one of ${FAMILIES.join(', ')}`);
  if (a.deserializeClass !== undefined && !CLASSES.includes(a.deserializeClass as string))
    throw new ConfigError(file, `${key}.deserializeClass`, `must be one of ${CLASSES.join(', ')}`);
  // An adapter without `directions` serves what it has a class for: serialize, and deserialize when it names its class.
  a.directions ??= a.deserializeClass === undefined ? ['serialize'] : ['serialize', 'deserialize'];
  const directions = a.directions as unknown;
  if (
    !Array.isArray(directions) ||
    directions.length === 0 ||
    !directions.every((d) => d === 'serialize' || d === 'deserialize')
  )
    throw new ConfigError(file, `${key}.directions`, 'must be a non-empty array of serialize, deserialize');
  if (directions.includes('deserialize') && a.deserializeClass === undefined)
    throw new ConfigError(file, `${key}.deserializeClass`, `is needed to deserialize: one of ${CLASSES.join(', ')}`);
  if (typeof a.supports !== 'function')
    throw new ConfigError(file, `${key}.supports`, 'must be a function (workload, direction) => true | reason');
  if (typeof a.prepare !== 'function')
    throw new ConfigError(
      file,
      `${key}.prepare`,
      'must be a function (workload, direction) => { serialize?, deserialize? }',
    );
}

function checkWorkload(file: string, key: string, w: Record<string, unknown>): void {
  if (typeof w.id !== 'string' || !/^[\w.\-]+$/.test(w.id))
    throw new ConfigError(file, `${key}.id`, 'must be a non-empty string of letters, digits, . - _');
  const sizes = w.sizes as unknown;
  if (!Array.isArray(sizes) || sizes.length === 0 || !sizes.every((n) => Number.isInteger(n) && n > 0))
    throw new ConfigError(file, `${key}.sizes`, 'must be a non-empty array of positive integers');
  const defaults = (w.defaultSizes ?? sizes) as unknown;
  if (!Array.isArray(defaults) || !defaults.every((n) => sizes.includes(n)))
    throw new ConfigError(file, `${key}.defaultSizes`, 'must be a subset of sizes');
  const shapes = w.shapes as unknown;
  if (!Array.isArray(shapes) || shapes.length === 0 || !shapes.every((s) => SHAPES.includes(s)))
    throw new ConfigError(file, `${key}.shapes`, `must be a non-empty array of ${SHAPES.join(', ')}`);
  // checked here, at load: an adapter given a malformed schema fails with its library's internal message
  const bad = schemaProblem(w.schema);
  if (bad) throw new ConfigError(file, `${key}.${bad.path}`, bad.problem);
  if (typeof w.build !== 'function')
    throw new ConfigError(file, `${key}.build`, 'must be a function (size, seed) => value');
}

/**
 * A user's id must not shadow a built-in one (the host and the workers would then disagree on
 * which one a case means) nor repeat within the config. @throws ConfigError naming the key.
 */
function checkIds(file: string, key: string, entries: readonly { id: string }[], builtinIds: readonly string[]): void {
  const seen = new Map<string, number>();
  entries.forEach((e, i) => {
    if (builtinIds.includes(e.id))
      throw new ConfigError(
        file,
        `${key}[${i}].id`,
        `"${e.id}" is a built-in ${key === 'serializers' ? 'serializer' : 'workload'}; give yours another id`,
      );
    if (seen.has(e.id))
      throw new ConfigError(file, `${key}[${i}].id`, `"${e.id}" repeats ${key}[${seen.get(e.id)}].id`);
    seen.set(e.id, i);
  });
}

/**
 * Validates a config module's default export; returns a plain copy of its shape (its arrays
 * copied, so a Proxy or a getter is read once, here), each adapter and workload marked as the
 * file's (host/user-code.ts: messages about their hooks name it).
 * @throws ConfigError naming the file and key: a wrong shape, a workload schema that is not a
 * schema node (with the path of the bad node), or reading the export threw (a getter, a Proxy)
 */
export function validateUserConfig(file: string, value: unknown): UserConfig {
  const at = { key: 'default export' };
  try {
    return validateShape(file, value, at);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(
      file,
      at.key,
      `reading it threw: ${describeThrown(e)} (a getter that throws, or a Proxy?); a config default-exports a plain object { serializers?, workloads?, ledger? }`,
    );
  }
}

/** {@link validateUserConfig}'s checks; `at.key` is the key being read, for an exception a getter throws. */
function validateShape(file: string, value: unknown, at: { key: string }): UserConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(
      file,
      'default export',
      `must be an object { serializers?: [adapters], workloads?: [workloads], ledger? }; it is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : value === undefined ? 'missing (export default { … })' : `a ${typeof value}`}`,
    );
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v))
    if (k !== 'serializers' && k !== 'workloads' && k !== 'ledger')
      throw new ConfigError(file, k, 'unknown key (expected serializers, workloads, ledger)');
  at.key = 'ledger';
  const ledger = v.ledger;
  if (ledger !== undefined && ledger !== false && (typeof ledger !== 'string' || !ledger))
    throw new ConfigError(file, 'ledger', 'must be a path (string) or false');
  at.key = 'serializers';
  const given = { serializers: v.serializers ?? [], workloads: v.workloads ?? [] };
  if (!Array.isArray(given.serializers)) throw new ConfigError(file, 'serializers', 'must be an array of adapters');
  at.key = 'workloads';
  if (!Array.isArray(given.workloads)) throw new ConfigError(file, 'workloads', 'must be an array of workloads');
  at.key = 'serializers';
  const serializers = [...(given.serializers as unknown[])];
  at.key = 'workloads';
  const workloads = [...(given.workloads as unknown[])];
  serializers.forEach((a, i) => {
    at.key = `serializers[${i}]`;
    if (!a || typeof a !== 'object') throw new ConfigError(file, `serializers[${i}]`, 'must be an object');
    checkAdapter(file, `serializers[${i}]`, a as Record<string, unknown>);
    markOrigin(a, file);
  });
  at.key = 'serializers';
  checkIds(file, 'serializers', serializers as { id: string }[], builtinSerializers.ids);
  workloads.forEach((w, i) => {
    at.key = `workloads[${i}]`;
    if (!w || typeof w !== 'object') throw new ConfigError(file, `workloads[${i}]`, 'must be an object');
    const workload = w as Record<string, unknown>;
    checkWorkload(file, `workloads[${i}]`, workload);
    if (!workload.defaultSizes) workload.defaultSizes = workload.sizes;
    if (!workload.description) workload.description = workload.id;
    markOrigin(workload, file);
  });
  return {
    serializers: serializers as SerializerAdapter[],
    workloads: workloads as Workload[],
    ...(ledger !== undefined ? { ledger: ledger as string | false } : {}),
  };
}

/**
 * How long importing a config may take (ms). A config that imports its libraries loads in well
 * under a second; 30 s only stops one whose top-level code waits on something that never comes.
 */
export const CONFIG_LOAD_TIMEOUT_MS = 30_000;

/**
 * Imports an ES module config (already compiled to JavaScript; see compile-config.ts) and
 * validates it. @throws ConfigError naming the file (and key) on a bad export or import failure,
 * and when the import does not settle within `timeoutMs` or never can (a top-level `await` that
 * never settles: without this, Node would exit 0 having done nothing).
 */
export async function loadUserConfig(
  modulePath: string,
  displayName = modulePath,
  timeoutMs = CONFIG_LOAD_TIMEOUT_MS,
): Promise<UserConfig> {
  let mod: { default?: unknown };
  const restore = hostSnapshot();
  try {
    mod = await settleWithin(
      import(pathToFileURL(modulePath).href) as Promise<{ default?: unknown }>,
      timeoutMs,
      'loading it',
    );
  } catch (e) {
    if (e instanceof StepTimeout) throw new ConfigError(displayName, 'import', e.message);
    throw new ConfigError(displayName, 'import', (e as Error)?.message ?? String(e));
  } finally {
    const replaced = restore();
    // thrown from finally on purpose: a config that patched built-ins is refused whatever else it did
    if (replaced.length) {
      throw new ConfigError(
        displayName,
        'import',
        `changed ${replaced} while loading: jsonbench's own process (the gate, the reports, results.json) uses them, so a config must not patch built-ins at its top level (they were put back; patch them inside prepare() or build() if a serializer needs it)`,
      );
    }
  }
  return validateUserConfig(displayName, mod.default);
}

/** Prototypes whose own keys jsonbench's host relies on: a key added to one (a `toJSON` getter on Object.prototype) changes what JSON.stringify writes of every results object. */
const GUARDED_PROTOTYPES: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
  ['Date.prototype', Date.prototype],
];

/**
 * Takes a snapshot of the built-ins jsonbench's host uses ({@link GUARDED}: replaced functions) and
 * of the own keys of {@link GUARDED_PROTOTYPES}; returns a function that puts back what user code
 * changed since (replaced built-ins restored, added prototype keys deleted) and names it (`''` when
 * nothing changed). Used around a config's import and around every call into user code in the host
 * (plan/plan.ts: supports()), so a config cannot change the numbers the host writes.
 * @throws ConfigError from the returned function when an added key cannot be deleted (non-configurable):
 * the host's own results could no longer be trusted.
 */
export function hostSnapshot(): () => string {
  const before: unknown[] = [];
  for (const [, o, k] of GUARDED) before.push(o[k]);
  const keys = GUARDED_PROTOTYPES.map(([, p]) => new Set(Reflect.ownKeys(p)));
  return () => {
    // plain loops and string concatenation: user code may have replaced the array methods
    let changed = '';
    for (let i = 0; i < GUARDED.length; i++) {
      const [name, o, k] = GUARDED[i];
      if (o[k] !== before[i]) {
        o[k] = before[i];
        changed += (changed ? ', ' : '') + name;
      }
    }
    for (let j = 0; j < GUARDED_PROTOTYPES.length; j++) {
      const [name, p] = GUARDED_PROTOTYPES[j];
      const now = Reflect.ownKeys(p);
      for (let i = 0; i < now.length; i++) {
        const k = now[i];
        if (keys[j].has(k)) continue;
        const what = `${name}.${String(k)} (added)`;
        changed += (changed ? ', ' : '') + what;
        if (!Reflect.deleteProperty(p, k))
          throw new ConfigError(
            'the config',
            'process',
            `${what} cannot be removed (non-configurable): jsonbench's own results would no longer be trustworthy`,
          );
      }
    }
    return changed;
  };
}

/**
 * Built-ins jsonbench's host calls on results and reports, checked around a config's import (issue 9:
 * a config replacing JSON.stringify crashed `list` as an "internal error"; one replacing it with a
 * wrong function could corrupt results.json). Adding new globals (a polyfill such as
 * reflect-metadata) is fine; replacing one of these is refused, and it is put back.
 */
const GUARDED: [string, Record<string, unknown>, string][] = [
  ...['parse', 'stringify'].map((k): [string, Record<string, unknown>, string] => [
    `JSON.${k}`,
    JSON as unknown as Record<string, unknown>,
    k,
  ]),
  ...[
    'keys',
    'entries',
    'values',
    'assign',
    'defineProperty',
    'getPrototypeOf',
    'getOwnPropertyNames',
    'fromEntries',
  ].map((k): [string, Record<string, unknown>, string] => [
    `Object.${k}`,
    Object as unknown as Record<string, unknown>,
    k,
  ]),
  ['Array.isArray', Array as unknown as Record<string, unknown>, 'isArray'],
  ...[
    'push',
    'map',
    'filter',
    'join',
    'slice',
    'sort',
    'some',
    'every',
    'find',
    'includes',
    'flatMap',
    'forEach',
    'reduce',
  ].map((k): [string, Record<string, unknown>, string] => [
    `Array.prototype.${k}`,
    Array.prototype as unknown as Record<string, unknown>,
    k,
  ]),
  ...['slice', 'replace', 'split', 'padStart', 'padEnd', 'startsWith', 'includes', 'toFixed']
    .filter((k) => k in String.prototype)
    .map((k): [string, Record<string, unknown>, string] => [
      `String.prototype.${k}`,
      String.prototype as unknown as Record<string, unknown>,
      k,
    ]),
  ['Number.prototype.toFixed', Number.prototype as unknown as Record<string, unknown>, 'toFixed'],
  ...['max', 'min', 'round', 'sqrt', 'log', 'exp'].map((k): [string, Record<string, unknown>, string] => [
    `Math.${k}`,
    Math as unknown as Record<string, unknown>,
    k,
  ]),
  ...['get', 'set', 'has'].map((k): [string, Record<string, unknown>, string] => [
    `Map.prototype.${k}`,
    Map.prototype as unknown as Record<string, unknown>,
    k,
  ]),
];
