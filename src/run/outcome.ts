/**
 * The verdict → outcome mapping (pure, written once): what a launch's {@link Verdict} means for
 * its case — keep the launch, end the case with a status, or drop the pairing with a baseline that
 * failed and launch the case again alone. The case launch (run/case-launch.ts), the group launch
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

/**
 * Reads one launch of one case (pure): an `ok` launch is kept; a failure on the baseline side
 * unpairs (`is unsupported here: …`, `failed in this case's worker: …`); any other failure ends
 * the case ({@link caseEndOf}), keeping the rounds a failed, timed-out or crashed launch streamed
 * first.
 */
export function stepOf(v: Verdict): LaunchStep {
  if (v.kind === 'ok') return { kind: 'keep', verdict: v };
  const partial = v.kind === 'bad' && v.partial && v.partial.rounds.length ? { partial: v.partial } : {};
  if (v.kind === 'unsupported')
    return v.side === 'baseline'
      ? { kind: 'unpair', why: `is unsupported here: ${v.reason}` }
      : { kind: 'end', end: caseEndOf(v), baselineWhy: `is unsupported here: ${v.reason}` };
  if (v.side === 'baseline') return { kind: 'unpair', why: `failed in this case's worker: ${v.reason}`, ...partial };
  const end = caseEndOf(v);
  return { kind: 'end', end, baselineWhy: `was ${end.status}`, ...partial };
}
