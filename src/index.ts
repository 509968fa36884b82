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
export { UsageError } from './config/usage-error.js';
export { ConfigError } from './config/user-config.js';
export { WorkloadError } from './plan/payloads.js';
export { PayloadError } from './payload/read.js';
export { ResultsFileError } from './results/errors.js';
import type { RunOptions } from './run/request.js';
import type { SessionEvent } from './run/session.js';
import type { ResultsFile } from './results/types.js';
import type { SerializerAdapter } from './serializers/types.js';
import type { Direction } from './case/coordinates.js';
import { UsageError } from './config/usage-error.js';

/** The file URLs in a stack trace (the modules on the call stack), without line and column. */
function callerModules(stack: string | undefined): string[] {
  return [...(stack ?? '').matchAll(/(file:\/\/[^\s)]+?):\d+:\d+/g)].map((m) => m[1]);
}

/** The options of {@link run}: `jsonbench run`'s flags in camelCase, typed, plus inline serializers and payloads. */
export interface RunApiOptions extends Omit<
  RunOptions,
  'policy' | 'direction' | 'metric' | 'serializeTo' | 'payload' | 'size' | 'seed' | 'jobs'
> {
  /** quick, default or long (default: default) */
  policy?: 'quick' | 'default' | 'long';
  /** serialize, deserialize (default: both) */
  direction?: Direction[];
  /** `instructions` adds a callgrind count per case; `cold-start` times prepare() and the first call in fresh processes */
  metric?: ('time' | 'instructions' | 'cold-start')[];
  /** what a serialize op produces: `bytes` (UTF-8; default) or `string` */
  serializeTo?: 'bytes' | 'string';
  /**
   * Your payload: a path (a JSON document, an NDJSON file or a folder of samples, relative to
   * `cwd`); or the payload itself, `{ value }` (written as `JSON.stringify(value)`) or `{ text }`
   * (its exact JSON text, which deserialize cases parse), named `name` in the reports (default
   * `payload`).
   */
  payload?: string | { value: unknown; name?: string } | { text: string; name?: string };
  /** sizes (default: the policy's) */
  size?: number[];
  /** seed of the generated payloads (default 42) */
  seed?: number;
  /** groups measured at once (default: half the cores) */
  jobs?: number;
  /**
   * Serializers given as values (`defineSerializer(…)`), measured beside `serializer`'s ids (all of
   * them when `serializer` is not given, else only those it names). Workers are separate
   * processes, so they load these from `from`: the URL (or path) of the module that exports them,
   * by name or in its default export's `serializers` (usually a module of their own:
   * `new URL('./serializers.mjs', import.meta.url)`). Only their ids are read here (`{ id: 'ours' }`
   * will do where the adapter cannot be imported, as from a `.ts` module in a `.mjs` script).
   */
  serializers?: readonly (SerializerAdapter | { readonly id: string })[];
  /**
   * The module that exports `serializers`: a file URL (a `URL` object or its `href`) or a path
   * relative to `cwd`; `.mjs`/`.js`, or `.ts`/`.mts` (bundled with esbuild, as a `.ts` config is).
   * It must not be the script that awaits `run()` at its top level: that script has not finished
   * loading while it waits, so jsonbench cannot load it (run() says so at once).
   */
  from?: string | ModuleUrl;
}

/** A URL as `from` takes it: anything with an `href` (a WHATWG `URL`), typed structurally so the shipped types need no DOM or Node library. */
export interface ModuleUrl {
  readonly href: string;
}

/**
 * Runs jsonbench from a script or a test: the same options as `jsonbench run` (without the
 * leading dashes: `{ payload: 'response.json', policy: 'quick' }`, `{ workload: ['users'] }`),
 * the same results file, written to `out` with its reports; `recommend(results)` gives the
 * recommendation the CLI prints. Prints nothing; `observe` receives the session's events (progress,
 * notes, warnings). @throws UsageError naming the option (an unknown key, a bad value, inline
 * serializers without `from`) / ConfigError (a bad config, naming it); WorkloadError (a workload
 * cannot build its payload); PayloadError (a payload that cannot be read)
 */
export async function run(options: RunApiOptions = {}, observe?: (e: SessionEvent) => void): Promise<ResultsFile> {
  // the modules run() was called from, read before the first await: `from` among them is the script calling run()
  const callers = callerModules(new Error().stack);
  // loaded on first use: a jsonbench.config that imports defineSerializer from here (and so every
  // worker that loads it) must not pull in the run session, the ledger's SQLite or the reports
  const [{ resolveRunRequest, RUN_OPTION_KEYS }, { runSession }, inline] = await Promise.all([
    import('./run/request.js'),
    import('./run/session.js'),
    import('./run/inline.js'),
  ]);
  const known = new Set<string>([...RUN_OPTION_KEYS, 'serializers', 'from']);
  for (const key of Object.keys(options))
    if (!known.has(key))
      throw new UsageError(key, `is not an option of run() (the options: ${[...known].sort().join(', ')})`);
  const staged = await inline.stageInline({ ...options, callers });
  try {
    const { request, release } = await resolveRunRequest(staged.options, (message) =>
      observe?.({ type: 'note', message }),
    );
    try {
      return (await runSession(request, observe)).results;
    } finally {
      release();
    }
  } finally {
    staged.cleanup();
  }
}
