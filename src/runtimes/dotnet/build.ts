import type { ProfileName } from '../../case/profile.js';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtoFile, type DtoModule, type DtoSource } from '../../serializers/dotnet/dto-generator.js';
import { readBuildFailure } from './build-failure.js';
import { workerEnv } from '../../case/startup.js';
import type { WorkerPackages } from '../../serializers/dotnet/versions.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Builds the .NET worker (workers/dotnet/) with the DTOs of the given workloads into the
 * jsonbench cache, once per distinct input: `<cache>/dotnet/<framework>-<key>/` holds `src/` (the
 * worker's sources and Generated/Dtos.g.cs), `bin/`, `build.log` (everything `dotnet build`
 * printed) and `build.json` (framework, key, SDK, build time, and the SHA-256 of every file in
 * `bin/`). The key is a SHA-256 of the worker's sources, the generated C#, the framework and the
 * SDK version, so a changed workload schema or worker file builds anew and an unchanged one is
 * reused. A build is made in a `<framework>-<key>.tmp-<pid>-<ms>` folder, `build.json` is written
 * last, and the folder is renamed into place: a reused build is one whose `build.json` parses and
 * whose `bin/` files all still have the recorded hashes; any other (a truncated or deleted file, a
 * record of an older jsonbench without hashes) is removed and built again. Temporary folders whose
 * process is gone (a build killed with SIGKILL) are removed by the next build.
 */

/**
 * `net10.0` runs on the SDK's runtime (`dotnet`); `net462` on Mono (see workers/dotnet/README.md);
 * `net8.0`, `net9.0` and `net10.0` are also published self-contained (targets `dotnet@8|9|10`).
 */
export type DotnetFramework = 'net10.0' | 'net9.0' | 'net8.0' | 'net462';

/** The runtime identifier of a self-contained worker build (the runtime pack Microsoft.NETCore.App.Runtime.<rid>). */
export const RUNTIME_IDENTIFIER = 'linux-x64';

export type { WorkerPackages };

/** The worker's source folder in this repository (from build/src/runtimes/dotnet/). */
export const WORKER_SOURCE_DIR = fileURLToPath(new URL('../../../../workers/dotnet/', import.meta.url));

