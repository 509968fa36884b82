import type { CaseResult } from '../results/types.js';

/** What a reason found on the gate's variant payload starts with in every report (nu8). */
export const VARIANT_LEAD = "on jsonbench's hostile-string variant, not the payload itself:";

/**
 * Why a case gave no number, as reports print it: its `reason`, led by {@link VARIANT_LEAD} when the
 * gate failed on its variant payload (`mismatch.on: 'variant'`, sent by the worker: worker/job.ts), so
 * a line cut to a width still says the failure is not of the user's own data (nu8: "output is not
 * well-formed Unicode: a lone surrogate …" on a payload without one). Empty when the case has no
 * reason. Files written before `mismatch.on` keep the worker's note at the end of their reason and
 * are printed as they are. Pure.
 */
export function caseReason(c: Pick<CaseResult, 'reason' | 'mismatch'>): string {
  const reason = c.reason ?? '';
  return c.mismatch?.on === 'variant' ? `${VARIANT_LEAD} ${reason}` : reason;
}
