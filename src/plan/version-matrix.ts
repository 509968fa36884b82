/**
 * The version matrix of `--serializer fast-json-stringify@5,6,7`: each version installed into the
 * cache and measured as its own row (`fast-json-stringify@5.16.1`), loaded by the workers through a
 * generated config module (versions/variants-module.ts). The planner receives it up front.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializers } from '../serializers/index.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { loadUserConfig, type UserConfig } from '../config/user-config.js';
import { parseSerializerSpecs, versionedId } from '../versions/spec.js';
import { ensureVersion, packagesRoot } from '../versions/install.js';
import { builtinAdapterUrl, writeVariantsModule, type Variant } from '../versions/variants-module.js';
import { UsageError } from '../config/usage-error.js';

/** A run's version matrix: the config module the workers load, and the rows it adds. */
export interface VersionMatrix {
  /** generated config module (re-exports the user's config) */
  configPath: string;
  config: UserConfig;
  /** `--serializer` with every `name@versions` replaced by its row labels */
  serializerIds: string[];
  variants: Variant[];
  /** row label → the version installed for it (what the planner records as the row's version) */
  versions: ReadonlyMap<string, string>;
}

/**
 * Expands `--serializer` tokens such as `fast-json-stringify@5,6` into one row per exact version:
 * installs each (cache: {@link packagesRoot}) and writes the config module into `outDir`.
 * Returns null when no token names a version. @throws UsageError naming `--serializer` for an
 * unknown adapter, one without an npm package, a user adapter, or a failed install.
 */
export async function prepareVersionMatrix(
  tokens: string[],
  user: UserConfig,
  userModulePath: string | undefined,
  outDir: string,
  log: (m: string) => void,
): Promise<VersionMatrix | null> {
  const builtins = await serializers.loadAll();
  const known = [...builtins, ...user.serializers].map((a) => a.id);
  let specs;
  try {
    specs = parseSerializerSpecs(tokens, known);
  } catch (e) {
    throw new UsageError('--serializer', (e as Error).message);
  }
  if (!specs.some((s) => s.versions.length)) return null;
  const variants: Variant[] = [];
  const ids: string[] = [];
  for (const spec of specs) {
    if (!spec.versions.length) {
      ids.push(spec.id);
      continue;
    }
    const adapter: SerializerAdapter | undefined = builtins.find((a) => a.id === spec.id);
    if (!adapter)
      throw new UsageError(
        '--serializer',
        `"${spec.id}@…": versions are for built-in adapters (${builtins.map((a) => a.id).join(', ')})`,
      );
    if (!adapter.packageName)
      throw new UsageError(
        '--serializer',
        `${spec.id} has no npm package to pick versions of (the runtime's JSON varies with --target)`,
      );
    const url = builtinAdapterUrl(adapter.id);
    if (!existsSync(fileURLToPath(url)))
      throw new UsageError('--serializer', `${spec.id}: adapter module not found at ${fileURLToPath(url)}`);
    for (const v of spec.versions) {
      let installed;
      try {
        installed = ensureVersion(adapter.packageName, v, packagesRoot(), undefined, (what) =>
          log(`installing ${what} into ${packagesRoot()} (once; reused afterwards)…\n`),
        );
      } catch (e) {
        throw new UsageError('--serializer', (e as Error).message);
      }
      const label = versionedId(adapter.id, installed.version);
      if (ids.includes(label)) continue;
      ids.push(label);
      variants.push({
        label,
        adapterUrl: url.href,
        packageName: installed.packageName,
        version: installed.version,
        prefix: installed.prefix,
      });
    }
  }
  const configPath = writeVariantsModule(outDir, variants, userModulePath);
  return {
    configPath,
    config: await loadUserConfig(configPath),
    serializerIds: ids,
    variants,
    versions: new Map(variants.map((v) => [v.label, v.version])),
  };
}
