import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { npmInstall, runtimeDir } from './cache.js';
import { nodeLikeTarget } from './node-like.js';
import type { Target } from './types.js';
import { workerFlagsFor } from './launch.js';
import type { ProfileName } from '../case/profile.js';
import { deepFreeze } from '../case/frozen.js';

/** Deno's npm package range installed by `jsonbench runtimes install deno`. */
export const DENO_PACKAGE = 'deno@2';

/** Flags the Deno worker runs with in `profile`: every permission (it reads payload files), and the profile's V8 flags (launch.ts workerFlagsFor). */
export function denoWorkerArgs(profile: ProfileName = 'default'): string[] {
  return ['run', '-A', '--no-config', `--v8-flags=${workerFlagsFor(profile).join(',')}`];
}

/** {@link denoWorkerArgs} of the default profile. */
export const DENO_WORKER_ARGS = deepFreeze(denoWorkerArgs('default'));

/** The Deno binary inside the cache: the `@deno/<os>-<arch>[-glibc]` optional dependency of `deno`. */
export function denoBinary(cacheDir: string): string | undefined {
  const scope = join(runtimeDir(cacheDir, 'deno'), 'node_modules', '@deno');
  if (!existsSync(scope)) return undefined;
  return readdirSync(scope)
    .map((d) => join(scope, d, process.platform === 'win32' ? 'deno.exe' : 'deno'))
    .find((p) => existsSync(p));
}

/**
 * `deno`: Deno (V8) from the npm registry, running the Node-like bundle. Deno cannot write to an
 * inherited fd 3, so its channel is stdout (the worker sends library output to stderr there).
 */
export function parseDeno(id: string): Target | undefined {
  if (id !== 'deno') return undefined;
  return nodeLikeTarget({
    id,
    kind: 'deno',
    runtime: 'deno',
    binary: denoBinary,
    evalArgs: (s) => ['eval', '--no-config', s],
    workerArgs: denoWorkerArgs,
    channel: 'stdout',
    installHint: 'jsonbench runtimes install deno',
    notInstalled: 'deno is not installed',
    install: (cache, log) => npmInstall(runtimeDir(cache, 'deno'), [DENO_PACKAGE], log),
  });
}
