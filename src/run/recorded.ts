import type { PlannedCase } from '../plan/plan.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { CaseResult, LaunchRecord } from '../results/types.js';
import { assembleGroup, groupLaunchSpread, runPriorsInOrder, type CaseRecord } from './assemble.js';
import { coordinatesOf } from '../case/coordinates.js';

/**
 * What re-assembly reads of a recorded case: a results.json case (its launches in
 * `samples.launches`), or a fixture's slimmed one (test/fixtures/stats/quiet-default-run*.json.gz:
 * its launches at the top, no family, version, platform or payload).
 */
export interface RecordedCase {
  id: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  class: string;
  serializer: string;
  baseline: string | null;
  target: PlannedCase['target'];
  /** null or absent: not paired with its baseline */
  ratio?: number | null;
  status?: string;
  serializerVersion?: string;
  family?: string;
  platform?: string;
  payload?: { bytes: number; sha256: string };
  samples?: { launches: LaunchRecord[]; relaunches: number };
  launches?: LaunchRecord[];
}

/**
 * The runner's record of a recorded case (run/assemble.ts CaseRecord), so that this build's
 * assembly can recompute its statistics from its raw launches: planned as recorded (family
 * `builtin`, platform `javascript` where the record has none), its launches and relaunches, ended
 * `measured`, paired when it has a ratio and is not its own baseline. The payload is named by the
 * case id (bytes and hash as recorded, else 0 and ''): assembly reads neither.
 */
export function caseRecordOf(c: RecordedCase): CaseRecord {
  return {
    planned: {
      id: c.id,
      ...coordinatesOf(c),
      ...(c.serializerVersion !== undefined ? { serializerVersion: c.serializerVersion } : {}),
      family: c.family ?? 'builtin',
      platform: c.platform ?? 'javascript',
      baseline: c.baseline,
      payloadKey: c.id,
      target: c.target,
      status: 'planned',
    } as PlannedCase,
    payload: { key: c.id, path: '', bytes: c.payload?.bytes ?? 0, sha256: c.payload?.sha256 ?? '' },
    launches: c.samples?.launches ?? c.launches ?? [],
    relaunches: c.samples?.relaunches ?? 0,
    end: { status: 'measured' },
    paired: c.ratio !== null && c.ratio !== undefined && c.serializer !== c.baseline,
  };
}

/**
 * A recorded run's measured cases (a case without `status`, a fixture's, counts as measured) as
 * the runner's groups: one array of records per workload × size × shape × direction × class ×
 * target, groups and cases in the order they first appear (the plan's, in a results file).
 */
export function recordedGroups(cases: readonly RecordedCase[]): CaseRecord[][] {
  const groups = new Map<string, CaseRecord[]>();
  for (const c of cases) {
    if (c.status !== undefined && c.status !== 'measured') continue;
    const key = JSON.stringify([c.workload, c.size, c.shape, c.direction, c.class, c.target.id]);
    groups.set(key, [...(groups.get(key) ?? []), caseRecordOf(c)]);
  }
  return [...groups.values()];
}

/**
 * Re-assembles recorded groups as a run of this build would: each group with the prior the run's
 * other groups lend it (run/assemble.ts runPriorsInOrder over groupLaunchSpread, in the given
 * order), then assembleGroup. One array of cases per group, in the groups' order.
 */
export function reassembleGroups(groups: readonly CaseRecord[][], policy: MeasurePolicy): CaseResult[][] {
  const priors = runPriorsInOrder(groups.map(groupLaunchSpread));
  return groups.map((g, i) => assembleGroup(g, policy, priors[i]));
}
