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
import { dotnetSerializers } from '../serializers/dotnet/index.js';
import type { DotnetSerializer } from '../serializers/types.js';
import { EXACT_NUGET_VERSION, versionable } from '../serializers/dotnet/versions.js';

/** A run's version matrix: the config module the workers load, and the rows it adds. */
export interface VersionMatrix {
  /** generated config module (re-exports the user's config); absent when only .NET rows have versions */
  configPath?: string;
  config: UserConfig;
  /** `--serializer` with every `name@versions` replaced by its row labels */
  serializerIds: string[];
  variants: Variant[];
  /** row label → the version installed for it (what the planner records as the row's version) */
  versions: ReadonlyMap<string, string>;
  /**
   * The .NET rows (`newtonsoft@13.0.1`): each a copy of its serializer under the label; a .NET target
   * builds the worker with that NuGet version (src/serializers/dotnet/versions.ts) and checks what it loads.
   */
  dotnetVariants: DotnetSerializer[];
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
  const dotnet = await dotnetSerializers.loadAll();
  const known = [...builtins, ...user.serializers, ...dotnet].map((a) => a.id);
  let specs;
  try {
    specs = parseSerializerSpecs(tokens, known);
  } catch (e) {
    throw new UsageError('--serializer', (e as Error).message);
  }
  if (!specs.some((s) => s.versions.length)) return null;
  const variants: Variant[] = [];
  const dotnetVariants: DotnetSerializer[] = [];
  const versions = new Map<string, string>();
  const ids: string[] = [];
  for (const spec of specs) {
    if (!spec.versions.length) {
      ids.push(spec.id);
      continue;
    }
    const net = dotnet.find((a) => a.id === spec.id);
    if (net) {
      if (!versionable(net.id))
        throw new UsageError('--serializer', `${net.id} has no NuGet package to pick versions of`);
      for (const v of spec.versions) {
        if (!EXACT_NUGET_VERSION.test(v))
          throw new UsageError(
            '--serializer',
            `"${net.id}@${v}": a .NET row takes an exact NuGet version (e.g. ${net.id === 'newtonsoft' ? 'newtonsoft@13.0.1' : 'stj@8.0.5'})`,
          );
        const label = versionedId(net.id, v);
        if (ids.includes(label)) continue;
        ids.push(label);
        dotnetVariants.push({ ...net, id: label });
        versions.set(label, v);
      }
      continue;
    }
    const adapter: SerializerAdapter | undefined = builtins.find((a) => a.id === spec.id);
    if (!adapter)
      throw new UsageError(
        '--serializer',
        `"${spec.id}@…": versions are for built-in adapters (${builtins.map((a) => a.id).join(', ')}) and the .NET ${dotnet
          .filter((a) => versionable(a.id))
          .map((a) => a.id)
          .join(', ')}`,
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
  for (const v of variants) versions.set(v.label, v.version);
  const configPath = variants.length ? writeVariantsModule(outDir, variants, userModulePath) : undefined;
  return {
    ...(configPath ? { configPath } : {}),
    config: configPath ? await loadUserConfig(configPath) : user,
    serializerIds: ids,
    variants,
    versions,
    dotnetVariants,
  };
}
