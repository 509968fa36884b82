import os from 'node:os';
import { readFileSync } from 'node:fs';
import type { Environment } from './types.js';
import { timerResolutionNs } from '../measure/clock.js';
import { workerFlags } from '../run/launch.js';

/** jsonbench's own version, from its package.json. */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Probes the machine and the Node runtime the workers run on (they use the host's Node binary). */
export function probeEnvironment(): Environment {
  const cpus = os.cpus();
  const variables = (process.config as { variables?: Record<string, unknown> }).variables ?? {};
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    os: `${os.type()} ${os.release()}`,
    arch: process.arch,
    totalMemoryBytes: os.totalmem(),
    node: process.versions.node,
    v8: process.versions.v8,
    runtime: `node ${process.versions.node}`,
    flags: [...workerFlags, ...process.execArgv],
    loadAverage: { start: os.loadavg() },
    timerResolutionNs: timerResolutionNs(),
    jsonbenchVersion: toolVersion(),
    pointerCompression: Number(variables.v8_enable_pointer_compression ?? 0) === 1,
  };
}
