/**
 * The results file (`results.json`), defined once as a TypeBox schema: the TypeScript types below
 * are derived from it (`Static<…>`), and `jsonbench report`, `compare` and `ledger import` check a
 * file against the same schema before reading it (results/validate.ts). A case is a tagged union
 * on `status` (tinybench's task state): only a `measured` case carries numbers, so code cannot
 * rank a case that has none.
 *
 * Units: times in ns/op, allocation in bytes/op, ratios as plain numbers (< 1 is faster).
 */
import { Type, type Static, type TOptional, type TSchema, type TUndefined } from '@sinclair/typebox';
import type { CaseClass, CaseTarget, Direction, Family, Platform, Shape, Side } from '../case/coordinates.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMethod, ColdStartStats, InstructionStats } from '../case/measurements.js';
import { FAULTS, PROBE_FAMILIES, type Fault, type ProbeFamily, type Verdict } from '../case/probe.js';
import { deepFreeze } from '../case/frozen.js';

/** Version of the results file layout; bump on any incompatible change (and add its upgrade to results/upgrade.ts). */
export const RESULTS_SCHEMA_VERSION = 2;

const str = Type.String();
const nonNegative = Type.Number({ minimum: 0 });
const positive = Type.Number({ exclusiveMinimum: 0 });
const count = Type.Integer({ minimum: 0 });
/**
 * The largest raw sample (ns/op) or allocation window (bytes/op) a results file may hold: 1e15, i.e.
 * 11.6 days or a petabyte per op. No worker measures one (a case's launches end at its
 * caseTimeoutMs); the bound keeps every sum, mean, variance and ratio that reports, analysers and
 * `compare` compute from raw figures finite (a billion samples of 1e15, squared, sum to 1e39, far
 * below the 1.8e308 a double holds), so a hand-edited `1.7e308` is refused where it stands instead
 * of becoming the NaN or ∞ of a computed field (hostile tester, 2026-12-02: `compare` printed `∞`
 * and `−NaN%`, a killed run's rebuild was refused at `/cases/0/time/mean`).
 */
export const MAX_RAW_FIGURE = 1e15;
const raw = Type.Number({ minimum: 0, maximum: MAX_RAW_FIGURE });
const Optional = <T extends TSchema>(t: T) => Type.Optional(t);

export const ShapeSchema = deepFreeze(Type.Union([Type.Literal('single'), Type.Literal('list'), Type.Literal('many')]));
export const DirectionSchema = deepFreeze(Type.Union([Type.Literal('serialize'), Type.Literal('deserialize')]));
export const FamilySchema = deepFreeze(
  Type.Union([
    Type.Literal('builtin'),
    Type.Literal('schema-compiled'),
    Type.Literal('reflection'),
    Type.Literal('validator'),
  ]),
);
export const CaseClassSchema = deepFreeze(
  Type.Union([Type.Literal('serialize'), Type.Literal('parse'), Type.Literal('validate'), Type.Literal('transform')]),
);
const SideSchema = Type.Union([Type.Literal('serializer'), Type.Literal('baseline')]);
export const PlatformSchema = deepFreeze(Type.Union([Type.Literal('javascript'), Type.Literal('dotnet')]));
const AllocationMethodSchema = Type.Union([Type.Literal('exact'), Type.Literal('estimate'), Type.Literal('n/a')]);

/**
 * Time per op over all launches (ns/op). `mean` is the geometric mean of the launch means and
 * `interval` its confidence interval, built on the log scale (`basis`, stats/intervals.ts
 * meanInterval; asymmetric, never below 0); `error` is mean × the interval's larger log half-width,
 * so [mean·e^(−error/mean), mean·e^(error/mean)] covers `interval` (results/ratio.ts
 * timeIntervalOf; for an interval a few % wide, the ± half-width). Files written before branch
 * `stats5` hold no `interval`, the arithmetic mean of the launch means and a linear half-width
 * (read the same way: a few % apart); files written before `basis` existed, the median of the
 * launch means and the pooled samples' error. `median` is the median across launches of each
 * launch's median.
 */
