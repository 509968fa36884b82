import type { LaunchOutcome } from './launch.js';
import type { WorkerJob, WorkerMessage } from '../worker/protocol.js';
import type { CaseTarget, Platform } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { TargetRecord } from '../results/types.js';
import type { ProfileName } from '../case/profile.js';

/** What a case records about the target it ran on (`CaseResult.target`). */
export type TargetRef = CaseTarget;

/** What the results file records about each target (`ResultsFile.targets`). */
export type TargetInfo = TargetRecord;

/** Where a launch runs on the host: the CPU its worker is pinned to (`run --jobs`); absent: anywhere. */
export interface LaunchPlace {
  cpu?: number;
  /** each message of the worker as it arrives (the host's Node workers; run/runner.ts: the `stage` progress lines) */
  onMessage?: (m: WorkerMessage) => void;
}

/**
 * Starts one worker launch of a job on a target; never rejects (as launchWorker). Targets whose
 * worker is a local process pin it to `place.cpu` (runtimes/pinning.ts); Chromium and ssh ignore it.
 */
export type LaunchFn = (job: WorkerJob, timeoutMs: number, place?: LaunchPlace) => Promise<LaunchOutcome>;

/** Whether a target is there, with its exact version or the reason and the command to fix it. */
export type Detection = { installed: true; version: string; location: string } | { installed: false; reason: string };

/** A target ready to launch workers; `close` releases what it holds (remote folders, browsers). */
export interface PreparedTarget {
  info: TargetInfo;
  /** serializer id → the version its worker loads here (a .NET target's assemblies, from its probe) */
  serializerVersions?: Readonly<Record<string, string>>;
  launch: LaunchFn;
  close?(): Promise<void>;
}

/** Where a run keeps things a target needs. */
export interface TargetContext {
  /** cache folder of installed runtimes (see cache.ts) */
  cacheDir: string;
  /** folder for the bundled workers of this run */
  bundleDir: string;
  /** every payload file of the run (ssh copies them; chromium/quickjs read them on the host) */
  payloadPaths: string[];
  /** Chromium executable (default /usr/bin/chromium) */
  chromiumPath?: string;
  /** the run's workloads (built-in and a config's own): a .NET target compiles their DTOs into its worker and gates its output against them */
  workloads?: readonly Workload[];
  /** the run's runtime profile (case/profile.ts; absent: `default`): which GC settings the workers get */
  profile?: ProfileName;
  /** the run's serializer ids and row labels (`newtonsoft@13.0.1`): a .NET target builds the worker of each versioned row */
  serializers?: readonly string[];
}

/** One target parsed from `--target`. */
export interface Target {
  id: string;
  /** its kind: a key of the runtimes map (runtimes/index.ts) */
  kind: string;
  /** the platform it runs: only serializers of this platform are planned on it (absent: `javascript`) */
  platform?: Platform;
  runtime: string;
  /** is it there, and which exact version; never throws */
  detect(ctx: Pick<TargetContext, 'cacheDir' | 'chromiumPath'>): Promise<Detection>;
  /** the command that installs it (`jsonbench runtimes install bun`), or how to get it otherwise */
  installHint: string;
  /** installs into the cache from the npm registry; absent when jsonbench cannot install it */
  install?(cacheDir: string, log: (line: string) => void): Promise<void>;
  /** bundles/copies what it needs and probes the runtime. @throws TargetError with reason and fix */
  prepare(ctx: TargetContext): Promise<PreparedTarget>;
}

/** A target that cannot run: the message names the target, the reason, and the command to fix it. */
export class TargetError extends Error {
  readonly code = 'E_TARGET';
  /**
   * @param message one line: why the target cannot run (the cases' reason)
   * @param detail facts for the target record's `probe` (a failed build's `buildLog` path and `firstError` line)
   */
  constructor(
    message: string,
    readonly detail?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}
