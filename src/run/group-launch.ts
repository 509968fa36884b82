/**
 * How several cases are launched in one process (worker/job.ts runGroupJob): the group's baseline
 * and the paired cases' serializers, each paired with the baseline in every round; the baseline's
 * own case gets the baseline's samples. A case whose serializer fails alone ends alone; a launch
 * that dies (crash, timeout, a baseline failure) is taken again case by case
 * (run/case-launch.ts launchCase), so the culprit fails alone.
 * Only built-in serializers share a process: a config's serializer is launched alone, since
 * loading its config could patch what the built-ins in the same process call (issue 9: a case of
 * built-ins never loads the user's config).
 */
import type { CaseJob, WorkerMessage } from '../worker/protocol.js';
import type { LaunchOutcome } from '../runtimes/launch.js';
import type { CaseRecord } from './assemble.js';
import type { GroupState } from './run-context.js';
import { judgeLaunch, type Verdict } from './verdict.js';
import { stepOf } from './outcome.js';
import { baselineKey, baselineSamplesOf } from './relaunch-rule.js';
import { caseJob, keep, keepDiscarded, launchCase, takeExtras } from './case-launch.js';

/** The serializer a group launch's message is about (absent: the whole launch). */
const about = (m: WorkerMessage) => (m as { serializer?: string }).serializer;
/** Whether the launch says serializer `id` failed its gate or its stage. */
const failedIn = (o: LaunchOutcome, id: string) =>
  o.messages.some((m) => (m.type === 'incorrect' || m.type === 'error') && about(m) === id);

/** Which of `cases` can share the baseline's process (`paired`), and the baseline's case; null when none can. */
function shareable(gs: GroupState, cases: CaseRecord[]): { baseRec: CaseRecord; paired: CaseRecord[] } | null {
  const baseRec = gs.recs.find((r) => r.planned.serializer === r.planned.baseline && r.end.status === 'measured');
  const builtin = (r: CaseRecord) => gs.ctx.sharesProcess(r.planned.serializer);
  const paired = baseRec && builtin(baseRec) ? cases.filter((r) => r !== baseRec && r.paired && builtin(r)) : [];
  return baseRec && paired.length ? { baseRec, paired } : null;
}

/** Each case's verdict on a group launch: its own messages (and the launch's) judged as one launch. */
function verdictsOf(gs: GroupState, o: LaunchOutcome, cases: CaseRecord[], l: number): Map<CaseRecord, Verdict> {
  const verdicts = new Map<CaseRecord, Verdict>();
  for (const rec of cases) {
    const id = rec.planned.serializer;
    const own = o.messages.filter((m) => about(m) === undefined || about(m) === id);
    verdicts.set(rec, judgeLaunch({ ...o, messages: own }, l, gs.ctx.policy.caseTimeoutMs));
  }
  return verdicts;
}

/**
 * The relaunch rule on a group launch: the baseline's slow launches are taken again, for every
 * case of the launch (each keeps its measured launch as discarded). True when it was discarded.
 */
function discardedForAll(gs: GroupState, baseRec: CaseRecord, verdicts: Map<CaseRecord, Verdict>, l: number): boolean {
  const baseV = verdicts.get(baseRec);
  const baseNs = baseV?.kind === 'ok' ? baselineSamplesOf(baseV.record, false, true) : [];
  const relaunches = [...verdicts.keys()].map((r) => r.relaunches);
  const discarded = gs.ctx.bests.judge(baselineKey(baseRec.planned), baseNs, l, relaunches, gs.ctx.policy);
  if (!discarded) return false;
  for (const [rec, v] of verdicts) if (v.kind === 'ok') keepDiscarded(gs, rec, v, discarded, true);
  return true;
}

/**
 * Says that launch `l` of `cases` (in one process) ended without naming which case failed (its worker killed from
 * outside, or exited) and that `n` of its cases are taken again, each alone: before, a worker
 * killed mid-run left no trace in stderr, results.json or the report (issue 25). A warning event
 * (stderr; the relaunched cases' own launches are in launches.partial.jsonl).
 */
