import type { CaseTarget, Platform } from '../case/coordinates.js';
import {
  TargetError,
  type LaunchFn,
  type PreparedTarget,
  type Target,
  type TargetContext,
  type TargetInfo,
  type TargetRef,
} from './types.js';

/** The targets of one run, ready: what cases record, what results record, how to launch, what failed. */
export interface PreparedTargets {
  /** one per target, in the order given (the first is the Δ reference) */
  refs: TargetRef[];
  infos: TargetInfo[];
  /** per target, in the same order: its platform and the serializer versions its worker loads (for the planner's placement) */
  platforms: { ref: TargetRef; platform: Platform; serializerVersions?: Readonly<Record<string, string>> }[];
  /** the launcher of a case's target (undefined for a faulty target) */
  launchFor(c: { target: CaseTarget }): LaunchFn | undefined;
  /** why a case's target cannot run, with the command that fixes it */
  faultOf(c: { target: CaseTarget }): string | undefined;
  /** releases remote folders and the like; never throws */
  close(): Promise<void>;
}

/**
 * Prepares every target one after another (bundling once per kind, probing each runtime), and
 * keeps each target's wall time (`info.timing`: prepare, launches) as launches finish. A target
 * that is not installed or fails to start does not stop the run: its cases fail with the reason
 * and the fix (e.g. "bun is not installed: run `jsonbench runtimes install bun`").
 * @param log progress lines (one per target, with its setup time in ms)
 */
export async function prepareTargets(
  targets: readonly Target[],
  ctx: TargetContext,
  log: (line: string) => void = () => {},
): Promise<PreparedTargets> {
  const ready = new Map<string, PreparedTarget>();
  const faults = new Map<string, string>();
  const infos: TargetInfo[] = [];
  const versions = new Map<string, Readonly<Record<string, string>>>();
  for (const t of targets) {
    const t0 = performance.now();
    try {
      const p = await t.prepare(ctx);
      const ms = Math.round(performance.now() - t0);
      p.info.timing = { prepareMs: ms, launchMs: 0, launches: 0 };
      const timing = p.info.timing;
      const launch = p.launch;
      ready.set(t.id, {
        ...p,
        launch: async (job, timeoutMs, place) => {
          const t1 = performance.now();
          try {
            return await launch(job, timeoutMs, place);
          } finally {
            timing.launchMs += Math.round(performance.now() - t1);
            timing.launches++;
          }
        },
      });
      infos.push({ ...(t.platform && t.platform !== 'javascript' ? { platform: t.platform } : {}), ...p.info });
      if (p.serializerVersions) versions.set(t.id, p.serializerVersions);
      log(
        `target ${t.id}: ${p.info.runtime} ${p.info.version} (${p.info.engine} ${p.info.engineVersion}) ready in ${ms} ms`,
      );
    } catch (e) {
      const reason = (e as Error).message;
      const detail = e instanceof TargetError ? (e.detail ?? {}) : {};
      faults.set(t.id, reason);
      infos.push({
        id: t.id,
        kind: t.kind,
        ...(t.platform && t.platform !== 'javascript' ? { platform: t.platform } : {}),
        runtime: t.runtime,
        version: 'unavailable',
        engine: 'unknown',
        engineVersion: 'unknown',
        flags: [],
        probe: { ...detail },
        fault: reason,
      });
      log(`target ${t.id}: ${reason}${typeof detail.buildLog === 'string' ? ` (log: ${detail.buildLog})` : ''}`);
    }
  }
  const refs = infos.map((i) => ({ id: i.id, runtime: i.runtime, version: i.version }));
  return {
    refs,
    infos,
    platforms: refs.map((ref, i) => ({
      ref,
      platform: targets[i].platform ?? 'javascript',
      ...(versions.has(ref.id) ? { serializerVersions: versions.get(ref.id)! } : {}),
    })),
    launchFor: (c) => ready.get(c.target.id)?.launch,
    faultOf: (c) => faults.get(c.target.id),
    close: async () => {
      for (const p of ready.values()) await p.close?.().catch(() => {});
    },
  };
}
