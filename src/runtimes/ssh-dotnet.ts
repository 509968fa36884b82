import { basename } from 'node:path';
import { variantPathOf } from '../case/coordinates.js';
import { dotnetVariantOf } from '../serializers/dotnet/versions.js';
import { PROTOCOL_VERSION } from '../worker/protocol.js';
import { runProgram } from './cache.js';
import { buildFailureFacts, dtoSources, unsupportedLauncher, type DotnetProbe } from './dotnet.js';
import {
  DotnetBuildError,
  dotnetWorkerEnv,
  ensureWorkerBuild,
  type DotnetFramework,
  type WorkerBuild,
} from './dotnet/build.js';
import { dotnetSdk, onPath } from './dotnet/detect.js';
import type { DtoSource } from '../serializers/dotnet/dto-generator.js';
import { gatedLauncher } from './dotnet/gated-launch.js';
import { launchCommand, outcomeOf, type LaunchOutcome } from './launch.js';
import { remoteStep, scpArgs, shellQuote, shownAddress, sshArgs, type SshAddress } from './ssh-address.js';
import {
  TargetError,
  type Detection,
  type LaunchFn,
  type PreparedTarget,
  type Target,
  type TargetContext,
} from './types.js';

/** The .NET majors whose framework-dependent worker this host's SDK builds for a remote `dotnet` (as dotnet@8|9|10). */
const REMOTE_MAJORS = [10, 9, 8] as const;

/** What a remote runtime is: `dotnet` with the newest usable Microsoft.NETCore.App major, or `mono` with its version line. */
type RemoteRuntime = { kind: 'dotnet'; major: number; runtimes: string[] } | { kind: 'mono'; versionLine: string };

/**
 * The newest Microsoft.NETCore.App major of {@link REMOTE_MAJORS} in `dotnet --list-runtimes` output
 * (`Microsoft.NETCore.App 8.0.31 [/usr/share/dotnet/shared/Microsoft.NETCore.App]`), or undefined.
 */
export function newestRuntimeMajor(listRuntimes: string): number | undefined {
  const majors = [...listRuntimes.matchAll(/^Microsoft\.NETCore\.App (\d+)\.\d+\.\d+/gm)].map((m) => Number(m[1]));
  return REMOTE_MAJORS.find((m) => majors.includes(m));
}

/**
 * Launches one job on the remote worker in `dir`: copies its payload (once, payloadCopier), then runs
 * `run worker` over ssh with fd 3 on the channel, under a remote `timeout` where there is one.
 * A payload that cannot be copied fails the launch, naming why.
 */
function remoteLauncher(addr: SshAddress, dir: string, run: string, worker: string): LaunchFn {
  const remotePayload = payloadCopier(addr, dir);
  return async (job, timeoutMs) => {
    let payloadPath: string;
    try {
      payloadPath = await remotePayload(job.payloadPath);
    } catch (e) {
      return failed((e as Error).message);
    }
    const secs = Math.ceil(timeoutMs / 1000) + 5;
    const remoteCmd = `cd ${shellQuote(dir)} && if command -v timeout >/dev/null 2>&1; then exec ${run} timeout -s KILL ${secs} ${worker} 3>&1 1>&2; else exec ${run} ${worker} 3>&1 1>&2; fi`;
    return launchCommand(
      { command: 'ssh', args: sshArgs(addr, remoteCmd), channel: 'stdout' },
      { ...job, payloadPath },
      timeoutMs,
    );
  };
}

/**
 * `ssh://user@host[:port]?dotnet=/path/to/dotnet` or `?mono=/path/to/mono`: the C# worker on a remote machine's .NET
 * or Mono (study 000's setting: Mono on a device). Platform `dotnet`: the .NET serializers run on it, against `stj`.
 *
 * Prepare asks the remote runtime what it is over ssh (`dotnet --list-runtimes`: its newest .NET 8, 9 or 10;
 * `mono --version`), builds the worker on this host with this host's .NET SDK for that framework (net10.0 / net9.0 /
 * net8.0 framework-dependent, or net462 for Mono: IL, so any CPU the runtime runs on) into the jsonbench cache, copies
 * its `bin/` to a remote `mktemp -d` folder with scp, and probes it there (`--probe`: the runtime's own
 * FrameworkDescription and the assembly versions it loads). Each launch copies its payload (and the gate's variant)
 * once, then runs one remote worker whose fd 3 is redirected to the ssh channel (`3>&1 1>&2`), with the run profile's
 * `DOTNET_*` settings and a remote `timeout` where there is one. The host's gate judges its output exactly as for a
 * local .NET target (runtimes/dotnet/gated-launch.ts). The remote folder is removed when the run ends. Not here:
 * `@version` rows (their cases are unsupported, naming the local targets), building on the remote.
 */
