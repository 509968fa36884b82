/**
 * The runner: runs a plan's groups and returns their cases (run/scheduler.ts decides when each
 * launch happens; run/group-launch.ts and run/case-launch.ts run them; run/verdict.ts,
 * run/outcome.ts, run/relaunch-rule.ts and run/stop-rule.ts are the pure rules they apply). This
 * file makes the run's shared state — progress counts and events, the partial file — and is the
 * runner's public entry.
 */

import type { CaseGroup, PlannedCase } from '../plan/plan.js';
import type { CaseResult } from '../results/types.js';
import type { LaunchFn } from '../runtimes/types.js';
import type { WorkerMessage } from '../worker/protocol.js';
import { ProgressCounter } from './progress.js';
import { serializers as builtinSerializers } from '../serializers/index.js';
import { BaselineBests } from './relaunch-rule.js';
import { appendLine, type RunContext, type RunInput } from './run-context.js';
import type { CaseRecord } from './assemble.js';
import { runQuotaMs } from './stop-rule.js';
import { groupsShareLaunches, scheduleGroups } from './scheduler.js';

export type { ProgressEvent, RunInput } from './run-context.js';
export { crashLine, judgeLaunch } from './verdict.js';
export { launchEstimate, needsAnotherLaunch } from './stop-rule.js';

/** The progress counter of a run: launches planned per group (one per group and launch where a group shares a launch, else one per case), cases, work. */
function counterOf(input: RunInput, faultOf: (c: PlannedCase) => string | undefined): ProgressCounter {
  const { policy } = input;
  const runnableOf = (g: CaseGroup) => g.filter((c) => c.status === 'planned' && !faultOf(c)).length;
  // at each group's end the total is set to what that group really took (relaunches, extra
  // launches, cases that ended early), and a launch never numbers past it meanwhile
  const plannedOf = (g: CaseGroup) => {
    const runnable = runnableOf(g);
    const shared =
      input.groupLaunches !== false &&
      groupsShareLaunches(g) &&
      runnable > 1 &&
      g.some((c) => c.serializer === c.baseline && c.status === 'planned');
    // every worker takes allocation in its first timing launch (the .NET worker too); the separate allocation launch is only a fallback
    return (shared ? 1 : runnable) * policy.launches;
  };
  // the ETA's work: case-launches (a shared launch of 7 cases is 7), relaunches and extra launches possible beyond the plan
  const extraPossible = policy.maxLaunches > policy.launches || policy.maxRelaunches > 0;
  return new ProgressCounter(
    input.groups.map(plannedOf),
    input.groups.reduce((n, g) => n + runnableOf(g), 0),
    input.groups.reduce((n, g) => n + g.length, 0),
    input.groups.map((g) => runnableOf(g) * policy.launches),
    extraPossible,
  );
}

/**
 * Runs every group (up to `jobs` groups at once, each in its own slot): launches interleaved
 * across the group's serializers (launch 1 of each, then launch 2 of each…), baseline first,
 * relaunching a launch whose baseline ran slower than `relaunchFactor` × the best seen for that
 * payload (at most `maxRelaunches` times per case: run/relaunch-rule.ts). After `policy.launches`
 * launches, a case whose launches disagree beyond their intervals ({@link needsAnotherLaunch})
 * gets another, up to `policy.maxLaunches`. The first launch of each case also takes its
 * allocation windows, after its timed rounds. A failing case fails alone; each finished case is
 * appended to the partial file at once.
 */
export async function runGroups(input: RunInput): Promise<CaseResult[]> {
  const noLauncher = (c: PlannedCase) => `no way to launch a worker on target ${c.target.id}`;
  const faultOf = (c: PlannedCase) => input.faultOf?.(c) || (input.launchFor(c) ? undefined : noLauncher(c));
  const launchOf = (c: PlannedCase): LaunchFn =>
    input.launchFor(c) ??
    (async () => {
      throw new Error(noLauncher(c));
    });
  const counter = counterOf(input, faultOf);
  const now = input.now ?? (() => performance.now());
  const t0 = now();
  const elapsedMs = () => now() - t0;
  const spentMs = new Map<CaseRecord, number[]>();
  // the run budget's pacing: the runnable cases of the groups up to each one
  const through: number[] = [];
  for (const [g, group] of input.groups.entries())
    through.push((through[g - 1] ?? 0) + group.filter((c) => c.status === 'planned' && !faultOf(c)).length);
  let groupsDone = 0;
  const ctx: RunContext = {
    input,
    policy: input.policy,
    counter,
    bests: new BaselineBests(),
    sharesProcess: input.sharesProcess ?? ((id: string) => builtinSerializers.ids.includes(id)),
    faultOf,
    launch: async (g, place, req) => {
      const work = req.work ?? 1;
      const index = counter.start(g, work);
      input.onProgress?.({
        type: 'launch',
        index,
        total: counter.counts().launchesTotal,
        caseId: req.caseId,
        mode: req.mode ?? 'time',
        launch: req.launch,
        counts: counter.counts(),
        elapsedMs: elapsedMs(),
      });
      // which cases were being measured, should the host be killed now (run/recover.ts: "killed while measuring this case")
      if (input.launchLogPath)
        for (const id of req.carries?.length ? req.carries.map((r) => r.planned.id) : [req.planned.id])
          appendLine(input, input.launchLogPath, JSON.stringify({ caseId: id, launching: req.launch }));
      const start = now();
      try {
        // the worker's steps, for the progress line (a large payload's reading and gate take seconds each)
        let timed = false;
        const onMessage = (m: WorkerMessage) => {
          if (m.type === 'stage')
            input.onProgress?.({
              type: 'stage',
              caseId: req.caseId,
              stage: m.stage,
              ...(m.side ? { side: m.side } : {}),
            });
          else if (m.type === 'round' && !timed) {
            timed = true;
            input.onProgress?.({ type: 'stage', caseId: req.caseId, stage: 'rounds' });
          }
        };
        return await launchOf(req.planned)(req.job, req.timeoutMs, { ...place, onMessage });
      } finally {
        counter.end(work);
        for (const rec of req.carries ?? []) spentMs.set(rec, [...(spentMs.get(rec) ?? []), now() - start]);
      }
    },
    finish: (r, ran) => {
      input.amend?.(r);
      appendLine(input, input.partialPath, JSON.stringify(r));
      if (ran) counter.caseDone();
      input.onProgress?.({ type: 'case-done', result: r, counts: counter.counts(), elapsedMs: elapsedMs() });
    },
    groupDone: (cases) =>
      input.onProgress?.({ type: 'group-done', cases, done: ++groupsDone, groups: input.groups.length }),
    elapsedMs,
    spentMs,
    runQuotaMs: (g) => runQuotaMs(input.policy.adaptive.maxRunMs, through[g], through.at(-1) ?? 0),
  };
  return scheduleGroups(ctx);
}

export type { PlannedCase };