export const TimeStatsSchema = deepFreeze(
  Type.Object({
    mean: nonNegative,
    median: nonNegative,
    error: nonNegative,
    /** the confidence interval of `mean` [low, high], ns/op (log scale; absent in files written before it: timeIntervalOf derives it from `error`) */
    interval: Optional(Type.Tuple([nonNegative, nonNegative])),
    stddev: nonNegative,
    min: nonNegative,
    max: nonNegative,
    unit: Type.Literal('ns/op'),
    /** samples pooled over launches */
    n: Type.Integer({ minimum: 1 }),
    outliers: Type.Object({ low: count, high: count }),
    /** spread of launch means: (max − min) / median, a fraction */
    launchSpread: nonNegative,
    /**
     * The clock these times and the case's ratio come from: `cpu`, the process CPU time (Node, Bun,
     * Deno: preemption by other processes is not counted), or `wall` (browsers, QuickJS, and files
     * written before the CPU clock). Absent: `wall`.
     */
    clock: Optional(Type.Union([Type.Literal('cpu'), Type.Literal('wall')])),
    /** with the CPU clock: the same statistic by wall time (median across launches of each launch's mean), ns/op */
    wallMean: Optional(nonNegative),
    /**
     * What `error` is made of (stats/intervals.ts): `launches`, the t-interval of the launch means
     * (launches − 1 degrees of freedom); `moderated`, the same with the launch-to-launch variance its
     * group's other cases lend it (Smyth 2004); `rounds`, one launch's round means (a single launch
     * cannot show the launch-to-launch variance: the error is too narrow for another run). Absent:
     * files written before it (the pooled samples' error).
     */
    basis: Optional(Type.Union([Type.Literal('launches'), Type.Literal('moderated'), Type.Literal('rounds')])),
    /** degrees of freedom of the interval's t quantile */
    df: Optional(nonNegative),
    /** launches the mean is made of */
    launches: Optional(count),
  }),
);
export type TimeStats = Static<typeof TimeStatsSchema>;

/**
 * Fields a variant does not have, typed `undefined` so code can read `c.time?.mean` on any case
 * and get nothing for a case without numbers (or `allocated?.mean` for a runtime without a counter) (the schema refuses them if present).
 */
const absent = <K extends string>(...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, Type.Optional(Type.Undefined())])) as { [P in K]: TOptional<TUndefined> };
/**
 * Bytes allocated per op (median of the windows) and GCs per op, from the allocation pass; or,
 * where the runtime has no counter, `n/a` with the reason in `note`.
 */
export const AllocStatsSchema = deepFreeze(
  Type.Union([
    Type.Object({
      method: Type.Union([Type.Literal('exact'), Type.Literal('estimate')]),
      mean: nonNegative,
      unit: Type.Literal('bytes/op'),
      gcPerOp: nonNegative,
      /** bytes/op of each window */
      windows: Type.Array(raw, { minItems: 1 }),
      /** how it was estimated (set for `estimate`) */
      note: Optional(str),
    }),
    Type.Object({
      method: Type.Literal('n/a'),
      unit: Type.Literal('bytes/op'),
      /** why there is no figure */ note: str,
      ...absent('mean', 'gcPerOp', 'windows'),
    }),
  ]),
);
export type AllocStats = Static<typeof AllocStatsSchema>;

/** The runtime a case ran on (see {@link CaseTarget}). */
export const CaseTargetSchema = deepFreeze(Type.Object({ id: str, runtime: str, version: str }));

/** What a results file records about each target of the run. */
export const TargetRecordSchema = deepFreeze(
  Type.Object({
    id: str,
    runtime: str,
    version: str,
    /** runtime kind (src/runtimes/): `node-host`, `node-version`, `bun`, `deno`, `chromium`, `quickjs`, `ssh`, `dotnet`, `mono` */
    kind: str,
    /** the platform it runs (absent: `javascript`); each platform's cases have their own baseline */
    platform: Optional(PlatformSchema),
    /** `V8`, `JavaScriptCore`, `QuickJS-ng`, `CoreCLR`, `Mono` */
    engine: str,
    engineVersion: str,
    /** flags the worker runs with */
    flags: Type.Array(str),
    /** facts about the runtime and the machine it runs on (the remote machine's for ssh) */
    probe: Type.Record(str, Type.Unknown()),
    /** sha256 of the worker this target ran (every target of a kind runs the same file) */
    workerSha256: Optional(str),
    /** why this target's cases failed without running (not installed, failed to start), with the fix */
    fault: Optional(str),
    /** wall time spent on this target: preparing it (bundle, probe, copies) and in its worker launches (ms) */
    timing: Optional(Type.Object({ prepareMs: nonNegative, launchMs: nonNegative, launches: count })),
    /** a worker compiled for this target (the .NET worker: `dotnet build -c Release` into the cache) */
    build: Optional(
      Type.Object({
        /** the command that built it */
        command: str,
        /** `net10.0`, `net462` */
        framework: str,
        /** SDK that built it */
        sdkVersion: str,
        /** how long the build took when it was made (ms); a reused build keeps its original time */
        buildMs: nonNegative,
        /** true when an earlier build with the same sources was reused from the cache */
        cached: Type.Boolean(),
        /** everything the build printed */
        logPath: str,
        /** the workloads whose DTOs it holds, and those it could not (with the reason) */
        workloads: Type.Array(str),
        unsupported: Optional(Type.Record(str, str)),
        /** a self-contained publish (`dotnet@8`): its runtime identifier (`linux-x64`) and the runtime pack's version it carries */
        selfContained: Optional(str),
        runtimeVersion: Optional(str),
        /** the builds of the run's `@version` rows (`newtonsoft@13.0.1`): package set, folder, the library loaded, or why unsupported */
        variants: Optional(Type.Array(Type.Record(str, Type.Unknown()))),
      }),
    ),
  }),
);
export type TargetRecord = Static<typeof TargetRecordSchema>;