function warnRetaken(gs: GroupState, o: LaunchOutcome, l: number, cases: CaseRecord[], n: number): void {
  // a timeout is killed by jsonbench itself (SIGKILL): said as the timeout, never as a kill from outside (hx8)
  const how = o.timedOut
    ? `timed out (the case timeout: ${gs.ctx.policy.caseTimeoutMs / 1000} s per case it carries; --case-timeout sets it)`
    : o.signal
      ? `was killed by ${o.signal}`
      : o.exitCode !== null && o.exitCode !== 0
        ? `exited with code ${o.exitCode}`
        : o.protocolError
          ? `broke its protocol (${o.protocolError})`
          : 'ended';
  gs.ctx.input.onProgress?.({
    type: 'warning',
    message: `${cases[0].planned.id} (+${cases.length - 1} in one process): launch ${l}'s worker ${how} before naming a failing case${o.signal === 'SIGKILL' && !o.timedOut ? ' (killed from outside jsonbench, or by the system for memory?)' : ''}; its ${n} case${n === 1 ? '' : 's'} left ${n === 1 ? 'is' : 'are'} taken again, each alone`,
  });
}

/** Applies each case's verdict ({@link stepOf}): keeps the measured, ends those that failed on their own, retakes the rest alone. */
async function applyVerdicts(gs: GroupState, o: LaunchOutcome, verdicts: Map<CaseRecord, Verdict>, l: number) {
  const steps = [...verdicts].map(
    ([rec, v]) => [rec, stepOf(v, { named: failedIn(o, rec.planned.serializer) })] as const,
  );
  const retaken = steps.filter(([, step]) => step.kind === 'retake');
  if (retaken.length) warnRetaken(gs, o, l, [...verdicts.keys()], retaken.length);
  for (const [rec, step] of steps) {
    if (step.kind === 'keep') {
      takeExtras(rec, step.verdict);
      keep(gs, rec, step.verdict.record, true);
    } else if (step.kind === 'end') {
      if (step.partial) keep(gs, rec, step.partial, true);
      rec.end = step.end;
    }
    // the launch died without naming this case: take it again alone
    else await launchCase(gs, rec, l);
  }
}

/**
 * Launch `l` of `cases` in one process where they can share it (else each alone): the cases that
 * cannot (a config's serializer, an unpaired case) are launched alone first. Returns false when
 * the group should go on case by case (no shared launch possible, or the baseline failed in it).
 */
export async function groupLaunch(gs: GroupState, cases: CaseRecord[], l: number): Promise<boolean> {
  const share = shareable(gs, cases);
  if (!share) {
    for (const rec of cases) await launchCase(gs, rec, l);
    return false;
  }
  const { baseRec, paired } = share;
  const alone = cases.filter((r) => r !== baseRec && !paired.includes(r));
  cases = cases.filter((r) => !alone.includes(r));
  for (const rec of alone) await launchCase(gs, rec, l);
  const baselineId = baseRec.planned.serializer;
  const { policy } = gs.ctx;
  for (;;) {
    const lead = paired[0];
    const job: CaseJob = {
      ...caseJob(
        gs,
        lead,
        'time',
        cases.some((r) => !r.alloc),
      ),
      baseline: baselineId,
      serializers: paired.map((r) => r.planned.serializer),
    };
    const o = await gs.ctx.launch(gs.g, gs.place, {
      planned: lead.planned,
      caseId: `${lead.planned.id} (+${cases.length - 1} in one process)`,
      launch: l,
      job,
      timeoutMs: policy.caseTimeoutMs * cases.length,
      work: cases.length,
      carries: cases,
    });
    if (failedIn(o, baselineId)) {
      for (const rec of cases) if (rec.end.status === 'measured') await launchCase(gs, rec, l);
      return false;
    }
    const verdicts = verdictsOf(gs, o, cases, l);
    if (discardedForAll(gs, baseRec, verdicts, l)) continue;
    await applyVerdicts(gs, o, verdicts, l);
    return true;
  }
}
