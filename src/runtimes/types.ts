import type { LaunchOutcome } from './launch.js';
import type { WorkerJob } from '../worker/protocol.js';
import type { CaseTarget } from '../case/coordinates.js';
import type { TargetRecord } from '../results/types.js';

/** What a case records about the target it ran on (`CaseResult.target`). */
export type TargetRef = CaseTarget;

/** What the results file records about each target (`ResultsFile.targets`). */
export type TargetInfo = TargetRecord;

/** Starts one worker launch of a job on a target; never rejects (as launchWorker). */
export type LaunchFn = (job: WorkerJob, timeoutMs: number) => Promise<LaunchOutcome>;

/** Whether a target is there, with its exact version or the reason and the command to fix it. */
export type Detection =
  | { installed: true; version: string; location: string }
  | { installed: false; reason: string };

/** A target ready to launch workers; `close` releases what it holds (remote folders, browsers). */
export interface PreparedTarget {
  info: TargetInfo;
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
}

/** One target parsed from `--target`. */
export interface Target {
  id: string;
  /** its kind: a key of the runtimes map (runtimes/index.ts) */
  kind: string;
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
}
