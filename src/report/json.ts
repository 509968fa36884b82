import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel } from './model.js';

/**
 * Renders the merged results as one JSON document for other tools: `sources` keeps every file's
 * provenance (dates, environment, policy, `integrity`: `checked`, or `{ unchecked: why }`), `targets` lists the target keys, and `cases` holds every
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
      // a file read without an integrity check says so here too, as report.md and report.html do (hx20 a34)
      integrity: r.unchecked ? { unchecked: r.unchecked } : 'checked',
    })),
    targets: model.targets,
    cases: model.cases.map(({ samples, targetKey, source, sourceUnchecked: _unchecked, ...c }) => ({
      ...c,
      target: targetKey,
      source,
      launches: samples.launches.filter((l) => !l.discarded).length,
      relaunches: samples.relaunches,
    })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