/** The codes of findings this jsonbench makes (one analyser each, src/analysers/). */
export const FINDING_CODES = deepFreeze([
  'noisy',
  'too-fast',
  'outliers',
  'relaunched',
  'no-gc',
  'baseline-unavailable',
  'mean-ratio',
  'interrupted',
  'baseline-slowed',
  'machine-drift',
  'launch-states',
  'waits',
  'clocks-disagree',
] as const);
/** A finding code this jsonbench makes. */
export type FindingCode = (typeof FINDING_CODES)[number];
/** True when this jsonbench knows the finding `code` (else a newer jsonbench wrote it: reports show its code and message as they are). */
export function isKnownFinding(code: string): code is FindingCode {
  return (FINDING_CODES as readonly string[]).includes(code);
}

/**
 * A finding after the run (BenchmarkDotNet's analysers): never hides the number, only qualifies it.
 * `code` is one of {@link FINDING_CODES}, or any other non-empty code when a newer jsonbench wrote
 * the file (forward compatibility: the file is read, and reports show that finding by its code,
 * "written by a newer jsonbench", with its message).
 */
export const FindingSchema = deepFreeze(Type.Object({ code: Type.String({ minLength: 1 }), message: str }));
export type Finding = Static<typeof FindingSchema>;

/**
 * One side's samples in one round by two CPU clocks (the JavaScript worker on Linux, measure/timing.ts CpuSpan):
 * the process's (every thread) and the measuring thread's alone, ns in total from just before its first sample to
 * just after its last. `cpuNs − threadNs` is the CPU other threads burnt meanwhile, and `helpersNs` (where read)
 * that of the threads the worker started with (V8's GC and compiler workers): the rest is that of threads started
 * later, by the code measured (analysers/baseline-slowed.ts).
 */
const CpuSpanSchema = Type.Object({ cpuNs: nonNegative, threadNs: nonNegative, helpersNs: Optional(nonNegative) });

/**
 * One round's raw samples (ns/op) by the launch's clock (`time.clock`: wall, or process CPU for the
 * JavaScript worker where the runtime has a CPU clock, which then also sends the same samples by
 * wall time); the .NET worker's samples are wall time with the thread's CPU time of the same samples
 * (same order) beside them, and per side the GCs and JIT compilations that happened while its
 * samples ran (-1: no JIT counter, Mono); the JavaScript worker on Linux, per side, its CPU span ({@link CpuSpanSchema}).
 */
const RoundSchema = Type.Object({
  serializerNs: Type.Array(raw),
  baselineNs: Type.Array(raw),
  serializerWallNs: Optional(Type.Array(raw)),
  baselineWallNs: Optional(Type.Array(raw)),
  serializerCpuNs: Optional(Type.Array(raw)),
  baselineCpuNs: Optional(Type.Array(raw)),
  serializerGcs: Optional(count),
  baselineGcs: Optional(count),
  serializerJitMethods: Optional(Type.Integer({ minimum: -1 })),
  baselineJitMethods: Optional(Type.Integer({ minimum: -1 })),
  serializerSpan: Optional(CpuSpanSchema),
  baselineSpan: Optional(CpuSpanSchema),
});

/** The raw record of one launch of a timing worker. */
export const LaunchRecordSchema = deepFreeze(
  Type.Object({
    launch: Type.Integer({ minimum: 1 }),
    opsPerSample: Type.Object({ serializer: count, baseline: count }),
    warmup: Type.Object({
      serializerOps: count,
      serializerMs: nonNegative,
      baselineOps: count,
      baselineMs: nonNegative,
    }),
    emptyNsPerOp: nonNegative,
    /** raw samples, ns/op, per round */
    rounds: Type.Array(RoundSchema),
    noisy: Type.Boolean(),
    elapsedMs: nonNegative,
    /** set when this launch was repeated because its baseline ran slow; the repeat follows it */
    discarded: Optional(str),
    /** whether the worker could force a GC before each side of a round (false: the runtime exposes none) */
    gc: Optional(Type.Boolean()),
    /** the clock the samples were read on (absent: `wall`) */
    clock: Optional(Type.Union([Type.Literal('cpu'), Type.Literal('wall')])),
    /**
     * Which process it ran in: `true`, its group's launch of this number, one process with the other
     * cases of the group that have this launch number and `grouped` (run/group-launch.ts: they share
     * its launch effect, and paired cases the baseline's samples); `false`, a process of its own.
     * Absent: files written before it (run/assemble.ts processKey then tells a group launch by the
     * process's elapsed time and empty-loop cost, which its cases share).
     */
    grouped: Optional(Type.Boolean()),
  }),
);
export type LaunchRecord = Static<typeof LaunchRecordSchema>;

/** Where the correctness gate failed (status `incorrect`). */
export const MismatchRecordSchema = deepFreeze(
  Type.Object({
    side: SideSchema,
    path: str,
    expected: str,
    actual: str,
    /** `timing`: the result or an input changed after the gate passed, seen by the checks between samples (measure/timed-check.ts); absent: the gate before timing */
    when: Optional(Type.Literal('timing')),
    /**
     * `variant`: found on the gate's variant payload (another seed, hostile strings in its plain-string
     * fields: plan/payloads.ts), not on the payload itself; reports lead the reason with it (report/reason.ts).
     * Absent: the payload itself, or a file written before it (whose reason ends with the worker's note instead).
     */
    on: Optional(Type.Literal('variant')),
  }),
);
export type MismatchRecord = Static<typeof MismatchRecordSchema>;

