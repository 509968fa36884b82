import type { CaseTarget } from '../results/types.js';
import type { CaseGroup } from './plan.js';

/**
 * Adds the target dimension: each group is repeated once per target (targets innermost, so a
 * group's cases on every runtime run close together in time), every case gets `target` and an
 * id suffixed `@<target id>`. Baselines stay within a group, so ratios are drawn inside one
 * runtime. The built-in `json` adapter's version becomes the target's runtime and version (it is
 * that runtime's JSON). With no targets the groups are returned unchanged.
 */
export function expandTargets(groups: readonly CaseGroup[], targets: readonly CaseTarget[]): CaseGroup[] {
  if (!targets.length) return [...groups];
  return groups.flatMap((group) => targets.map((t) => group.map((c) => ({
    ...c,
    id: `${c.id}@${t.id}`,
    target: { id: t.id, runtime: t.runtime, version: t.version },
    ...(c.family === 'builtin' && c.serializer === 'json' ? { serializerVersion: `${t.runtime} ${t.version}` } : {}),
  }))));
}
