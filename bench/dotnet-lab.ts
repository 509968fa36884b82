/**
 * Shared steps of the standalone .NET scripts (bench/dotnet-try.ts, bench/dotnet-sanity.ts) and
 * the .NET tests: detect a target, build the worker into the cache, write a payload, launch a
 * job, check the gate on the host, summarise rounds. Not wired into the CLI: the runner does this
 * for `jsonbench run --target dotnet|mono` (runtimes/dotnet.ts); these scripts keep the steps apart
 * for diagnosis and method experiments (the JSONBENCH_DOTNET_* overrides reach only these).
 */
import { dotnetPayloadPath } from '../src/runtimes/dotnet/well-formed.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchCommand, type LaunchOutcome } from '../src/runtimes/launch.js';
import { defaultCacheDir } from '../src/runtimes/cache.js';
import { renderPayload, variantSeed, writePayload, type PayloadFile } from '../src/plan/payloads.js';
import { workloads } from '../src/workloads/index.js';
import type { Workload } from '../src/workloads/types.js';
import { variantPathOf, type Shape } from '../src/case/coordinates.js';
import type { MeasurePolicy } from '../src/case/policy.js';
import type { LibraryMessage, RoundMessage, CaseJob } from '../src/worker/protocol.js';
import { DOTNET_WORKER_ENV, ensureWorkerBuild, type WorkerBuild } from '../src/runtimes/dotnet/build.js';
import { detectDotnet, detectMono, type DotnetDetection } from '../src/runtimes/dotnet/detect.js';
import { checkGate, type DotnetGateFailure } from '../src/runtimes/dotnet/gate.js';
import { isGate, type GateMessage } from '../src/runtimes/dotnet/protocol.js';
import { medianOf, meanOf } from '../src/stats/estimate.js';

export type DotnetTarget = 'dotnet' | 'mono';

/** A target found and its worker built with every built-in workload's DTOs. */
export interface ReadyTarget {
  detection: Extract<DotnetDetection, { installed: true }>;
  build: WorkerBuild;
}

/** Detects the target and builds (or reuses) its worker with the built-in workloads and `extra` ones. Returns the reason when it cannot run. */
export async function readyTarget(
  target: DotnetTarget,
  cacheDir = defaultCacheDir(),
  extra: readonly Workload[] = [],
): Promise<ReadyTarget | { reason: string }> {
  const detection = target === 'dotnet' ? await detectDotnet() : await detectMono();
  if (!detection.installed) return { reason: detection.reason };
  const sources = [...(await Promise.all(workloads.ids.map((id) => workloads.load(id)))), ...extra];
  const build = await ensureWorkerBuild({
    cacheDir,
    framework: detection.framework,
    sources,
    sdkVersion: detection.sdkVersion,
    ...(target === 'dotnet' ? { dotnet: detection.command } : { mono: detection.command }),
  });
  return { detection, build };
}

/** Writes a workload's payload (and its variant) into a fresh temporary folder. */
export async function payloadFor(
  workloadOrId: string | Workload,
  size: number,
  seed = 42,
): Promise<{ workload: Workload; payload: PayloadFile; text: string; variantText: string }> {
  const workload = typeof workloadOrId === 'string' ? await workloads.load(workloadOrId) : workloadOrId;
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-dotnet-'));
  // a built-in is built in the build thread as `jsonbench run` does; a workload object of a test (not loadable by id there) in this thread
  const written = workloads.ids.includes(workload.id)
    ? await writePayload(dir, workload, size, seed)
    : writeLocalPayload(dir, workload, size, seed);
  // as the .NET target's gated launcher does: the variant without lone surrogates (runtimes/dotnet/well-formed.ts)
  const payload = { ...written, path: dotnetPayloadPath(written.path, workload.wire?.indent) };
  return {
    workload,
    payload,
    text: readFileSync(payload.path, 'utf8'),
    variantText: readFileSync(variantPathOf(payload.path), 'utf8'),
  };
}

/** {@link writePayload} for a workload object the build thread cannot load by id (renderPayload in this thread). */
function writeLocalPayload(dir: string, workload: Workload, size: number, seed: number): PayloadFile {
  const text = renderPayload(workload, size, seed);
  const path = join(dir, `${workload.id}-${size}.json`);
  writeFileSync(path, text);
  writeFileSync(variantPathOf(path), renderPayload(workload, size, variantSeed(seed)));
  return {
    key: `${workload.id}-${size}`,
    path,
    bytes: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
  };
}

/** A job for the .NET worker (.NET cases are `transform` class when deserializing: they produce the typed model). */
export function dotnetJob(o: {
  workload: string;
  size: number;
  shape: Shape;
  direction: 'serialize' | 'deserialize';
  serializer: string;
  baseline?: string;
  mode: CaseJob['mode'];
  payloadPath: string;
  policy: MeasurePolicy;
}): CaseJob {
  return {
    workload: o.workload,
    size: o.size,
    shape: o.shape,
    direction: o.direction,
    caseClass: o.direction === 'serialize' ? 'serialize' : 'transform',
    serializer: o.serializer,
    ...(o.baseline && o.baseline !== o.serializer ? { baseline: o.baseline } : {}),
    mode: o.mode,
    payloadPath: o.payloadPath,
    policy: o.policy,
  };
}

/** Starts one worker launch of the built worker (`env`: extra variables, e.g. the JSONBENCH_DOTNET_* method overrides). */
export function launch(
  ready: ReadyTarget,
  job: CaseJob,
  timeoutMs = 600_000,
  env: Record<string, string> = {},
): Promise<LaunchOutcome> {
  return launchCommand(
    {
      command: ready.build.command,
      args: ready.build.args,
      channel: 'fd3',
      env: { ...process.env, ...DOTNET_WORKER_ENV, ...env },
    },
    job,
    timeoutMs,
  );
}