const InstructionStatsSchema = Type.Object({
  perOp: Type.Number(),
  iterations: Type.Tuple([count, count]),
  totals: Type.Tuple([nonNegative, nonNegative]),
  repeats: Optional(Type.Tuple([Type.Array(nonNegative), Type.Array(nonNegative)])),
  method: Type.Literal('callgrind'),
  tool: str,
  flags: Type.Array(str),
});

const nsList = Type.Array(nonNegative, { minItems: 1 });
/** A case's cold start: per fresh process, load, prepare and first call (ns), see {@link ColdStartStats}. */
export const ColdStartSchema = deepFreeze(
  Type.Object({
    processes: Type.Integer({ minimum: 1 }),
    loadNs: nsList,
    prepareNs: nsList,
    firstCallNs: nsList,
    cpu: Optional(Type.Object({ loadNs: nsList, prepareNs: nsList, firstCallNs: nsList })),
    failures: Optional(Type.Array(str)),
  }),
);

/** What every case carries, whatever its outcome. */
const CaseHeaderSchema = Type.Object({
  /** `workload/size/shape/direction/serializer`, plus `@<target>` when the run named targets */
  id: str,
  /** the runtime it ran on */
  target: CaseTargetSchema,
  workload: str,
  size: Type.Integer({ minimum: 1 }),
  shape: ShapeSchema,
  serializer: str,
  serializerVersion: str,
  family: FamilySchema,
  /** the platform of its serializer and target (absent: `javascript`): ratios are drawn within one platform */
  platform: Optional(PlatformSchema),
  direction: DirectionSchema,
  class: CaseClassSchema,
  /** serializer this case's ratio is drawn against (same class) */
  baseline: Type.Union([str, Type.Null()]),
  /** the adapter's call being measured for this direction, as written in its source (shown in reports) */
  code: Optional(str),
  /**
   * what the adapter's translation of the workload's schema checks or writes more loosely than the
   * schema says, one sentence each with the JSON path ("ajv JTD has no null type: $.a (always null)
   * accepts any value"); absent when it expresses the schema exactly
   */
  notes: Optional(Type.Array(str)),
  payload: Type.Object({ bytes: count, sha256: str }),
  findings: Type.Array(FindingSchema),
  /** every raw sample, per launch (kept for every outcome: a case that failed after a launch keeps what it measured) */
  samples: Type.Object({ launches: Type.Array(LaunchRecordSchema), relaunches: count }),
});

/**
 * How a paired case's ratio stands against the run's ±`resolve` band around 1 (adaptive launches:
 * docs/adaptive-launches.md): `differs` (its interval clear of the band), `within` (inside it), or
 * `unresolved` (it straddles an edge of the band when the launches stopped, `stoppedBy` says why).
 */
export const ResolutionSchema = deepFreeze(
  Type.Object({
    /** the smallest difference that matters, a fraction (0.02: ±2%) */
    resolve: positive,
    state: Type.Union([Type.Literal('differs'), Type.Literal('within'), Type.Literal('unresolved')]),
    /** the reported ratio interval it was judged on (null: none could be made) */
    interval: Type.Union([Type.Tuple([positive, positive]), Type.Null()]),
    /** timing launches kept */
    launches: count,
    /** wall time of the launches that carried the case (ms) */
    spentMs: nonNegative,
    /**
     * the standard error of the ratio's log the stop rule read at the end (run/assemble.ts precisionSe), with a band
     * of 1% or finer, which also asks for it to be at most the band (run/stop-rule.ts lacksPrecision)
     */
    se: Optional(nonNegative),
    /** a band of 1% or finer: the launches stopped (`stoppedBy`) before the SE came down to the band, whatever the state */
    shortOfPrecision: Optional(Type.Literal(true)),
    /** what stopped the launches of an unresolved case (or of one short of precision) */
    stoppedBy: Optional(
      Type.Union([Type.Literal('case budget'), Type.Literal('run budget'), Type.Literal('launch cap')]),
    ),
    /** one line: `unresolved: interval [0.970–1.040] straddles ±2% (case budget: 20.0 s spent)` */
    text: str,
  }),
);
export type Resolution = Static<typeof ResolutionSchema>;

/** The fields a case has only when `measured` (every other status has none: {@link CaseOutcomeSchema}). */
export const CASE_NUMBERS = Object.freeze([
  'resolution',
  'time',
  'ratio',
  'ratioError',
  'ratioBasis',
  'ratioDf',
  'difference',
  'ratioInterval',
  'allocated',
  'allocRatio',
  'instructions',
  'coldStart',
] as const);