/**
 * Environment .NET worker launches get (Mono ignores it), by profile (case/profile.ts): every
 * profile gets `DOTNET_TC_CallCountingDelayMs=0` (it changes how soon tier-1 code arrives, not the
 * steady-state code or the GC); the `steady` profile adds the three GC settings below, which change
 * what the GC does inside an op (no gen-2 collections and no LOH page faults on outputs up to 32 MiB,
 * where a service on the default GC pays them: issue 23, decision 3) and are therefore opt-in.
 * docs/profiles.md has their measured effect on ratios. `DOTNET_TC_CallCountingDelayMs=0`:
 * tiered compilation promotes a method to tier 1 after 30 calls at once, instead of waiting until
 * no tier-0 activity happened for 100 ms. On a loaded machine that wait kept being reset, so
 * Newtonsoft's methods stayed at tier 0 through every round although the worker's JIT settle saw the
 * JIT quiet: weather-station deserialize Newtonsoft ÷ STJ read 14–22 (20–44 µs/op) against
 * BenchmarkDotNet's 2.9 in the same minutes (load 9–12, 2026-12-01), and 2.19 with this setting
 * (BenchmarkDotNet 2.1–2.7 earlier that hour). The steady-state code is the same tier-1 code; only
 * the time to reach it changes.
 *
 * `DOTNET_GCLOHThreshold=5F5E100` (hex 100,000,000 B; the GC caps it at what fits one of its regions:
 * 4,194,216 B on .NET 10.0.12, reported in `gcMode`; the default is 85,000 B): a serializer's output
 * string of up to ~4 MiB (users/10000: 3.6 MB) is allocated in gen0, whose memory the GC keeps
 * committed, instead of the large object heap, whose freed regions it returns to the OS and the next
 * op touches afresh. Larger outputs still go to the LOH. On this machine's VM a minor page fault costs ~17 µs
 * (a 3.6 MB string: 0.3 ms with its pages mapped, 6–13 ms with 349–698 faults), so the per-sample
 * times swung with how many pages the GC had given back: users/10000 serialize, STJ 2.4–14 ms per op
 * within one launch, Newtonsoft ÷ STJ 1.18–2.08 across runs at load ~1 (ratio CV 21%). With it STJ
 * faults 0 times per op and its round medians stay within ±5% (bench/dotnet-gc-study.ts `loh100m`,
 * 2026-12-01; workers/dotnet/README.md). The bytes allocated are the same (exact counter); the
 * worker reports the threshold in `gcMode`.
 *
 * `DOTNET_GCRegionSize=2000000` and `DOTNET_GCgen0size=10000000` (hex: 32 MiB regions instead of 4 MiB,
 * a 256 MiB gen0 size asked, which raises the GC's largest gen0 budget from 6 MiB to 128 MiB on .NET 10.0.12): outputs over ~4 MiB
 * (company/50,000 and /100,000 serialize: 8 and 16 MB strings) still went to the LOH with the
 * threshold alone, and Newtonsoft (38 MB allocated per op at company/100,000) faulted 1,500–4,300
 * pages per op back in either way. The region size raises the threshold's cap to one 32 MiB region
 * (33,554,344 B); the gen0 budget keeps gen0's regions committed between ops. Neither alone removed
 * the faults (regions alone: STJ 0 faults/op but Newtonsoft 2,200–3,900; gen0 alone: Newtonsoft 0–2,200,
 * STJ 0–1,900); together 0 in most rounds (0–590), company/100,000 serialize Newtonsoft ÷ STJ by
 * thread CPU 1.55–1.70 in 3 fresh launches (34–69 / 27–36 ms) against 1.99–3.02 (108–128 / 50–58 ms)
 * without (bench/dotnet-gc-study.ts `region32m+gen0256m`, load 7.5–10, 2026-12-01;
 * workers/dotnet/README.md). Allocated bytes are the same (exact counter); `gcMode` names the region
 * size and the gen0 max budget the GC settled on.
 */
export const DOTNET_PROFILE_ENV: Readonly<Record<ProfileName, Readonly<Record<string, string>>>> = deepFreeze({
  default: { DOTNET_TC_CallCountingDelayMs: '0' },
  steady: {
    DOTNET_TC_CallCountingDelayMs: '0',
    DOTNET_GCLOHThreshold: '5F5E100',
    DOTNET_GCRegionSize: '2000000',
    DOTNET_GCgen0size: '10000000',
  },
});

/** The environment of a .NET worker launch in `profile` ({@link DOTNET_PROFILE_ENV}). */
export function dotnetWorkerEnv(profile: ProfileName = 'default'): Readonly<Record<string, string>> {
  return DOTNET_PROFILE_ENV[profile];
}

/** The `steady` profile's environment: the lab's GC settings (what bench/ studies and BenchmarkDotNet runs compare with). */
export const DOTNET_WORKER_ENV: Readonly<Record<string, string>> = deepFreeze(DOTNET_PROFILE_ENV.steady);

/** A built worker and how to start it. */
export interface WorkerBuild {
  dir: string;
  framework: DotnetFramework;
  /** true for a self-contained publish (its own runtime from the NuGet runtime pack, started as the apphost) */
  selfContained: boolean;
  /** the package versions asked for (absent: the project's own) */
  packages: WorkerPackages;
  /** the shell-free form of the command that made it: `dotnet publish -c Release …` */
  buildCommand: string;
  key: string;
  /** how long `dotnet build` took when this build was made (ms) */
  buildMs: number;
  /** true when an earlier build with the same key was reused */
  cached: boolean;
  logPath: string;
  modules: DtoModule[];
  /** the command that starts a worker: `dotnet <dll>`, `mono <exe>` or the apphost `<bin>/jsonbench-worker` */
  command: string;
  args: string[];
}