/** The verify launch, checked on the host: the first failure per side, the libraries, and the raw outcome. */
export async function verify(
  ready: ReadyTarget,
  job: CaseJob,
  workload: Workload,
  texts: { main: string; variant: string },
): Promise<{
  outcome: LaunchOutcome;
  failures: { side: string; failure: DotnetGateFailure }[];
  gates: GateMessage[];
  libraries: LibraryMessage[];
  error?: string;
}> {
  const outcome = await launch(ready, { ...job, mode: 'verify' });
  const gates = outcome.messages.filter(isGate) as unknown as GateMessage[];
  const libraries = outcome.messages.filter((m): m is LibraryMessage => m.type === 'library');
  const failures: { side: string; failure: DotnetGateFailure }[] = [];
  for (const g of gates) {
    if (failures.some((f) => f.side === g.side)) continue;
    const failure = checkGate(workload, job.shape, g, g.payload === 'main' ? texts.main : texts.variant);
    if (failure) failures.push({ side: g.side, failure });
  }
  const err = outcome.messages.find((m) => m.type === 'error') as
    { stage: string; side?: string; message: string } | undefined;
  const done = outcome.messages.some((m) => m.type === 'done');
  const error = err
    ? `${err.stage}${err.side ? ` (${err.side})` : ''}: ${err.message}`
    : done
      ? undefined
      : `worker ended without done (exit ${outcome.exitCode}, ${outcome.protocolError ?? outcome.stderrTail.slice(-300)})`;
  return { outcome, failures, gates, libraries, ...(error ? { error } : {}) };
}

/** Per-launch summary of a time launch: means (ns/op) of both clocks, and the ratio as the README defines it (median of per-round ratios of medians). */
export interface TimeSummary {
  rounds: number;
  noisy: boolean;
  /** the clock of serializerNs/baselineNs (setup's `clock`): process CPU (`cpu`) or `wall` */
  clock: 'cpu' | 'wall';
  serializerMeanNs: number;
  baselineMeanNs: number;
  ratio: number;
  /** with the CPU clock: the same by wall time */
  wallRatio?: number;
  serializerCpuMeanNs?: number;
  baselineCpuMeanNs?: number;
  cpuRatio?: number;
}

export function summariseTime(outcome: LaunchOutcome): TimeSummary {
  const rounds = outcome.messages.filter((m) => m.type === 'round') as unknown as RoundMessage[];
  const done = outcome.messages.find((m) => m.type === 'done') as { noisy: boolean } | undefined;
  if (!rounds.length || !done)
    throw new Error(
      `time launch without rounds/done: ${JSON.stringify(outcome.messages.find((m) => m.type === 'error') ?? outcome.protocolError ?? outcome.stderrTail.slice(-300))}`,
    );
  const all = (f: (r: RoundMessage) => number[] | undefined) => rounds.flatMap((r) => f(r) ?? []);
  const ratioOf = (s: (r: RoundMessage) => number[] | undefined, b: (r: RoundMessage) => number[] | undefined) =>
    medianOf(
      rounds.filter((r) => (s(r) ?? []).length && (b(r) ?? []).length).map((r) => medianOf(s(r)!) / medianOf(b(r)!)),
    );
  const setup = outcome.messages.find((m) => m.type === 'setup') as { clock?: 'cpu' | 'wall' } | undefined;
  const out: TimeSummary = {
    rounds: rounds.length,
    noisy: done.noisy,
    clock: setup?.clock ?? 'wall',
    serializerMeanNs: meanOf(all((r) => r.serializerNs)),
    baselineMeanNs: meanOf(all((r) => r.baselineNs)),
    ratio: ratioOf(
      (r) => r.serializerNs,
      (r) => r.baselineNs,
    ),
  };
  if (rounds[0].serializerWallNs)
    out.wallRatio = ratioOf(
      (r) => r.serializerWallNs,
      (r) => r.baselineWallNs,
    );
  if (rounds[0].serializerCpuNs) {
    out.serializerCpuMeanNs = meanOf(all((r) => r.serializerCpuNs));
    out.baselineCpuMeanNs = meanOf(all((r) => r.baselineCpuNs));
    out.cpuRatio = ratioOf(
      (r) => r.serializerCpuNs,
      (r) => r.baselineCpuNs,
    );
  }
  return out;
}

/** Bytes/op (median window) and GCs/op of an alloc launch. */
export function summariseAlloc(outcome: LaunchOutcome): { bytesPerOp: number; gcPerOp: number; method: string } {
  const m = outcome.messages.find((x) => x.type === 'alloc') as
    { windowsBytesPerOp: number[]; gcPerOp: number; method?: string } | undefined;
  if (!m)
    throw new Error(
      `alloc launch without alloc message: ${JSON.stringify(outcome.messages.find((x) => x.type === 'error') ?? outcome.stderrTail.slice(-300))}`,
    );
  return { bytesPerOp: medianOf(m.windowsBytesPerOp), gcPerOp: m.gcPerOp, method: m.method ?? 'exact' };
}

/** "1.23 ms", "456 µs", "789 ns". */
export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(1)} ns`;
}

/** "3.42 MiB", "21.70 KiB": binary units (the studies' BenchmarkDotNet tables print the same figures as "MB" and "KB", 1 KB = 1024 B). */
export function formatBytes(b: number): string {
  if (b >= 1024 * 1024) return `${(b / 1024 / 1024).toFixed(2)} MiB`;
  if (b >= 1024) return `${(b / 1024).toFixed(2)} KiB`;
  return `${b.toFixed(0)} B`;
}
