import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { DotnetFramework } from './build.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Finding the two .NET targets on this machine, with the exact versions results record, or the
 * reason a target cannot run and what installs it. Never throws.
 * - `dotnet`: the SDK on PATH (or `$DOTNET`), which builds every worker, and its .NET runtime
 *   (Microsoft.NETCore.App of the SDK's major), which runs the net10.0 worker.
 * - `mono`: Debian's Mono (`mono` on PATH or `$MONO`), which runs the net462 worker (built by the
 *   same SDK). Beyond `mono-runtime`, Newtonsoft.Json's .NET Framework assembly needs
 *   System.Runtime.Serialization and System.Data from Mono's GAC (its JsonSerializer's static
 *   setup loads both: seen with MONO_LOG_MASK=asm; Debian packages below); System.Text.Json and
 *   its dependencies come from NuGet beside the exe.
 */
export type DotnetDetection =
  | {
      installed: true;
      runtime: 'dotnet' | 'mono';
      version: string;
      framework: DotnetFramework;
      sdkVersion: string;
      command: string;
      description: string;
    }
  | { installed: false; runtime: 'dotnet' | 'mono'; reason: string };

/** Debian packages the mono target needs, and the GAC folder each one provides. */
export const MONO_PACKAGES: readonly { pkg: string; gac: string }[] = deepFreeze([
  { pkg: 'mono-runtime', gac: 'mscorlib' },
  { pkg: 'libmono-system-runtime-serialization4.0-cil', gac: 'System.Runtime.Serialization' },
  { pkg: 'libmono-system-data4.0-cil', gac: 'System.Data' },
]);

/** How to get the dotnet target (jsonbench cannot install an SDK). */
export const DOTNET_INSTALL_HINT =
  'install the .NET 10 SDK so that `dotnet` is on PATH (Debian: https://learn.microsoft.com/dotnet/core/install/linux-debian, package dotnet-sdk-10.0)';

/** The install command for the mono target. */
export const MONO_INSTALL_HINT = `apt-get install -y ${MONO_PACKAGES.map((p) => p.pkg).join(' ')}`;

/** The absolute path of a command found on PATH (or the command itself when it has a slash or is not found). */
export function onPath(command: string, path = process.env.PATH ?? ''): string {
  if (command.includes('/')) return command;
  for (const dir of path.split(':').filter(Boolean)) {
    const full = `${dir}/${command}`;
    if (existsSync(full)) return full;
  }
  return command;
}

function output(command: string, args: string[], timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(((stderr || '').trim() || err.message).split('\n').slice(-2).join(' | ')));
      else resolve(stdout);
    });
  });
}

/** The SDK's version (`dotnet --version`), or the reason there is none. */
export async function dotnetSdk(
  dotnet = process.env.DOTNET ?? 'dotnet',
): Promise<{ version: string } | { reason: string }> {
  try {
    return { version: (await output(dotnet, ['--version'])).trim() };
  } catch (e) {
    return {
      reason: `the .NET SDK was not found (\`${dotnet} --version\`: ${(e as Error).message}): ${DOTNET_INSTALL_HINT}`,
    };
  }
}

/** The `dotnet` target: SDK plus its major's Microsoft.NETCore.App runtime. */
export async function detectDotnet(dotnet = process.env.DOTNET ?? 'dotnet'): Promise<DotnetDetection> {
  const sdk = await dotnetSdk(dotnet);
  if ('reason' in sdk) return { installed: false, runtime: 'dotnet', reason: sdk.reason };
  const major = sdk.version.split('.')[0];
  let runtimes: string;
  try {
    runtimes = await output(dotnet, ['--list-runtimes']);
  } catch (e) {
    return {
      installed: false,
      runtime: 'dotnet',
      reason: `\`dotnet --list-runtimes\` failed: ${(e as Error).message}`,
    };
  }
  const versions = [...runtimes.matchAll(/^Microsoft\.NETCore\.App (\S+)/gm)]
    .map((m) => m[1])
    .filter((v) => v.split('.')[0] === major);
  if (versions.length === 0)
    return {
      installed: false,
      runtime: 'dotnet',
      reason: `the .NET SDK ${sdk.version} has no Microsoft.NETCore.App ${major}.x runtime`,
    };
  const version = versions[versions.length - 1];
  return {
    installed: true,
    runtime: 'dotnet',
    version,
    framework: 'net10.0',
    sdkVersion: sdk.version,
    command: onPath(dotnet),
    description: `.NET ${version} (SDK ${sdk.version})`,
  };
}

/** The `mono` target: Mono on PATH, its GAC assemblies, and the SDK that builds the worker. */
export async function detectMono(
  mono = process.env.MONO ?? 'mono',
  dotnet = process.env.DOTNET ?? 'dotnet',
  gacDir = '/usr/lib/mono/gac',
): Promise<DotnetDetection> {
  let first: string;
  try {
    first = (await output(mono, ['--version'])).split('\n')[0];
  } catch (e) {
    return {
      installed: false,
      runtime: 'mono',
      reason: `Mono was not found (\`${mono} --version\`: ${(e as Error).message}): ${MONO_INSTALL_HINT}`,
    };
  }
  const version = /version (\S+)/.exec(first)?.[1] ?? 'unknown';
  const missing = MONO_PACKAGES.filter((p) => p.gac !== 'mscorlib' && !existsSync(`${gacDir}/${p.gac}`));
  if (missing.length)
    return {
      installed: false,
      runtime: 'mono',
      reason: `Mono ${version} lacks ${missing.map((p) => p.gac).join(', ')} (Newtonsoft.Json needs them): apt-get install -y ${missing.map((p) => p.pkg).join(' ')}`,
    };
  const sdk = await dotnetSdk(dotnet);
  if ('reason' in sdk)
    return { installed: false, runtime: 'mono', reason: `the mono worker is built by the .NET SDK: ${sdk.reason}` };
  return {
    installed: true,
    runtime: 'mono',
    version,
    framework: 'net462',
    sdkVersion: sdk.version,
    command: onPath(mono),
    description: first.replace(/^Mono JIT compiler version /, 'Mono '),
  };
}