/**
 * `dotnet build` failed. The message is one line: which build (framework, package versions) and what failed
 * ({@link readBuildFailure}: the package NuGet lacks, the source generator that threw, or the first compiler
 * error with paths cut to file names); `logPath` is the failed log kept in the cache and `firstError` its first
 * error line, for reports. `missingPackage` is set when NuGet could not find a package or version (NU1101,
 * NU1102, NU1103: the registry copy lacks it), which makes the target's cases `unsupported`.
 */
export class DotnetBuildError extends Error {
  readonly code = 'E_DOTNET_BUILD';
  constructor(
    message: string,
    readonly missingPackage = false,
    readonly logPath?: string,
    readonly firstError?: string,
  ) {
    super(message);
  }
}

function workerFiles(root: string): string[] {
  const files = ['JsonBench.Worker.csproj'];
  for (const f of readdirSync(join(root, 'src')).sort()) if (f.endsWith('.cs')) files.push(join('src', f));
  return files;
}

/** The start command of a worker built for `framework` into `binDir` (a self-contained one: its apphost). */
export function workerCommand(
  framework: DotnetFramework,
  binDir: string,
  dotnet = 'dotnet',
  mono = 'mono',
  selfContained = false,
): { command: string; args: string[] } {
  if (selfContained) return { command: join(binDir, 'jsonbench-worker'), args: [] };
  return framework === 'net462'
    ? { command: mono, args: [join(binDir, 'jsonbench-worker.exe')] }
    : { command: dotnet, args: [join(binDir, 'jsonbench-worker.dll')] };
}

/**
 * The `dotnet` arguments that build the worker into `outDir`: `build -c Release` for the SDK's runtime
 * and Mono; `publish -c Release -r linux-x64 --self-contained` for a self-contained build (the SDK takes
 * the runtime pack of its own choice of patch: the newest it knows for that major); `-p:NewtonsoftVersion=…`
 * and `-p:StjVersion=…` for asked package versions.
 */
export function buildArgs(
  framework: DotnetFramework,
  outDir: string,
  selfContained = false,
  packages: WorkerPackages = {},
): string[] {
  return [
    ...(selfContained ? ['publish'] : ['build']),
    '-c',
    'Release',
    `-p:WorkerFramework=${framework}`,
    ...(selfContained ? ['-r', RUNTIME_IDENTIFIER, '--self-contained'] : []),
    ...(packages.newtonsoft ? [`-p:NewtonsoftVersion=${packages.newtonsoft}`] : []),
    ...(packages.stj ? [`-p:StjVersion=${packages.stj}`] : []),
    '-o',
    outDir,
    '--disable-build-servers',
    '-nologo',
  ];
}

/** A build's folder name in the cache: `net10.0-<key>`, `net8.0-linux-x64-<key>` (self-contained). */
export function buildDirName(framework: DotnetFramework, key: string, selfContained = false): string {
  return `${framework}${selfContained ? `-${RUNTIME_IDENTIFIER}` : ''}-${key}`;
}

/**
 * The Microsoft.NETCore.App version a self-contained build in `binDir` carries (its runtimeconfig.json's
 * `includedFrameworks`), or undefined when it has none (a framework-dependent build, a missing file).
 */
export function includedRuntimeVersion(binDir: string): string | undefined {
  try {
    const rc = JSON.parse(readFileSync(join(binDir, 'jsonbench-worker.runtimeconfig.json'), 'utf8')) as {
      runtimeOptions?: { includedFrameworks?: { name?: string; version?: string }[] };
    };
    return rc.runtimeOptions?.includedFrameworks?.find((f) => f.name === 'Microsoft.NETCore.App')?.version;
  } catch {
    return undefined;
  }
}

