import type { Direction, Shape } from '../workloads/types.js';
import type { CaseClass, Family } from '../serializers/types.js';
import type { MeasurePolicy } from '../worker/protocol.js';
import type { InstructionStats } from '../instructions/callgrind.js';

/** Version of the results file layout; bump on any incompatible change. */
export const RESULTS_SCHEMA_VERSION = 1;

/**
 * A case's outcome, as a discriminated union on `status` (tinybench's task state):
 * only `measured` cases carry numbers and can be ranked.
 */
export type CaseStatus = 'measured' | 'incorrect' | 'unsupported' | 'failed' | 'timeout' | 'crashed';

/** Time per op over all launches (ns/op). `mean`/`median` are the median across launches of each launch's mean/median; `error` is the 99.9% CI half-width of the pooled samples' mean. */
export interface TimeStats {
  mean: number; median: number; error: number; stddev: number; min: number; max: number;
  unit: 'ns/op';
  /** samples pooled over launches */
  n: number;
  outliers: { low: number; high: number };
  /** spread of launch means: (max − min) / median, a fraction */
  launchSpread: number;
}

/** Bytes allocated per op (median of the windows) and GCs per op, from the allocation pass. */
export interface AllocStats {
  mean: number;
  unit: 'bytes/op';
  gcPerOp: number;
  /** bytes/op of each window */
  windows: number[];
  /** how the figure was obtained: `exact` = GC-corrected V8 heap accounting (Node); for `n/a`, `mean` is 0, `windows` empty and meaningless */
  method: 'exact' | 'estimate' | 'n/a';
  /** how it was estimated, or why there is no figure (set by the worker for `estimate` and `n/a`) */
  note?: string;
}

/** The runtime a case ran on (`--target`); absent when the run named no target (the host's Node, unbundled). */
export interface CaseTarget {
  /** the target as given: `node`, `node@22`, `bun`, `deno`, `chromium`, `quickjs`, `ssh://user@host:port` */
  id: string;
  /** `node`, `bun`, `deno`, `chromium`, `quickjs` */
  runtime: string;
  /** exact runtime version, or `unavailable` when the target could not be prepared */
  version: string;
}

/** What a results file records about each target of the run. */
export interface TargetRecord extends CaseTarget {
  /** runtime kind (src/runtimes/): `node-host`, `node-version`, `bun`, `deno`, `chromium`, `quickjs`, `ssh` */
  kind: string;
  /** `V8`, `JavaScriptCore`, `QuickJS-ng` */
  engine: string;
  engineVersion: string;
  /** flags the worker runs with */
  flags: string[];
  /** facts about the runtime and the machine it runs on (the remote machine's for ssh) */
  probe: Record<string, unknown>;
  /** sha256 of the bundled worker this target ran (every target of a kind runs the same file) */
  workerSha256?: string;
  /** why this target's cases failed without running (not installed, failed to start), with the fix */
  fault?: string;
  /** wall time spent on this target: preparing it (bundle, probe, copies) and in its worker launches (ms) */
  timing?: { prepareMs: number; launchMs: number; launches: number };
}

/** A finding after the run (BenchmarkDotNet's analysers): never hides the number, only qualifies it. */
export interface Finding {
  code: 'noisy' | 'too-fast' | 'outliers' | 'relaunched' | 'no-gc' | 'baseline-unavailable';
  message: string;
}

/** The raw record of one launch of a timing worker. */
export interface LaunchRecord {
  launch: number;
  opsPerSample: { serializer: number; baseline: number };
  warmup: { serializerOps: number; serializerMs: number; baselineOps: number; baselineMs: number };
  emptyNsPerOp: number;
  /** raw samples, ns/op, per round */
  rounds: { serializerNs: number[]; baselineNs: number[] }[];
  noisy: boolean;
  elapsedMs: number;
  /** set when this launch was repeated because its baseline ran slow; the repeat follows it */
  discarded?: string;
}

/** Where the correctness gate failed (status `incorrect`). */
export interface MismatchRecord { side: 'serializer' | 'baseline'; path: string; expected: string; actual: string }

/** One case: workload × size × shape × direction × serializer (× target). */
export interface CaseResult {
  /** `workload/size/shape/direction/serializer`, plus `@<target>` when the run named targets */
  id: string;
  /** the runtime it ran on, when the run named `--target`s */
  target?: CaseTarget;
  workload: string;
  size: number;
  shape: Shape;
  serializer: string;
  serializerVersion: string;
  family: Family;
  direction: Direction;
  class: CaseClass;
  /** serializer this case's ratio is drawn against (same class) */
  baseline: string | null;
  status: CaseStatus;
  /** why the case is not `measured` */
  reason?: string;
  mismatch?: MismatchRecord;
  /** the adapter's call being measured for this direction, as written in its source (shown in reports) */
  code?: string;
  payload: { bytes: number; sha256: string };
  time?: TimeStats;
  allocated?: AllocStats;
  /** median of per-round (serializer mean / baseline mean) ratios, median across launches; < 1 is faster */
  ratio?: number | null;
  /** 99.9% CI half-width of the per-round ratios */
  ratioError?: number | null;
  /** allocated bytes/op of this case / of its baseline's case */
  allocRatio?: number | null;
  /** instructions per op under callgrind (`run --metric instructions`): deterministic, for CI gates, never a ranking */
  instructions?: InstructionStats;
  findings: Finding[];
  /** every raw sample, per launch */
  samples: { launches: LaunchRecord[]; relaunches: number };
}

/** The machine and software a run was measured on. */
export interface Environment {
  cpuModel: string; cores: number; os: string; arch: string; totalMemoryBytes: number;
  node: string; v8: string; runtime: string;
  /** flags the worker runs with */
  flags: string[];
  /** 1, 5, 15-minute load averages at the start and end of the run */
  loadAverage: { start: number[]; end?: number[] };
  timerResolutionNs: number;
  jsonbenchVersion: string;
  /** Node 20's release build: pointer compression off (8-byte fields) */
  pointerCompression: boolean;
}

/** The results file (`results.json`). */
export interface ResultsFile {
  schemaVersion: number;
  tool: 'jsonbench';
  startedAt: string;
  finishedAt?: string;
  environment: Environment;
  policy: { name: string; launches: number; seed: number; caseTimeoutMs: number; measure: MeasurePolicy; baselines: Record<CaseClass, string> };
  /** the targets of a `--target` run, in the order given (the first is the Δ reference) */
  targets?: TargetRecord[];
  cases: CaseResult[];
}
