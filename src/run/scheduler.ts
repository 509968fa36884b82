/**
 * When the run's launches happen (hyperfine's scheduler): a pool of `jobs` slots taking groups in
 * plan order, and within a group its launches — launch 1 of each case, then launch 2 of each…
 * (one process for the group where its cases share one: run/group-launch.ts; else case by case:
 * run/case-launch.ts), then the extra launches of run/stop-rule.ts, then the allocation pass of a
 * worker that sent no allocation windows. How each launch runs is the launch modules'. A group is
 * assembled, printed and recorded once the run's other groups lend it their full prior, or at the
 * run's end ({@link scheduleGroups}).
 */
import type { CaseGroup } from '../plan/plan.js';
import type { CaseResult } from '../results/types.js';
import type { LaunchPlace } from '../runtimes/types.js';
import {
  assembleGroup,
  groupLaunchSpread,
  groupRatios,
  groupYardsticks,
  priorsComplete,
  runPriorsFor,
  type CaseRecord,
  type GroupLaunchSpread,
  type RunPriors,
} from './assemble.js';
import type { GroupState, RunContext } from './run-context.js';
import { allocLaunch, launchCase } from './case-launch.js';
import { groupLaunch } from './group-launch.js';
import {
  bandText,
  budgetStop,
  lacksPrecision,
  PRECISION_RESOLVE,
  resolutionText,
  wantsAnotherLaunch,
  type JudgedRatio,
  type StopReason,
} from './stop-rule.js';
import { resolution } from '../stats/intervals.js';

/** Whether a group's cases can share one worker process (group launches): those of the JavaScript worker. */
export function groupsShareLaunches(g: CaseGroup): boolean {
  return g.every((c) => (c.platform ?? 'javascript') === 'javascript');
}

/** The group's records before any launch: a case not planned, or that cannot be launched, has its end already. */
function recordsOf(ctx: RunContext, group: CaseGroup): CaseRecord[] {
  return group.map((planned) => {
    const fault = planned.status === 'planned' ? ctx.faultOf(planned) : undefined;
    return {
      planned,
      payload: ctx.input.payloads.get(planned.payloadKey)!,
      launches: [],
      relaunches: 0,
      end:
        planned.status !== 'planned'
          ? { status: planned.status, reason: planned.reason }
          : fault
            ? { status: 'failed', reason: fault }
            : { status: 'measured' },
      paired: Boolean(planned.baseline && planned.baseline !== planned.serializer) && !ownLibraryRow(planned),
      ...(ownLibraryRow(planned)
        ? {
            baselineProblem: `${planned.serializer} is ${planned.baseline}'s own library at another version, in a worker build of its own (one System.Text.Json per .NET process), so ${planned.baseline} cannot run beside it: compare the two means`,
          }
        : {}),
    };
  });
}

/**
 * A .NET row of the baseline's own serializer at another version (`stj@10.0.12` against `stj`): its worker loads
 * that version of the library in place of the target's, so no baseline of the target's version can share its process.
 */
function ownLibraryRow(planned: CaseGroup[number]): boolean {
  return planned.platform === 'dotnet' && !!planned.baseline && planned.serializer.startsWith(`${planned.baseline}@`);
}

/** Launch `l` of `cases`: in one process where the group still shares one, else case by case. */
async function launchAll(gs: GroupState, cases: CaseRecord[], l: number, share: boolean): Promise<void> {
  if (gs.grouped && share) gs.grouped = await groupLaunch(gs, cases, l);
  else for (const rec of cases) await launchCase(gs, rec, l);
}

/** What the budgets say of a case's launch `l` (run/stop-rule.ts budgetStop): the reason it may not begin, or null. */
function budgetOf(gs: GroupState, rec: CaseRecord, l: number): StopReason | null {
  const { ctx } = gs;
  return budgetStop({
    launch: l,
    maxLaunches: ctx.policy.maxLaunches,
    spentMs: ctx.spentMs.get(rec) ?? [],
    maxCaseMs: ctx.policy.adaptive.maxCaseMs,
    runElapsedMs: ctx.elapsedMs(),
    runQuotaMs: ctx.runQuotaMs(gs.g),
  });
}

/**
 * The live cases that get launch `l` beyond the policy's `launches` (run/stop-rule.ts): those
 * that want one — judged on the ratio interval each would report now (run/assemble.ts
 * groupRatios: the whole group assembled from its current launches with `run`, the prior of the
 * groups whose launches are done, as results.json will carry it when no other group is to come)
 * — and whose budgets allow it; a case that wants one but may not have it is noted in
 * `gs.stopped` with the reason.
 */
function moreLaunches(gs: GroupState, live: CaseRecord[], l: number, run: RunPriors): CaseRecord[] {
  const { policy } = gs.ctx;
  const judged = groupRatios(gs.recs, policy.measure, run);
  const yardsticks = groupYardsticks(gs.recs, run);
  return live.filter((rec) => {
    const i = gs.recs.indexOf(rec);
    if (!wantsAnotherLaunch(rec, policy, judged[i], yardsticks[i])) return false;
    const stop = budgetOf(gs, rec, l);
    if (stop) gs.stopped.set(rec, stop);
    return !stop;
  });
}

