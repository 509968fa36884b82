import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { npmInstall, runtimeDir } from './cache.js';
import { nodeLikeTarget } from './node-like.js';
import type { Target } from './types.js';

/** Bun's npm package range installed by `jsonbench runtimes install bun`. */
export const BUN_PACKAGE = 'bun@1';

/** The Bun binary inside the cache: the `@oven/bun-<os>-<arch>` optional dependency of `bun`. */
export function bunBinary(cacheDir: string): string | undefined {
  const oven = join(runtimeDir(cacheDir, 'bun'), 'node_modules', '@oven');
  if (!existsSync(oven)) return undefined;
  const dirs = readdirSync(oven)
    .filter((d) => d.startsWith('bun-'))
    .sort((a, b) => a.length - b.length);
  return dirs.map((d) => join(oven, d, 'bin', 'bun')).find((p) => existsSync(p));
}

/** `bun`: Bun (JavaScriptCore) from the npm registry, running the Node-like bundle; fd 3 works there. */
export function parseBun(id: string): Target | undefined {
  if (id !== 'bun') return undefined;
  return nodeLikeTarget({
    id,
    kind: 'bun',
    runtime: 'bun',
    binary: bunBinary,
    evalArgs: (s) => ['-e', s],
    workerArgs: () => [],
    channel: 'fd3',
    installHint: 'jsonbench runtimes install bun',
    notInstalled: 'bun is not installed',
    install: (cache, log) => npmInstall(runtimeDir(cache, 'bun'), [BUN_PACKAGE], log),
  });
}
