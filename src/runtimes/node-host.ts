import { nodeVariables, startupFacts } from '../case/startup.js';
import type { Environment } from '../results/types.js';
import { toolVersion } from '../results/tool.js';
import { timerResolutionNs } from '../measure/clock.js';
import { launchWorker, workerEntry, workerFlagsFor } from './launch.js';
import type { ProfileName } from '../case/profile.js';
import type { Detection, Target } from './types.js';

/**
 * `node`: the Node running jsonbench, always there. It runs jsonbench's compiled worker
 * (build/src/worker/main.js) directly, unbundled, with the profile's V8 flags (launch.ts workerFlagsFor): the default target of
 * a run that names none, so every run launches through a target. It is described from this
 * process (same binary), not probed in a child.
 */
export function parseNodeHost(id: string): Target | undefined {
  if (id !== 'node') return undefined;
  const detection = (): Detection => ({ installed: true, version: process.versions.node, location: process.execPath });
  return {
    id,
    kind: 'node-host',
    runtime: 'node',
    installHint: 'jsonbench runs on it',
    detect: async () => detection(),
    async prepare(ctx) {
      const profile = ctx.profile ?? 'default';
      const env = probeEnvironment(profile);
      return {
        info: {
          id,
          kind: 'node-host',
          runtime: 'node',
          version: env.node,
          engine: 'V8',
          engineVersion: env.v8,
          flags: workerFlagsFor(profile),
          probe: {
            executable: process.execPath,
            entry: workerEntry,
            cpuModel: env.cpuModel,
            cores: env.cores,
            os: env.os,
            arch: env.arch,
            pointerCompression: env.pointerCompression,
          },
        },
        launch: (job, timeoutMs, place) => launchWorker(job, timeoutMs, place, profile),
      };
    },
  };
}

/**
 * Describes the machine and the Node runtime the workers run on (they use the host's Node binary), with the flags of
 * `profile`'s workers: the machine facts and variables as jsonbench started (case/startup.ts), the load average too.
 */
export function probeEnvironment(profile: ProfileName = 'default'): Environment {
  // the facts as jsonbench started, before a config's top level could patch node:os (case/startup.ts)
  const facts = startupFacts();
  const build = (process.config as { variables?: Record<string, unknown> }).variables ?? {};
  const variables = nodeVariables();
  return {
    cpuModel: facts.cpuModel,
    cores: facts.cores,
    os: facts.os,
    arch: process.arch,
    totalMemoryBytes: facts.totalMemoryBytes,
    node: facts.node,
    v8: facts.v8,
    runtime: `node ${facts.node}`,
    flags: [...workerFlagsFor(profile), ...process.execArgv],
    loadAverage: { start: facts.loadAverage },
    timerResolutionNs: timerResolutionNs(),
    jsonbenchVersion: toolVersion(),
    pointerCompression: Number(build.v8_enable_pointer_compression ?? 0) === 1,
    ...(Object.keys(variables).length ? { variables } : {}),
  };
}
