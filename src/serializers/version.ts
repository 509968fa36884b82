import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The installed version of an npm package, read from its package.json by walking up from the
 * resolved entry point (works for packages whose `exports` hide package.json). `from` is a file
 * or directory to resolve from (a user's config resolves its own node_modules).
 * Returns 'unknown' when the package cannot be resolved.
 */
export function installedVersion(packageName: string, from: string = import.meta.url): string {
  try {
    const require = createRequire(from);
    let dir = dirname(require.resolve(packageName));
    for (let i = 0; i < 8; i++) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === packageName && pkg.version) return pkg.version;
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  } catch { /* fall through */ }
  return 'unknown';
}

/** Version of the runtime's own JSON (the `json` adapter has no package): `node <version>`. */
export function builtinVersion(): string {
  return `node ${process.versions.node}`;
}
