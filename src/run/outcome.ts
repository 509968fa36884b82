/**
 * The verdict → outcome mapping (pure, written once): what a launch's {@link Verdict} means for
 * its case — keep the launch, end the case with a status, drop the pairing with a baseline that
 * failed and launch the case again, or (a case of a group launch whose process died) launch it again alone. The case launch (run/case-launch.ts), the group launch
 * (run/group-launch.ts) and the allocation pass all end cases through {@link caseEndOf}.
 */
import type { LaunchRecord } from '../results/types.js';
import type { CaseEnd } from './assemble.js';
import type { Verdict } from './verdict.js';

/** A verdict that gives the case no launch to keep as measured. */
export type FailedVerdict = Exclude<Verdict, { kind: 'ok' }>;

/**
 * The end of a case whose own serializer failed: `unsupported` with the serializer's reason,
 * `incorrect` with its mismatch (side included), else the bad launch's status (`failed`,
 * `timeout`, `crashed`). `pass` names a pass other than timing (`allocation pass`), written before
 * the reason of an incorrect or bad launch; an unsupported reason is the serializer's own
 * statement and is kept as it is.
 */
export function caseEndOf(v: FailedVerdict, pass?: string): Exclude<CaseEnd, { status: 'measured' }> {
  const reason = pass ? `${pass}: ${v.reason}` : v.reason;
  if (v.kind === 'unsupported') return { status: 'unsupported', reason: v.reason };
  if (v.kind === 'incorrect') return { status: 'incorrect', reason, mismatch: { side: v.side, ...v.mismatch } };
  return { status: v.status, reason };
}

/** What the case launch does with a verdict (see {@link stepOf}). */
export type LaunchStep =
  | { kind: 'keep'; verdict: Extract<Verdict, { kind: 'ok' }> }
  | {
      /** the baseline side failed in this case's worker: unpair the group's cases (`why`) and launch again */
      kind: 'unpair';
      why: string;
      /** rounds measured before it failed, kept with the case */
      partial?: LaunchRecord;
    }
  | {
      /** the case's own serializer failed: it ends with `end` */
      kind: 'end';
      end: CaseEnd;
      partial?: LaunchRecord;
      /** when the case is its group's baseline: why the others lose their ratio */
      baselineWhy: string;
    };

/** What the group launch does with one of its cases' verdicts: a {@link LaunchStep} but `unpair`, or `retake`. */
export type GroupLaunchStep =
  | Exclude<LaunchStep, { kind: 'unpair' }>
  | {
      /** the shared launch died without naming this case: launch it again alone */
      kind: 'retake';
    };

/**
 * Reads one launch of one case (pure): an `ok` launch is kept; a failure on the baseline side
 * unpairs (`is unsupported here: …`, `failed in this case's worker: …`); any other failure ends
 * the case ({@link caseEndOf}), keeping the rounds a failed, timed-out or crashed launch streamed
 * first.
 * @param group for a case of a group launch (several cases in one process): whether the launch's
 *   messages name this case's serializer as failing (`named`). Its failure ends the case only when
 *   named and not a timeout or crash (the process died for all of them): else it is `retake`n alone.
 */
export function stepOf(v: Verdict): LaunchStep;
export function stepOf(v: Verdict, group: { named: boolean }): GroupLaunchStep;
export function stepOf(v: Verdict, group?: { named: boolean }): LaunchStep | GroupLaunchStep {
  if (v.kind === 'ok') return { kind: 'keep', verdict: v };
  if (group && (!group.named || (v.kind === 'bad' && v.status !== 'failed'))) return { kind: 'retake' };
  const partial = v.kind === 'bad' && v.partial && v.partial.rounds.length ? { partial: v.partial } : {};
  // a group launch reads its baseline's failure before its cases' verdicts (group-launch.ts): no case of it unpairs
  const baselineSide = v.side === 'baseline' && !group;
  if (v.kind === 'unsupported')
    return baselineSide
      ? { kind: 'unpair', why: `is unsupported here: ${v.reason}` }
      : { kind: 'end', end: caseEndOf(v), baselineWhy: `is unsupported here: ${v.reason}` };
  if (baselineSide) return { kind: 'unpair', why: `failed in this case's worker: ${v.reason}`, ...partial };
  const end = caseEndOf(v);
  return { kind: 'end', end, baselineWhy: `was ${end.status}`, ...partial };
}
