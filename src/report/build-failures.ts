import type { ResultsFile } from '../results/types.js';

/** A worker build that failed, as a run's target record keeps it (the .NET worker: src/runtimes/dotnet.ts). */
export interface BuildFailureNote {
  target: string;
  /** the row whose build it was (`newtonsoft@9.0.1`), or absent for the target's own build */
  row?: string;
  /** the one-line reason the row's cases carry */
  reason: string;
  /** the failed build's log, kept in the jsonbench cache */
  log: string;
  /** the log's first error line (paths cut to file names) */
  firstError?: string;
}

/**
 * The failed worker builds of a run: each target's own (its `fault` with `probe.buildLog`) and those of its
 * `@version` rows (`build.variants[]` with `unsupported` and `buildLog`). Their cases carry the one-line reason;
 * report.md lists these with the log's path and first error line. Pure.
 */
export function buildFailures(r: ResultsFile): BuildFailureNote[] {
  const out: BuildFailureNote[] = [];
  for (const t of r.targets) {
    const log = t.probe?.buildLog;
    if (t.fault && typeof log === 'string')
      out.push({
        target: t.id,
        reason: t.fault,
        log,
        ...(typeof t.probe.firstError === 'string' ? { firstError: t.probe.firstError } : {}),
      });
    for (const v of t.build?.variants ?? []) {
      if (typeof v.unsupported !== 'string' || typeof v.buildLog !== 'string') continue;
      out.push({
        target: t.id,
        ...(typeof v.serializer === 'string' ? { row: v.serializer } : {}),
        reason: v.unsupported,
        log: v.buildLog,
        ...(typeof v.firstError === 'string' ? { firstError: v.firstError } : {}),
      });
    }
  }
  return out;
}
