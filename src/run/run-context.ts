import type { PartialSigner } from './partial-mac.js';
import { appendFileNamed } from '../files/write-file.js';
/**
 * What the parts of a run share: the runner's input ({@link RunInput}), the progress events it
 * sends ({@link ProgressEvent}), the run's state across groups ({@link RunContext}) and one group's
 * state while it runs ({@link GroupState}). Types only.
 */
import type { CaseGroup, PlannedCase } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import type { RunPolicy } from '../config/policies.js';
import type { CaseResult } from '../results/types.js';
import type { Side } from '../case/coordinates.js';
import type { CaseJob } from '../worker/protocol.js';
import type { LaunchOutcome } from '../runtimes/launch.js';
import type { LaunchFn, LaunchPlace } from '../runtimes/types.js';
import type { ProgressCounter, ProgressCounts } from './progress.js';
import type { CaseRecord } from './assemble.js';
import type { BaselineBests } from './relaunch-rule.js';
import type { StopReason } from './stop-rule.js';

/**
 * Progress events for the terminal: a launch begins (with the counts: launches and cases done out
 * of totals that never fall behind the counter, and the wall time since the first launch), a case
 * is finished, a group is finished (its cases, for a table printed at once).
 */
export type ProgressEvent =
  | {
      type: 'launch';
      index: number;
      total: number;
      caseId: string;
      mode: 'time' | 'alloc' | 'cold';
      launch: number;
      counts: ProgressCounts;
      elapsedMs: number;
    }
  | { type: 'case-done'; result: CaseResult; counts: ProgressCounts; elapsedMs: number }
  /**
   * A launch's worker began a step (worker/protocol.ts StageMessage: `load` reads the payload texts
   * and loads the adapters, `prepare`, `verify` is the correctness gate, `warmup`), or its first
   * timed round (`rounds`): what the progress line names while a step of a large payload takes
   * seconds (hx7: a 23 MB payload sat at "cases 0/5" for 2 minutes). The host's Node workers only.
   */
  | { type: 'stage'; caseId: string; stage: 'load' | 'prepare' | 'verify' | 'warmup' | 'rounds'; side?: Side }
  /** something a person should know that no case records (a shared launch whose worker died unnamed: run/group-launch.ts) */
  | { type: 'warning'; message: string }
  | {
      type: 'group-done';
      cases: CaseResult[];
      /** groups finished so far, this one included */ done: number;
      groups: number;
    };

/** What the runner needs: the plan, the payload files, the policy, where to append finished cases. */
export interface RunInput {
  groups: CaseGroup[];
  payloads: ReadonlyMap<string, PayloadFile>;
  policy: RunPolicy;
  /** compiled user config the workers load custom adapters/workloads from */
  configPath?: string;
  /** every finished case is appended here as one JSON line at once (nothing measured is lost) */
  partialPath: string;
  /**
   * Every launch's raw record is appended here as `{ caseId, record }` the moment it ends, so a run
   * killed mid-group (launches are interleaved, so cases finish only at the group's end) keeps
   * every sample already measured.
   */
  launchLogPath?: string;
  /** appends the lines of the partial files and signs them (run/partial-mac.ts); absent: plain appends */
  signer?: PartialSigner;
  onProgress?: (e: ProgressEvent) => void;
  /**
   * Called with each finished case before it is appended and announced; may change it in place (the
   * session fails the cases of a serializer whose hooks left code throwing in the host: host/user-code.ts)
   */
  amend?: (r: CaseResult) => void;
  /** starts a worker on a case's target (the prepared targets' launchers; tests inject a fake) */
  launchFor: (c: PlannedCase) => LaunchFn | undefined;
  /**
   * Groups run at once (default 1). Each concurrently running group has a slot; its launches get
   * `cpus[slot]` (pinned there by the target's launcher) when `cpus` is given. A group's cases, and
   * so a case and its baseline, always run in one slot, one launch at a time.
   */
  jobs?: number;
  /** the CPU of each slot (length ≥ jobs), or absent for unpinned launches */
  cpus?: readonly number[];
  /** why a case's target cannot run (not installed, failed to start): the case fails with it, unlaunched */
  faultOf?: (c: PlannedCase) => string | undefined;
  /**
   * false: one process per case and launch (the serializer and its baseline), as before group
   * launches; default: one process per group and launch (measure/timing.ts measureGroupRounds).
   */
  groupLaunches?: boolean;
  /**
   * Whether a serializer may share a group launch (default: it is built in, so its launch never
   * loads the user's config; a config's serializer is launched alone: run/runner.ts groupLaunch).
   */
  sharesProcess?: (serializerId: string) => boolean;
  /** the clock of the time budgets and progress times (ms; default `performance.now`; tests inject a fake) */
  now?: () => number;
}

/** One launch to announce, count and run ({@link RunContext.launch}). */
export interface LaunchRequest {
  /** the case whose target launches it (a group launch: its lead case) */
  planned: PlannedCase;
  /** what the progress line names */
  caseId: string;
  launch: number;
  job: CaseJob;
  timeoutMs: number;
  mode?: 'time' | 'alloc';
  /** cases the launch carries (a group launch: all of them; the ETA's work) */
  work?: number;
  /** the cases whose time budget the launch's wall time counts against (a timing launch: every case it carries) */
  carries?: readonly CaseRecord[];
}

/** The run's state across its groups: made once by run/runner.ts runGroups. */
export interface RunContext {
  input: RunInput;
  policy: RunPolicy;
  counter: ProgressCounter;
  /** the relaunch rule's best baseline means, across the run */
  bests: BaselineBests;
  /** whether a serializer may share a group launch */
  sharesProcess: (serializerId: string) => boolean;
  /** why a planned case cannot be launched (a fault, or no launcher), or undefined */
  faultOf: (c: PlannedCase) => string | undefined;
  /** announces (a `launch` event), counts and runs one launch of group `g` at `place` */
  launch: (g: number, place: LaunchPlace, req: LaunchRequest) => Promise<LaunchOutcome>;
  /** appends a finished case to the partial file and announces it */
  finish: (r: CaseResult, ran: boolean) => void;
  /** announces a finished group */
  groupDone: (cases: CaseResult[]) => void;
  /** wall time since the run's first launch (ms, by `input.now`) */
  elapsedMs: () => number;
  /** the wall time of each launch that carried a case (ms), in order: the case budget's */
  spentMs: Map<CaseRecord, number[]>;
  /** what the run budget allows up to the end of group `g` (ms; run/stop-rule.ts runQuotaMs) */
  runQuotaMs: (g: number) => number;
}

/** One group while it runs: its records (plan order) and whether its cases still share a process. */
export interface GroupState {
  ctx: RunContext;
  /** the group's index in the plan */
  g: number;
  place: LaunchPlace;
  recs: CaseRecord[];
  /** one process for several serializers (group launches); false once the group goes on case by case */
  grouped: boolean;
  /** what stopped the extra launches of a case that still wanted one */
  stopped: Map<CaseRecord, StopReason>;
}

/** Appends `line` (one JSON text) and a newline to a partial file at `path`: through the run's signer when it has one (run/partial-mac.ts). @throws FileWriteError */
export function appendLine(input: Pick<RunInput, 'signer'>, path: string, line: string): void {
  if (input.signer) input.signer.append(path, line);
  else appendFileNamed(path, `${line}\n`);
}
