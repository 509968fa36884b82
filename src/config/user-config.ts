// jsonbench's statistics library sealed before any config loads (hx4 jstat-patch; case/stats-seal.ts)
import '../case/stats-seal.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import childProcess from 'node:child_process';
import { EventEmitter } from 'node:events';
import asyncHooks from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import stream from 'node:stream';
import net from 'node:net';
import tty from 'node:tty';
import readline from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import { MessagePort, Worker } from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { SerializerAdapter } from '../serializers/types.js';
import { serializers as builtinSerializers } from '../serializers/index.js';
import type { Workload } from '../workloads/types.js';
import { workloads as builtinWorkloads } from '../workloads/index.js';
import { settleWithin, StepTimeout } from '../host/settle.js';
import { defineOwn } from '../case/own-key.js';
import { schemaProblem } from '../workloads/check-schema.js';
import { describeThrown, messageOfThrown } from '../host/describe-thrown.js';
import { markOrigin } from '../host/user-code.js';

/** What a user's `jsonbench.config.*` default-exports: extra adapters and workloads, same interfaces as the built-ins. */
export interface UserConfig {
  serializers: SerializerAdapter[];
  workloads: Workload[];
  /** where `jsonbench run` records its runs (relative to the config file), or false for none; `--ledger`/`--no-ledger` win */
  ledger?: string | false;
}

/**
 * Refuses a serializer id of the user's own config with an `@` after its first character (hx35 c20: `superjson@2.2.7`
 * and `json@node` were filed by `history` under the built-ins: the ledger reads the adapter of a row label as the id
 * before its last `@`, ledger/record.ts). Only the config as the user wrote it (config/compile-config.ts
 * prepareConfig): the version matrix's generated module (versions/variants-module.ts) names its rows `typia@11.0.3`
 * and is loaded by {@link loadUserConfig} too. `@acme/json` (a scope) is allowed.
 * @throws ConfigError naming `file` and `serializers[i].id`
 */