/**
 * Records how a measured paired case of a run with `resolve` stands against the band, on the
 * interval results.json reports (`resolution`: state, interval, launches, time, what stopped an
 * unresolved case). The state is decided again here, on the final assembly (stats/intervals.ts
 * resolution, the one place: a `rounds` basis never resolves); `stoppedBy` is what the stop rule
 * noted when it last wanted a launch it could not have, or, had it noted nothing (it judges the
 * same interval, so only when it could not judge), what the budgets say of the next launch now.
 */
function recordResolution(gs: GroupState, rec: CaseRecord, c: CaseResult, judged: JudgedRatio | undefined): void {
  const { resolve } = gs.ctx.policy.adaptive;
  if (resolve === null || c.status !== 'measured' || !rec.paired || c.ratio === null) return;
  const interval = c.ratioInterval ?? null;
  const kept = rec.launches.filter((x) => !x.discarded).length;
  const state = resolution(interval, resolve, c.ratioBasis, kept);
  const spentMs = (gs.ctx.spentMs.get(rec) ?? []).reduce((n, x) => n + x, 0);
  // a band of 1% or finer asks for precision too: a case that differs or lies within it, stopped short of SE ≤ band,
  // is said so (issue 23's note: a long-policy case stopped by the launch cap was recorded "differs", unmarked)
  const short = state !== 'unresolved' && resolve <= PRECISION_RESOLVE && lacksPrecision(judged ?? null, resolve);
  const by =
    state === 'unresolved' || short
      ? (gs.stopped.get(rec) ??
        budgetOf(gs, rec, Math.max(...rec.launches.map((x) => x.launch), 0) + 1) ??
        'launch cap')
      : undefined;
  const se = judged?.se;
  c.resolution = {
    resolve,
    state,
    interval,
    launches: kept,
    spentMs,
    ...(se !== undefined && resolve <= PRECISION_RESOLVE ? { se } : {}),
    ...(short ? { shortOfPrecision: true as const } : {}),
    ...(by ? { stoppedBy: by } : {}),
    text: resolutionText(
      state,
      interval,
      resolve,
      by
        ? {
            by,
            spentMs,
            ...(by === 'case budget' ? { budgetMs: gs.ctx.policy.adaptive.maxCaseMs } : {}),
            ...(by === 'run budget' ? { budgetMs: gs.ctx.policy.adaptive.maxRunMs } : {}),
          }
        : undefined,
    ),
  };
  if (short)
    c.resolution.text += `; short of the ${bandText(resolve)} precision: SE ${se === undefined ? 'unknown' : `${(se * 100).toFixed(2)}%`} (${by})`;
}

/** The run's groups whose launches are done, each with its launch-to-launch spread (run/assemble.ts groupLaunchSpread). */
type Spreads = Map<number, GroupLaunchSpread>;

/** The prior group `g` borrows from the others whose launches are done (never itself). */
function priorsOf(spreads: Spreads, g: number, self: Pick<GroupLaunchSpread, 'target' | 'caseClass'>): RunPriors {
  return runPriorsFor(
    self,
    [...spreads].filter(([h]) => h !== g).map(([, s]) => s),
  );
}

/** Runs the launches of group `g` in one slot (`place`): the policy's, then the stop rule's extra ones ({@link extraLaunches}, judged with the prior of the groups done so far); its spread is noted in `spreads`. */
async function launchGroup(ctx: RunContext, g: number, place: LaunchPlace, spreads: Spreads): Promise<GroupState> {
  const { policy, input } = ctx;
  const group = input.groups[g];
  const gs: GroupState = {
    ctx,
    g,
    place,
    recs: recordsOf(ctx, group),
    // one process for several serializers: the JavaScript worker only (the .NET worker measures one pair per launch)
    grouped: input.groupLaunches !== false && groupsShareLaunches(group),
    stopped: new Map(),
  };
  const live = () => gs.recs.filter((r) => r.end.status === 'measured');
  for (let l = 1; l <= policy.launches; l++) await launchAll(gs, live(), l, live().length > 1);
  await extraLaunches(gs, spreads);
  // a case whose timing launches sent no allocation windows (a worker without the engine's `alloc` on time jobs) gets a launch of its own
  if (!groupsShareLaunches(group)) for (const rec of live().filter((r) => !r.alloc)) await allocLaunch(gs, rec);
  ctx.counter.groupDone(g);
  spreads.set(g, groupLaunchSpread(gs.recs));
  return gs;
}