export function sshDotnetTarget(addr: SshAddress): Target {
  const mono = addr.mono !== undefined;
  const path = (mono ? addr.mono : addr.dotnet)!;
  const runtime = mono ? 'mono' : 'dotnet';
  // parseable again (the probe pass reads a target's platform from its id): the path, not the key or known_hosts
  const id = `${shownAddress(addr)}?${runtime}=${encodeURIComponent(path).replace(/%2F/g, '/')}`;
  const hint = `install ${mono ? 'Mono' : '.NET 8, 9 or 10'} on ${addr.host} and pass its path (?${runtime}=/path/to/${runtime}); this host needs the .NET SDK to build the worker`;
  const ask = async (): Promise<RemoteRuntime> => {
    const out = await remoteStep(`asking ${path} what it is over ssh`, addr, () =>
      runProgram('ssh', sshArgs(addr, `${shellQuote(path)} ${mono ? '--version' : '--list-runtimes'}`), 60_000),
    );
    if (mono) return { kind: 'mono', versionLine: out.split('\n')[0].trim() };
    const major = newestRuntimeMajor(out);
    if (major === undefined)
      throw new TargetError(
        `${id}: ${path} --list-runtimes names no Microsoft.NETCore.App ${[...REMOTE_MAJORS].reverse().join(', ')} (${out.trim().split('\n').join('; ') || 'nothing'}): ${hint}`,
      );
    return { kind: 'dotnet', major, runtimes: out.trim().split('\n') };
  };
  return {
    id,
    kind: 'ssh',
    platform: 'dotnet',
    runtime,
    installHint: hint,
    async detect(): Promise<Detection> {
      try {
        const r = await ask();
        return {
          installed: true,
          version: r.kind === 'mono' ? r.versionLine : `.NET ${r.major} (${r.runtimes.length} runtime(s))`,
          location: `${shownAddress(addr)} ${path}`,
        };
      } catch (e) {
        return { installed: false, reason: (e as Error).message };
      }
    },
    async prepare(ctx: TargetContext): Promise<PreparedTarget> {
      const remote = await ask();
      const framework: DotnetFramework =
        remote.kind === 'mono' ? 'net462' : (`net${remote.major}.0` as DotnetFramework);
      const { sdk, build, sources } = await buildHere(id, ctx, framework);
      const entry = `bin/${framework === 'net462' ? 'jsonbench-worker.exe' : 'jsonbench-worker.dll'}`;
      const dir = (
        await remoteStep('making a remote folder with ssh (mktemp -d)', addr, () =>
          runProgram('ssh', sshArgs(addr, 'mktemp -d /tmp/jsonbench-XXXXXX')),
        )
      ).trim();
      const removeDir = () =>
        runProgram('ssh', sshArgs(addr, `rm -rf ${shellQuote(dir)}`)).then(
          () => {},
          () => {},
        );
      const env = dotnetWorkerEnv(ctx.profile);
      const run = `env ${Object.entries(env)
        .map(([k, v]) => `${k}=${shellQuote(v)}`)
        .join(' ')}`;
      const worker = `${shellQuote(path)} ${shellQuote(entry)}`;
      let probe: DotnetProbe;
      try {
        await remoteStep(`copying the ${framework} worker (${build.dir}/bin) to ${dir} with scp`, addr, () =>
          runProgram('scp', scpArgs(addr, [`${build.dir}/bin`], dir, true), 300_000),
        );
        const out = await remoteStep(`starting the worker there (${path} ${entry} --probe)`, addr, () =>
          runProgram('ssh', sshArgs(addr, `cd ${shellQuote(dir)} && ${run} ${worker} --probe`), 120_000),
        );
        probe = parseRemoteProbe(id, out);
      } catch (e) {
        await removeDir();
        throw e;
      }
      const inner = remoteLauncher(addr, dir, run, worker);
      const byId = new Map(ctx.workloads?.map((w) => [w.id, w]) ?? []);
      const gated = gatedLauncher(inner, (w) => byId.get(w));
      const versionRows = unsupportedLauncher(
        `library version rows (newtonsoft@13.0.1) run on the local .NET targets (dotnet, dotnet@8|9|10, mono); ${id} runs the worker's own packages`,
      );
      return {
        info: {
          id,
          kind: 'ssh',
          platform: 'dotnet',
          runtime,
          version: probe.version,
          engine: mono ? 'Mono' : 'CoreCLR',
          engineVersion: mono ? probe.description.replace(/^Mono\s+/, '') : probe.version,
          flags: Object.entries(env).map(([k, v]) => `${k}=${v}`),
          probe: { ...probe, sdkVersion: sdk.version, remoteDir: dir, [runtime]: path, executable: `${path} ${entry}` },
          workerSha256: build.key,
          build: {
            command: build.buildCommand,
            framework: build.framework,
            sdkVersion: sdk.version,
            buildMs: build.buildMs,
            cached: build.cached,
            logPath: build.logPath,
            workloads: sources.map((s) => s.id),
          },
        },
        serializerVersions: Object.fromEntries(probe.serializers.map((s) => [s.id, s.version])),
        launch: (job, timeoutMs, place) =>
          dotnetVariantOf(job.serializer) ? versionRows(job, timeoutMs, place) : gated(job, timeoutMs, place),
        close: removeDir,
      };
    },
  };
}

