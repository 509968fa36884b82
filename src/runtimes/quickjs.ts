import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedCommand } from './pinning.js';
import { launchCommand, type WorkerCommand } from './launch.js';
import { bundleWorker } from './bundle.js';
import { npmInstall, runtimeDir } from './cache.js';
import { TargetError, type Detection, type Target } from './types.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * QuickJS's own stack limit (bytes). WebAssembly frames also use the host thread's native stack,
 * and QuickJS's JSON recursion uses more of it per level than of its own stack: with Node's
 * default ~1 MB native stack, nesting 20 000 deep trapped the host before QuickJS noticed. With
 * {@link QUICKJS_RUNNER_FLAGS} and 256 KiB here, nesting 1 000 deep parses and anything from
 * 20 000 to 1 000 000 deep ends in QuickJS's clean `RangeError: Maximum call stack size exceeded`
 * (measured with quickjs-ng 0.12.1; 512 KiB already let 200 000 deep trap the host).
 */
export const QUICKJS_STACK_BYTES = 256 * 1024;
/** Node flags of the QuickJS runner process: a ~3.9 MB native stack (Linux gives the main thread 8 MiB). */
export const QUICKJS_RUNNER_FLAGS = deepFreeze(['--stack-size=3900']);
/** QuickJS's heap limit (bytes). */
export const QUICKJS_MEMORY_LIMIT_BYTES = 2 * 1024 * 1024 * 1024 - 64 * 1024 * 1024;
/** The QuickJS-ng variant used: release build, synchronous, separate .wasm. */
export const QUICKJS_VARIANT = '@jitl/quickjs-ng-wasmfile-release-sync';

/** Packages `jsonbench runtimes install quickjs` puts in the cache (the variant must match the core's version). */
export const QUICKJS_PACKAGES = deepFreeze(['quickjs-emscripten@0.32.0', `${QUICKJS_VARIANT}@0.32.0`]);

const runner = fileURLToPath(new URL('./quickjs-runner.js', import.meta.url));

/** Versions of the installed QuickJS-ng build, or undefined when it is not in the cache. */
export function quickjsVersions(cacheDir: string): { engine: string; emscripten: string } | undefined {
  const dir = runtimeDir(cacheDir, 'quickjs');
  const corePkg = join(dir, 'node_modules', 'quickjs-emscripten-core', 'package.json');
  if (!existsSync(join(dir, 'node_modules', QUICKJS_VARIANT, 'package.json')) || !existsSync(corePkg)) return undefined;
  return {
    engine: quickjsEngineVersion(dir),
    emscripten: (JSON.parse(readFileSync(corePkg, 'utf8')) as { version: string }).version,
  };
}

/**
 * `quickjs`: QuickJS-ng compiled to WebAssembly (quickjs-emscripten), hosted by a Node process
 * (quickjs-runner.ts) that runs the browser bundle inside it. Allocation is n/a there.
 */
export function parseQuickjs(id: string): Target | undefined {
  if (id !== 'quickjs') return undefined;
  const hint = 'jsonbench runtimes install quickjs';
  return {
    id,
    kind: 'quickjs',
    runtime: 'quickjs',
    installHint: hint,
    install: (cache, log) => npmInstall(runtimeDir(cache, 'quickjs'), QUICKJS_PACKAGES, log),
    async detect(ctx): Promise<Detection> {
      const v = quickjsVersions(ctx.cacheDir);
      return v
        ? { installed: true, version: v.engine, location: runtimeDir(ctx.cacheDir, 'quickjs') }
        : { installed: false, reason: `quickjs is not installed: run \`${hint}\`` };
    },
    async prepare(ctx) {
      const v = quickjsVersions(ctx.cacheDir);
      if (!v) throw new TargetError(`quickjs is not installed: run \`${hint}\``);
      const bundle = await bundleWorker('browser', ctx.bundleDir);
      const dir = runtimeDir(ctx.cacheDir, 'quickjs');
      const cmd: WorkerCommand = {
        command: process.execPath,
        args: [...QUICKJS_RUNNER_FLAGS, runner, dir, bundle.path],
        channel: 'fd3',
      };
      return {
        info: {
          id,
          kind: 'quickjs',
          runtime: 'quickjs',
          version: v.engine,
          engine: 'QuickJS-ng',
          engineVersion: v.engine,
          flags: [`maxStackSize=${QUICKJS_STACK_BYTES}`, ...QUICKJS_RUNNER_FLAGS.map((f) => `host ${f}`)],
          probe: {
            quickjsEmscripten: v.emscripten,
            variant: QUICKJS_VARIANT,
            host: `node ${process.versions.node}`,
            stackLimitBytes: QUICKJS_STACK_BYTES,
            arch: 'wasm32',
          },
          workerSha256: bundle.sha256,
        },
        launch: (job, timeoutMs, place) => launchCommand(pinnedCommand(cmd, place?.cpu), job, timeoutMs),
      };
    },
  };
}

/** The QuickJS-ng version vendored in the installed variant (read from its package's docs), or `unknown`. */
export function quickjsEngineVersion(dir: string): string {
  try {
    const require = createRequire(join(dir, 'package.json'));
    const dts = require.resolve(`${QUICKJS_VARIANT}/package.json`).replace(/package\.json$/, 'dist/index.d.ts');
    return /Version \[v([\d.]+)\]/.exec(readFileSync(dts, 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
