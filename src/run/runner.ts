import { appendFileSync } from 'node:fs';
import type { CaseGroup, PlannedCase } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import type { RunPolicy } from '../config/policies.js';
import type { Side } from '../case/coordinates.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import type { CaseResult, LaunchRecord } from '../results/types.js';
import { assembleGroup, type CaseRecord } from './assemble.js';
import { roundRatios } from '../analysers/analyser.js';
import type { CaseJob, WorkerMessage } from '../worker/protocol.js';
import type { LaunchOutcome } from '../runtimes/launch.js';
import type { LaunchFn, LaunchPlace } from '../runtimes/types.js';
import { launchesDisagree, meanOf, medianOf, medianRelativeError } from '../stats/estimate.js';
import { ProgressCounter, type ProgressCounts } from './progress.js';
import { serializers as builtinSerializers } from '../serializers/index.js';

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
  onProgress?: (e: ProgressEvent) => void;
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
}

/** What a finished launch says about its case. */
type Verdict =
  | { kind: 'ok'; record: LaunchRecord; alloc?: AllocationMeasurement; loadedVersion?: string }
  | { kind: 'unsupported'; side?: Side; reason: string }
  | {
      kind: 'incorrect';
      side: Side;
      reason: string;
      mismatch: { path: string; expected: string; actual: string; when?: 'timing' };
    }
  | { kind: 'bad'; side?: Side; status: 'failed' | 'timeout' | 'crashed'; reason: string; partial?: LaunchRecord };