/**
 * Builds the worker for `framework` on this host with its .NET SDK (the run's DTOs compiled in), into the jsonbench
 * cache (shared with the local targets' builds of the same key). @throws TargetError without an SDK or on a failed
 * build (with its log's facts)
 */
async function buildHere(
  id: string,
  ctx: TargetContext,
  framework: DotnetFramework,
): Promise<{ sdk: { version: string }; build: WorkerBuild; sources: DtoSource[] }> {
  const dotnet = process.env.DOTNET ?? 'dotnet';
  const sdk = await dotnetSdk(dotnet);
  if ('reason' in sdk) throw new TargetError(`${id}: the worker is built on this host: ${sdk.reason}`);
  const { sources } = await dtoSources(ctx.workloads ?? []);
  try {
    const build = await ensureWorkerBuild({
      cacheDir: ctx.cacheDir,
      framework,
      sources,
      sdkVersion: sdk.version,
      dotnet: onPath(dotnet),
    });
    return { sdk, build, sources };
  } catch (e) {
    if (e instanceof DotnetBuildError) throw new TargetError(`${id}: ${e.message}`, buildFailureFacts(e));
    throw e;
  }
}

/** The remote worker's `--probe` line as a {@link DotnetProbe}. @throws TargetError when it is not JSON */
function parseRemoteProbe(id: string, out: string): DotnetProbe {
  try {
    return JSON.parse(out) as DotnetProbe;
  } catch {
    throw new TargetError(
      `${id}: the remote worker's --probe printed no JSON: ${out.trim().slice(0, 200) || 'nothing'}`,
    );
  }
}

/**
 * Copies each payload (and the gate's variant beside it: the worker derives its path) once, into its own folder
 * `<dir>/pN/`, and answers its remote path; a failed copy is forgotten so the next launch tries again.
 */
function payloadCopier(addr: SshAddress, dir: string): (local: string) => Promise<string> {
  const copies = new Map<string, Promise<string>>();
  let n = 0;
  return (local) => {
    let p = copies.get(local);
    if (!p) {
      const sub = `${dir}/p${++n}`;
      p = remoteStep(`copying the payload ${basename(local)} to ${sub} with scp`, addr, async () => {
        await runProgram('ssh', sshArgs(addr, `mkdir -p ${shellQuote(sub)}`));
        await runProgram('scp', scpArgs(addr, [local, variantPathOf(local)], sub), 300_000);
        return `${sub}/${basename(local)}`;
      });
      p.catch(() => copies.delete(local));
      copies.set(local, p);
    }
    return p;
  };
}

/** A launch that failed before a worker started (a payload that could not be copied): the reason as the worker's error. */
function failed(message: string): LaunchOutcome {
  return outcomeOf([{ protocol: PROTOCOL_VERSION, type: 'error', stage: 'load', message }], 1);
}
