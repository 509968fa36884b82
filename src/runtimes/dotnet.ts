import { workloads as builtinWorkloads } from '../workloads/index.js';
import type { Workload } from '../workloads/types.js';
import { generateDtoModules, DtoGenerationError, type DtoSource } from '../serializers/dotnet/dto-generator.js';
import { runProgram } from './cache.js';
import { launchCommand, outcomeOf } from './launch.js';
import { workerEnv } from '../case/startup.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  detectDotnet,
  detectMono,
  dotnetSdk,
  onPath,
  MONO_INSTALL_HINT,
  DOTNET_INSTALL_HINT,
  type DotnetDetection,
} from './dotnet/detect.js';
import {
  dotnetWorkerEnv,
  DotnetBuildError,
  ensureWorkerBuild,
  RUNTIME_IDENTIFIER,
  type DotnetFramework,
  type WorkerBuild,
  type WorkerPackages,
} from './dotnet/build.js';
import {
  dotnetVariantOf,
  packageNameOf,
  packagesKey,
  restoredVersion,
  versionMismatch,
  type DotnetVariant,
} from '../serializers/dotnet/versions.js';
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
import { deepFreeze } from '../case/frozen.js';

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
export async function dtoSources(
  run: readonly Workload[],
): Promise<{ sources: DtoSource[]; unsupported: Record<string, string> }> {
  const all = [
    ...(await builtinWorkloads.loadAll()),
    ...run.filter((w) => !builtinWorkloads.ids.includes(w.id)).sort((a, b) => a.id.localeCompare(b.id)),
  ];
  const sources: DtoSource[] = [];
  const unsupported: Record<string, string> = {};
  for (const w of all) {
    const src: DtoSource = {
      id: w.id,
      schema: w.schema,
      ...(w.wire ? { wire: w.wire } : {}),
      ...(w.dotnet ? { dotnet: w.dotnet } : {}),
    };
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

/** Where a failed build's log is and its first error line (report.md names them under "Builds that failed"). */
export function buildFailureFacts(e: DotnetBuildError): Record<string, string> {
  return { ...(e.logPath ? { buildLog: e.logPath } : {}), ...(e.firstError ? { firstError: e.firstError } : {}) };
}

/** A launcher that answers every job with `unsupported` and the reason, starting nothing (a build that lacks a package). */
export function unsupportedLauncher(reason: string): LaunchFn {
  return async (): Promise<LaunchOutcome> =>
    outcomeOf([{ protocol: PROTOCOL_VERSION, type: 'error', stage: 'load', message: reason, unsupported: true }], 0);
}

/** The .NET majors a `dotnet@<major>` target publishes the worker for (runtime packs the NuGet copy here serves). */
export const DOTNET_MAJORS = deepFreeze([8, 9, 10] as const);

/** How a .NET target is made: the SDK's runtime, Mono, or a self-contained publish for one major. */
type DotnetFlavour =
  { kind: 'dotnet' } | { kind: 'mono' } | { kind: 'dotnet-version'; major: (typeof DOTNET_MAJORS)[number] };

/** The runtime pack a `dotnet@<major>` build takes (the SDK picks its newest known patch of that major). */
function runtimePack(major: number): string {
  return `Microsoft.NETCore.App.Runtime.${RUNTIME_IDENTIFIER} ${major}.0.x`;
}

/** What `jsonbench runtimes install dotnet@<major>` (or a run's first use) does, for hints. */
function publishHint(major: number): string {
  return `jsonbench runtimes install dotnet@${major} (publishes the worker self-contained with NuGet's ${runtimePack(major)} into the cache: once, 1–2 min; a run does it on first use)`;
}

/**
 * The newest finished self-contained build of `framework` in the cache (`<cache>/dotnet/<framework>-linux-x64-<key>/`
 * with a build.json of the plain package set), as its record gives it, or undefined.
 */
function cachedSelfContained(
  cacheDir: string,
  framework: DotnetFramework,
): { dir: string; runtimeVersion: string; builtAt: string } | undefined {
  const root = join(cacheDir, 'dotnet');
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return undefined;
  }
  const found = names
    .filter((n) => n.startsWith(`${framework}-${RUNTIME_IDENTIFIER}-`) && !n.includes('.tmp-'))
    .flatMap((n) => {
      const record = join(root, n, 'build.json');
      if (!existsSync(record)) return [];
      try {
        const r = JSON.parse(readFileSync(record, 'utf8')) as {
          runtimeVersion?: string;
          builtAt?: string;
          packages?: unknown;
        };
        return r.runtimeVersion && !r.packages
          ? [{ dir: join(root, n), runtimeVersion: r.runtimeVersion, builtAt: r.builtAt ?? '' }]
          : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => (a.builtAt < b.builtAt ? 1 : -1));
  return found[0];
}

/** The SDK (and, for `dotnet`/`mono`, the runtime) a flavour needs, or the reason it cannot run. */
async function detectFlavour(f: DotnetFlavour): Promise<DotnetDetection> {
  if (f.kind === 'dotnet') return detectDotnet();
  if (f.kind === 'mono') return detectMono();
  const dotnet = process.env.DOTNET ?? 'dotnet';
  const sdk = await dotnetSdk(dotnet);
  if ('reason' in sdk)
    return {
      installed: false,
      runtime: 'dotnet',
      reason: `dotnet@${f.major} is published by the .NET SDK: ${sdk.reason}`,
    };
  return {
    installed: true,
    runtime: 'dotnet',
    // the runtime's own version is known once the build is probed (the SDK picks the runtime pack's patch)
    version: `${f.major}.0`,
    framework: `net${f.major}.0` as DotnetFramework,
    sdkVersion: sdk.version,
    command: onPath(dotnet),
    description: `.NET ${f.major} (self-contained, ${runtimePack(f.major)})`,
  };
}

/** One worker build of a target, probed: how to start it and what it loads. */
interface ProbedBuild {
  build: WorkerBuild;
  probe: DotnetProbe;
  launch: LaunchFn;
}

/**
 * A .NET target: `dotnet` (the SDK's runtime, the worker built for net10.0), `mono` (Debian's
 * Mono, the worker built for net462 by the same SDK) or `dotnet@8|9|10` (the worker published
 * self-contained for net8.0/net9.0/net10.0 with the runtime pack NuGet serves, started as its
 * apphost: a .NET runtime of that major without installing one). Platform `dotnet`: only the .NET
 * serializers (`stj`, `stj-sourcegen`, `newtonsoft`, and their `@version` rows) are planned on
 * it, against `stj`.
 *
 * `prepare` finds the SDK (and the runtime: exact versions, or the reason and the install command),
 * generates the DTOs of every workload from its schema and builds the worker into the cache on first
 * use (`dotnet build -c Release`, or `dotnet publish … -r linux-x64 --self-contained`: its time and
 * log go into the target record; a build with the same sources, framework and packages is reused),
 * probes it (`--probe`: the runtime's FrameworkDescription and the assembly versions it loads, which
 * the plan records as the serializers' versions), and launches workers through the host-side gate
 * (runtimes/dotnet/gated-launch.ts). Each `@version` row of the run (`ctx.serializers`) gets the
 * build of its package set; a row whose worker loads another version than asked (System.Text.Json
 * older than the framework's) is `unsupported` with the reason. A build that fails for a NuGet
 * package the registry lacks makes the cases of that build `unsupported`, naming the package and
 * version; any other build failure makes them fail with the log's error lines.
 */
function dotnetTarget(f: DotnetFlavour): Target {
  const id = f.kind === 'dotnet-version' ? `dotnet@${f.major}` : f.kind;
  const installHint =
    f.kind === 'dotnet' ? DOTNET_INSTALL_HINT : f.kind === 'mono' ? MONO_INSTALL_HINT : publishHint(f.major);
  const target: Target = {
    id,
    kind: f.kind,
    platform: 'dotnet',
    runtime: f.kind === 'mono' ? 'mono' : 'dotnet',
    installHint,
    detect: (ctx) => detectTarget(f, ctx),
    prepare: (ctx) => prepareTarget(f, id, ctx),
  };
  if (f.kind === 'dotnet-version') target.install = (cacheDir, log) => publishSelfContained(f, cacheDir, log);
  return target;
}

/** Target.detect of a flavour: the SDK and runtime found (for `dotnet@<major>`: the cached self-contained build). */
async function detectTarget(f: DotnetFlavour, ctx: { cacheDir: string }): Promise<Detection> {
  const d = await detectFlavour(f);
  if (!d.installed) return { installed: false, reason: d.reason };
  if (f.kind === 'dotnet-version') {
    const built = cachedSelfContained(ctx.cacheDir, d.framework);
    return built
      ? {
          installed: true,
          version: `${built.runtimeVersion} (self-contained, SDK ${d.sdkVersion})`,
          location: built.dir,
        }
      : { installed: false, reason: `dotnet@${f.major} is not built yet: ${publishHint(f.major)}` };
  }
  return {
    installed: true,
    version:
      f.kind === 'dotnet' ? `${d.version} (SDK ${d.sdkVersion})` : `${d.version} (worker built by SDK ${d.sdkVersion})`,
    location: d.command,
  };
}

/** Target.install of `dotnet@<major>`: publishes the worker self-contained into the cache. @throws Error when the SDK is missing, DotnetBuildError */
async function publishSelfContained(
  f: Extract<DotnetFlavour, { kind: 'dotnet-version' }>,
  cacheDir: string,
  log: (line: string) => void,
): Promise<void> {
  const d = await detectFlavour(f);
  if (!d.installed) throw new Error(d.reason);
  log(`publishing the worker for ${d.framework} self-contained (${runtimePack(f.major)})…`);
  const { sources } = await dtoSources([]);
  const b = await ensureWorkerBuild({
    cacheDir,
    framework: d.framework,
    sources,
    sdkVersion: d.sdkVersion,
    selfContained: true,
    dotnet: d.command,
  });
  log(`${b.cached ? 'reused' : 'built'} ${b.dir} (${(b.buildMs / 1000).toFixed(0)} s)`);
}

/** An installed flavour's detection (SDK, framework, command). */
type InstalledDotnet = Extract<DotnetDetection, { installed: true }>;

/**
 * Builds (or reuses) and probes the worker of one package set, once per set for the target's
 * preparation (the promise is kept by {@link packagesKey}).
 * @throws DotnetBuildError (the build failed), TargetError (the built worker does not start)
 */
function probedBuilder(
  f: DotnetFlavour,
  id: string,
  d: InstalledDotnet,
  ctx: TargetContext,
  sources: DtoSource[],
): (packages: WorkerPackages) => Promise<ProbedBuild> {
  const byId = new Map(ctx.workloads?.map((w) => [w.id, w]) ?? []);
  // the settings every launch of this worker gets: the run's profile's (issue 23: default, or steady's GC settings)
  const launchEnv: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(workerEnv()).filter(([k]) => !EXPERIMENT_VARIABLES.test(k))),
    ...dotnetWorkerEnv(ctx.profile),
  };
  const builds = new Map<string, Promise<ProbedBuild>>();
  const buildAndProbe = async (packages: WorkerPackages): Promise<ProbedBuild> => {
    const build = await ensureWorkerBuild({
      cacheDir: ctx.cacheDir,
      framework: d.framework,
      sources,
      sdkVersion: d.sdkVersion,
      selfContained: f.kind === 'dotnet-version',
      packages,
      ...(f.kind === 'mono' ? { mono: d.command } : { dotnet: d.command }),
    });
    let probe: DotnetProbe;
    // with the launches' environment, so the probe's gcMode (LOH threshold) is the one the cases run with
    try {
      probe = JSON.parse(await runProgram(build.command, [...build.args, '--probe'], 60_000, launchEnv)) as DotnetProbe;
    } catch (e) {
      throw new TargetError(
        `the ${id} worker built in ${build.dir} does not start (${(e as Error).message}); build log: ${build.logPath}`,
      );
    }
    const launch: LaunchFn = (job, timeoutMs) =>
      launchCommand({ command: build.command, args: build.args, channel: 'fd3', env: launchEnv }, job, timeoutMs);
    return { build, probe, launch: gatedLauncher(launch, (w) => byId.get(w)) };
  };
  return (packages) => {
    const key = packagesKey(packages);
    let p = builds.get(key);
    if (!p) {
      p = buildAndProbe(packages);
      builds.set(key, p);
    }
    return p;
  };
}

/** One `@version` row of a run: the variant, how to launch it (or the unsupported launcher) and its build record. */
interface PreparedVariant {
  variant: DotnetVariant;
  launch: LaunchFn;
  record: Record<string, unknown>;
}

/** The run's `@version` rows: one build per package set, its loaded version checked before anything runs. */
async function prepareVariants(
  id: string,
  serializers: readonly string[],
  probedBuild: (packages: WorkerPackages) => Promise<ProbedBuild>,
): Promise<Map<string, PreparedVariant>> {
  const variants = new Map<string, PreparedVariant>();
  for (const label of [...new Set(serializers)]) {
    const variant = dotnetVariantOf(label);
    if (!variant) continue;
    let reason: string | undefined;
    let failure: Record<string, string> = {};
    let built: ProbedBuild | undefined;
    try {
      built = await probedBuild(variant.packages);
      const entry = built.probe.serializers.find((s) => s.id === variant.serializer);
      // net462 (Mono) has no framework copy: the bin/ DLL is the restored package's. A self-contained build's bin/
      // also holds the runtime pack's System.Text.Json, so on .NET the loaded version alone decides.
      const fromBuild =
        built.build.framework === 'net462' && (entry?.location?.startsWith(join(built.build.dir, 'bin')) ?? false);
      reason = versionMismatch(variant, entry?.version, built.build.framework, id, {
        version: restoredVersion(built.build.dir, packageNameOf(variant)),
        fromBuild,
      });
    } catch (e) {
      if (!(e instanceof DotnetBuildError || e instanceof TargetError)) throw e;
      reason = e.message;
      if (e instanceof DotnetBuildError) failure = buildFailureFacts(e);
    }
    variants.set(label, {
      variant,
      launch: reason || !built ? unsupportedLauncher(reason ?? 'no build') : built.launch,
      record: {
        serializer: label,
        packages: variant.packages,
        ...(built
          ? {
              dir: built.build.dir,
              buildMs: built.build.buildMs,
              cached: built.build.cached,
              loaded: built.probe.serializers.find((s) => s.id === variant.serializer) ?? null,
            }
          : {}),
        ...(reason ? { unsupported: reason, ...failure } : {}),
      },
    });
  }
  return variants;
}

/**
 * Target.prepare of a flavour (see {@link dotnetTarget}): builds and probes the main worker and
 * each `@version` row's, and launches each job on its row's build.
 * @throws TargetError when the SDK is missing, the build fails (but for a missing NuGet package) or the worker does not start
 */
async function prepareTarget(f: DotnetFlavour, id: string, ctx: TargetContext): Promise<PreparedTarget> {
  const d = await detectFlavour(f);
  if (!d.installed) throw new TargetError(d.reason);
  const runtime = f.kind === 'mono' ? 'mono' : 'dotnet';
  const { sources, unsupported } = await dtoSources(ctx.workloads ?? []);
  const probedBuild = probedBuilder(f, id, d, ctx, sources);
  const version = f.kind === 'dotnet-version' ? undefined : d.version;
  const base = (probe?: DotnetProbe) => ({
    id,
    kind: f.kind,
    platform: 'dotnet' as const,
    runtime,
    version: version ?? probe?.version ?? d.version,
    engine: f.kind === 'mono' ? 'Mono' : 'CoreCLR',
    engineVersion: f.kind === 'mono' ? d.description.replace(/^Mono\s+/, '') : (version ?? probe?.version ?? d.version),
    // the settings every launch of this worker gets (results name them; compare calls files with others not comparable)
    flags: Object.entries(dotnetWorkerEnv(ctx.profile)).map(([k, v]) => `${k}=${v}`),
  });
  let main: ProbedBuild;
  try {
    main = await probedBuild({});
  } catch (e) {
    if (e instanceof DotnetBuildError && e.missingPackage) {
      return {
        info: { ...base(), probe: { sdkVersion: d.sdkVersion, ...buildFailureFacts(e) }, fault: e.message },
        launch: unsupportedLauncher(e.message),
      };
    }
    if (e instanceof DotnetBuildError) throw new TargetError(e.message, buildFailureFacts(e));
    throw e instanceof TargetError ? e : new TargetError((e as Error).message);
  }
  const variants = await prepareVariants(id, ctx.serializers ?? [], probedBuild);
  const { build, probe } = main;
  return {
    info: {
      ...base(probe),
      probe: {
        ...probe,
        sdkVersion: d.sdkVersion,
        description: f.kind === 'dotnet-version' ? probe.description : d.description,
        executable: build.command,
        ...(build.args[0] ? { worker: build.args[0] } : {}),
      },
      workerSha256: build.key,
      build: {
        command: build.buildCommand,
        framework: build.framework,
        sdkVersion: d.sdkVersion,
        buildMs: build.buildMs,
        cached: build.cached,
        logPath: build.logPath,
        workloads: sources.map((s) => s.id),
        ...(Object.keys(unsupported).length ? { unsupported } : {}),
        ...(f.kind === 'dotnet-version' ? { selfContained: RUNTIME_IDENTIFIER, runtimeVersion: probe.version } : {}),
        ...(variants.size ? { variants: [...variants.values()].map((v) => v.record) } : {}),
      },
    },
    serializerVersions: Object.fromEntries(probe.serializers.map((s) => [s.id, s.version])),
    launch: (job, timeoutMs, place) => {
      const v = variants.get(job.serializer);
      return v
        ? v.launch({ ...job, serializer: v.variant.serializer }, timeoutMs, place)
        : main.launch(job, timeoutMs, place);
    },
  };
}

/** `dotnet`: the .NET SDK's runtime (Microsoft.NETCore.App of the SDK's major). */
export function parseDotnet(id: string): Target | undefined {
  return id === 'dotnet' ? dotnetTarget({ kind: 'dotnet' }) : undefined;
}

/** `mono`: Debian's Mono running the net462 worker. */
export function parseMono(id: string): Target | undefined {
  return id === 'mono' ? dotnetTarget({ kind: 'mono' }) : undefined;
}

/**
 * `dotnet@8`, `dotnet@9`, `dotnet@10`: the worker published self-contained for that major.
 * @throws TargetError for another major (the NuGet copy here serves runtime packs 8, 9 and 10)
 */
export function parseDotnetVersion(id: string): Target | undefined {
  const m = /^dotnet@(\d+)$/.exec(id);
  if (!m) return undefined;
  const major = Number(m[1]) as (typeof DOTNET_MAJORS)[number];
  if (!DOTNET_MAJORS.includes(major))
    throw new TargetError(
      `"${id}": jsonbench publishes .NET ${DOTNET_MAJORS.join(', ')} (dotnet@${DOTNET_MAJORS.join('|')}); the runtime packs of other majors are not served here`,
    );
  return dotnetTarget({ kind: 'dotnet-version', major });
}