/** The most telling line of a dead worker's stderr: its first error line, else its last line. */
export function crashLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.find((l) => /^(\w*Error|RangeError|FATAL|Abort|Segmentation|#)|Error:/.test(l));
  return (error ?? lines[lines.length - 1] ?? '').slice(0, 300);
}

/** What a round may carry beside its samples (the .NET worker's CPU samples, GC and JIT counts per side), kept as sent. */
const ROUND_EXTRAS = [
  'serializerCpuNs',
  'baselineCpuNs',
  'serializerGcs',
  'baselineGcs',
  'serializerJitMethods',
  'baselineJitMethods',
] as const;

/** Reads a launch outcome: the messages, then how the process ended. */
export function judgeLaunch(o: LaunchOutcome, launch: number, timeoutMs: number): Verdict {
  const get = <T extends WorkerMessage['type']>(t: T) =>
    o.messages.filter((m) => m.type === t) as Extract<WorkerMessage, { type: T }>[];
  const setup = get('setup')[0];
  const hello = get('hello')[0];
  const rounds = get('round').map((r) => {
    const round: LaunchRecord['rounds'][number] = {
      serializerNs: r.serializerNs,
      baselineNs: r.baselineNs,
      ...(r.serializerWallNs ? { serializerWallNs: r.serializerWallNs, baselineWallNs: r.baselineWallNs ?? [] } : {}),
    };
    for (const k of ROUND_EXTRAS) if (r[k] !== undefined) (round as Record<string, unknown>)[k] = r[k];
    return round;
  });
  const done = get('done')[0];
  const stage = get('stage').at(-1);
  const record: LaunchRecord = {
    launch,
    opsPerSample: setup?.opsPerSample ?? { serializer: 0, baseline: 0 },
    warmup: setup?.warmup ?? { serializerOps: 0, serializerMs: 0, baselineOps: 0, baselineMs: 0 },
    emptyNsPerOp: setup?.emptyNsPerOp ?? 0,
    rounds,
    noisy: done?.noisy ?? true,
    elapsedMs: o.elapsedMs,
    ...(hello ? { gc: hello.gc } : {}),
    ...(setup?.clock ? { clock: setup.clock } : {}),
  };
  const incorrect = get('incorrect')[0];
  if (incorrect)
    return {
      kind: 'incorrect',
      side: incorrect.side,
      reason: incorrect.reason,
      mismatch: {
        path: incorrect.path,
        expected: incorrect.expected,
        actual: incorrect.actual,
        ...(incorrect.when ? { when: incorrect.when } : {}),
      },
    };
  const error = get('error')[0];
  if (error?.unsupported)
    return { kind: 'unsupported', ...(error.side ? { side: error.side } : {}), reason: error.message };
  if (error)
    return {
      kind: 'bad',
      side: error.side,
      status: 'failed',
      reason: `${error.stage}: ${error.message}`,
      partial: record,
    };
  if (o.timedOut) {
    const reached = setup
      ? `${rounds.length} round${rounds.length === 1 ? '' : 's'} measured`
      : stage
        ? `${stage.stage}${stage.side ? ` of the ${stage.side}` : ''}`
        : 'before measuring';
    return {
      kind: 'bad',
      status: 'timeout',
      reason: `no result after ${(timeoutMs / 1000).toFixed(0)} s; worker killed (stage reached: ${reached})`,
      partial: record,
    };
  }
  if (o.protocolError) return { kind: 'bad', status: 'crashed', reason: o.protocolError, partial: record };
  if (!done) {
    const how = o.signal ? `killed by ${o.signal}` : `exited with code ${o.exitCode}`;
    const tail = crashLine(o.stderrTail);
    return {
      kind: 'bad',
      status: 'crashed',
      reason: `worker ${how} before finishing${tail ? `: ${tail}` : ''}`,
      partial: record,
    };
  }
  // a worker that sent `done` and then exited non-zero (or was killed) did something after its results: not kept (issue 25)
  if (!o.timedOut && ((o.exitCode !== null && o.exitCode !== 0) || o.signal)) {
    const how = o.signal ? `was killed by ${o.signal}` : `exited with code ${o.exitCode}`;
    const tail = crashLine(o.stderrTail);
    return {
      kind: 'bad',
      status: 'crashed',
      reason: `worker ${how} after sending its results; the launch is not kept${tail ? `: ${tail}` : ''}`,
      partial: record,
    };
  }
  const alloc = get('alloc')[0];
  const library = get('library').find((m) => m.side === 'serializer');
  return {
    kind: 'ok',
    record,
    ...(library ? { loadedVersion: library.version } : {}),
    ...(alloc
      ? {
          alloc: {
            windowsBytesPerOp: alloc.windowsBytesPerOp,
            gcPerOp: alloc.gcPerOp,
            opsPerWindow: alloc.opsPerWindow,
            method: alloc.method,
            how: alloc.how,
          },
        }
      : {}),
  };
}

/**
 * A launch's estimate and its relative standard error: the median per-round ratio of a paired
 * case, else the median per-round median of the serializer's samples (stats/estimate.ts
 * medianRelativeError); null without rounds.
 */
export function launchEstimate(launch: LaunchRecord, paired: boolean): { value: number; se: number } | null {
  const xs = paired
    ? roundRatios(launch)
    : launch.rounds.filter((r) => r.serializerNs.length).map((r) => medianOf(r.serializerNs));
  return xs.length ? { value: medianOf(xs), se: medianRelativeError(xs) } : null;
}

/**
 * Whether a case needs another launch: some two of its kept launches disagree beyond their
 * intervals at `confidence` ({@link launchesDisagree}).
 */
export function needsAnotherLaunch(launches: readonly LaunchRecord[], paired: boolean, confidence: number): boolean {
  const est = launches
    .filter((l) => !l.discarded)
    .map((l) => launchEstimate(l, paired))
    .filter((e) => e !== null);
  for (let i = 0; i < est.length; i++)
    for (let j = i + 1; j < est.length; j++) {
      if (launchesDisagree(est[i].value, est[i].se, est[j].value, est[j].se, confidence)) return true;
    }
  return false;
}

/**
 * Runs every group (up to `jobs` groups at once, each in its own slot): launches interleaved across the group's serializers (launch 1 of each, then
 * launch 2 of each…), baseline first, relaunching a launch whose baseline ran slower than
 * `relaunchFactor` × the best seen for that payload (at most `maxRelaunches` times per case).
 * After `policy.launches` launches, a case whose launches disagree beyond their intervals
 * ({@link needsAnotherLaunch}) gets another, up to `policy.maxLaunches`. The first launch of each
 * case also takes its allocation windows, after its timed rounds.
 * A failing case fails alone; each finished case is appended to the partial file at once.
 */
/** Whether a group's cases can share one worker process (group launches): those of the JavaScript worker. */
function groupsShareLaunches(g: CaseGroup): boolean {
  return g.every((c) => (c.platform ?? 'javascript') === 'javascript');
}

export async function runGroups(input: RunInput): Promise<CaseResult[]> {
  const { policy } = input;
  const sharesProcess = input.sharesProcess ?? ((id: string) => builtinSerializers.ids.includes(id));
  const noLauncher = (c: PlannedCase) => `no way to launch a worker on target ${c.target.id}`;
  const launchOf = (c: PlannedCase): LaunchFn =>
    input.launchFor(c) ??
    (async () => {
      throw new Error(noLauncher(c));
    });
  const bestBaseline = new Map<string, number>();
  const runnableOf = (g: CaseGroup) =>
    g.filter((c) => c.status === 'planned' && !input.faultOf?.(c) && input.launchFor(c)).length;
  // launches expected: one per group and launch where a group shares a launch, else one per case;
  // at each group's end the total is set to what that group really took (relaunches, extra
  // launches, cases that ended early), and a launch never numbers past it meanwhile
  const plannedOf = (g: CaseGroup) => {
    const runnable = runnableOf(g);
    const shared =
      input.groupLaunches !== false &&
      groupsShareLaunches(g) &&
      runnable > 1 &&
      g.some((c) => c.serializer === c.baseline && c.status === 'planned');
    // every worker takes allocation in its first timing launch (the .NET worker too); the separate allocation launch below is only a fallback
    return (shared ? 1 : runnable) * policy.launches;
  };
  // the ETA's work: case-launches (a shared launch of 7 cases is 7), relaunches and extra launches possible beyond the plan
  const extraPossible = policy.maxLaunches > policy.launches || policy.maxRelaunches > 0;
  const counter = new ProgressCounter(
    input.groups.map(plannedOf),
    input.groups.reduce((n, g) => n + runnableOf(g), 0),
    input.groups.reduce((n, g) => n + g.length, 0),
    input.groups.map((g) => runnableOf(g) * policy.launches),
    extraPossible,
  );
  const t0 = performance.now();
  let groupsDone = 0;
  const finish = (r: CaseResult, ran: boolean) => {
    appendFileSync(input.partialPath, JSON.stringify(r) + '\n');
    if (ran) counter.caseDone();
    input.onProgress?.({ type: 'case-done', result: r, counts: counter.counts(), elapsedMs: performance.now() - t0 });
  };
  /** Announces and counts one launch of `caseId` (of group `g`), runs it at `place`. */
  const launch = async (
    g: number,
    c: PlannedCase,
    caseId: string,
    l: number,
    job: CaseJob,
    timeoutMs: number,
    place: LaunchPlace,
    mode: 'time' | 'alloc' = 'time',
    work = 1,
  ) => {
    const index = counter.start(g, work);
    input.onProgress?.({
      type: 'launch',
      index,
      total: counter.counts().launchesTotal,
      caseId,
      mode,
      launch: l,
      counts: counter.counts(),
      elapsedMs: performance.now() - t0,
    });
    try {
      return await launchOf(c)(job, timeoutMs, place);
    } finally {
      counter.end(work);
    }
  };

  const runGroup = async (g: number, place: LaunchPlace): Promise<CaseResult[]> => {
    const group = input.groups[g];
    const recs: CaseRecord[] = group.map((planned) => {
      const fault =
        planned.status === 'planned'
          ? input.faultOf?.(planned) || (input.launchFor(planned) ? undefined : noLauncher(planned))
          : undefined;
      return {
        planned,
        payload: input.payloads.get(planned.payloadKey)!,
        launches: [],
        relaunches: 0,
        end:
          planned.status !== 'planned'
            ? { status: planned.status, reason: planned.reason }
            : fault
              ? { status: 'failed', reason: fault }
              : { status: 'measured' },
        paired: Boolean(planned.baseline && planned.baseline !== planned.serializer),
      };
    });
    const live = () => recs.filter((r) => r.end.status === 'measured');
    const job = (rec: CaseRecord, mode: CaseJob['mode'], alloc: boolean): CaseJob => ({
      mode,
      workload: rec.planned.workload,
      size: rec.planned.size,
      shape: rec.planned.shape,
      direction: rec.planned.direction,
      caseClass: rec.planned.caseClass,
      serializer: rec.planned.serializer,
      ...(rec.paired ? { baseline: rec.planned.baseline! } : {}),
      payloadPath: rec.payload.path,
      ...(rec.payload.spec ? { workloadSpec: rec.payload.spec } : {}),
      ...(input.configPath ? { configPath: input.configPath } : {}),
      policy: policy.measure,
      ...(alloc ? { alloc: true } : {}),
    });
    const baselineBroken = (why: string) => {
      for (const r of live())
        if (r.paired) {
          r.paired = false;
          r.baselineProblem = `baseline ${r.planned.baseline} ${why}`;
        }
    };
    const keep = (rec: CaseRecord, record: LaunchRecord) => {
      rec.launches.push(record);
      if (input.launchLogPath)
        appendFileSync(input.launchLogPath, JSON.stringify({ caseId: rec.planned.id, record }) + '\n');
    };
    // one process for several serializers: the JavaScript worker only (the .NET worker measures one pair per launch)
    let grouped = input.groupLaunches !== false && groupsShareLaunches(group);
    const launchCase = async (rec: CaseRecord, l: number) => {
      for (;;) {
        const v = judgeLaunch(
          await launch(g, rec.planned, rec.planned.id, l, job(rec, 'time', !rec.alloc), policy.caseTimeoutMs, place),
          l,
          policy.caseTimeoutMs,
        );
        if (v.kind === 'unsupported' && v.side === 'baseline') {
          baselineBroken(`is unsupported here: ${v.reason}`);
          continue;
        }
        if (v.kind === 'unsupported') {
          rec.end = { status: 'unsupported', reason: v.reason };
          if (!grouped) counter.drop(g, Math.max(0, policy.launches - l));
          if (rec.planned.serializer === rec.planned.baseline) baselineBroken(`is unsupported here: ${v.reason}`);
          break;
        }
        if (v.kind === 'incorrect' || v.kind === 'bad') {
          if (v.kind === 'bad' && v.partial && v.partial.rounds.length) keep(rec, v.partial);
          if (v.side === 'baseline') {
            baselineBroken(`failed in this case's worker: ${v.reason}`);
            continue;
          }
          rec.end =
            v.kind === 'incorrect'
              ? { status: 'incorrect', reason: v.reason, mismatch: { side: v.side, ...v.mismatch } }
              : { status: v.status, reason: v.reason };
          if (!grouped) counter.drop(g, Math.max(0, policy.launches - l));
          if (rec.planned.serializer === rec.planned.baseline) baselineBroken(`was ${rec.end.status}`);
          break;
        }
        if (v.alloc && !rec.alloc) rec.alloc = v.alloc;
        const baseNs = rec.paired
          ? v.record.rounds.flatMap((r) => r.baselineNs)
          : rec.planned.serializer === rec.planned.baseline
            ? v.record.rounds.flatMap((r) => r.serializerNs)
            : [];
        const key = `${rec.planned.payloadKey}/${rec.planned.shape}/${rec.planned.direction}/${rec.planned.baseline}@${rec.planned.target.id}`;
        if (baseNs.length) {
          const m = meanOf(baseNs);
          const best = bestBaseline.get(key) ?? m;
          bestBaseline.set(key, Math.min(best, m));
          if (m > policy.relaunchFactor * best && rec.relaunches < policy.maxRelaunches) {
            v.record.discarded = `launch ${l}: baseline ${(m / best).toFixed(2)}× slower than the best seen for this payload`;
            keep(rec, v.record);
            rec.relaunches++;
            continue;
          }
        }
        if (v.loadedVersion) rec.loadedVersion = v.loadedVersion;
        keep(rec, v.record);
        break;
      }
    };
    /**
     * One launch of several cases in one process (worker/job.ts runGroupJob): the baseline and the
     * paired cases' serializers, each paired with the baseline in every round; the baseline's own
     * case gets the baseline's samples. A case whose serializer fails alone ends alone; a launch that
     * dies (crash, timeout, a baseline failure) is taken again case by case (`launchCase`), so the
     * culprit fails alone. Returns false when the group should go on case by case.
     * Only built-in serializers share a process: a config's serializer is launched alone, since
     * loading its config could patch what the built-ins in the same process call (issue 9: a case
     * of built-ins never loads the user's config).
     */
    const groupLaunch = async (cases: CaseRecord[], l: number): Promise<boolean> => {
      const baseRec = recs.find((r) => r.planned.serializer === r.planned.baseline && r.end.status === 'measured');
      const builtin = (r: CaseRecord) => sharesProcess(r.planned.serializer);
      const paired = baseRec && builtin(baseRec) ? cases.filter((r) => r !== baseRec && r.paired && builtin(r)) : [];
      if (!baseRec || !paired.length) {
        for (const rec of cases) await launchCase(rec, l);
        return false;
      }
      const alone = cases.filter((r) => r !== baseRec && !paired.includes(r));
      cases = cases.filter((r) => !alone.includes(r));
      for (const rec of alone) await launchCase(rec, l);
      const baselineId = baseRec.planned.serializer;
      for (;;) {
        const lead = paired[0];
        const groupJob: CaseJob = {
          ...job(
            lead,
            'time',
            cases.some((r) => !r.alloc),
          ),
          baseline: baselineId,
          serializers: paired.map((r) => r.planned.serializer),
        };
        const o = await launch(
          g,
          lead.planned,
          `${lead.planned.id} (+${cases.length - 1} in one process)`,
          l,
          groupJob,
          policy.caseTimeoutMs * cases.length,
          place,
          'time',
          cases.length,
        );
        const about = (m: WorkerMessage) => (m as { serializer?: string }).serializer;
        const baselineFailed = o.messages.some(
          (m) => (m.type === 'incorrect' || m.type === 'error') && about(m) === baselineId,
        );
        if (baselineFailed) {
          for (const rec of cases) if (rec.end.status === 'measured') await launchCase(rec, l);
          return false;
        }
        const verdicts = new Map<CaseRecord, Verdict>();
        for (const rec of cases) {
          const id = rec.planned.serializer;
          const own = o.messages.filter((m) => about(m) === undefined || about(m) === id);
          verdicts.set(rec, judgeLaunch({ ...o, messages: own }, l, policy.caseTimeoutMs));
        }
        // the baseline's slow launches are taken again, for every case of the launch
        const baseV = verdicts.get(baseRec);
        const baseNs = baseV?.kind === 'ok' ? baseV.record.rounds.flatMap((r) => r.serializerNs) : [];
        const key = `${baseRec.planned.payloadKey}/${baseRec.planned.shape}/${baseRec.planned.direction}/${baselineId}@${baseRec.planned.target.id}`;
        if (baseNs.length) {
          const m = meanOf(baseNs);
          const best = bestBaseline.get(key) ?? m;
          bestBaseline.set(key, Math.min(best, m));
          if (m > policy.relaunchFactor * best && cases.every((r) => r.relaunches < policy.maxRelaunches)) {
            for (const [rec, v] of verdicts)
              if (v.kind === 'ok') {
                v.record.discarded = `launch ${l}: baseline ${(m / best).toFixed(2)}× slower than the best seen for this payload`;
                if (v.alloc && !rec.alloc) rec.alloc = v.alloc;
                keep(rec, v.record);
                rec.relaunches++;
              }
            continue;
          }
        }
        for (const [rec, v] of verdicts) {
          const id = rec.planned.serializer;
          const ownFailure = o.messages.some((m) => (m.type === 'incorrect' || m.type === 'error') && about(m) === id);
          if (v.kind === 'ok') {
            if (v.alloc && !rec.alloc) rec.alloc = v.alloc;
            if (v.loadedVersion) rec.loadedVersion = v.loadedVersion;
            keep(rec, v.record);
            continue;
          }
          if (ownFailure && v.kind === 'unsupported') {
            rec.end = { status: 'unsupported', reason: v.reason };
            continue;
          }
          if (ownFailure && v.kind === 'incorrect') {
            rec.end = { status: 'incorrect', reason: v.reason, mismatch: { side: v.side, ...v.mismatch } };
            continue;
          }
          if (ownFailure && v.kind === 'bad' && v.status === 'failed') {
            if (v.partial?.rounds.length) keep(rec, v.partial);
            rec.end = { status: 'failed', reason: v.reason };
            continue;
          }
          // the launch died without naming this case: take it again alone
          await launchCase(rec, l);
        }
        return true;
      }
    };
    for (let l = 1; l <= policy.launches; l++) {
      if (grouped && live().length > 1) grouped = await groupLaunch(live(), l);
      else for (const rec of live()) await launchCase(rec, l);
    }
    for (let l = policy.launches + 1; l <= policy.maxLaunches; l++) {
      const needy = live().filter((rec) => needsAnotherLaunch(rec.launches, rec.paired, policy.measure.confidence));
      if (grouped && needy.some((r) => r.paired)) grouped = await groupLaunch(needy, l);
      else for (const rec of needy) await launchCase(rec, l);
    }
    // a case whose timing launches sent no allocation windows (a worker without the engine's `alloc` on time jobs) gets a launch of its own
    if (!groupsShareLaunches(group))
      for (const rec of live().filter((r) => !r.alloc)) {
        const v = judgeLaunch(
          await launch(
            g,
            rec.planned,
            rec.planned.id,
            1,
            job({ ...rec, paired: false }, 'alloc', false),
            policy.caseTimeoutMs,
            place,
            'alloc',
          ),
          1,
          policy.caseTimeoutMs,
        );
        if (v.kind === 'ok') {
          rec.alloc = v.alloc;
          if (v.loadedVersion) rec.loadedVersion ??= v.loadedVersion;
        } else if (v.kind === 'unsupported') rec.end = { status: 'unsupported', reason: v.reason };
        else if (v.kind === 'incorrect')
          rec.end = {
            status: 'incorrect',
            reason: `allocation pass: ${v.reason}`,
            mismatch: { side: v.side, ...v.mismatch },
          };
        else rec.end = { status: v.status, reason: `allocation pass: ${v.reason}` };
      }
    counter.groupDone(g);
    const out = assembleGroup(recs, policy.measure);
    for (const [i, r] of out.entries())
      finish(
        r,
        recs[i].planned.status === 'planned' &&
          !input.faultOf?.(recs[i].planned) &&
          Boolean(input.launchFor(recs[i].planned)),
      );
    input.onProgress?.({ type: 'group-done', cases: out, done: ++groupsDone, groups: input.groups.length });
    return out;
  };

  // A pool of `jobs` slots taking groups in plan order; results come back in plan order.
  const byGroup: CaseResult[][] = new Array(input.groups.length);
  let next = 0;
  const slot = async (k: number) => {
    const place: LaunchPlace = input.cpus?.[k] !== undefined ? { cpu: input.cpus[k] } : {};
    while (next < input.groups.length) {
      const g = next++;
      byGroup[g] = await runGroup(g, place);
    }
  };
  const jobs = Math.max(1, Math.min(input.jobs ?? 1, input.groups.length));
  await Promise.all(Array.from({ length: jobs }, (_, k) => slot(k)));
  return byGroup.flat();
}

export type { PlannedCase };