/** The outcome of a case: `measured` with its numbers, or why there are none. */
export const CaseOutcomeSchema = deepFreeze(
  Type.Union([
    Type.Object({
      status: Type.Literal('measured'),
      time: TimeStatsSchema,
      /** geometric mean across launches of each launch's median per-round (serializer ÷ baseline) ratio (before `ratioBasis` existed: their median); null when unpaired */
      ratio: Type.Union([positive, Type.Null()]),
      /** what `ratioInterval` is made of, as TimeStats `basis` (the launch ratios' logs; `rounds`: one launch's per-round ratios) */
      ratioBasis: Optional(Type.Union([Type.Literal('launches'), Type.Literal('moderated'), Type.Literal('rounds')])),
      /** the degrees of freedom of `ratioInterval`'s t quantile, as TimeStats `df` (fractional with Satterthwaite's or a reduced prior weight); absent in files written before it */
      ratioDf: Optional(Type.Number()),
      /**
       * What this serializer costs more than its baseline per op, ns (negative: it saves that much):
       * (ratio − 1) × the baseline's mean time beside it (its samples in the same rounds), its interval
       * the ratio interval's × that mean, `[(low − 1)·b, (high − 1)·b]` (the baseline mean's own
       * uncertainty left out). A difference, unlike a ratio, is what a
       * switch saves per request whatever the server's fixed costs (issue 23, decision 2). Absent:
       * unpaired, the baseline's own case, or files written before it.
       */
      difference: Optional(Type.Object({ value: Type.Number(), low: Type.Number(), high: Type.Number() })),
      /** the larger distance from `ratio` to an end of `ratioInterval`, linear (kept for older readers; reports use `ratioInterval`); null when unknown */
      ratioError: Type.Union([nonNegative, Type.Null()]),
      /**
       * The ratio's confidence interval on the log scale, `[low, high]` (0 < low ≤ ratio ≤ high): from
       * the launch ratios' logs (stats/intervals.ts ratioInterval; widened to every launch when they
       * fell into distinct states); null when unknown. Absent in
       * files written before it existed: readers then derive it from `ratioError` (results/ratio.ts).
       */
      ratioInterval: Optional(Type.Union([Type.Tuple([positive, positive]), Type.Null()])),
      allocated: Optional(AllocStatsSchema),
      /** allocated bytes/op of this case ÷ of its baseline's case; null when either has no figure */
      allocRatio: Type.Union([nonNegative, Type.Null()]),
      /** instructions per op under callgrind (`run --metric instructions`): deterministic, for CI gates, never a ranking */
      instructions: Optional(InstructionStatsSchema),
      /** `prepare()` and the first op timed in fresh processes (`run --metric cold-start`): figures of their own, never part of `time` */
      coldStart: Optional(ColdStartSchema),
      /** adaptive launches: how the ratio stands against the run's ±resolve band (paired cases of a run with `resolve`) */
      resolution: Optional(ResolutionSchema),
      ...absent('reason', 'mismatch'),
    }),
    Type.Object({
      status: Type.Literal('incorrect'),
      reason: str,
      mismatch: MismatchRecordSchema,
      ...absent(...CASE_NUMBERS),
    }),
    Type.Object({
      /** `not-run`: planned, but the run was killed before the case was launched (rebuilt by run/recover.ts) */
      status: Type.Union([
        Type.Literal('unsupported'),
        Type.Literal('failed'),
        Type.Literal('timeout'),
        Type.Literal('crashed'),
        Type.Literal('not-run'),
      ]),
      /** why the case has no numbers */
      reason: str,
      ...absent('mismatch', ...CASE_NUMBERS),
    }),
  ]),
);
export type CaseOutcome = Static<typeof CaseOutcomeSchema>;

/** One case: workload × size × shape × direction × serializer × target, and its outcome. */
export const CaseResultSchema = deepFreeze(Type.Intersect([CaseHeaderSchema, CaseOutcomeSchema]));
export type CaseHeader = Static<typeof CaseHeaderSchema>;
export type CaseResult = CaseHeader & CaseOutcome;

/** A case's outcome status. */
export type CaseStatus = CaseResult['status'];
/** Every status, in the order reports list them. */
export const CASE_STATUSES: readonly CaseStatus[] = deepFreeze([
  'measured',
  'incorrect',
  'failed',
  'timeout',
  'crashed',
  'not-run',
  'unsupported',
]);

/** A case that was measured: it has time, ratio and allocation fields. */
export type MeasuredCase = CaseResult & { status: 'measured' };
/** True when the case was measured (narrows to {@link MeasuredCase}). */
export function isMeasured(c: CaseResult): c is MeasuredCase {
  return c.status === 'measured';
}

const MeasurePolicySchema = Type.Object({
  warmupMinOps: count,
  warmupMinMs: nonNegative,
  warmupMaxMs: nonNegative,
  sampleTargetMs: positive,
  samplesPerRound: Type.Integer({ minimum: 1 }),
  minRounds: Type.Integer({ minimum: 1 }),
  maxRounds: Type.Integer({ minimum: 1 }),
  targetRelativeError: positive,
  confidence: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
  timeCapMs: nonNegative,
  allocWindows: Type.Integer({ minimum: 1 }),
  allocWindowMinMs: nonNegative,
  serializeTo: Optional(Type.Union([Type.Literal('bytes'), Type.Literal('string')])),
});

