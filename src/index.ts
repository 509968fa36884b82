/** Public API for users' `jsonbench.config.*` files and programmatic use. */
export { defineSerializer } from './serializers/types.js';
export type { SerializerAdapter, PreparedSerializer } from './serializers/types.js';
export type { Family, GuaranteeClass, CaseClass, Shape, Direction } from './case/coordinates.js';
export { defineWorkload } from './workloads/types.js';
export type { Workload } from './workloads/types.js';
export type { SchemaNode, WireOptions } from './workloads/schema.js';
export type { ResultsFile, CaseResult, PayloadRecord } from './results/types.js';
export { recommend, renderRecommendations } from './report/recommend.js';
export type { Recommendation, Pick, BehaviourCost, CostSource } from './report/recommend.js';
export type { RunOptions } from './run/request.js';
export type { SessionEvent } from './run/session.js';
import type { RunOptions } from './run/request.js';
import type { SessionEvent } from './run/session.js';
import type { ResultsFile } from './results/types.js';

/**
 * Runs jsonbench from a script or a test: the same options as `jsonbench run` (without the
 * leading dashes: `{ payload: 'response.json', policy: 'quick' }`, `{ workload: ['users'] }`),
 * the same results file, written to `out` with its reports; `recommend(results)` gives the
 * recommendation the CLI prints. Prints nothing; `observe` receives the session's events (progress,
 * notes, warnings). @throws UsageError / ConfigError (a bad option or config, naming it);
 * WorkloadError (a workload cannot build its payload)
 */
export async function run(options: RunOptions = {}, observe?: (e: SessionEvent) => void): Promise<ResultsFile> {
  // loaded on first use: a jsonbench.config that imports defineSerializer from here (and so every
  // worker that loads it) must not pull in the run session, the ledger's SQLite or the reports
  const [{ resolveRunRequest }, { runSession }] = await Promise.all([
    import('./run/request.js'),
    import('./run/session.js'),
  ]);
  const { request, release } = await resolveRunRequest(options, (message) => observe?.({ type: 'note', message }));
  try {
    return (await runSession(request, observe)).results;
  } finally {
    release();
  }
}