function run(
  command: string,
  args: string[],
  cwd: string,
  logPath: string,
  timeoutMs: number,
): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...workerEnv(), DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', MSBUILDDISABLENODEREUSE: '1' },
    });
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => chunks.push(Buffer.from(`\n${command}: ${e.message}\n`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      writeFileSync(logPath, Buffer.concat(chunks));
      resolve({ code, ms: performance.now() - started });
    });
  });
}

/**
 * Generates the DTOs of `sources`, then builds the worker for `framework` into the cache unless a
 * build with the same key is there. The key also covers `selfContained` and `packages` (their
 * absence leaves the key of a plain build as it was). Build servers are disabled (`--disable-build-servers`), so no
 * compiler process outlives the build. @throws DtoGenerationError for a schema the generator
 * cannot write; DotnetBuildError when `dotnet build` fails or runs over `timeoutMs`.
 */
export async function ensureWorkerBuild(opts: {
  cacheDir: string;
  framework: DotnetFramework;
  sources: readonly DtoSource[];
  sdkVersion: string;
  workerDir?: string;
  dotnet?: string;
  mono?: string;
  timeoutMs?: number;
  selfContained?: boolean;
  packages?: WorkerPackages;
}): Promise<WorkerBuild> {
  const root = opts.workerDir ?? WORKER_SOURCE_DIR;
  const selfContained = opts.selfContained ?? false;
  const packages: WorkerPackages = {
    ...(opts.packages?.newtonsoft ? { newtonsoft: opts.packages.newtonsoft } : {}),
    ...(opts.packages?.stj ? { stj: opts.packages.stj } : {}),
  };
  const { modules, text } = generateDtoFile(opts.sources);
  const hash = createHash('sha256').update(`${opts.framework}\n${opts.sdkVersion}\n`);
  if (selfContained) hash.update(`self-contained ${RUNTIME_IDENTIFIER}\n`);
  if (packages.newtonsoft) hash.update(`Newtonsoft.Json ${packages.newtonsoft}\n`);
  if (packages.stj) hash.update(`System.Text.Json ${packages.stj}\n`);
  const files = workerFiles(root);
  for (const f of files) hash.update(`${f}\n`).update(readFileSync(join(root, f)));
  hash.update(text);
  const key = hash.digest('hex').slice(0, 16);
  const dir = join(opts.cacheDir, 'dotnet', buildDirName(opts.framework, key, selfContained));
  const buildCommand = `dotnet ${buildArgs(opts.framework, 'bin', selfContained, packages)
    .filter((a) => !a.startsWith('--disable') && a !== '-nologo')
    .join(' ')}`;
  const done = (buildMs: number, cached: boolean): WorkerBuild => ({
    dir,
    framework: opts.framework,
    selfContained,
    packages,
    buildCommand,
    key,
    buildMs,
    cached,
    logPath: join(dir, 'build.log'),
    modules,
    ...workerCommand(opts.framework, join(dir, 'bin'), opts.dotnet, opts.mono, selfContained),
  });
  const record = join(dir, 'build.json');
  removeStaleBuilds(join(opts.cacheDir, 'dotnet'));
  if (existsSync(record)) {
    const reusable = verifiedBuild(dir);
    if (reusable) return done(reusable.buildMs, true);
    rmSync(dir, { recursive: true, force: true });
  }

  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(join(tmp, 'src', 'Generated'), { recursive: true });
  for (const f of files) cpSync(join(root, f), join(tmp, 'src', f));
  writeFileSync(join(tmp, 'src', 'Generated', 'Dtos.g.cs'), text);
  const logPath = join(tmp, 'build.log');
  const args = buildArgs(opts.framework, join(tmp, 'bin'), selfContained, packages);
  const result = await run(
    opts.dotnet ?? process.env.DOTNET ?? 'dotnet',
    args,
    join(tmp, 'src'),
    logPath,
    opts.timeoutMs ?? 600_000,
  );
  if (result.code !== 0) {
    const failedLog = `${dir}.failed.log`;
    mkdirSync(join(opts.cacheDir, 'dotnet'), { recursive: true });
    cpSync(logPath, failedLog);
    rmSync(tmp, { recursive: true, force: true });
    const failure = readBuildFailure(readFileSync(failedLog, 'utf8').split('\n'));
    const what = `${opts.framework}${selfContained ? ` self-contained ${RUNTIME_IDENTIFIER}` : ''}${packages.newtonsoft ? `, Newtonsoft.Json ${packages.newtonsoft}` : ''}${packages.stj ? `, System.Text.Json ${packages.stj}` : ''}`;
    throw new DotnetBuildError(
      `dotnet ${args[0]} of the .NET worker (${what}) ${result.code === null ? 'timed out' : 'failed'}: ${result.code === null ? `no result after ${Math.round((opts.timeoutMs ?? 600_000) / 1000)} s` : failure.summary}`,
      failure.missingPackage,
      failedLog,
      failure.firstError,
    );
  }
  // the compiler's own output folder: `-o bin` copied what runs; a self-contained publish left 72 MiB here (the tryout)
  rmSync(join(tmp, 'src', 'bin'), { recursive: true, force: true });
  // the record is written last: its presence (with the hashes of bin/) is the stamp of a finished build
  writeFileSync(
    join(tmp, 'build.json'),
    JSON.stringify(
      {
        framework: opts.framework,
        key,
        sdkVersion: opts.sdkVersion,
        ...(selfContained
          ? { selfContained: RUNTIME_IDENTIFIER, runtimeVersion: includedRuntimeVersion(join(tmp, 'bin')) }
          : {}),
        ...(Object.keys(packages).length ? { packages } : {}),
        command: buildCommand,
        buildMs: Math.round(result.ms),
        builtAt: new Date().toISOString(),
        workloads: modules.map((m) => `${m.workload}:${m.directions.join('+')}`),
        files: hashFiles(join(tmp, 'bin')),
      },
      null,
      2,
    ),
  );
  try {
    renameSync(tmp, dir);
  } catch {
    // another process finished the same build first: keep its folder
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(record)) throw new DotnetBuildError(`could not move the .NET worker build into ${dir}`);
  }
  return done(Math.round(result.ms), false);
}

