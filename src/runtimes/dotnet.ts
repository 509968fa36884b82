import { workloads as builtinWorkloads } from '../workloads/index.js';
import type { Workload } from '../workloads/types.js';
import { generateDtoModules, DtoGenerationError, type DtoSource } from '../serializers/dotnet/dto-generator.js';
import { runProgram } from './cache.js';
import { launchCommand } from './launch.js';
import {
  detectDotnet,
  detectMono,
  MONO_INSTALL_HINT,
  DOTNET_INSTALL_HINT,
  type DotnetDetection,
} from './dotnet/detect.js';
import { dotnetWorkerEnv, DotnetBuildError, ensureWorkerBuild, type WorkerBuild } from './dotnet/build.js';
import { gatedLauncher } from './dotnet/gated-launch.js';
import {
  TargetError,
  type Detection,
  type LaunchFn,
  type PreparedTarget,
  type Target,
  type TargetContext,
} from './types.js';
import type { LaunchOutcome } from './launch.js';
import { PROTOCOL_VERSION } from '../worker/protocol.js';

/** What the worker's `--probe` prints (workers/dotnet/src/Program.cs). */
export interface DotnetProbe {
  runtime: string;
  version: string;
  description: string;
  targetFramework: string;
  gcMode: string;
  os: string;
  cores: number;
  threadCpuClock: boolean;
  allocationCounter: boolean;
  stopwatchFrequency: number;
  serializers: { id: string; assembly: string; version: string; assemblyVersion?: string; location?: string }[];
  workloads: { workload: string; directions: string[] }[];
}

/** Environment variables that change the .NET worker's method for experiments (workers/dotnet/src/Timing.cs): never passed to a run's workers. */
const EXPERIMENT_VARIABLES = /^JSONBENCH_DOTNET_/;

/**
 * The DTO sources of a run: every built-in workload (so the worker's build, keyed by its sources,
 * is the same whichever workloads a run picks) and the run's own ones; a workload the generator
 * cannot write is left out with its reason (its .NET cases are already `unsupported` in the plan).
 */
async function dtoSources(
  run: readonly Workload[],
): Promise<{ sources: DtoSource[]; unsupported: Record<string, string> }> {
  const all = [
    ...(await builtinWorkloads.loadAll()),
    ...run.filter((w) => !builtinWorkloads.ids.includes(w.id)).sort((a, b) => a.id.localeCompare(b.id)),
  ];
  const sources: DtoSource[] = [];
  const unsupported: Record<string, string> = {};
  for (const w of all) {
    const src: DtoSource = { id: w.id, schema: w.schema, ...(w.wire ? { wire: w.wire } : {}) };
    try {
      generateDtoModules(src);
      sources.push(src);
    } catch (e) {
      if (!(e instanceof DtoGenerationError)) throw e;
      unsupported[w.id] = e.message;
    }
  }
  return { sources, unsupported };
}

/** A launcher that answers every job with `unsupported` and the reason, starting nothing (a build that lacks a package). */
function unsupportedLauncher(reason: string): LaunchFn {
  return async (): Promise<LaunchOutcome> => ({
    messages: [{ protocol: PROTOCOL_VERSION, type: 'error', stage: 'load', message: reason, unsupported: true }],
    exitCode: 0,
    signal: null,
    timedOut: false,
    stderrTail: '',
    stdoutTail: '',
    elapsedMs: 0,
  });
}

/**
 * A .NET target: `dotnet` (the SDK's runtime, the worker built for net10.0) or `mono` (Debian's
 * Mono, the worker built for net462 by the same SDK). Platform `dotnet`: only the .NET serializers
 * (`stj`, `stj-sourcegen`, `newtonsoft`) are planned on it, against `stj`.
 *
 * `prepare` finds the runtime (exact versions, or the reason and the install command), generates
 * the DTOs of every workload from its schema and builds the worker into the cache on first use
 * (`dotnet build -c Release`: its time and log go into the target record; a build with the same
 * sources is reused), probes it (`--probe`: the assembly versions it loads, which the plan records
 * as the serializers' versions), and launches workers through the host-side gate
 * (runtimes/dotnet/gated-launch.ts). A build that fails for a NuGet package the registry lacks
 * makes every case of the target `unsupported`, naming the package and version; any other build
 * failure makes them fail with the log's error lines.
 */
