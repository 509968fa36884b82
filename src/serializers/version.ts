import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { serializers } from './index.js';
import type { SerializerAdapter } from './types.js';

/**
 * The installed version of an npm package, read from its package.json by walking up from the
 * resolved entry point (works for packages whose `exports` hide package.json). `from` is a file
 * or directory to resolve from (a user's config resolves its own node_modules).
 * Returns 'unknown' when the package cannot be resolved.
 */
export function installedVersion(packageName: string, from: string = import.meta.url): string {
  try {
    return installedPackage(packageName, from)?.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The folder and version of npm package `packageName` as Node resolves it from `from`: the nearest
 * package.json of that name above its entry point (within 8 levels), or undefined when none is found.
 * @throws Error from require.resolve when the package cannot be resolved
 */
export function installedPackage(
  packageName: string,
  from: string = import.meta.url,
): { dir: string; version?: string } | undefined {
  let dir = dirname(createRequire(from).resolve(packageName));
  for (let i = 0; i < 8; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === packageName)
          return { dir, ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}) };
      } catch {
        // an unreadable package.json: one level up
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/**
 * The version of the library an adapter actually runs: a built-in adapter imports its package from
 * jsonbench's own node_modules (whatever the config's folder holds), a user's adapter from its
 * config's folder (the compiled config is written there). `json` is the runtime's own JSON;
 * an adapter without a package is `n/a`.
 */
export function adapterVersion(adapter: SerializerAdapter, userConfigFile?: string): string {
  if (!adapter.packageName) return adapter.family === 'builtin' && adapter.id === 'json' ? builtinVersion() : 'n/a';
  const builtin = serializers.ids.includes(adapter.id);
  return installedVersion(adapter.packageName, builtin || !userConfigFile ? import.meta.url : userConfigFile);
}

/** Version of the runtime's own JSON (the `json` adapter has no package): `node <version>`. */
export function builtinVersion(): string {
  return `node ${process.versions.node}`;
}
