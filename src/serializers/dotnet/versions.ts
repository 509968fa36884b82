/**
 * Library versions on .NET targets: a row `newtonsoft@13.0.1` or `stj@8.0.5` (`--serializer
 * newtonsoft@13.0.1,13.0.4`) is the worker built with that NuGet package version (one build per
 * package set, src/runtimes/dotnet/build.ts), and the assembly the worker then loads is checked
 * against the version asked for before anything is measured.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deepFreeze } from '../../case/frozen.js';

/**
 * NuGet versions a worker build takes instead of the project's own (workers/dotnet/JsonBench.Worker.csproj:
 * Newtonsoft.Json 13.0.4; System.Text.Json: the framework's copy on .NET, 10.0.12 on Mono). Each set is its own
 * build (one Newtonsoft.Json per process: the worker's code binds to it at compile time).
 */
export interface WorkerPackages {
  newtonsoft?: string;
  stj?: string;
}

/** The package version the worker project takes when none is asked (workers/dotnet/JsonBench.Worker.csproj). */
export const DEFAULT_NEWTONSOFT_VERSION = '13.0.4';

/** An exact NuGet version: `13.0.1`, `8.0.5`, `14.0.1-beta2` (NuGet's ranges are not taken: a row is one version). */
export const EXACT_NUGET_VERSION = deepFreeze(/^\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?$/);

/** The .NET serializers whose library version a row can pick, and the package each one's version names. */
const PACKAGE_OF: Readonly<Record<string, keyof WorkerPackages>> = {
  newtonsoft: 'newtonsoft',
  stj: 'stj',
  'stj-sourcegen': 'stj',
};

/** NuGet package names, for messages. */
export const PACKAGE_NAMES: Readonly<Record<keyof WorkerPackages, string>> = deepFreeze({
  newtonsoft: 'Newtonsoft.Json',
  stj: 'System.Text.Json',
});

/** True when a .NET serializer id can be asked at a version (`newtonsoft`, `stj`, `stj-sourcegen`). */
export function versionable(id: string): boolean {
  return id in PACKAGE_OF;
}

/** A versioned .NET row: `newtonsoft@13.0.1` → its worker id, the package set of its build, and the version asked. */
export interface DotnetVariant {
  label: string;
  serializer: string;
  packages: WorkerPackages;
  /** the package version asked for */
  version: string;
}

/**
 * The variant of a row label, or undefined for a plain id (`stj`) or one this module does not know.
 * The project's own Newtonsoft.Json version (13.0.4) is the plain build (no package set).
 */
export function dotnetVariantOf(label: string): DotnetVariant | undefined {
  const at = label.lastIndexOf('@');
  if (at <= 0) return undefined;
  const serializer = label.slice(0, at);
  const version = label.slice(at + 1);
  const pkg = PACKAGE_OF[serializer];
  if (!pkg || !EXACT_NUGET_VERSION.test(version)) return undefined;
  const packages: WorkerPackages =
    pkg === 'newtonsoft' && version === DEFAULT_NEWTONSOFT_VERSION ? {} : { [pkg]: version };
  return { label, serializer, packages, version };
}

/** A stable key of a package set ('' for the plain build). */
export function packagesKey(p: WorkerPackages): string {
  return [p.newtonsoft ? `newtonsoft=${p.newtonsoft}` : '', p.stj ? `stj=${p.stj}` : ''].filter(Boolean).join(',');
}

/**
 * True when `loaded` is a four-part file version of the three-part package version `asked` (`9.0.1.19813` of
 * `9.0.1`): what the worker reports for an assembly without an informational version (Newtonsoft.Json 9.0.1,
 * whose assembly version is 9.0.0.0).
 */
export function isFileVersionOf(loaded: string | undefined, asked: string): boolean {
  return (
    loaded !== undefined &&
    /^\d+\.\d+\.\d+$/.test(asked) &&
    new RegExp(`^${asked.replace(/\./g, '\\.')}\\.\\d+$`).test(loaded)
  );
}

/** The NuGet package a variant's row takes a version of (`System.Text.Json`, `Newtonsoft.Json`). */
export const packageNameOf = (variant: DotnetVariant): string => PACKAGE_NAMES[PACKAGE_OF[variant.serializer]];

/**
 * The version NuGet restored for `name` in a worker build (`<build>/src/obj/project.assets.json`'s `libraries`
 * key `System.Text.Json/8.0.5`), or undefined when the file or the package is not there. Source: the SDK's restore.
 */
export function restoredVersion(buildDir: string, name: string): string | undefined {
  try {
    const assets = JSON.parse(readFileSync(join(buildDir, 'src', 'obj', 'project.assets.json'), 'utf8')) as {
      libraries?: Record<string, unknown>;
    };
    const key = Object.keys(assets.libraries ?? {}).find((k) => k.toLowerCase().startsWith(`${name.toLowerCase()}/`));
    return key?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

/**
 * Why a variant's worker does not run the version asked, or undefined when it does: `loaded` is the
 * version its `--probe` reports for the row's serializer (the assembly's informational version, else its file
 * version). `restore`, when the assembly was loaded from the build's own `bin/`, is the version NuGet restored:
 * it decides (a package's informational version may name the .NET release it shipped with, not the package).
 * On .NET the shared framework's System.Text.Json wins over an older package (the higher assembly,
 * then file, version is kept), so `stj@8.0.5` on net10.0 loads 10.0.x: the reason names the
 * target that carries that version. `framework` is the worker's (`net10.0`), `targetId` its target.
 */
export function versionMismatch(
  variant: DotnetVariant,
  loaded: string | undefined,
  framework: string,
  targetId: string,
  restore?: { version: string | undefined; fromBuild: boolean },
): string | undefined {
  if (loaded === variant.version || isFileVersionOf(loaded, variant.version)) return undefined;
  const pkg = PACKAGE_OF[variant.serializer];
  const name = PACKAGE_NAMES[pkg];
  if (restore?.fromBuild && restore.version !== undefined) {
    // the DLL came from the build's own bin/ (no framework copy won): NuGet's restore says which package it is.
    // A serviced System.Text.Json 8.0.5 says 8.0.10 (the .NET release it shipped with) in its informational version.
    if (restore.version === variant.version) return undefined;
    return `${name} ${variant.version} was asked, but NuGet restored ${restore.version} (the registry has no ${variant.version}: NU1603)`;
  }
  if (loaded === undefined) return `the ${targetId} worker reports no ${name} version for ${variant.serializer}`;
  if (pkg === 'stj') {
    const askedMajor = Number(variant.version.split('.')[0]);
    const loadedMajor = Number(loaded.split('.')[0]);
    const hint =
      askedMajor < loadedMajor && askedMajor >= 8 && askedMajor <= 10
        ? `; use --target dotnet@${askedMajor}`
        : askedMajor === loadedMajor
          ? `; the framework's own copy is newer (row ${variant.serializer} measures it)`
          : '';
    return `${name} ${variant.version} on ${targetId} (${framework}) loads the framework's ${loaded} (the runtime keeps the higher assembly version)${hint}`;
  }
  return `${name} ${variant.version} was asked, but the ${targetId} worker loads ${loaded}`;
}
