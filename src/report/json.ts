import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel } from './model.js';

/**
 * Renders the merged results as one JSON document for other tools: `sources` keeps every file's
 * provenance (dates, environment, policy), `targets` lists the target keys, and `cases` holds every
 * case with its `target` key and `source` index (0-based) but without raw samples (the results
 * files keep those). Pure; 2-space indented, newline-terminated.
 */
export function renderJson(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const doc = {
    tool: 'jsonbench',
    kind: 'report',
    schemaVersion: model.runs[0].schemaVersion,
    sources: model.runs.map((r) => ({
      startedAt: r.startedAt,
      finishedAt: r.finishedAt ?? null,
      environment: r.environment,
      policy: r.policy,
      cases: r.cases.length,
    })),
    targets: model.targets,
    cases: model.cases.map(({ samples, targetKey, source, ...c }) => ({
      ...c,
      target: targetKey,
      source,
      launches: samples.launches.filter((l) => !l.discarded).length,
      relaunches: samples.relaunches,
    })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