/** The machine and software a run was measured on. */
export const EnvironmentSchema = deepFreeze(
  Type.Object({
    cpuModel: str,
    cores: Type.Integer({ minimum: 1 }),
    os: str,
    arch: str,
    totalMemoryBytes: nonNegative,
    node: str,
    v8: str,
    runtime: str,
    /** flags the worker runs with */
    flags: Type.Array(str),
    /** 1, 5, 15-minute load averages at the start and end of the run */
    loadAverage: Type.Object({ start: Type.Array(nonNegative), end: Optional(Type.Array(nonNegative)) }),
    timerResolutionNs: nonNegative,
    jsonbenchVersion: str,
    /** Node 20's release build: pointer compression off (8-byte fields) */
    pointerCompression: Type.Boolean(),
    /**
     * The variables that change what Node does (NODE_OPTIONS, NODE_PATH, UV_THREADPOOL_SIZE, …:
     * case/startup.ts NODE_VARIABLES) set when jsonbench started, name → value: the workers ran
     * with them. Absent: none was set, or a file written before 2026-12-06.
     */
    variables: Optional(Type.Record(str, Type.String())),
  }),
);
export type Environment = Static<typeof EnvironmentSchema>;

/** The run's policy as recorded: name, launches, seed, case timeout, the worker's settings, the baseline of each class. */
export const RunPolicyRecordSchema = deepFreeze(
  Type.Object({
    name: str,
    launches: Type.Integer({ minimum: 1 }),
    /** launches a case may get when its first `launches` disagree beyond their intervals (absent: `launches`) */
    maxLaunches: Optional(Type.Integer({ minimum: 1 })),
    seed: count,
    caseTimeoutMs: positive,
    /** the runtime profile (case/profile.ts): `default` (each runtime's default settings) or `steady` (the lab's GC settings); absent: written before profiles, when every run used the steady settings */
    profile: Optional(str),
    /** adaptive launches (config/policies.ts AdaptiveLaunches): the ±resolve band (null: off) and the budgets (ms); absent in older files */
    adaptive: Optional(
      Type.Object({ resolve: Type.Union([positive, Type.Null()]), maxCaseMs: positive, maxRunMs: positive }),
    ),
    measure: MeasurePolicySchema,
    baselines: Type.Record(str, str),
  }),
);
export type RunPolicyRecord = Static<typeof RunPolicyRecordSchema>;

/**
 * A user's payload (`run --payload`): where the measured bytes came from, which schema the
 * schema-driven serializers were given, and what inference found (the report repeats it: e.g.
 * integers beyond 2^53, which JSON.parse rounds in every JavaScript serializer).
 */
export const PayloadRecordSchema = deepFreeze(
  Type.Object({
    /** the workload its cases name (`payload:<file name>`) */
    workload: str,
    /** the file's name (a folder of samples: the folder's; files before 2026-12 name each sample's own) */
    file: str,
    /** `document`: one JSON text; `ndjson`: one record per line; `samples`: a folder of documents of one endpoint (since 2026-12: one payload of them all, shape `many`; before, one workload per document) */
    kind: Type.Union([Type.Literal('document'), Type.Literal('ndjson'), Type.Literal('samples')]),
    /** the user's file: UTF-8 bytes and hex sha256 */
    bytes: count,
    sha256: str,
    /** documents or records it holds */
    units: Type.Integer({ minimum: 1 }),
    /** each payload measured: its size, bytes and sha256, and whether it was generated from the schema (`--size`, with the run's seed) rather than the file itself */
    payloads: Type.Array(
      Type.Object({ size: Type.Integer({ minimum: 1 }), bytes: count, sha256: str, generated: Type.Boolean() }),
    ),
    schema: Type.Object({
      /** `inferred` from the samples, or the library of the user's `--schema` (`json-schema`, `zod`, `valibot`, `typebox`) */
      source: str,
      /** the user's schema file's name */
      file: Optional(str),
      /**
       * hex sha256 of the schema the schema-driven serializers were given (the workload's schema node as
       * JSON, inferred or converted): two runs on the same bytes with other schemas time other code
       * (compare calls them not comparable). Absent in files before 2026-12-06.
       */
      sha256: Optional(str),
      /** what of the user's schema did not convert, one line each */
      unconverted: Type.Array(str),
    }),
    /** what inference found, one sentence each with its JSON path and how many values */
    findings: Type.Array(Type.Object({ kind: str, path: str, count: count, text: str })),
  }),
);
export type PayloadRecord = Static<typeof PayloadRecordSchema>;
export const ProbeFamilySchema = deepFreeze(Type.Union(PROBE_FAMILIES.map((f) => Type.Literal(f))));
const FaultSchema = Type.Union(FAULTS.map((f) => Type.Literal(f)));

