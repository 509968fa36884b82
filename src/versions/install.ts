/**
 * Installs published versions of a library side by side in a cache folder, one npm prefix per
 * version: `~/.cache/jsonbench/packages/<name>@<version>/node_modules/<name>` (a scoped name's
 * `/` becomes `+` in the folder name). Installed once, reused by every later run.
 */
import { execFileSync } from 'node:child_process';
import { makeFolder } from '../files/make-folder.js';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';

/** Where versions are installed: `$JSONBENCH_CACHE/packages`, else `$XDG_CACHE_HOME/jsonbench/packages`, else `~/.cache/jsonbench/packages`. */
export function packagesRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JSONBENCH_CACHE) return join(env.JSONBENCH_CACHE, 'packages');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'jsonbench', 'packages');
}

/** The install prefix of one version: `<root>/<name>@<version>` (`@scope/x` → `@scope+x`). */
export function prefixOf(root: string, packageName: string, version: string): string {
  return join(root, `${packageName.replace('/', '+')}@${version}`);
}

/** One installed version: the package, its exact version, and the npm prefix holding it. */
export interface InstalledVersion {
  packageName: string;
  version: string;
  prefix: string;
}

/** Runs npm with arguments and returns its stdout; tests inject a fake. */
export type NpmRunner = (args: string[]) => string;

const npm: NpmRunner = (args) =>
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });

/** An exact version (`x.y.z` or `x.y.z-pre`): semver's own parser decides. */
const isExact = (v: string) => semver.valid(v) === v;

/** Orders exact versions by semver precedence (the `semver` package); < 0, 0, > 0 like a sort comparator. */
export function compareVersions(a: string, b: string): number {
  return semver.compare(a, b);
}

function readInstalled(prefix: string, packageName: string): string | undefined {
  const file = join(prefix, 'node_modules', packageName, 'package.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
}

/** Cached exact versions of a package, from the folder names. */
function cachedVersions(root: string, packageName: string): string[] {
  if (!existsSync(root)) return [];
  const head = `${packageName.replace('/', '+')}@`;
  return readdirSync(root)
    .filter((d) => d.startsWith(head) && isExact(d.slice(head.length)))
    .map((d) => d.slice(head.length));
}

/**
 * The exact version a spec means: itself when exact; else the newest published match
 * (`npm view <name>@<spec> version --json`, which lists them unordered); offline, the newest cached version that starts with
 * `<spec>.`. @throws Error naming the package and spec when nothing matches.
 */
export function resolveVersion(packageName: string, spec: string, root: string, run: NpmRunner = npm): string {
  if (isExact(spec)) return spec;
  let viewed: unknown;
  try {
    viewed = JSON.parse(run(['view', `${packageName}@${spec}`, 'version', '--json']) || 'null');
  } catch {
    viewed = undefined;
  }
  const list = (Array.isArray(viewed) ? (viewed as string[]) : typeof viewed === 'string' ? [viewed] : [])
    .filter(isExact)
    .sort(compareVersions);
  if (list.length) return list[list.length - 1];
  const cached = cachedVersions(root, packageName)
    .filter((v) => v.startsWith(`${spec}.`))
    .sort(compareVersions);
  if (viewed === undefined && cached.length) return cached[cached.length - 1];
  throw new Error(
    `${packageName}@${spec}: no published version matches${viewed === undefined ? ' (and npm view failed: offline?)' : ''}`,
  );
}

/**
 * Makes sure `<packageName>@<spec>` is installed in its own prefix and returns where. Installs
 * with `npm install --prefix <dir> --ignore-scripts <name>@<version>` into a temporary folder
 * renamed into place once complete, so an interrupted install never leaves a half folder.
 * @param onInstall called just before npm actually installs (not for a cached version)
 * @throws Error with npm's message when the install fails.
 */
export function ensureVersion(
  packageName: string,
  spec: string,
  root = packagesRoot(),
  run: NpmRunner = npm,
  onInstall?: (what: string) => void,
): InstalledVersion {
  const version = resolveVersion(packageName, spec, root, run);
  const prefix = prefixOf(root, packageName, version);
  if (readInstalled(prefix, packageName) === version) return { packageName, version, prefix };
  onInstall?.(`${packageName}@${version}`);
  makeFolder(root);
  const tmp = `${prefix}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  makeFolder(tmp);
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'jsonbench-version-cache', private: true }) + '\n');
  try {
    run([
      'install',
      '--prefix',
      tmp,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${packageName}@${version}`,
    ]);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const err = e as Error & { stderr?: string };
    throw new Error(
      `npm install ${packageName}@${version} failed: ${(err.stderr || err.message).trim().split('\n').slice(-3).join(' | ')}`,
    );
  }
  const got = readInstalled(tmp, packageName);
  if (got !== version) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`npm installed ${packageName}@${got ?? 'nothing'}, expected ${version}`);
  }
  rmSync(prefix, { recursive: true, force: true });
  renameSync(tmp, prefix);
  return { packageName, version, prefix };
}
