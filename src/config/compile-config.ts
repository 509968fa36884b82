import { bundleBeside, BundleError } from '../files/bundle.js';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { makeFolder } from '../files/make-folder.js';
import { extname, join, resolve } from 'node:path';
import {
  ConfigError,
  CONFIG_LOAD_TIMEOUT_MS,
  loadUserConfig,
  refuseVersionLikeIds,
  type UserConfig,
} from './user-config.js';
import { callUserCodeAsync, registerUserFile, UserCodeError } from '../host/user-code.js';
import { UsageError } from './usage-error.js';
import { guardWorkloadHooks } from './host-guard.js';
import { deepFreeze } from '../case/frozen.js';

/** The extensions a config may have: a module Node imports (.mjs, .js, .cjs) or one esbuild bundles first (.ts, .mts, .cts). */
const CONFIG_EXTENSIONS = /\.(?:[mc]?js|[mc]?ts)$/i;
/** A config esbuild bundles before it is imported. */
const TYPESCRIPT = /\.[mc]?ts$/i;

/** Config file names looked for in the working directory, in order. */
export const CONFIG_NAMES = deepFreeze(['jsonbench.config.ts', 'jsonbench.config.mjs', 'jsonbench.config.js']);

/** The config file to use: `--config` if given (must exist), else the first of {@link CONFIG_NAMES} in `cwd`, else null. */
export function findConfig(cwd: string, explicit?: string): string | null {
  if (explicit !== undefined) {
    // `--config ""` (an unset variable in CI) would otherwise fall back to the working directory's config, or none, without a word
    if (!explicit.trim())
      throw new UsageError('--config', 'is empty: give the config file (jsonbench.config.ts, .mjs or .js)');
    const p = resolve(cwd, explicit);
    if (!existsSync(p)) throw new ConfigError(explicit, 'file', 'not found');
    if (statSync(p).isDirectory())
      throw new ConfigError(
        explicit,
        'file',
        'is a folder; give the config file itself (jsonbench.config.ts, .mjs or .js)',
      );
    if (!CONFIG_EXTENSIONS.test(p))
      throw new ConfigError(
        explicit,
        'file',
        `a config is a JavaScript/TypeScript module (jsonbench.config.mjs|ts) default-exporting { serializers?, workloads?, ledger? }, not a ${extname(p) || 'file without an extension'}${extname(p).toLowerCase() === '.json' ? ' (a JSON file cannot hold the functions an adapter or a workload needs)' : ''}`,
      );
    return p;
  }
  for (const name of CONFIG_NAMES) if (existsSync(join(cwd, name))) return join(cwd, name);
  return null;
}

/**
 * Makes a config loadable by workers: a `.ts` file is bundled to ESM with esbuild into `outDir`
 * (its own imports bundled too; npm packages left external and resolved from the config's folder
 * through `nodePaths`-free `packages: 'external'`, so it is written next to the config), `.mjs` and
 * `.js` are used as they are. Returns the module path workers import, and the loaded config.
 * @throws ConfigError naming the file, with esbuild's line:column for syntax errors.
 */
export async function prepareConfig(file: string, outDir: string): Promise<{ modulePath: string; config: UserConfig }> {
  let modulePath = file;
  if (TYPESCRIPT.test(file)) {
    makeFolder(outDir);
    // unique per process, so two jsonbench commands in one folder never delete each other's module;
    // esbuild only for a .ts config (files/bundle.ts imports it): `jsonbench list` and the rest never load it
    try {
      modulePath = await bundleBeside(file, 'compiled');
    } catch (e) {
      if (!(e instanceof BundleError)) throw e;
      throw new ConfigError(e.at, 'syntax', e.text);
    }
  }
  try {
    // the watchdog stops a config whose top level loops synchronously (settleWithin's timer cannot fire then);
    // what its top level leaves running (a timer that throws later) is attributed to it (host/user-code.ts);
    // loadUserConfig checks the host snapshot around its import and around reading its values (config/host-guard.ts)
    registerUserFile(modulePath, file);
    const config = await callUserCodeAsync(
      { file, hook: "the config's top level" },
      CONFIG_LOAD_TIMEOUT_MS + 5_000,
      () => loadUserConfig(modulePath, file),
    );
    refuseVersionLikeIds(file, config);
    // this is the host's copy: a workload function it calls (the .NET gate's toModel, checkText) runs guarded
    return { modulePath, config: { ...config, workloads: config.workloads.map(guardWorkloadHooks) } };
  } catch (e) {
    if (modulePath !== file) rmSync(modulePath, { force: true });
    if (e instanceof UserCodeError) throw new ConfigError(file, 'import', e.message);
    if (
      modulePath === file &&
      e instanceof ConfigError &&
      /SyntaxError|Unexpected|Invalid or unexpected|missing \)/.test(e.message)
    )
      await throwSyntaxAt(file);
    throw e;
  }
}

/**
 * A `.mjs`/`.js` config Node could not parse: Node's import error has no line or column, so the
 * file is parsed again with esbuild for the first error's position. Throws ConfigError
 * `file:line:column: syntax: …` when esbuild finds one; returns otherwise.
 */
async function throwSyntaxAt(file: string): Promise<void> {
  const { transform } = await import('esbuild');
  try {
    await transform(readFileSync(file, 'utf8'), { loader: 'js', format: 'esm', logLevel: 'silent' });
  } catch (e) {
    const first = ((e as { errors?: { text: string; location?: { line: number; column: number } }[] }).errors ?? [])[0];
    if (first?.location)
      throw new ConfigError(`${file}:${first.location.line}:${first.location.column}`, 'syntax', first.text);
  }
}