/** SHA-256 (hex) of every file under `dir`, by path relative to it ('/'-separated), in sorted order. */
function hashFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p).split('\\').join('/')] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/**
 * A finished build in `dir` as its `build.json` records it, or undefined when the record does not
 * parse, lists no files (an older record), or a file of `bin/` is missing, changed or added.
 */
function verifiedBuild(dir: string): { buildMs: number } | undefined {
  try {
    const rec = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')) as {
      buildMs?: unknown;
      files?: Record<string, string>;
    };
    if (typeof rec.buildMs !== 'number' || !rec.files || !Object.keys(rec.files).length) return undefined;
    const now = hashFiles(join(dir, 'bin'));
    const keys = Object.keys(rec.files);
    if (keys.length !== Object.keys(now).length || keys.some((k) => now[k] !== rec.files![k])) return undefined;
    return { buildMs: rec.buildMs };
  } catch {
    return undefined;
  }
}

/**
 * Removes `<name>.tmp-<pid>-<ms>` build folders in `dotnetCacheDir` whose process no longer runs (a
 * build killed before it could clean up). A folder of a running process (another build now) is kept.
 */
function removeStaleBuilds(dotnetCacheDir: string): void {
  let names: string[];
  try {
    names = readdirSync(dotnetCacheDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /\.tmp-(\d+)-\d+$/.exec(name);
    if (!m || Number(m[1]) === process.pid || processRuns(Number(m[1]))) continue;
    const path = join(dotnetCacheDir, name);
    try {
      if (statSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
    } catch {
      /* removed by another build meanwhile */
    }
  }
}

/** Whether a process with this id exists (signal 0; EPERM: it exists under another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
