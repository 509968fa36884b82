/**
 * What `run()` (src/index.ts) takes as values and the run takes as files: a payload given as a
 * value or a text becomes a file, and serializers given as values become a config module the
 * workers can import (they are separate processes: a function cannot cross to them, so the
 * module that exports the serializers, `from`, is imported there). Kept out of request.ts: the
 * CLI never needs it.
 */
import { bundleBeside, BundleError } from '../files/bundle.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../config/usage-error.js';
import type { RunOptions } from './request.js';
import type { SerializerAdapter } from '../serializers/types.js';

/** The inline parts of run()'s options, before they are files. */
export interface InlineOptions {
  payload?: string | { value: unknown; name?: string } | { text: string; name?: string };
  serializers?: readonly (SerializerAdapter | { readonly id: string })[];
  from?: string | { readonly href: string };
  serializer?: string[];
  config?: string;
  cwd?: string;
  /** file URLs of the modules on the call stack when run() was called (the script calling it among them) */
  callers?: readonly string[];
}

/** How long an already-loaded `from` may take to hand over its exports before it counts as one still waiting on run() (ms). */
const LOADED_MODULE_MS = 1_000;

/** The message when `from` is the script that awaits run() at its top level. */
const SAME_SCRIPT =
  'is the script that calls run() at its top level (top-level await): it has not finished loading while it waits for run(), so jsonbench cannot load its serializers from it. Put the serializers in a module of their own (serializers.mjs) and give that as `from`';

/** Options as the run takes them, and what to remove when it is over. */
export interface Staged {
  options: RunOptions;
  cleanup: () => void;
}

/**
 * Writes the inline payload and serializers of `opts` into a new temporary folder (removed by
 * `cleanup`) and returns options that name those files. Without inline parts the options pass
 * through and nothing is written.
 * @throws UsageError naming `payload` (neither a path, `{ value }` nor `{ text }`; a value JSON
 * cannot write), `serializers` (not adapters with ids; no `from`), `from` (neither a URL nor a path;
 * a `.ts` module that does not compile; the script that awaits run() at its top level, found on
 * `callers` and not handing over its exports within a second)
 */
export async function stageInline<T extends InlineOptions>(opts: T): Promise<Staged> {
  const { serializers, from, payload, callers: _callers, ...rest } = opts;
  void _callers;
  const needsFiles = (payload !== undefined && typeof payload !== 'string') || serializers !== undefined;
  if (!needsFiles)
    return { options: { ...rest, ...(payload !== undefined ? { payload } : {}) } as RunOptions, cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-api-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const out: Record<string, unknown> = { ...rest };
    if (payload !== undefined) out.payload = typeof payload === 'string' ? payload : writePayload(dir, payload);
    if (serializers !== undefined) {
      if (
        !Array.isArray(serializers) ||
        serializers.some((s) => !s || typeof s !== 'object' || typeof s.id !== 'string')
      )
        throw new UsageError('serializers', 'give serializer adapters (defineSerializer values, each with an id)');
      if (from === undefined)
        throw new UsageError(
          'serializers',
          'workers load serializers from a module: give `from`, the URL of the module that exports them (import.meta.url of that module)',
        );
      const given =
        typeof from === 'object' && from !== null && typeof from.href === 'string'
          ? from.href
          : typeof from !== 'string'
            ? undefined
            : /^[a-z]+:/.test(from)
              ? from
              : pathToFileURL(resolve(opts.cwd ?? process.cwd(), from)).href;
      if (given === undefined) throw new UsageError('from', 'give a file URL (import.meta.url, a URL) or a path');
      const onStack = (opts.callers ?? []).includes(given);
      const ts = /\.(c|m)?ts$/.test(given);
      // the script calling run(): a .ts one would be bundled and run again; a .mjs one still waiting on run() never loads
      if (onStack && ts) throw new UsageError('from', `${given} ${SAME_SCRIPT}.`);
      if (onStack && !(await loadsAtOnce(given))) throw new UsageError('from', `${given} ${SAME_SCRIPT}.`);
      const url = ts ? await bundleModule(given, dir) : given;
      const ids = serializers.map((s) => s.id);
      const userConfig = opts.config ? pathToFileURL(resolve(opts.cwd ?? process.cwd(), opts.config)).href : null;
      const module = [
        `import * as source from ${JSON.stringify(url)};`,
        userConfig
          ? `import user from ${JSON.stringify(userConfig)};`
          : 'const user = { serializers: [], workloads: [] };',
        `const ids = ${JSON.stringify(ids)};`,
        'const candidates = Object.values(source).flatMap((v) => (v && Array.isArray(v.serializers) ? v.serializers : [v]));',
        'const picked = ids.map((id) => candidates.find((a) => a && typeof a === "object" && a.id === id));',
        'const missing = ids.filter((id, i) => !picked[i]);',
        `if (missing.length) throw new Error(${JSON.stringify(`${url} exports no serializer with the id `)} + missing.join(", ") + " (run() was given it as a value; export it from that module)");`,
        'export default { ...user, serializers: [...(user.serializers ?? []), ...picked], workloads: user.workloads ?? [] };',
        '',
      ].join('\n');
      const configPath = join(dir, 'jsonbench.config.mjs');
      writeFileSync(configPath, module);
      out.config = configPath;
      if (opts.serializer !== undefined) out.serializer = [...opts.serializer, ...ids];
    }
    return { options: out as RunOptions, cleanup: () => (cleanupBundles(dir), cleanup()) };
  } catch (e) {
    cleanupBundles(dir);
    cleanup();
    throw e;
  }
}

/** True when the module at `url` (already on the call stack) hands over its exports at once: it finished loading. */
async function loadsAtOnce(url: string): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), LOADED_MODULE_MS)));
  try {
    return await Promise.race([import(url).then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bundles written beside their source (so its packages resolve from its own folder), by staging folder: removed with it. */
const bundles = new Map<string, string[]>();

function cleanupBundles(dir: string): void {
  for (const f of bundles.get(dir) ?? []) rmSync(f, { force: true });
  bundles.delete(dir);
}

/**
 * A TypeScript `from` module (`.ts`, `.mts`, `.cts`) as JavaScript workers can import: bundled with
 * esbuild to ESM beside it (its own imports bundled, npm packages left to resolve from its folder),
 * as a `.ts` config is (config/compile-config.ts). Returns the bundle's file URL.
 * @throws UsageError naming `from`, with esbuild's line:column, when it does not compile
 */
async function bundleModule(url: string, dir: string): Promise<string> {
  const file = fileURLToPath(url);
  let out: string;
  try {
    out = await bundleBeside(file, 'from');
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    throw new UsageError('from', `${e.at} does not compile: ${e.text}`);
  }
  bundles.set(dir, [...(bundles.get(dir) ?? []), out]);
  return pathToFileURL(out).href;
}

function writePayload(
  dir: string,
  payload: { value: unknown; name?: string } | { text: string; name?: string },
): string {
  const name = (payload.name ?? 'payload').replace(/[^A-Za-z0-9._-]+/g, '-') || 'payload';
  let text: string;
  if ('text' in payload && typeof payload.text === 'string') text = payload.text;
  else if ('value' in payload) {
    const written = JSON.stringify(payload.value);
    if (written === undefined)
      throw new UsageError('payload', 'its value has no JSON text (undefined, a function or a symbol)');
    text = written;
  } else throw new UsageError('payload', 'give a path, { value } or { text }');
  const path = join(dir, `${name}.json`);
  writeFileSync(path, text);
  return path;
}