/** A probe verdict (case/probe.ts): ✔ does it, ✘ cannot (declared), ✗ wrong (first difference), ⚠ throws, – not expressible in jsonbench yet. */
export const VerdictSchema = deepFreeze(
  Type.Union([
    Type.Object({
      mark: Type.Literal('✔'),
      /** the accepted behaviour, when a probe accepts several */ label: Optional(str),
    }),
    Type.Object({ mark: Type.Literal('✘'), reason: str }),
    Type.Object({ mark: Type.Literal('✗'), fault: FaultSchema, path: str, expected: str, actual: str }),
    Type.Object({
      mark: Type.Literal('⚠'),
      message: str,
      stage: Type.Union([Type.Literal('prepare'), Type.Literal('call')]),
    }),
    Type.Object({ mark: Type.Literal('–'), reason: str }),
  ]),
);

/** What one side of a probe feeds and expects, rendered as text (clipped; huge inputs described, not stored). */
const ProbeSideRecordSchema = Type.Object({
  input: str,
  /** the accepted behaviours, `or`-joined; per guarantee class when they differ (`parse/validate: …; transform: …`) */
  expected: str,
});

/** A probe as the results file keeps it: enough to read a verdict without the catalog. */
export const ProbeRecordSchema = deepFreeze(
  Type.Object({
    /** stable dotted id, `family.topic.variant` */
    id: str,
    family: ProbeFamilySchema,
    title: str,
    /** constructs the schema language lacks that this probe needs (its – verdicts say so) */
    needs: Optional(Type.Array(str)),
    serialize: Optional(ProbeSideRecordSchema),
    deserialize: Optional(ProbeSideRecordSchema),
    /**
     * A probe asked of .NET serializers too (probes/dotnet/catalog.ts), where its .NET side says otherwise
     * than the fields above (its C# model's title, input, accepted behaviours): what .NET verdicts are read against.
     */
    dotnet: Optional(
      Type.Object({
        title: Optional(str),
        serialize: Optional(ProbeSideRecordSchema),
        deserialize: Optional(ProbeSideRecordSchema),
      }),
    ),
  }),
);
export type ProbeRecord = Static<typeof ProbeRecordSchema>;

/** One cell of the probe matrix: a probe side × serializer (one row of a version matrix) × target. */
export const ProbeVerdictRecordSchema = deepFreeze(
  Type.Object({
    probe: str,
    direction: DirectionSchema,
    /** the serializer's id, or its version-matrix row label (`fast-json-stringify@6.1.1`) */
    serializer: str,
    serializerVersion: str,
    /** the target's id */
    target: str,
    verdict: VerdictSchema,
    /** true: read from the probe-verdict cache (run/probe-cache.ts), judged by an earlier run of the same code, serializer version and runtime; absent: judged in this run */
    cached: Optional(Type.Literal(true)),
  }),
);
export type ProbeVerdictRecord = Static<typeof ProbeVerdictRecordSchema>;

/**
 * The probes of a run: every probe asked (`jsonbench probe`), or those relevant to the payloads of
 * a timed run (`relevantTo` says to which workloads), with one verdict per probe side × serializer
 * × target. Never timed.
 */
export const ProbesSectionSchema = deepFreeze(
  Type.Object({
    /** `asked`: jsonbench probe; `relevant`: chosen by a timed run from its payloads' schemas */
    selection: Type.Union([Type.Literal('asked'), Type.Literal('relevant')]),
    families: Type.Array(ProbeFamilySchema),
    /** the conformance folder read, how many files became probes, and the files skipped with why */
    conformance: Optional(
      Type.Object({ folder: str, files: count, skipped: Type.Array(Type.Object({ file: str, reason: str })) }),
    ),
    /** per probe side, re-armed as each starts (ms) */
    timeoutMs: positive,
    /** wall time of the probe pass (ms) */
    elapsedMs: nonNegative,
    /** worker launches the pass took (a crash or a hang costs one more) */
    launches: count,
    probes: Type.Array(ProbeRecordSchema),
    verdicts: Type.Array(ProbeVerdictRecordSchema),
    /** the probe-verdict cache of a timed run (run/probe-cache.ts): its folder, verdicts read from it (`cached: true`), verdicts stored into it */
    cache: Optional(Type.Object({ folder: str, hits: count, stored: count })),
    /** timed runs: probe id → the workloads it was chosen for */
    relevantTo: Optional(Type.Record(str, Type.Array(str))),
    /**
     * serializer row → its ✗ wrong and ⚠ throws verdicts with a one-line description, for readers
     * that do not want the matrix (the recommendation cites these): results/probe-failures.ts.
     * Derived from `verdicts`; absent in files written before it existed.
     */
    failing: Optional(
      Type.Record(
        str,
        Type.Array(
          Type.Object({
            probe: str,
            direction: DirectionSchema,
            target: str,
            title: str,
            mark: Type.Union([Type.Literal('✗'), Type.Literal('⚠')]),
            fault: Optional(FaultSchema),
            text: str,
          }),
        ),
      ),
    ),
  }),
);
export type ProbesSection = Static<typeof ProbesSectionSchema>;

