/**
 * BenchmarkDotNet (0.15.8, from the NuGet registry copy) as a peer of jsonbench on the .NET pairs
 * of `npm run bench:precision`, as mitata and tinybench are on the JavaScript pairs. The project
 * (bench/dotnet-bdn/) compiles the .NET worker's own sources and generated DTOs of a worker build
 * (bench/dotnet-lab.ts `readyTarget`), so it times the very calls jsonbench times; it is built once
 * per worker build into `<cache>/dotnet/bdn-<key>/` (`build.log` kept, build time recorded), and
 * each run is a fresh `dotnet jsonbench-bdn.dll …` process with BenchmarkDotNet's defaults
 * (`Job.Default`, in-process emit toolchain, MemoryDiagnoser) or `Job.ShortRun`, with the GC settings
 * of the profile jsonbench's worker runs in ({@link bdnEnv}: none in `default`; in `steady`
 * `DOTNET_GCLOHThreshold`, `DOTNET_GCRegionSize`, `DOTNET_GCgen0size`: outputs up to one 32 MB
 * region stay off the large-object heap, gen0 stays committed) so the two tools meet the same heap.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../src/runtimes/cache.js';
import { DOTNET_PROFILE_ENV } from '../src/runtimes/dotnet/build.js';
import type { ProfileName } from '../src/case/profile.js';
import { readyTarget } from './dotnet-lab.js';
import type { Pair } from './pairs.js';

/** The BenchmarkDotNet project's folder in this repository (from build/bench/). */
const BDN_SOURCE_DIR = fileURLToPath(new URL('../../bench/dotnet-bdn/', import.meta.url));

/** A built BenchmarkDotNet runner: how to start it, and what its build cost. */
export interface BdnBuild {
  dll: string;
  dotnet: string;
  buildMs: number;
  cached: boolean;
  logPath: string;
}

/** What one BenchmarkDotNet run says about a pair (means per op from its statistics, bytes from MemoryDiagnoser). */
export interface BdnNumbers {
  serializerNs: number;
  baselineNs: number;
  serializerBytes: number;
  baselineBytes: number;
  iterations: number;
  job: string;
  bdnVersion: string;
}

/**
 * Builds (or reuses) the runner. Returns the reason when dotnet is missing here or a build fails
 * (the log's path and first error lines).
 */
export async function ensureBdnBuild(cacheDir = defaultCacheDir()): Promise<BdnBuild | { reason: string }> {
  const ready = await readyTarget('dotnet', cacheDir);
  if ('reason' in ready) return { reason: ready.reason };
  const hash = createHash('sha256').update(ready.build.key);
  for (const f of readdirSync(BDN_SOURCE_DIR)
    .filter((f) => /\.(cs|csproj)$/.test(f))
    .sort())
    hash.update(f).update(readFileSync(join(BDN_SOURCE_DIR, f)));
  const dir = join(cacheDir, 'dotnet', `bdn-${hash.digest('hex').slice(0, 16)}`);
  const dll = join(dir, 'bin', 'jsonbench-bdn.dll');
  const logPath = join(dir, 'build.log');
  const record = join(dir, 'build.json');
  const dotnet = ready.detection.command;
  if (existsSync(record) && existsSync(dll))
    return {
      dll,
      dotnet,
      buildMs: (JSON.parse(readFileSync(record, 'utf8')) as { buildMs: number }).buildMs,
      cached: true,
      logPath,
    };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  // built from a copy in the cache, so no obj/ or bin/ lands in the repository
  mkdirSync(join(dir, 'src'));
  for (const f of readdirSync(BDN_SOURCE_DIR).filter((f) => /\.(cs|csproj)$/.test(f)))
    cpSync(join(BDN_SOURCE_DIR, f), join(dir, 'src', f));
  const r = spawnSync(
    dotnet,
    [
      'build',
      '-c',
      'Release',
      `-p:WorkerSrc=${join(ready.build.dir, 'src')}`,
      '-o',
      join(dir, 'bin'),
      '--disable-build-servers',
      '-nologo',
    ],
    {
      cwd: join(dir, 'src'),
      encoding: 'utf8',
      env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', MSBUILDDISABLENODEREUSE: '1' },
      maxBuffer: 64 << 20,
    },
  );
  const buildMs = Math.round(performance.now() - t0);
  writeFileSync(logPath, `${r.stdout ?? ''}${r.stderr ?? ''}`);
  if (r.status !== 0) {
    const errors = [
      ...new Set(
        `${r.stdout}`
          .split('\n')
          .filter((l) => / error /.test(l))
          .map((l) => l.trim()),
      ),
    ].slice(0, 3);
    return {
      reason: `BenchmarkDotNet runner build failed (log: ${logPath}): ${errors.join('; ') || `exit ${r.status ?? r.signal}`}`,
    };
  }
  writeFileSync(record, JSON.stringify({ buildMs, workerKey: ready.build.key, builtAt: new Date().toISOString() }));
  return { dll, dotnet, buildMs, cached: false, logPath };
}

