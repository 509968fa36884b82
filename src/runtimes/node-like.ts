import { existsSync } from 'node:fs';
import { pinnedCommand } from './pinning.js';
import { launchCommand, type WorkerCommand } from './launch.js';
import { bundleWorker } from './bundle.js';
import { runProgram } from './cache.js';
import type { ProfileName } from '../case/profile.js';
import { TargetError, type Detection, type PreparedTarget, type Target, type TargetContext } from './types.js';

/**
 * A script every Node-like runtime (Node, Bun, Deno, a remote Node) evaluates to describe itself
 * and its machine: one JSON line. Written without single quotes so it passes through a shell.
 */
export const PROBE_SCRIPT = `Promise.all([import("node:os"), import("node:process")]).then(([os, pm]) => { const p = pm.default ?? pm; const v = p.versions; const d = globalThis.Deno; const vars = (p.config && p.config.variables) || {};
console.log(JSON.stringify({ runtime: d ? "deno" : v.bun ? "bun" : "node", version: d ? d.version.deno : v.bun || v.node, engine: v.bun && !d ? "JavaScriptCore" : "V8", engineVersion: d ? d.version.v8 : v.bun ? (v.webkit || "unknown") : v.v8, node: v.node, cpuModel: (os.cpus()[0] || {}).model || "unknown", cores: os.cpus().length, os: os.type() + " " + os.release(), arch: p.arch, totalMemoryBytes: os.totalmem(), hostname: os.hostname(), pointerCompression: d || v.bun ? null : Number(vars.v8_enable_pointer_compression || 0) === 1 })); })`;

/** What a runtime says about itself through {@link PROBE_SCRIPT}. */
export interface RuntimeProbe {
  runtime: string;
  version: string;
  engine: string;
  engineVersion: string;
  node: string;
  cpuModel: string;
  cores: number;
  os: string;
  arch: string;
  totalMemoryBytes: number;
  hostname: string;
  pointerCompression: boolean | null;
}

/** Parses the probe's JSON line out of a program's stdout. @throws Error when there is none */
export function parseProbe(stdout: string): RuntimeProbe {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no probe output: ${stdout.slice(0, 200)}`);
  return JSON.parse(line) as RuntimeProbe;
}

/** How one Node-like runtime is found, probed and started. */
export interface NodeLikeSpec {
  id: string;
  kind: string;
  runtime: 'node' | 'bun' | 'deno';
  /** the executable, or undefined when not installed */
  binary(cacheDir: string): string | undefined;
  /** arguments that make the binary evaluate a script */
  evalArgs(script: string): string[];
  /** arguments before the bundled worker's path, in the run's profile (case/profile.ts) */
  workerArgs: (profile: ProfileName) => string[];
  channel: WorkerCommand['channel'];
  installHint: string;
  notInstalled: string;
  install?: Target['install'];
}

/** Builds a {@link Target} from a {@link NodeLikeSpec}: detect by probing, launch the node bundle. */
export function nodeLikeTarget(spec: NodeLikeSpec): Target {
  const probeOf = async (bin: string) => parseProbe(await runProgram(bin, spec.evalArgs(PROBE_SCRIPT), 30_000));
  const located = (cacheDir: string) => {
    const b = spec.binary(cacheDir);
    return b && existsSync(b) ? b : undefined;
  };
  return {
    id: spec.id,
    kind: spec.kind,
    runtime: spec.runtime,
    installHint: spec.installHint,
    ...(spec.install ? { install: spec.install } : {}),
    async detect(ctx): Promise<Detection> {
      const bin = located(ctx.cacheDir);
      if (!bin) return { installed: false, reason: `${spec.notInstalled}: run \`${spec.installHint}\`` };
      try {
        return { installed: true, version: (await probeOf(bin)).version, location: bin };
      } catch (e) {
        return {
          installed: false,
          reason: `${spec.id} at ${bin} does not start (${(e as Error).message}): run \`${spec.installHint}\``,
        };
      }
    },
    async prepare(ctx: TargetContext): Promise<PreparedTarget> {
      const bin = located(ctx.cacheDir);
      if (!bin) throw new TargetError(`${spec.notInstalled}: run \`${spec.installHint}\``);
      let probe: RuntimeProbe;
      try {
        probe = await probeOf(bin);
      } catch (e) {
        throw new TargetError(`${spec.id} failed to start (${(e as Error).message}): run \`${spec.installHint}\``);
      }
      const bundle = await bundleWorker('node', ctx.bundleDir);
      const workerArgs = spec.workerArgs(ctx.profile ?? 'default');
      const cmd: WorkerCommand = { command: bin, args: [...workerArgs, bundle.path], channel: spec.channel };
      return {
        info: {
          id: spec.id,
          kind: spec.kind,
          runtime: probe.runtime,
          version: probe.version,
          engine: probe.engine,
          engineVersion: probe.engineVersion,
          flags: workerArgs,
          probe: { ...probe, executable: bin },
          workerSha256: bundle.sha256,
        },
        launch: (job, timeoutMs, place) => launchCommand(pinnedCommand(cmd, place?.cpu), job, timeoutMs),
      };
    },
  };
}