/**
 * How the run's groups were scheduled (`run --jobs`): how many ran at once, and whether each was
 * pinned to its own CPU. Absent in files written before `--jobs` existed: one group at a time.
 */
export const ExecutionSchema = deepFreeze(
  Type.Object({
    /** groups measured at once (a case and its baseline always share one worker slot) */
    jobs: Type.Integer({ minimum: 1 }),
    /** `taskset`: each slot's workers pinned to one CPU (`cpus[slot]`); `none`: unpinned (`note` says why) */
    pinning: Type.Union([Type.Literal('taskset'), Type.Literal('none')]),
    cpus: Optional(Type.Array(count)),
    note: Optional(str),
  }),
);
export type Execution = Static<typeof ExecutionSchema>;

/** The results file (`results.json`). */
export const ResultsFileSchema = deepFreeze(
  Type.Object({
    schemaVersion: Type.Literal(RESULTS_SCHEMA_VERSION),
    tool: Type.Literal('jsonbench'),
    startedAt: str,
    finishedAt: Optional(str),
    environment: EnvironmentSchema,
    policy: RunPolicyRecordSchema,
    execution: Optional(ExecutionSchema),
    /**
     * The commit checked out where the run ran (`git rev-parse HEAD` of its working directory) and
     * whether that tree had uncommitted changes; absent outside a git checkout. The ledger records it
     * for an imported file too (the history site's Commit column).
     */
    git: Optional(Type.Object({ commit: str, dirty: Type.Boolean() })),
    /** the targets of the run, in order (the first is the Δ reference) */
    targets: Type.Array(TargetRecordSchema),
    /** the user's payloads of a `run --payload` (absent for built-in workloads) */
    payloads: Optional(Type.Array(PayloadRecordSchema)),
    cases: Type.Array(CaseResultSchema),
    /** the probe matrix (`jsonbench probe`), or the probes relevant to a timed run's payloads */
    probes: Optional(ProbesSectionSchema),
    /**
     * `true` in the results.json a run writes when timing ends, while its probe pass has not finished; the file the
     * pass ends with has no such key (hx27 k03: a run killed during its probe pass left a file that read like one run
     * with `--no-probes`). The reports say the pass did not finish.
     */
    probePending: Optional(Type.Literal(true)),
    /**
     * A shard of a run (`run --shard index/count`): which one, and the case ids of the whole plan in
     * order, so `jsonbench merge` can rebuild the unsharded run from all `count` shards. Absent for
     * a whole run.
     */
    shard: Optional(
      Type.Object({
        index: Type.Integer({ minimum: 1 }),
        count: Type.Integer({ minimum: 1 }),
        plan: Type.Array(str),
      }),
    ),
    /**
     * A merge of only some shards (`jsonbench merge --partial`): the shard numbers left out of `count`,
     * and how many planned cases are therefore in no shard. The reports say so. Absent for a whole run.
     */
    partialMerge: Optional(
      Type.Object({
        count: Type.Integer({ minimum: 1 }),
        missing: Type.Array(Type.Integer({ minimum: 1 })),
        absentCases: count,
      }),
    ),
    /**
     * Cases this jsonbench left out when it read the file, because their `status` is one it does not
     * know (a newer jsonbench wrote them): each one's id, status and the sentence said about it
     * (results/validate.ts). Never written by a run.
     */
    unread: Optional(Type.Array(Type.Object({ id: str, status: str, problem: str }))),
    /**
     * Why the numbers could not be checked against a record the run wrote of its file's SHA-256
     * (results/integrity.ts): `no sidecar` (set when a file without `results.json.sha256`, and without a
     * ledger record of its run, is read), or a merge's shards that were so (`<shard>: no sidecar; …`,
     * written by `jsonbench merge`). The reports say it in their header. Never written by a run.
     */
    unchecked: Optional(str),
  }),
);
export type ResultsFile = Static<typeof ResultsFileSchema>;

// The schema's words must be the case vocabulary's words (a compile error here means they drifted).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree: [
  Same<Static<typeof ShapeSchema>, Shape>,
  Same<Static<typeof DirectionSchema>, Direction>,
  Same<Static<typeof FamilySchema>, Family>,
  Same<Static<typeof CaseClassSchema>, CaseClass>,
  Same<Static<typeof SideSchema>, Side>,
  Same<Static<typeof PlatformSchema>, Platform>,
  Same<Static<typeof AllocationMethodSchema>, AllocationMethod>,
  Same<Static<typeof CaseTargetSchema>, CaseTarget>,
  Same<Static<typeof MeasurePolicySchema>, MeasurePolicy>,
  Same<Static<typeof InstructionStatsSchema>, InstructionStats>,
  Same<Static<typeof ColdStartSchema>, ColdStartStats>,
  Same<Static<typeof ProbeFamilySchema>, ProbeFamily>,
  Same<Static<typeof FaultSchema>, Fault>,
  Same<Static<typeof VerdictSchema>, Verdict>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void agree;