/**
 * The GC variables a BenchmarkDotNet run gets in `profile`: the `DOTNET_GC*` entries of the .NET
 * worker's environment in that profile (src/runtimes/dotnet/build.ts DOTNET_PROFILE_ENV), so both
 * tools run on the same heap settings (issue 23: the default profile has none, the runtime's own GC;
 * `steady` has the lab's LOH threshold, region size and gen0 budget). BenchmarkDotNet's other
 * defaults (tiered JIT, its own warmup) are left as the studies ran them.
 */
export function bdnEnv(profile: ProfileName): Record<string, string> {
  return Object.fromEntries(Object.entries(DOTNET_PROFILE_ENV[profile]).filter(([k]) => k.startsWith('DOTNET_GC')));
}

/**
 * One BenchmarkDotNet run of a pair in a fresh process, with the GC settings of `profile` ({@link bdnEnv}). Writes its artifacts (logs, reports) under
 * `workDir/bdn-<run>/`. Returns its numbers, or the reason it has none.
 */
export function runBdn(
  build: BdnBuild,
  pair: Pair,
  payloadPath: string,
  workDir: string,
  run: number,
  job: 'default' | 'short' = 'default',
  profile: ProfileName = 'default',
): BdnNumbers | { reason: string } {
  const artifacts = join(workDir, `bdn-${run}`);
  mkdirSync(artifacts, { recursive: true });
  const out = join(artifacts, `${pair.workload}-${pair.size}-${pair.direction}.json`);
  const r = spawnSync(
    build.dotnet,
    [
      build.dll,
      payloadPath,
      pair.workload,
      pair.shape,
      pair.direction,
      pair.serializer,
      pair.baseline,
      out,
      artifacts,
      job,
    ],
    {
      encoding: 'utf8',
      cwd: artifacts,
      maxBuffer: 256 << 20,
      // the GC settings of jsonbench's C# worker in this profile: in steady, users/10000 stays off the LOH page faults
      // that made it vary 21% between runs (issue 12); in default, the runtime's own GC as a user's process has it
      env: {
        ...process.env,
        DOTNET_CLI_TELEMETRY_OPTOUT: '1',
        DOTNET_NOLOGO: '1',
        ...bdnEnv(profile),
      },
    },
  );
  writeFileSync(
    join(artifacts, `${pair.workload}-${pair.size}-${pair.direction}.log`),
    `${r.stdout ?? ''}${r.stderr ?? ''}`,
  );
  if (r.status !== 0 || !existsSync(out))
    return {
      reason: `BenchmarkDotNet exited ${r.status ?? r.signal}: ${(r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' | ')}`,
    };
  return JSON.parse(readFileSync(out, 'utf8')) as BdnNumbers;
}
