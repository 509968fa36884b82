import { workerFlags } from '../run/launch.js';
import { nodeLikeTarget } from './node-like.js';
import type { Target } from './types.js';

/** `node`: the Node running jsonbench (always installed), running the same bundled worker as every target. */
export function parseNodeHost(id: string): Target | undefined {
  if (id !== 'node') return undefined;
  return nodeLikeTarget({
    id, kind: 'node-host', runtime: 'node',
    binary: () => process.execPath,
    evalArgs: (s) => ['-e', s],
    workerArgs: workerFlags,
    channel: 'fd3',
    installHint: 'jsonbench runs on it',
    notInstalled: `the Node running jsonbench (${process.execPath}) is missing`,
  });
}
