/**
 * How one case is launched (hyperfine's executor, for one case): its job, one timing launch with
 * its relaunch (run/relaunch-rule.ts) and the retake after its baseline failed, and the
 * allocation pass of a worker that sent no allocation windows with its timing. What each verdict
 * means is run/outcome.ts's; when to launch is run/scheduler.ts's.
 */

import type { LaunchRecord } from '../results/types.js';
import type { CaseJob } from '../worker/protocol.js';
import type { CaseRecord } from './assemble.js';
import { appendLine, type GroupState } from './run-context.js';
import { judgeLaunch, type Verdict } from './verdict.js';
import { caseEndOf, stepOf } from './outcome.js';
import { baselineKey, baselineSamplesOf } from './relaunch-rule.js';

/** The worker job of one case: its coordinates, payload, the policy's measurement settings; its baseline when paired. */
export function caseJob(gs: GroupState, rec: CaseRecord, mode: CaseJob['mode'], alloc: boolean): CaseJob {
  const { input, policy } = gs.ctx;
  return {
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
  };
}

/** The group's baseline failed (`why`): every live paired case loses its ratio, with the reason. */
export function unpair(gs: GroupState, why: string): void {
  for (const r of gs.recs)
    if (r.end.status === 'measured' && r.paired) {
      r.paired = false;
      r.baselineProblem = `baseline ${r.planned.baseline} ${why}`;
    }
}

/**
 * Keeps a launch with its case and appends it to the launch log at once, marked with the process
 * it ran in (`grouped`: true, its group's launch of that number, run/group-launch.ts; false, a
 * process of its own), which the assembly's group spreads read (run/assemble.ts processKey).
 */
export function keep(gs: GroupState, rec: CaseRecord, record: LaunchRecord, grouped: boolean): void {
  record.grouped = grouped;
  rec.launches.push(record);
  const log = gs.ctx.input.launchLogPath;
  if (log) appendLine(gs.ctx.input, log, JSON.stringify({ caseId: rec.planned.id, record }));
}

/**
 * Keeps a measured launch the relaunch rule discarded (relaunch-rule.ts: its baseline ran slow),
 * marked with the reason, its allocation taken (the first one only), and counts the relaunch: one
 * place for the case's own launch and its group's (run/group-launch.ts).
 */
export function keepDiscarded(
  gs: GroupState,
  rec: CaseRecord,
  v: Extract<Verdict, { kind: 'ok' }>,
  discarded: NonNullable<LaunchRecord['discarded']>,
  grouped: boolean,
): void {
  v.record.discarded = discarded;
  if (v.alloc && !rec.alloc) rec.alloc = v.alloc;
  keep(gs, rec, v.record, grouped);
  rec.relaunches++;
}

/** Takes a measured launch's allocation (the first one only) and the library version it loaded. */
export function takeExtras(rec: CaseRecord, v: Extract<Verdict, { kind: 'ok' }>): void {
  if (v.alloc && !rec.alloc) rec.alloc = v.alloc;
  if (v.loadedVersion) rec.loadedVersion = v.loadedVersion;
}

/**
 * Launch `l` of one case in a process of its own (the serializer, and its baseline when paired):
 * taken again alone after its baseline failed in it (the case unpaired), and again while the
 * relaunch rule discards it (the discarded launch is kept with its reason). A case whose own
 * serializer fails ends; when it is the group's baseline the others lose their ratio.
 */
export async function launchCase(gs: GroupState, rec: CaseRecord, l: number): Promise<void> {
  const { ctx } = gs;
  const { policy } = ctx;
  const isBaselineCase = rec.planned.serializer === rec.planned.baseline;
  for (;;) {
    const job = caseJob(gs, rec, 'time', !rec.alloc);
    const o = await ctx.launch(gs.g, gs.place, {
      planned: rec.planned,
      caseId: rec.planned.id,
      launch: l,
      job,
      timeoutMs: policy.caseTimeoutMs,
      carries: [rec],
    });
    const step = stepOf(judgeLaunch(o, l, policy.caseTimeoutMs));
    if (step.kind !== 'keep') {
      if (step.partial) keep(gs, rec, step.partial, false);
      if (step.kind === 'unpair') {
        unpair(gs, step.why);
        continue;
      }
      rec.end = step.end;
      if (!gs.grouped) ctx.counter.drop(gs.g, Math.max(0, policy.launches - l));
      if (isBaselineCase) unpair(gs, step.baselineWhy);
      return;
    }
    const v = step.verdict;
    const baseNs = baselineSamplesOf(v.record, rec.paired, isBaselineCase);
    const discarded = ctx.bests.judge(baselineKey(rec.planned), baseNs, l, [rec.relaunches], policy);
    if (discarded) {
      keepDiscarded(gs, rec, v, discarded, false);
      continue;
    }
    takeExtras(rec, v);
    keep(gs, rec, v.record, false);
    return;
  }
}

/**
 * The allocation pass of a case whose timing launches sent no allocation windows (a worker
 * without the engine's `alloc` on time jobs): one `alloc` launch of the serializer alone. A
 * failure ends the case, its reason prefixed with `allocation pass`.
 */
export async function allocLaunch(gs: GroupState, rec: CaseRecord): Promise<void> {
  const { ctx } = gs;
  const o = await ctx.launch(gs.g, gs.place, {
    planned: rec.planned,
    caseId: rec.planned.id,
    launch: 1,
    job: caseJob(gs, { ...rec, paired: false }, 'alloc', false),
    timeoutMs: ctx.policy.caseTimeoutMs,
    mode: 'alloc',
  });
  const v = judgeLaunch(o, 1, ctx.policy.caseTimeoutMs);
  if (v.kind === 'ok') {
    rec.alloc = v.alloc;
    if (v.loadedVersion) rec.loadedVersion ??= v.loadedVersion;
  } else rec.end = caseEndOf(v, 'allocation pass');
}