/**
 * The stop rule's extra launches of a group (run/stop-rule.ts), from the launch after its last:
 * judged with the prior of the other groups done now ({@link moreLaunches}). Called when the
 * group's policy launches are done — then the prior is of the groups before it, which is the one
 * it is assembled with when they give its class a full prior (run/assemble.ts priorsComplete) —
 * and again, at the run's end, for every group still waiting for its prior ({@link scheduleGroups}):
 * then with the final prior, the one results.json carries, so a case released as resolved on a
 * partial prior that the final one leaves unresolved gets its launches (budgets permitting), and
 * what stopped it is what is recorded.
 */
async function extraLaunches(gs: GroupState, spreads: Spreads): Promise<void> {
  const group = gs.ctx.input.groups[gs.g];
  const self = { target: group[0]?.target.id ?? '', caseClass: group[0]?.caseClass ?? '' };
  const live = () => gs.recs.filter((r) => r.end.status === 'measured');
  const last = Math.max(gs.ctx.policy.launches, ...gs.recs.flatMap((r) => r.launches.map((x) => x.launch)));
  for (let l = last + 1; ; l++) {
    const more = moreLaunches(gs, live(), l, priorsOf(spreads, gs.g, self));
    if (!more.length) break;
    await launchAll(
      gs,
      more,
      l,
      more.some((r) => r.paired),
    );
  }
}

/** Assembles a group whose launches are done with the prior of the other groups done (run/assemble.ts assembleGroup); its cases are finished and announced. */
function finishGroup(gs: GroupState, spreads: Spreads): CaseResult[] {
  const { ctx } = gs;
  const priors = priorsOf(spreads, gs.g, spreads.get(gs.g)!);
  const out = assembleGroup(gs.recs, ctx.policy.measure, priors);
  // the stop rule's reading of each ratio (its SE) where the band asks for precision: judged as the last launch was
  const resolve = ctx.policy.adaptive.resolve;
  const judged =
    resolve !== null && resolve <= PRECISION_RESOLVE ? groupRatios(gs.recs, ctx.policy.measure, priors) : [];
  for (const [i, r] of out.entries()) recordResolution(gs, gs.recs[i], r, judged[i] ?? undefined);
  for (const [i, r] of out.entries())
    ctx.finish(r, gs.recs[i].planned.status === 'planned' && !ctx.faultOf(gs.recs[i].planned));
  ctx.groupDone(out);
  return out;
}

/**
 * A pool of `jobs` slots (each with its CPU when `cpus` is given) taking groups in plan order;
 * results in plan order. A group whose launches are done waits to be assembled until the other
 * groups done lend it a full prior (run/assemble.ts priorsComplete: groups of its target and class
 * with 4 launch contrasts, stats/intervals.ts PRIOR_DF_MAX), or until every group's launches are done:
 * what is printed, recorded in the ledger and the partial file when it is finished is then what
 * results.json carries, and an early group borrows from the groups after it. Waiting groups are
 * finished in plan order as soon as they are ready; results.json keeps plan order. A group whose
 * extra launches were judged on a partial prior (its class's groups done then gave fewer than 4
 * contrasts) is judged again with the prior it is assembled with before it is finished
 * ({@link extraLaunches}): the stop rule and results.json see the same interval.
 */
export async function scheduleGroups(ctx: RunContext): Promise<CaseResult[]> {
  const { input } = ctx;
  const byGroup: CaseResult[][] = new Array(input.groups.length);
  const spreads: Spreads = new Map();
  const waiting: GroupState[] = [];
  // groups whose extra launches were judged with the full prior they are assembled with
  const judgedFull = new Set<GroupState>();
  const othersOf = (g: number) => [...spreads].filter(([h]) => h !== g).map(([, s]) => s);
  const flushOnce = async (all: boolean) => {
    waiting.sort((a, b) => a.g - b.g);
    for (const gs of [...waiting]) {
      if (!all && !priorsComplete(spreads.get(gs.g)!, othersOf(gs.g))) continue;
      waiting.splice(waiting.indexOf(gs), 1);
      // judged on a partial prior: judged again with the one it is assembled with before it is
      if (!judgedFull.has(gs)) {
        await extraLaunches(gs, spreads);
        spreads.set(gs.g, groupLaunchSpread(gs.recs));
      }
      byGroup[gs.g] = finishGroup(gs, spreads);
    }
  };
  // one flush at a time (slots finish groups concurrently)
  let flushing = Promise.resolve();
  const flush = (all: boolean) => (flushing = flushing.then(() => flushOnce(all)));
  let next = 0;
  const slot = async (k: number) => {
    const place: LaunchPlace = input.cpus?.[k] !== undefined ? { cpu: input.cpus[k] } : {};
    while (next < input.groups.length) {
      const g = next++;
      const gs = await launchGroup(ctx, g, place, spreads);
      if (priorsComplete(spreads.get(g)!, othersOf(g))) judgedFull.add(gs);
      waiting.push(gs);
      await flush(false);
    }
  };
  const jobs = Math.max(1, Math.min(input.jobs ?? 1, input.groups.length));
  await Promise.all(Array.from({ length: jobs }, (_, k) => slot(k)));
  await flush(true);
  return byGroup.flat();
}