export function refuseVersionLikeIds(file: string, config: Pick<UserConfig, 'serializers'>): void {
  config.serializers.forEach((a, i) => {
    if (a.id.indexOf('@', 1) > 0)
      throw new ConfigError(
        file,
        `serializers[${i}].id`,
        `"${a.id}": an "@" after the first character marks a version row of a serializer (typia@11.0.3, from --serializer typia@11.0.3); give yours an id without one`,
      );
  });
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

/**
 * The longest id a config's serializer or workload may have: ids name table rows, case ids and file
 * names (hx9: a 100,000-character id made every table row ~535 characters wide).
 */
const MAX_ID_LENGTH = 64;

const FAMILIES = ['builtin', 'schema-compiled', 'reflection', 'validator'];
const CLASSES = ['parse', 'validate', 'transform'];
const SHAPES = ['single', 'list', 'many'];

function checkAdapter(file: string, key: string, a: Record<string, unknown>): void {
  if (typeof a.id !== 'string' || !/^[\w@.\-/]+$/.test(a.id) || a.id.length > MAX_ID_LENGTH)
    throw new ConfigError(
      file,
      `${key}.id`,
      `must be a string of 1–${MAX_ID_LENGTH} letters, digits, @ . - _ /${typeof a.id === 'string' && a.id.length > MAX_ID_LENGTH ? ` (it has ${a.id.length} characters)` : ''}`,
    );
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
  if (typeof w.id !== 'string' || !/^[\w.\-]+$/.test(w.id) || w.id.length > MAX_ID_LENGTH)
    throw new ConfigError(
      file,
      `${key}.id`,
      `must be a string of 1–${MAX_ID_LENGTH} letters, digits, . - _${typeof w.id === 'string' && w.id.length > MAX_ID_LENGTH ? ` (it has ${w.id.length} characters)` : ''}`,
    );
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
  // hx18 A33: `fast-json-stringify.` (a trailing dot) read in every table as the built-in it imitates
  const bare = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '');
  entries.forEach((e, i) => {
    // hx23 A03/A10: `__proto__`, `constructor`, `hasOwnProperty` as keys of plain objects broke the probe pass,
    // report.html's charts and its code table
    if (e.id in Object.prototype)
      throw new ConfigError(
        file,
        `${key}[${i}].id`,
        `"${e.id}" is the name of a property every JavaScript object has; give yours another id`,
      );
    if (builtinIds.includes(e.id))
      throw new ConfigError(
        file,
        `${key}[${i}].id`,
        `"${e.id}" is a built-in ${key === 'serializers' ? 'serializer' : 'workload'}; give yours another id`,
      );
    const alike = builtinIds.find((b) => bare(b) === bare(e.id));
    if (alike)
      throw new ConfigError(
        file,
        `${key}[${i}].id`,
        `"${e.id}" reads as the built-in ${key === 'serializers' ? 'serializer' : 'workload'} "${alike}" (they differ only in case or punctuation); give yours an id of its own`,
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
  // a Promise has no own keys, so it read as an empty config and the config's serializers were "unknown" (hx2)
  if (value instanceof Promise || typeof (value as { then?: unknown }).then === 'function')
    throw new ConfigError(
      file,
      'default export',
      'is a Promise (or another thenable): export the config object itself; to compute it first, `export default await makeConfig()` (top-level await)',
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
  // copies: what the host reads later is plain data, read once here (a getter or a Proxy trap runs inside loadUserConfig's guard)
  const adapters = serializers.map((a, i) => {
    at.key = `serializers[${i}]`;
    if (!a || typeof a !== 'object') throw new ConfigError(file, `serializers[${i}]`, 'must be an object');
    const copy = plainEntry(a as object, ADAPTER_METHODS);
    checkAdapter(file, `serializers[${i}]`, copy);
    markOrigin(copy, file);
    return copy;
  });
  at.key = 'serializers';
  checkIds(file, 'serializers', adapters as { id: string }[], builtinSerializers.ids);
  const ws = workloads.map((w, i) => {
    at.key = `workloads[${i}]`;
    if (!w || typeof w !== 'object') throw new ConfigError(file, `workloads[${i}]`, 'must be an object');
    const copy = plainEntry(w as object, WORKLOAD_METHODS);
    checkWorkload(file, `workloads[${i}]`, copy);
    if (!copy.defaultSizes) copy.defaultSizes = copy.sizes;
    if (!copy.description) copy.description = copy.id;
    markOrigin(copy, file);
    return copy;
  });
  // hx33 w7: a workload named "users" ran the built-in's sizes and shapes with the config's build(), said nowhere
  at.key = 'workloads';
  checkIds(file, 'workloads', ws as { id: string }[], builtinWorkloads.ids);
  return {
    serializers: adapters as unknown as SerializerAdapter[],
    workloads: ws as unknown as Workload[],
    ...(ledger !== undefined ? { ledger: ledger as string | false } : {}),
  };
}

/** The functions of an adapter and of a workload that jsonbench calls (found along a class's prototype chain too). */
const ADAPTER_METHODS = ['supports', 'prepare', 'notes'];
const WORKLOAD_METHODS = ['build', 'toModel', 'checkText'];

/**
 * A plain copy of a config's adapter or workload: each own enumerable property read once (a
 * getter runs here, once), data copied deeply ({@link plainData}), functions and `methods` (own
 * or inherited: a class instance's) bound to the original, so they see the `this` they were
 * written for.
 */
function plainEntry(entry: object, methods: readonly string[]): Record<string, unknown> {
  const e = entry as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const seen = new Map<object, unknown>();
  for (const k of Object.keys(e)) defineOwn(out, k, copyValue(e, e[k], seen));
  for (const k of methods) if (!(k in out) && typeof e[k] === 'function') defineOwn(out, k, copyValue(e, e[k], seen));
  return out;
}

function copyValue(owner: object, v: unknown, seen: Map<object, unknown>): unknown {
  return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(owner) : plainData(v, seen);
}

/** Arrays and objects copied as plain arrays and objects (own enumerable keys; a shared or circular value stays shared); anything else as it is. */
function plainData(v: unknown, seen: Map<object, unknown>): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (seen.has(v)) return seen.get(v);
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (let i = 0; i < v.length; i++) out.push(plainData(v[i], seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const k of Object.keys(v)) defineOwn(out, k, plainData((v as Record<string, unknown>)[k], seen));
  return out;
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
    // a thrown value described without trusting it (hx11: `throw Object.create(null)` at a config's top level was
    // "Cannot convert object to primitive value (an internal error…)", the config not named)
    throw new ConfigError(displayName, 'import', messageOfThrown(e));
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
  // its adapters and workloads are read (and copied) under a guard of their own: a getter or a Proxy trap is user code too
  const again = hostSnapshot();
  let config: UserConfig | undefined;
  let thrown: unknown;
  try {
    config = validateUserConfig(displayName, mod.default);
  } catch (e) {
    thrown = e;
  }
  const changed = again();
  if (changed)
    throw new ConfigError(
      displayName,
      'default export',
      `reading its adapters and workloads (a getter, a Proxy) changed ${changed}: jsonbench's own process uses them (put back)`,
    );
  if (thrown instanceof ConfigError) throw thrown;
  if (thrown !== undefined)
    throw new ConfigError(
      displayName,
      'default export',
      `reading it threw (a getter, a Proxy): ${safeMessage(thrown)}`,
    );
  return config!;
}

/** The message of something user code threw, read without letting it throw again. */
function safeMessage(e: unknown): string {
  try {
    const m = (e as { message?: unknown } | null)?.message;
    return typeof m === 'string' ? m : String(e);
  } catch {
    return 'a value whose message cannot be read';
  }
}

/** The own keys of process.stdout and process.stderr watched: what a write goes through. */
const STREAM_KEYS: readonly PropertyKey[] = [
  'write',
  'end',
  '_write',
  '_writev',
  '_writeGeneric',
  '_final',
  'emit',
  'isTTY',
];

/** The prototype of what `start` returns (a Timeout, an Immediate, a Hash), after `stop` ends it. */
function prototypeOf<T extends object>(start: () => T, stop: (x: T) => void = () => {}): object {
  const x = start();
  stop(x);
  return Object.getPrototypeOf(x) as object;
}

/**
 * The prototypes a worker's messages and the results' hashes pass through in the host, each
 * watched as a prototype (hx13: a config's top level captured each launch's channel key from
 * `Writable.prototype.end` as the start message went to the worker's stdin, rewrote the `round`
 * lines the host read and signed them again: an honest serializer 1.84× slower read "faster by
 * 1.39×"; `Writable.prototype.write` wrapped rewrote the recommendation; an `_onTimeout` accessor on
 * Timeout's prototype dropped the case timeouts). With the stream classes' whole chain, readline's
 * Interface, StringDecoder, the timers' and the hashes' prototypes and the worker threads'.
 */
const PIPE_PROTOTYPES: readonly [string, object, 'prototype'][] = [
  ['Stream.prototype', stream.Stream.prototype, 'prototype'],
  ['Readable.prototype', stream.Readable.prototype, 'prototype'],
  ['Writable.prototype', stream.Writable.prototype, 'prototype'],
  ['Duplex.prototype', stream.Duplex.prototype, 'prototype'],
  ['Transform.prototype', stream.Transform.prototype, 'prototype'],
  ['net.Socket.prototype', net.Socket.prototype, 'prototype'],
  ['tty.WriteStream.prototype', tty.WriteStream.prototype, 'prototype'],
  ['tty.ReadStream.prototype', tty.ReadStream.prototype, 'prototype'],
  ['readline.Interface.prototype', readline.Interface.prototype, 'prototype'],
  [
    'readline.Interface.prototype (its base)',
    Object.getPrototypeOf(readline.Interface.prototype) as object,
    'prototype',
  ],
  ['StringDecoder.prototype', StringDecoder.prototype, 'prototype'],
  // whatever stdout and stderr are (a file: fs's SyncWriteStream, whose _write hx13 replaced to rewrite the recommendation)
  ['process.stdout (its prototype)', Object.getPrototypeOf(process.stdout) as object, 'prototype'],
  ['process.stderr (its prototype)', Object.getPrototypeOf(process.stderr) as object, 'prototype'],
  ['Worker.prototype', Worker.prototype, 'prototype'],
  ['MessagePort.prototype', MessagePort.prototype, 'prototype'],
  ['Timeout.prototype', prototypeOf(() => setTimeout(() => {}, 0), clearTimeout), 'prototype'],
  ['Immediate.prototype', prototypeOf(() => setImmediate(() => {}), clearImmediate), 'prototype'],
  ['Hash.prototype', prototypeOf(() => crypto.createHash('sha256')), 'prototype'],
  ['Hmac.prototype', prototypeOf(() => crypto.createHmac('sha256', 'k')), 'prototype'],
];

/**
 * Values of `process` jsonbench's host reads, watched as listed keys (hx17: a throwing getter on
 * `process.platform`, or `process.env` swapped for a Proxy that throws, stopped a run with nothing
 * written). Not `ppid`: Node updates it when the process is re-parented (hx19 O01: a run whose parent
 * shell exited, as under `nohup … &`, measured every case and was then refused as "user code changed
 * process.ppid"), and jsonbench never reads it.
 */
const PROCESS_VALUES: readonly PropertyKey[] = ['env', 'platform', 'arch', 'pid', 'version', 'versions', 'config'];

/**
 * The functions of `process` jsonbench's host calls or Node calls for it (`kill` calls `_kill`;
 * hx13 UK-hang replaced `_kill`), watched as listed keys: every own function at load but `emit` and
 * `reallyExit` (signal-exit, a dependency's dependency, wraps them as it loads).
 */
const PROCESS_FUNCTIONS: readonly PropertyKey[] = Reflect.ownKeys(process).filter(
  (k) =>
    k !== 'emit' && k !== 'reallyExit' && typeof (process as unknown as Record<PropertyKey, unknown>)[k] === 'function',
);

/**
 * What the host guard watches ({@link hostSnapshot}), as `[name, object, kind]`:
 * - `prototype`: every own key (string or symbol) of the prototypes whose keys jsonbench's own
 *   values inherit: a key replaced, deleted or added (a `toJSON` getter on Object.prototype, a
 *   `BigInt.prototype.toJSON`) changes what JSON.stringify writes of every results object;
 * - `namespace`: the own keys of the built-in namespaces and of `node:fs` (the results path:
 *   results.json is written with JSON.stringify and fs's writeFileSync and renameSync): a key
 *   replaced or deleted is a change; a key added is not (a polyfill such as reflect-metadata adds
 *   `Reflect.metadata`, and nothing of jsonbench reads it). Also `Date` (Date.now stamps the run),
 *   `Buffer`, `os` (the load average), `path` and `crypto` (payload hashes);
 * - `globals`: the global object's keys named in {@link GLOBAL_NAMES} (`globalThis.JSON = …`);
 * - `keys`: the keys listed, each replaced, deleted or added (an own `write` on `process.stdout`
 *   shadows the stream's): how the host starts and ends its workers and what it prints (hx12: a
 *   config's top level set `process.execPath` to a script starting node with a `--require` that
 *   slowed `JSON.stringify` in every worker, before the worker's own seal; replaced
 *   `child_process.spawn` the same way; `process.kill = () => true` left a hanging worker
 *   unkillable; `execFileSync` wrapped recorded a forged git commit; `process.stdout.write`
 *   wrapped rewrote the recommendation). `child_process` is watched whole as a namespace, and the
 *   prototypes of ChildProcess (its `spawn` gets the worker's options and environment) and
 *   EventEmitter (every event of a worker's streams passes its `emit`).
 */
const WATCHED: (
  [string, object, 'prototype' | 'namespace' | 'globals' | 'native'] | [string, object, 'keys', readonly PropertyKey[]]
)[] = [
  ['Object.prototype', Object.prototype, 'prototype'],
  ['Array.prototype', Array.prototype, 'prototype'],
  ['String.prototype', String.prototype, 'prototype'],
  ['Number.prototype', Number.prototype, 'prototype'],
  ['Boolean.prototype', Boolean.prototype, 'prototype'],
  ['BigInt.prototype', BigInt.prototype, 'prototype'],
  ['Symbol.prototype', Symbol.prototype, 'prototype'],
  ['Date.prototype', Date.prototype, 'prototype'],
  ['Function.prototype', Function.prototype, 'prototype'],
  ['RegExp.prototype', RegExp.prototype, 'prototype'],
  ['Error.prototype', Error.prototype, 'prototype'],
  ['Map.prototype', Map.prototype, 'prototype'],
  ['Set.prototype', Set.prototype, 'prototype'],
  ['Promise.prototype', Promise.prototype, 'prototype'],
  ['JSON', JSON, 'namespace'],
  ['Object', Object, 'namespace'],
  ['Array', Array, 'namespace'],
  ['String', String, 'namespace'],
  ['Number', Number, 'namespace'],
  ['Math', Math, 'namespace'],
  ['Reflect', Reflect, 'namespace'],
  ['Promise', Promise, 'namespace'],
  ['Date', Date, 'namespace'],
  ['Buffer', Buffer, 'namespace'],
  ['Buffer.prototype', Buffer.prototype, 'prototype'],
  ['Uint8Array.prototype', Uint8Array.prototype, 'prototype'],
  ['TypedArray.prototype', Object.getPrototypeOf(Uint8Array.prototype) as object, 'prototype'],
  ['TextEncoder.prototype', TextEncoder.prototype, 'prototype'],
  ['TextDecoder.prototype', TextDecoder.prototype, 'prototype'],
  ['fs', fs, 'namespace'],
  ['os', os, 'namespace'],
  ['path', path, 'namespace'],
  ['crypto', crypto, 'namespace'],
  ['child_process', childProcess, 'namespace'],
  // how a worker is spawned (options, env: a --require added there) and how its messages reach the host
  ['ChildProcess.prototype', childProcess.ChildProcess.prototype, 'prototype'],
  ['EventEmitter.prototype', EventEmitter.prototype, 'prototype'],
  ...PIPE_PROTOTYPES,
  // not exit or reallyExit: signal-exit (a dependency's dependency) wraps reallyExit as it loads
  ['process', process, 'keys', ['execPath', 'execArgv', 'argv0', ...PROCESS_VALUES, ...PROCESS_FUNCTIONS]],
  // and the stream methods a write goes through (hx16 PF-own: an own _writeGeneric rewrote the recommendation)
  ['process.stdout', process.stdout, 'keys', STREAM_KEYS],
  ['process.stderr', process.stderr, 'keys', STREAM_KEYS],
  ['globalThis', globalThis, 'globals'],
];

/**
 * The global names jsonbench's own code reads (hostile3: a config that set `globalThis.JSON` to a
 * look-alike forged results.json while the old JSON object, which the guard watched, stayed as it
 * was): each is watched on the global object like a namespace key (replaced or deleted is a
 * change). Not the schedulers (setTimeout…): host/user-code.ts replaces them on purpose while user
 * code runs.
 */
const GLOBAL_NAMES: readonly PropertyKey[] = [
  'JSON',
  'Math',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'Date',
  'RegExp',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Promise',
  'Reflect',
  'Proxy',
  'Function',
  'Intl',
  'Buffer',
  'TextEncoder',
  'TextDecoder',
  'Uint8Array',
  'Float64Array',
  'ArrayBuffer',
  'DataView',
  'structuredClone',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'globalThis',
  'process',
  'performance',
  'URL',
];

/** The native bindings whose handle classes the host's workers and output pass through, and the classes watched (hx15). */
const NATIVE_HANDLES: readonly [binding: string, cls: string][] = [
  ['pipe_wrap', 'Pipe'],
  ['tty_wrap', 'TTY'],
  ['tcp_wrap', 'TCP'],
  ['process_wrap', 'Process'],
  ['stream_wrap', 'LibuvStreamWrap'],
  ['stream_wrap', 'ShutdownWrap'],
  ['stream_wrap', 'WriteWrap'],
];

/** The diagnostics channels that hand user code a worker's process or pipes as they are made (hx16). */
const CHANNELS: readonly string[] = [
  'child_process',
  'net.client.socket',
  'net.server.socket',
  'worker_threads',
  'process.spawn',
];

let armed = false;

/**
 * Arms the host guard against Node's native handles (once; jsonbench's own process only: `jsonbench
 * run` calls it before any user code, a worker never does, and neither does a programmatic `run()`,
 * whose caller's process keeps its `process.binding` and async hooks — there the caller's own code
 * shares the process with the results anyway). Under the JavaScript objects the
 * guard watches lie the native handle classes a worker's pipes, its spawn and jsonbench's own
 * output go through; hx14 reached them with `process.binding('pipe_wrap')` (each launch's channel
 * key taken from the Pipe writes and forged rounds re-signed: "faster by 3.17×"; `process_wrap`'s
 * spawn starting every worker with a `--require`; the fs binding's writes rewriting what jsonbench
 * printed), hx15 through any handle's `_handle` (`process.stdout._handle`, a child's pipes, `new
 * ChildProcess()._handle`): the start message rewritten to measure another serializer under the
 * wrong name. Their prototypes (and their bases: LibuvStreamWrap's, where `onread` lives) and the
 * fs binding are watched from here on, with the `_handle` of stdout and stderr; then
 * `process.binding` and `process._linkedBinding` throw in the host (nothing there calls them;
 * lodash and safer-buffer try `binding` inside a try, for Node < 10). In a worker, a serializer's
 * library may still call them.
 */
export function armHost(): void {
  if (armed) return;
  armed = true;
  const binding = (process as unknown as { binding?: (name: string) => Record<string, unknown> }).binding;
  if (typeof binding === 'function') {
    for (const [name, cls] of NATIVE_HANDLES)
      try {
        const proto = (binding.call(process, name)[cls] as { prototype?: object } | undefined)?.prototype;
        if (!proto) continue;
        WATCHED.push([`${name}.${cls}.prototype`, proto, 'native']);
        const base = Object.getPrototypeOf(proto) as object | null;
        if (base && base !== Object.prototype) WATCHED.push([`${name}.${cls}.prototype (its base)`, base, 'native']);
      } catch {
        // a binding this Node does not have
      }
    try {
      WATCHED.push(['fs binding', binding.call(process, 'fs'), 'native']);
    } catch {
      // not reachable: nothing to watch
    }
  }
  for (const [name, stream] of [
    ['process.stdout._handle', process.stdout],
    ['process.stderr._handle', process.stderr],
  ] as const) {
    const handle = (stream as unknown as { _handle?: unknown })._handle;
    if (handle && typeof handle === 'object')
      WATCHED.push([name, handle, 'keys', ['writeUtf8String', 'writeBuffer', 'writev', 'writeLatin1String']]);
  }
  // hx16: handles reached as they are made, not through a prototype: an async hook's init() gets every new
  // PIPEWRAP/PROCESSWRAP, the child_process and net channels every new ChildProcess and socket, and own
  // properties set there shadow the watched prototypes (the start message swapped, keys taken: "faster by 2.51×"
  // for a serializer writing '{}'). createHook throws in the host; the channels' subscribers are watched.
  refuse(
    asyncHooks,
    'createHook',
    'async_hooks.createHook',
    "its hooks see every native handle the host's results pass through",
  );
  // `import { createHook } from 'node:async_hooks'` follows the module object only through this
  syncBuiltinESMExports();
  WATCHED.push(['async_hooks', asyncHooks, 'namespace']);
  WATCHED.push(['diagnostics_channel', diagnosticsChannel, 'namespace']);
  for (const channel of CHANNELS)
    WATCHED.push([`diagnostics_channel '${channel}'`, diagnosticsChannel.channel(channel), 'keys', ['_subscribers']]);
  for (const name of ['binding', '_linkedBinding'] as const)
    if (typeof (process as unknown as Record<string, unknown>)[name] === 'function')
      refuse(process, name, `process.${name}`, "it reaches the native handles the host's results pass through");
}

/** Replaces `object[key]` (a function) by one that throws "`shown` is not available … : `why`" ({@link armHost}). */
function refuse(object: object, key: string, shown: string, why: string): void {
  Object.defineProperty(object, key, {
    value: function refused(): never {
      throw new Error(`${shown} is not available to code in jsonbench's own process: ${why}`);
    },
    writable: true,
    configurable: true,
    enumerable: Object.getOwnPropertyDescriptor(object, key)?.enumerable ?? false,
  });
}

/** Built-ins taken when this module loads, before any user code: the guard itself must not call what it checks. */
const { getOwnPropertyDescriptor, defineProperty, deleteProperty, ownKeys } = Reflect;
const { is } = Object;

/**
 * Takes a snapshot of what the host guard watches ({@link WATCHED}: each own key's value, getter
 * and setter); returns a function that puts back what user code changed since (a replaced or
 * deleted key restored, a key added to a prototype deleted) and names it (`''` when nothing
 * changed: `JSON.stringify`, `Object.prototype.toJSON (added)`, `fs.writeFileSync`). Used around a
 * config's import and around every call into user code in the host (config/host-guard.ts: notes(),
 * a --schema module, a workload's functions; plan/plan.ts: supports()), and as the run's seal
 * (host-guard.ts {@link sealHost}), so user code cannot change the numbers the host writes.
 * About 500 keys: tens of microseconds.
 * @throws ConfigError from the returned function when a change cannot be undone (a non-configurable
 * key): the host's own results could no longer be trusted.
 */
export function hostSnapshot(): () => string {
  const keys: PropertyKey[][] = [];
  const descriptors: (PropertyDescriptor | undefined)[][] = [];
  for (let j = 0; j < WATCHED.length; j++) {
    const o = WATCHED[j][1];
    const listed = WATCHED[j][2] === 'keys' ? WATCHED[j][3] : undefined;
    keys[j] = listed ? [] : ownKeys(o);
    if (listed) for (let i = 0; i < listed.length; i++) keys[j][i] = listed[i];
    if (WATCHED[j][2] === 'globals') {
      const all = keys[j];
      keys[j] = [];
      for (let i = 0; i < all.length; i++)
        for (let n = 0; n < GLOBAL_NAMES.length; n++) if (GLOBAL_NAMES[n] === all[i]) keys[j][keys[j].length] = all[i];
    }
    descriptors[j] = [];
    for (let i = 0; i < keys[j].length; i++) descriptors[j][i] = getOwnPropertyDescriptor(o, keys[j][i]);
  }
  return () => {
    // everything is put back before anything is named, with no method user code could have replaced
    // (no array method, no Map, no String(symbol)): only index assignments and the Reflect functions taken above
    const found: [number, PropertyKey, string, boolean][] = [];
    const note = (j: number, k: PropertyKey, what: string, ok: boolean) => {
      found[found.length] = [j, k, what, ok];
    };
    let builtinChanged = false;
    for (let j = 0; j < WATCHED.length; j++) {
      const [, o, kind] = WATCHED[j];
      const native = kind === 'native';
      for (let i = 0; i < keys[j].length; i++) {
        const k = keys[j][i];
        const d = descriptors[j][i];
        const c = getOwnPropertyDescriptor(o, k);
        if (!c && !d) continue;
        if (c && d && is(c.value, d.value) && c.get === d.get && c.set === d.set) continue;
        // a native handle's internal-field values read as data that changes as handles come and go (`onread` on the
        // stream base reads the last handle's callback; `fd`): only its methods count, and any accessor put in place
        if (
          native &&
          c &&
          d &&
          !('get' in c) &&
          !('get' in d) &&
          ((typeof d.value !== 'function' && typeof c.value !== 'function') ||
            (typeof k === 'string' && k.startsWith('on')))
        )
          continue;
        if (o === fs || o === childProcess) builtinChanged = true;
        // a native handle is never written back (its setters assert on the receiver): the run is refused as it is
        if (native) note(j, k, c ? ' (not put back)' : ' (deleted, not put back)', true);
        // a listed key that was not there (an own `write` shadowing process.stdout's) is removed
        else if (!d) note(j, k, ' (added)', deleteProperty(o, k));
        else note(j, k, c ? '' : ' (deleted)', defineProperty(o, k, d));
      }
      if (kind !== 'prototype' && kind !== 'native') continue;
      const now = ownKeys(o);
      for (let i = 0; i < now.length; i++) {
        let known = false;
        for (let n = 0; n < keys[j].length && !known; n++) known = keys[j][n] === now[i];
        if (!known)
          note(j, now[i], native ? ' (added, not put back)' : ' (added)', native || deleteProperty(o, now[i]));
      }
    }
    // fs's and child_process's named exports follow their objects only through syncBuiltinESMExports: user code that
    // called it is undone the same way
    if (builtinChanged) syncBuiltinESMExports();
    let changed = '';
    for (let f = 0; f < found.length; f++) {
      const [j, k, what, ok] = found[f];
      const named = `${WATCHED[j][0]}${typeof k === 'symbol' ? `[${k.toString()}]` : `.${k}`}${what}`;
      if (!ok)
        throw new ConfigError(
          'the config',
          'process',
          `${named} cannot be put back (non-configurable): jsonbench's own results would no longer be trustworthy`,
        );
      changed += (changed ? ', ' : '') + named;
    }
    return changed;
  };
}
