import type { CaseTarget } from '../case/coordinates.js';
import type { CaseGroup, MatrixCase, PlannedCase } from './plan.js';

/**
 * Places the matrix on its targets: each group is repeated once per target (targets innermost,
 * so a group's cases on every runtime run close together in time) and every case gets `target`.
 * When the run named its targets (`--target`), ids get the suffix `@<target id>`; a run on the
 * host's Node alone keeps the plain ids (so it compares with earlier runs). Baselines stay within
 * a group, so ratios are drawn inside one runtime. The built-in `json` adapter's version becomes
 * the target's runtime and version (it is that runtime's JSON).
 * @param named true when the targets were named on the command line (ids get the suffix)
 */
export function expandTargets(groups: readonly CaseGroup<MatrixCase>[], targets: readonly CaseTarget[], named = true): CaseGroup<PlannedCase>[] {
  return groups.flatMap((group) => targets.map((t) => group.map((c): PlannedCase => ({
    ...c,
    id: named ? `${c.id}@${t.id}` : c.id,
    target: { id: t.id, runtime: t.runtime, version: t.version },
    ...(c.family === 'builtin' && c.serializer === 'json' ? { serializerVersion: `${t.runtime} ${t.version}` } : {}),
  }))));
}
