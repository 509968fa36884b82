import os from 'node:os';
import { deepFreeze } from './frozen.js';

/**
 * What jsonbench's process looked like before any user code ran: its environment variables and the
 * machine facts results.json records. cli/main.ts imports this module first, so it is evaluated
 * before a config's top level (which runs in this process: it could set `process.env.NODE_OPTIONS`
 * to `--require` a file that slows JSON.stringify in every worker, or patch `node:os` to report a
 * quiet machine). Workers are spawned with {@link workerEnv}: NODE_OPTIONS and the rest as they were at start; the
 * environment facts come from {@link startupFacts}; the end-of-run load from {@link loadAverageNow},
 * the `os.loadavg` of this moment (a later patch of `node:os` does not reach it).
 */

/** The variables that change what Node (and the libraries it loads) does: recorded in results.json when set. */
export const NODE_VARIABLES: readonly string[] = deepFreeze([
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_ENV',
  'NODE_V8_COVERAGE',
  'NODE_DEBUG',
  'NODE_DEBUG_NATIVE',
  'NODE_ICU_DATA',
  'NODE_PRESERVE_SYMLINKS',
  'NODE_COMPILE_CACHE',
  'NODE_PENDING_DEPRECATION',
  'UV_THREADPOOL_SIZE',
  'UV_USE_IO_URING',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'MALLOC_ARENA_MAX',
]);

const env: Readonly<NodeJS.ProcessEnv> = Object.freeze({ ...process.env });
const loadavg = os.loadavg.bind(os);

/** The machine and Node as this process started: os.cpus() (model, count), os.type/release, os.totalmem, process.versions, os.loadavg. */
export interface StartupFacts {
  cpuModel: string;
  /** os.availableParallelism() (else the count of os.cpus()) */
  cores: number;
  /** `${os.type()} ${os.release()}` */
  os: string;
  totalMemoryBytes: number;
  /** process.versions.node and .v8 */
  node: string;
  v8: string;
  /** 1, 5, 15-minute load averages when jsonbench started */
  loadAverage: number[];
}

const facts: Readonly<StartupFacts> = (() => {
  const cpus = os.cpus();
  return Object.freeze({
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    os: `${os.type()} ${os.release()}`,
    totalMemoryBytes: os.totalmem(),
    node: process.versions.node,
    v8: process.versions.v8,
    loadAverage: Object.freeze(loadavg()) as number[],
  });
})();

/**
 * The environment every worker, build and probe jsonbench spawns gets: this process's `process.env`
 * (a program embedding jsonbench may set its own variables) with each of {@link NODE_VARIABLES} as it
 * was when jsonbench started (unset if it was unset), so a config's top level cannot slip NODE_OPTIONS,
 * NODE_PATH or LD_PRELOAD into the workers. A copy.
 */
export function workerEnv(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NODE_VARIABLES) {
    if (env[name] === undefined) delete out[name];
    else out[name] = env[name];
  }
  return out;
}

/** The machine facts taken when jsonbench started ({@link StartupFacts}); a copy. */
export function startupFacts(): StartupFacts {
  return { ...facts, loadAverage: [...facts.loadAverage] };
}

/** The 1, 5, 15-minute load averages now, from the `os.loadavg` this process started with. */
export function loadAverageNow(): number[] {
  return loadavg();
}

/** The {@link NODE_VARIABLES} set (non-empty) when jsonbench started: name → value, in that order; empty when none is. */
export function nodeVariables(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of NODE_VARIABLES) {
    const v = env[name];
    if (v !== undefined && v !== '') out[name] = v;
  }
  return out;
}

/**
 * The {@link NODE_VARIABLES} whose live value in `process.env` differs from the start (user code in
 * this process changed them): name → the live value ('' when unset). Workers never see these changes.
 */
export function changedNodeVariables(
  live: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of NODE_VARIABLES) if ((live[name] ?? '') !== (env[name] ?? '')) out[name] = live[name] ?? '';
  return out;
}