function dotnetTarget(kind: 'dotnet' | 'mono'): Target {
  const detectOf = (): Promise<DotnetDetection> => (kind === 'dotnet' ? detectDotnet() : detectMono());
  return {
    id: kind,
    kind,
    platform: 'dotnet',
    runtime: kind,
    installHint: kind === 'dotnet' ? DOTNET_INSTALL_HINT : MONO_INSTALL_HINT,
    async detect(): Promise<Detection> {
      const d = await detectOf();
      return d.installed
        ? {
            installed: true,
            version:
              kind === 'dotnet'
                ? `${d.version} (SDK ${d.sdkVersion})`
                : `${d.version} (worker built by SDK ${d.sdkVersion})`,
            location: d.command,
          }
        : { installed: false, reason: d.reason };
    },
    async prepare(ctx: TargetContext): Promise<PreparedTarget> {
      const d = await detectOf();
      if (!d.installed) throw new TargetError(d.reason);
      const { sources, unsupported } = await dtoSources(ctx.workloads ?? []);
      const base = {
        id: kind,
        kind,
        platform: 'dotnet' as const,
        runtime: kind,
        version: d.version,
        engine: kind === 'dotnet' ? 'CoreCLR' : 'Mono',
        engineVersion: kind === 'dotnet' ? d.version : d.description.replace(/^Mono\s+/, ''),
        // the settings every launch of this worker gets (results name them; compare calls files with others not comparable)
        flags: Object.entries(dotnetWorkerEnv(ctx.profile)).map(([k, v]) => `${k}=${v}`),
      };
      let build: WorkerBuild;
      try {
        build = await ensureWorkerBuild({
          cacheDir: ctx.cacheDir,
          framework: d.framework,
          sources,
          sdkVersion: d.sdkVersion,
          ...(kind === 'dotnet' ? { dotnet: d.command } : { mono: d.command }),
        });
      } catch (e) {
        if (e instanceof DotnetBuildError && e.missingPackage) {
          return {
            info: { ...base, probe: { sdkVersion: d.sdkVersion }, fault: e.message },
            launch: unsupportedLauncher(e.message),
          };
        }
        throw new TargetError((e as Error).message);
      }
      const env = {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !EXPERIMENT_VARIABLES.test(k))),
        ...dotnetWorkerEnv(ctx.profile),
      };
      let probe: DotnetProbe;
      // with the launches' environment, so the probe's gcMode (LOH threshold) is the one the cases run with
      try {
        probe = JSON.parse(await runProgram(build.command, [...build.args, '--probe'], 60_000, env)) as DotnetProbe;
      } catch (e) {
        throw new TargetError(
          `the ${kind} worker built in ${build.dir} does not start (${(e as Error).message}); build log: ${build.logPath}`,
        );
      }
      const byId = new Map(ctx.workloads?.map((w) => [w.id, w]) ?? []);
      const launch: LaunchFn = (job, timeoutMs) =>
        launchCommand({ command: build.command, args: build.args, channel: 'fd3', env }, job, timeoutMs);
      return {
        info: {
          ...base,
          probe: {
            ...probe,
            sdkVersion: d.sdkVersion,
            description: d.description,
            executable: build.command,
            worker: build.args[0],
          },
          workerSha256: build.key,
          build: {
            command: `dotnet build -c Release -p:WorkerFramework=${build.framework}`,
            framework: build.framework,
            sdkVersion: d.sdkVersion,
            buildMs: build.buildMs,
            cached: build.cached,
            logPath: build.logPath,
            workloads: sources.map((s) => s.id),
            ...(Object.keys(unsupported).length ? { unsupported } : {}),
          },
        },
        serializerVersions: Object.fromEntries(probe.serializers.map((s) => [s.id, s.version])),
        launch: gatedLauncher(launch, (id) => byId.get(id)),
      };
    },
  };
}

/** `dotnet`: the .NET SDK's runtime (Microsoft.NETCore.App of the SDK's major). */
export function parseDotnet(id: string): Target | undefined {
  return id === 'dotnet' ? dotnetTarget('dotnet') : undefined;
}

/** `mono`: Debian's Mono running the net462 worker. */
export function parseMono(id: string): Target | undefined {
  return id === 'mono' ? dotnetTarget('mono') : undefined;
}
