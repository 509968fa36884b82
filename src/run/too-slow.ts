import type { RunPolicy } from '../config/policies.js';
import { payloadKeyOf, type PayloadFile } from '../plan/payloads.js';
import { formatBytes } from '../report/units.js';
import type { CaseResult } from '../results/types.js';

/**
 * A payload (workload and size) whose every case timed out, the baselines' too, and none got
 * past its warmup: one op of it is too slow for the policy's time per case, which is what to say
 * (issue 25: a 1,000,000-key document, 875 s, every case "no result after 60 s", and nothing
 * said why). Each case's reason gets the sentence (in place); returns one note per such payload.
 */
export function explainAllTimedOut(
  cases: CaseResult[],
  policy: Pick<RunPolicy, 'name' | 'caseTimeoutMs'>,
  payloads: ReadonlyMap<string, Pick<PayloadFile, 'bytes'>>,
): string[] {
  const notes: string[] = [];
  const byPayload = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.status === 'unsupported' || c.status === 'not-run') continue;
    const k = payloadKeyOf(c.workload, c.size);
    byPayload.set(k, [...(byPayload.get(k) ?? []), c]);
  }
  for (const [k, group] of byPayload) {
    if (
      group.length < 2 ||
      !group.every(
        (c) =>
          c.status === 'timeout' &&
          /stage reached: (warmup|0 rounds measured|before measuring|prepare|verify)/.test(c.reason ?? ''),
      )
    )
      continue;
    const bytes = payloads.get(k)?.bytes;
    const why = `one op of this payload${bytes ? ` (${formatBytes(bytes)})` : ''} is too slow for policy ${policy.name}: every case of it timed out, the baselines too, before its warmup ended (a case has ${(policy.caseTimeoutMs / 1000).toFixed(0)} s for a warmup and samples of many ops); measure a smaller payload (--size N generates N records like it) or a part of the file`;
    for (const c of group) c.reason = `${c.reason}; ${why}`;
    notes.push(`${group[0].workload} (size ${group[0].size}): ${why}`);
  }
  return notes;
}
