import type { CaseTarget, Platform } from '../case/coordinates.js';
import type { CaseGroup, MatrixCase, PlannedCase } from './plan.js';

/** A target as the plan places cases on it. */
export interface Placement {
  target: CaseTarget;
  /** the platform it runs: it receives the groups of this platform only */
  platform: Platform;
  /** serializer id → the version its worker loads there (a .NET target's assemblies, from its probe) */
  serializerVersions?: Readonly<Record<string, string>>;
}

/**
 * Places the matrix on its targets: each group is repeated once per target of its platform
 * (targets innermost, so a group's cases on every runtime run close together in time; a group
 * with no target of its platform is not run) and every case gets `target`. When the run named its
 * targets (`--target`), ids get the suffix `@<target id>`; a run on the host's Node alone keeps
 * the plain ids (so it compares with earlier runs). Baselines stay within a group, so ratios are
 * drawn inside one runtime. The built-in `json` adapter's version becomes the target's runtime
 * and version (it is that runtime's JSON); a serializer whose version the target knows (a .NET
 * assembly) takes that version.
 * @param targets placements, or bare targets (each a JavaScript target)
 * @param named true when the targets were named on the command line (ids get the suffix)
 */
export function expandTargets(
  groups: readonly CaseGroup<MatrixCase>[],
  targets: readonly (Placement | CaseTarget)[],
  named = true,
): CaseGroup<PlannedCase>[] {
  const placements = targets.map((t): Placement => ('target' in t ? t : { target: t, platform: 'javascript' }));
  return groups.flatMap((group) =>
    placements
      .filter((p) => group.length > 0 && p.platform === group[0].platform)
      .map(({ target: t, serializerVersions }) =>
        group.map((c): PlannedCase => ({
          ...c,
          id: named ? `${c.id}@${t.id}` : c.id,
          target: { id: t.id, runtime: t.runtime, version: t.version },
          ...(c.family === 'builtin' && c.serializer === 'json'
            ? { serializerVersion: `${t.runtime} ${t.version}` }
            : {}),
          ...(serializerVersions?.[c.serializer] ? { serializerVersion: serializerVersions[c.serializer] } : {}),
        })),
      ),
  );
}
