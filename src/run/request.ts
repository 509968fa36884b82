/**
 * A run request: the options of `jsonbench run` (the CLI's flags, or the programmatic `run()`'s
 * options) resolved into what the session needs — the user's config loaded, the version matrix
 * installed, workloads, serializers, sizes, directions, targets and the ledger chosen and checked.
 * Every problem with an option is a {@link UsageError} naming the flag (exit 2 on the CLI), found
 * before anything is measured.
 */
import { echo } from '../payload/echo.js';
import { parseShard, type Shard } from '../plan/shard.js';
import { PROFILE_NAMES, type ProfileName } from '../case/profile.js';
import { existsSync, realpathSync, rmdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { makeFolder } from '../files/make-folder.js';
import { formatCap, parseSize } from '../files/read-file.js';
import { firstOverflow } from '../payload/double-range.js';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { DIRECTIONS, type Direction, type Platform, type Shape } from '../case/coordinates.js';
import { parseProbeBudget, policies, policyChanges, policyCopy, type RunPolicy } from '../config/policies.js';
import { findConfig, prepareConfig } from '../config/compile-config.js';
import { visibleName } from '../report/table/escape.js';
import { checkChoices, checkNotBlank, splitList, UsageError } from '../config/usage-error.js';
import { CONFIG_LOAD_TIMEOUT_MS, type UserConfig } from '../config/user-config.js';
import { hostCallAsync, HostPatched, sealHost } from '../config/host-guard.js';
import { workloads as workloadRegistry } from '../workloads/index.js';
import type { Workload } from '../workloads/types.js';
import { serializers as serializerRegistry } from '../serializers/index.js';
import { dotnetSerializers } from '../serializers/dotnet/index.js';
import { platformOf, type SerializerInfo } from '../serializers/types.js';
import { sizesFor } from '../plan/plan.js';
import { prepareVersionMatrix } from '../plan/version-matrix.js';
import { DEFAULT_TARGET, KNOWN_TARGETS, parseTarget, parseTargets } from '../runtimes/index.js';
import type { Target } from '../runtimes/types.js';
import { changedNodeVariables, nodeVariables } from '../case/startup.js';
import { requireValgrind } from '../instructions/pass.js';
import { resolveLedgerPath } from '../ledger/run-ledger.js';
import { resolvePayload, type ResolvedPayload } from '../payload/workload.js';
import { findingFor } from '../payload/refine.js';
import { PayloadError } from '../payload/read.js';
import { readConformanceFolder } from '../probes/catalog/conformance-folder.js';
import type { ConformanceInput } from './probe-pass.js';
import { deepFreeze } from '../case/frozen.js';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../payload/bytes.js';
import { formatBytes } from '../report/units.js';

/** The options of a run, as the CLI's flags give them (lists may be comma-separated) or as `run()` takes them. */
export interface RunOptions {
  /**
   * Your payload instead of the built-in workloads: a JSON document (`response.json`), an NDJSON
   * file (`events.ndjson`, one record per line) or a folder of samples of one endpoint. Deserialize
   * cases parse its exact bytes; serialize cases write its parsed value. Relative to `cwd`.
   */
  payload?: string;
  /**
   * The payload's schema instead of the inferred one: a JSON Schema file (as `--print-schema`
   * writes it) or a module (.js/.mjs/.ts) exporting a zod, valibot or TypeBox schema. Needs `payload`.
   */
  schema?: string;
  /** the largest payload read: a size (`800MiB`, `1GB`, bytes; default 500 MiB, at most 512 MiB); a larger file is refused naming both */
  maxPayload?: string;
  /** infer enums of the payload's string fields (payload/infer.ts `InferOptions`); default: they stay strings. Needs `payload`, not with `schema`. */
  enums?: boolean;
  /** workload ids (default: all; not with `payload`) */
  workload?: string[];
  /** serializer ids, with versions for a matrix (`fast-json-stringify@5,6`; default: all) */
  serializer?: string[];
  /** sizes (default: the policy's); with `payload`, records to generate of its shape (`[100, 10000]`) */
  size?: (string | number)[];
  /** serialize, deserialize (default: both) */
  direction?: string[];
  /** quick, default, long (default: default) */
  policy?: string;
  /** seed of the generated payloads (default 42) */
  seed?: string | number;
  /** what a serialize op produces: `bytes` (UTF-8; default) or `string` */
  serializeTo?: string;
  /** the runtime profile: `default` (each runtime's default settings) or `steady` (the lab's GC settings; case/profile.ts) */
  profile?: string;
  /** runtimes to measure on (default: the Node running jsonbench) */
  target?: string[];
  /** output folder (default: jsonbench-results/<timestamp>/ under `cwd`) */
  out?: string;
  /** a jsonbench.config.{ts,mjs,js} (default: one in `cwd`) */
  config?: string;
  /** a ledger path, false for none, undefined for the default (.jsonbench/ledger.db, $JSONBENCH_LEDGER, or the config's `ledger`) */
  ledger?: string | boolean;
  /** `instructions` adds a callgrind count per case; `cold-start` times prepare() and the first call in fresh processes */
  metric?: string[];
  /** Chromium executable for the chromium target */
  chromiumPath?: string;
  /** `--shape`: with a payload of records, `list` and/or `many` (default: the one the payload says: payload/workload.ts `recordShapes`) */
  shape?: string[];
  /** false: no probe pass after the timed cases (default: the probes relevant to the payloads run) */
  probes?: boolean;
  /** the probe pass's total wall time: a duration (`15m`, `1h`) or `off` (default: run/probe-pass.ts DEFAULT_PROBE_BUDGET_MS, 15 min) */
  probeBudget?: string;
  /** false: judge every probe in this run, reading and writing no cached verdict (run/probe-cache.ts; default: cache on where it may be) */
  probeCache?: boolean;
  /** a folder of conformance files (JSONTestSuite, json.org checker, roundtrip) the probe pass adds */
  conformance?: string;
  /** groups measured at once, each pinned to its own core where taskset exists (default: {@link defaultJobs}) */
  jobs?: string | number;
  /** run one shard of the plan, `index/count` (`--shard 2/3`): every count-th group (plan/shard.ts) */
  shard?: string;
  /** the working directory (default: process.cwd()) */
  cwd?: string;
}

/**
 * Every key {@link RunOptions} has, at run time: `run()` refuses any other (a typo such as
 * `polcy` would otherwise be ignored). Each is a flag of `jsonbench run` (in camelCase), less the
 * CLI's own output flags (`--json`, `--print-schema`, `--fail-on`) and the adaptive-launch flags the
 * CLI applies to the policy itself (`--resolve`, `--max-time`, `--case-timeout`: not yet options of run()), plus `cwd`; test/api/api.test.ts
 * checks the list against the CLI's flags, so a new flag must be added here.
 */
export const RUN_OPTION_KEYS = deepFreeze([
  'payload',
  'schema',
  'enums',
  'maxPayload',
  'workload',
  'serializer',
  'size',
  'direction',
  'policy',
  'seed',
  'serializeTo',
  'target',
  'out',
  'config',
  'ledger',
  'metric',
  'chromiumPath',
  'probes',
  'probeCache',
  'probeBudget',
  'conformance',
  'jobs',
  'shard',
  'profile',
  'shape',
  'cwd',
] as const);

/** A resolved run: everything the session needs, checked. */
export interface RunRequest {
  cwd: string;
  outDir: string;
  policy: RunPolicy;
  seed: number;
  workloads: Workload[];
  /** the serializers chosen, of every platform (each is planned on the targets of its platform) */
  serializers: SerializerInfo[];
  /** every known serializer of every platform (baselines may come from here) */
  allSerializers: SerializerInfo[];
  sizes?: number[];
  directions: Direction[];
  /** the targets named (empty: the host's Node) */
  targets: Target[];
  /** the user's config file, when there is one */
  configFile: string | null;
  /** the module workers load user adapters, workloads and versioned rows from */
  workerConfigPath?: string;
  /** version matrix: row label → installed version */
  versions?: ReadonlyMap<string, string>;
  /** where the run is recorded; null: not recorded */
  ledgerPath: string | null;
  /** callgrind's version when `--metric instructions` is asked, else null */
  valgrind: string | null;
  chromiumPath?: string;
  /** the user's payload (`--payload`): its source, schema, findings and workloads (which are `workloads`) */
  payload?: ResolvedPayload;
  /** the probe pass after the timed cases (null: `--no-probes`): its conformance folder, read */
  probes: {
    conformance?: ConformanceInput;
    /** false: `--no-probe-cache` */ cache: boolean;
    /** per probe side (ms; default run/probe-pass.ts DEFAULT_PROBE_TIMEOUT_MS) */
    timeoutMs?: number;
    /** the pass's total wall-time budget (ms; default run/probe-pass.ts DEFAULT_PROBE_BUDGET_MS) */
    budgetMs?: number;
  } | null;
  /** groups measured at once (`--jobs`), at most the machine's cores */
  jobs: number;
  /** the shard of the plan this run measures (`--shard`); absent: the whole plan */
  shard?: Shard;
  /** fresh processes per measured case for its cold start (0: not measured): the policy's, when it or `--metric cold-start` asks */
  coldStartProcesses: number;
}

/**
 * Groups measured at once when `--jobs` is not given: half the cores, rounded down, at least 1 —
 * so 1 on a 2-core machine, where a second worker would share a core with the host and the
 * system, and each worker of a larger machine has a core beside it for the rest.
 */
export function defaultJobs(cores: number = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** A resolved request, and how to remove what resolving made (a compiled config module). */
export interface ResolvedRun {
  request: RunRequest;
  release(): void;
}

/**
 * Every serializer named with `--serializer` needs a target of its platform, and every target
 * needs a chosen serializer of its platform (else it would measure nothing).
 * @throws UsageError naming `--serializer` or `--target` and the targets or serializers that would fit
 */
export function checkPlatforms(chosen: readonly SerializerInfo[], named: boolean, targets: readonly Target[]): void {
  const platformOfTarget = (t: Target) => t.platform ?? 'javascript';
  const targetsOf = (p: string) => KNOWN_TARGETS.filter((id) => platformOfTarget(parseTarget(id)) === p);
  const run = new Set(targets.map(platformOfTarget));
  if (named) {
    const homeless = chosen.filter((s) => !run.has(platformOf(s)));
    if (homeless.length) {
      const p = platformOf(homeless[0]);
      throw new UsageError(
        '--serializer',
        `${homeless.map((s) => s.id).join(', ')} run${homeless.length === 1 ? 's' : ''} on ${p} targets only (${targetsOf(p).join(', ')}), and the run's targets are ${targets.map((t) => t.id).join(', ')}: add one with --target`,
      );
    }
  }
  for (const t of targets) {
    if (!chosen.some((s) => platformOf(s) === platformOfTarget(t))) {
      throw new UsageError(
        '--target',
        `no chosen serializer runs on ${t.id} (a ${platformOfTarget(t)} target): add one of its platform's serializers with --serializer, or leave --serializer out`,
      );
    }
  }
}

/**
 * The platforms a run measures: those of its targets (the host's Node when none is named) that a
 * chosen serializer runs on. (`--target dotnet` with every serializer chosen measures .NET only.)
 */
export function measuredPlatforms(targets: readonly Target[], chosen: readonly SerializerInfo[]): Set<Platform> {
  return new Set(targets.map((t) => t.platform ?? 'javascript').filter((p) => chosen.some((s) => platformOf(s) === p)));
}

/** What `--target ""` is told to give instead. */
export const TARGET_BLANK =
  'give a target (node, node@22, bun, deno, chromium, quickjs, dotnet…: see --help), or leave --target out for this Node';
/** What `--ledger ""` is told to give instead. */
const LEDGER_BLANK = "give the ledger's path, or --no-ledger to record nothing";

/**
 * What inference found, as a run on the `--target` values given (default: the host's Node) says it
 * (`run --print-schema`, which measures nothing). @throws UsageError naming `--target`
 */
export function findingsForTargets(
  payload: ResolvedPayload,
  target: RunOptions['target'],
): ResolvedPayload['findings'] {
  let targets: Target[];
  checkNotBlank('--target', target, TARGET_BLANK);
  try {
    targets = splitList(target).length ? parseTargets(splitList(target)) : [parseTarget(DEFAULT_TARGET)];
  } catch (e) {
    throw new UsageError('--target', (e as Error).message);
  }
  const platforms = new Set(targets.map((t) => t.platform ?? 'javascript'));
  return payload.findings.map((f) => findingFor(f, platforms));
}

/** Largest accepted seed: payloads use seed and seed + 1 as 32-bit seeds, which must differ. */
const MAX_SEED = 2 ** 32 - 2;

/** A copy of the policy named by `name` (config/policies.ts policyCopy: never the table's own object). @throws UsageError naming `--policy` */
export function policyNamed(name: string): RunPolicy {
  const copy = policyCopy(name);
  if (!copy) throw new UsageError('--policy', `unknown "${name}" (choose from: ${Object.keys(policies).join(', ')})`);
  return copy;
}

/** `--size` as positive integers (`1_000` allowed). @throws UsageError naming `--size` */
function sizesOption(opts: RunOptions): number[] {
  return splitList(opts.size?.map(String)).map((s) => {
    const n = Number(s.replace(/_/g, ''));
    if (!Number.isInteger(n) || n <= 0) throw new UsageError('--size', `"${s}" is not a positive integer`);
    return n;
  });
}

/**
 * `--shape list|many` (comma-separated or repeated): the shapes a payload's records are measured in; with `single`
 * too, the shapes of built-in workloads to run (`builtIn`). @throws UsageError naming `--shape`
 */
function shapeOption(values: readonly string[] | undefined): ('list' | 'many')[];
function shapeOption(values: readonly string[] | undefined, builtIn: true): Shape[];
function shapeOption(values: readonly string[] | undefined, builtIn = false): Shape[] {
  const out: Shape[] = [];
  for (const v of (values ?? []).flatMap((s) => s.split(',')).map((s) => s.trim())) {
    if (v !== 'list' && v !== 'many' && !(builtIn && v === 'single'))
      throw new UsageError(
        '--shape',
        builtIn
          ? `"${v}" is not a shape: single (one document), list (one JSON array) or many (one message per record)`
          : `"${v}" is not a shape of records: list (one JSON array) or many (one message each)`,
      );
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * The built-in (or config) workloads `chosen` measured in the `--shape`s given (hx7's test ran `--workload users
 * --shape list` and got both shapes: the flag was read only with `--payload`): each keeps the shapes of `shapes` it
 * has, one with none is left out. Unchanged when `shapes` is empty. The workloads are copied, never changed.
 * @throws UsageError naming `--shape` when no chosen workload has any of them
 */
function onlyShapes<W extends { id: string; shapes: readonly string[] }>(chosen: W[], shapes: readonly string[]): W[] {
  if (!shapes.length) return chosen;
  const kept = chosen.flatMap((w) => {
    const has = w.shapes.filter((s) => shapes.includes(s));
    return has.length ? [Object.freeze({ ...w, shapes: has })] : [];
  });
  if (!kept.length)
    throw new UsageError(
      '--shape',
      `no chosen workload has shape ${shapes.join(', ')} (shapes: ${chosen.map((w) => `${w.id} ${w.shapes.join('/')}`).join('; ')})`,
    );
  return kept;
}

/**
 * A `--schema` module's loading under the host guard (config/host-guard.ts): its top level and its
 * library's conversion run in jsonbench's own process, with the config's time limit; one that
 * changes the process (patches JSON.stringify, adds a toJSON) is refused, and what it changed put back.
 * @throws UsageError naming `--schema` when it changed the process
 */
async function guardedSchema<T>(file: string, load: () => Promise<T>): Promise<T> {
  try {
    // its import is a step of its own inside (payload/user-schema.ts: the module's top level, 35 s)
    return await hostCallAsync(
      { file, hook: "the --schema module and its schema library's conversion" },
      CONFIG_LOAD_TIMEOUT_MS,
      load,
    );
  } catch (e) {
    if (e instanceof HostPatched)
      throw new UsageError(
        '--schema',
        `the schema ${file} changed jsonbench's own process: ${e.changed} (put back): results.json, the reports and the gate rely on them, so a schema module must not patch built-ins`,
      );
    throw e;
  }
}

/**
 * Refuses a payload measured as it is (a document, or records without `--size`) that holds a
 * number beyond a double (`1e400`): JSON.parse reads it as Infinity, which JSON cannot hold, so no
 * serializer can write it back and every serialize case, the baseline's too, would be called
 * incorrect (issue 25). Deserialize cases can still be measured. @throws UsageError naming
 * `--payload`, the literal and where it stands
 */
function checkSerializable(payload: ResolvedPayload): void {
  const asIs = payload.source.kind === 'document' || !payload.scaledSizes?.length;
  const over = asIs ? firstOverflow(payload.source.units) : undefined;
  if (over)
    throw new UsageError(
      '--payload',
      `${over.at}: ${echo(over.literal)} is beyond what a double holds: JSON.parse reads it as ${over.literal.startsWith('-') ? '-' : ''}Infinity, and JSON has no Infinity, so no serializer can write it back (each, the baseline too, would be called incorrect for writing null); replace it with a number a double holds (up to about 1.8e308), or measure parsing only: --direction deserialize`,
    );
}

/** The longest string V8 holds (Node 20, 64-bit): 2^29 − 24 UTF-16 code units; a payload is held as one. */
const V8_MAX_STRING = 0x1fffffe8;

/**
 * `--max-payload`: the largest payload read (`800MiB`, `1GB`, bytes), at most what V8 can hold as
 * one string (512 MiB); undefined when not given (payload/bytes.ts DEFAULT_MAX_PAYLOAD_BYTES, 500 MiB).
 * @throws UsageError naming the flag
 */
function maxPayloadOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const bytes = parseSize(text);
  if (!(bytes > 0))
    throw new UsageError('--max-payload', `"${text}" is not a size such as 200MiB, 1GB or 500000000 (bytes)`);
  if (bytes > V8_MAX_STRING)
    throw new UsageError(
      '--max-payload',
      `${formatCap(bytes)} is more than Node can hold as one text (${formatCap(V8_MAX_STRING)}); a payload is read as one: split a larger NDJSON file, or measure a sample of it`,
    );
  return bytes;
}

/**
 * The `--payload` of a run (with `--schema` and `--size`), read and given a schema; null without
 * `--payload`. A payload that cannot be read names the file and line:column.
 * @throws UsageError naming `--payload`, `--schema` or `--workload`
 */
export async function payloadOption(
  opts: Pick<RunOptions, 'payload' | 'schema' | 'size' | 'workload' | 'cwd' | 'shape' | 'enums' | 'maxPayload'>,
  cwd = opts.cwd ?? process.cwd(),
  log?: (line: string) => void,
): Promise<ResolvedPayload | null> {
  if (opts.payload === undefined) {
    if (opts.schema !== undefined) throw new UsageError('--schema', 'describes a payload: give --payload FILE too');
    if (opts.enums) throw new UsageError('--enums', "infers a payload's enums: give --payload FILE too");
    if (opts.maxPayload !== undefined)
      throw new UsageError('--max-payload', 'caps the size of a payload read: give --payload FILE too');
    return null;
  }
  if (!opts.payload.trim())
    throw new UsageError('--payload', 'is empty (give a JSON file, an NDJSON file or a folder of samples)');
  if (opts.workload !== undefined)
    throw new UsageError(
      '--workload',
      'choose either built-in workloads (--workload) or your payload (--payload), not both',
    );
  if (opts.schema !== undefined && !opts.schema.trim())
    throw new UsageError(
      '--schema',
      'is empty (give a JSON Schema file or a module exporting a zod, valibot or TypeBox schema)',
    );
  const sizes = sizesOption(opts);
  const shapes = shapeOption(opts.shape);
  const maxBytes = maxPayloadOption(opts.maxPayload);
  try {
    const payload = await resolvePayload(resolve(cwd, opts.payload), {
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(log ? { onProgress: log } : {}),
      ...(opts.schema ? { schemaFile: resolve(cwd, opts.schema), guardSchema: guardedSchema } : {}),
      ...(sizes.length ? { sizes } : {}),
      ...(shapes.length ? { shapes } : {}),
      ...(opts.enums ? { enums: true } : {}),
    });
    if (sizes.length) checkGeneratedBytes(payload, sizes, maxBytes ?? DEFAULT_MAX_PAYLOAD_BYTES);
    if (shapes.length && payload.workloads.some((w) => w.payloadText === 'document'))
      throw new UsageError(
        '--shape',
        'applies to records (an NDJSON file, or --size): a JSON document is measured as itself (single)',
      );
    return payload;
  } catch (e) {
    if (e instanceof PayloadError)
      throw new UsageError(
        opts.schema && e.message.startsWith(resolve(cwd, opts.schema)) ? '--schema' : '--payload',
        e.message,
      );
    throw e;
  }
}

/**
 * Refuses a `--direction` that none of the serializers named with `--serializer` goes (hx19 Q01: `--serializer
 * fast-json-stringify --direction deserialize` launched the baseline alone and ended "nothing was measured", exit
 * 1, never saying fast-json-stringify only serializes). @throws UsageError naming `--direction`
 */
function checkDirections(chosen: readonly SerializerInfo[], named: boolean, dirs: readonly Direction[]): void {
  if (!named || !dirs.length || !chosen.length) return;
  if (chosen.some((s) => dirs.some((d) => s.directions.includes(d)))) return;
  const goes = chosen.map((s) => `${s.id} ${s.directions.join(' and ')}s only`).join('; ');
  throw new UsageError(
    '--direction',
    `${dirs.join(', ')}: none of --serializer goes that way (${goes}), so there is nothing to measure`,
  );
}

/**
 * Refuses a `--size` whose records, generated from the payload's schema, would make a payload larger than a payload
 * may be read (`limit`: `--max-payload`, default 500 MiB), estimated from the payload's own units' average size (hx18
 * A25: `--size 1e9` on a 28-byte record was accepted and generated for 12 minutes at 4 GB, deaf to SIGTERM, since
 * the generation is one synchronous step). @throws UsageError naming `--size`
 */
function checkGeneratedBytes(payload: ResolvedPayload, sizes: readonly number[], limit: number): void {
  const units = payload.source.units;
  if (!units.length) return;
  const average = units.reduce((n, u) => n + u.text.length, 0) / units.length;
  for (const size of sizes) {
    const bytes = size * (average + 1);
    if (bytes > limit)
      throw new UsageError(
        '--size',
        `${size.toLocaleString('en-US')} records of about ${Math.round(average).toLocaleString('en-US')} bytes each would be a payload of about ${formatBytes(bytes)}, over the ${formatBytes(limit)} a payload may be (--max-payload raises it)`,
      );
  }
}

/**
 * The stderr line naming the config a command loads: `config: <file>`, and for one found in the
 * working directory (no --config) that it was found there, so a config nobody named is never loaded in silence.
 */
export function configLoadedLine(file: string, found: boolean): string {
  // a line break in the name shows as ␊ (hx15 CP-newline: a config named to print a line that read as jsonbench's own)
  const shown = visibleName(file);
  return found
    ? `config: ${shown} (found in the working directory and loaded: its code runs with your privileges; --config names another)`
    : `config: ${shown}`;
}

/** One line per Node variable (case/startup.ts) set when jsonbench started: the workers run with it, results.json records it. */
export function startVariableLines(variables: Record<string, string> = nodeVariables()): string[] {
  return Object.entries(variables).map(
    ([name, value]) =>
      `environment: ${name}=${JSON.stringify(value.slice(0, 200))} is set: the workers run with it (recorded in results.json)`,
  );
}

/**
 * Lines saying which Node variables (NODE_OPTIONS, …: case/startup.ts) user code changed in
 * jsonbench's own process since it started: the workers never get the change. Empty when none changed.
 */
export function changedVariableLines(live: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return Object.entries(changedNodeVariables(live)).map(
    ([name, value]) =>
      `warning: the config changed ${name} in jsonbench's process (to ${JSON.stringify(value.slice(0, 200))}): ignored, the workers run with its value when jsonbench started`,
  );
}

/**
 * The run's output folder (`--out`, default `jsonbench-results/<timestamp>/`), made with any missing
 * parents; `made` lists the folders made here, innermost first (taken away again while empty).
 * @throws UsageError (--out) when blank, a file, or it cannot be made
 */
function makeOutFolder(out: string | undefined, cwd: string): { outDir: string; made: string[] } {
  if (out !== undefined && !out.trim())
    throw new UsageError('--out', 'is empty (give a folder, or leave it out for jsonbench-results/<timestamp>/)');
  const outDir = resolve(cwd, out ?? join('jsonbench-results', new Date().toISOString().replace(/[:.]/g, '-')));
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new UsageError('--out', `${outDir} exists and is not a folder`);
  // the folders made here (the output folder and any missing parents, innermost first)
  const made: string[] = [];
  for (let p = outDir; !existsSync(p) && dirname(p) !== p; p = dirname(p)) made.push(p);
  try {
    makeFolder(outDir);
  } catch (e) {
    throw new UsageError('--out', `cannot make the folder ${outDir}: ${(e as Error).message}`);
  }
  return { outDir, made };
}

/**
 * The run's policy: `--policy` (default `default`) with `--profile` and `--serialize-to`, checked
 * against the named policy as jsonbench loaded it (config/policies.ts policyChanges): chosen after the
 * config has loaded, so a launch plan or a confidence that differs (hx8: a config rewrote the table)
 * is refused rather than run under the policy's name.
 * @throws UsageError naming the flag; naming `--policy` when the policy differs from its own
 */
function policyOption(opts: RunOptions): RunPolicy {
  const policy = flaggedPolicy(opts);
  const changed = policyChanges(policy);
  if (changed.length)
    throw new UsageError(
      '--policy',
      `"${policy.name}" is not jsonbench's own policy of that name here: ${changed.join('; ')}. Something in this process changed it (a config that imports jsonbench's modules?); a run is never measured under a policy's name with another plan`,
    );
  return policy;
}

/** {@link policyOption} before its check. */
function flaggedPolicy(opts: RunOptions): RunPolicy {
  const named = policyNamed(opts.policy ?? 'default');
  if (opts.serializeTo !== undefined && opts.serializeTo !== 'bytes' && opts.serializeTo !== 'string')
    throw new UsageError('--serialize-to', `unknown "${opts.serializeTo}" (choose from: bytes, string)`);
  if (opts.profile !== undefined && !(PROFILE_NAMES as readonly string[]).includes(opts.profile))
    throw new UsageError('--profile', `unknown "${opts.profile}" (choose from: ${PROFILE_NAMES.join(', ')})`);
  const profiled: RunPolicy = opts.profile ? { ...named, profile: opts.profile as ProfileName } : named;
  return opts.serializeTo ? { ...profiled, measure: { ...profiled.measure, serializeTo: opts.serializeTo } } : profiled;
}

/** `--seed` (default 42), an integer from 0 to MAX_SEED. @throws UsageError (--seed) */
function seedOption(value: RunOptions['seed']): number {
  const seedText = String(value ?? 42).trim();
  const seed = /^\d+$/.test(seedText) ? Number(seedText) : NaN;
  if (!Number.isSafeInteger(seed) || seed > MAX_SEED)
    throw new UsageError('--seed', `"${value}" is not an integer from 0 to ${MAX_SEED}`);
  return seed;
}

/** A list flag given with no value (`--workload ""`). @throws UsageError naming the flag */
function checkListsNotEmpty(opts: RunOptions): void {
  for (const [flag, value] of [
    ['--workload', opts.workload],
    ['--serializer', opts.serializer],
    ['--size', opts.size],
    ['--direction', opts.direction],
  ] as const) {
    if (value !== undefined && splitList(value.map(String)).length === 0)
      throw new UsageError(flag, 'needs at least one value');
  }
}

/** `--jobs` (default: {@link defaultJobs}), from 1 to the machine's cores. @throws UsageError (--jobs) */
function jobsOption(value: RunOptions['jobs']): number {
  const cores = os.availableParallelism();
  const jobsText = String(value ?? defaultJobs(cores)).trim();
  const jobs = /^\d+$/.test(jobsText) ? Number(jobsText) : NaN;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new UsageError('--jobs', `"${value}" is not a whole number of 1 or more`);
  if (jobs > cores)
    throw new UsageError(
      '--jobs',
      `${jobs} is more than this machine's ${cores} cores (each group needs a core of its own)`,
    );
  return jobs;
}

/** `--conformance FOLDER` read, or undefined. @throws UsageError (--conformance) with --no-probes or a folder that cannot be read */
function conformanceOption(opts: RunOptions, cwd: string): ConformanceInput | undefined {
  if (opts.conformance === undefined) return undefined;
  if (opts.probes === false)
    throw new UsageError('--conformance', 'adds conformance probes to the probe pass, which --no-probes turns off');
  const folder = resolve(cwd, opts.conformance);
  try {
    return { folder, ...readConformanceFolder(folder) };
  } catch (e) {
    throw new UsageError('--conformance', (e as Error).message);
  }
}

/**
 * The run's payload (`--payload`), workloads, serializers, directions and sizes, each checked
 * against what exists (a variant workload runs only when named).
 * @throws UsageError naming the flag
 */
async function chooseSubjects(
  opts: RunOptions,
  cwd: string,
  log: (line: string) => void,
  user: UserConfig,
  matrix: Awaited<ReturnType<typeof prepareVersionMatrix>>,
  policy: RunPolicy,
) {
  const payload = await payloadOption(opts, cwd, log);
  const allW = payload ? payload.workloads : await workloadRegistry.loadAll((matrix?.config ?? user).workloads);
  const allS: SerializerInfo[] = [
    ...(await serializerRegistry.loadAll((matrix?.config ?? user).serializers)),
    ...(await dotnetSerializers.loadAll()),
    ...(matrix?.dotnetVariants ?? []),
  ];
  const wIds = splitList(opts.workload);
  const sIds = matrix ? matrix.serializerIds : splitList(opts.serializer);
  const dirs = splitList(opts.direction);
  checkChoices(
    '--workload',
    wIds,
    allW.map((w) => w.id),
  );
  checkChoices(
    '--serializer',
    sIds,
    allS.map((s) => s.id),
  );
  checkChoices('--direction', dirs, DIRECTIONS);
  if (payload && (dirs.length === 0 || dirs.includes('serialize'))) checkSerializable(payload);
  const sizes = payload ? (payload.scaledSizes ?? []) : sizesOption(opts);
  // a variant of another workload (users-record: .NET code shapes of users' payload) runs only when named
  let chosenW = wIds.length ? allW.filter((w) => wIds.includes(w.id)) : allW.filter((w) => !w.variantOf);
  if (!payload) chosenW = onlyShapes(chosenW, shapeOption(opts.shape, true));
  if (sizes.length && chosenW.every((w) => sizesFor(w, policy, sizes).length === 0)) {
    throw new UsageError(
      '--size',
      `no chosen workload has size ${sizes.join(', ')} (sizes: ${chosenW.map((w) => `${w.id} ${w.sizes.join('/')}`).join('; ')})`,
    );
  }
  return { payload, allS, sIds, dirs, sizes, chosenW };
}

/** `path`'s real path (links followed), or for a path not made yet its nearest existing parent's real path and the rest. */
function realOrNearest(path: string): string {
  const rest: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch {
      if (dirname(p) === p) return path;
      rest.push(basename(p));
    }
  }
}

/**
 * Refuses an `--out` that is a `--payload` folder or inside one (hx11: the run wrote results.json and its reports
 * into the samples folder, and the next run read results.json as a sample, silently). @throws UsageError naming `--out`
 */
function checkOutsidePayload(opts: Pick<RunOptions, 'out' | 'payload'>, cwd: string): void {
  if (!opts.out || !opts.payload) return;
  // by real paths (hx20 a26c: an --out that was a symbolic link to the samples folder passed as written)
  const payload = realOrNearest(resolve(cwd, opts.payload));
  const out = realOrNearest(resolve(cwd, opts.out));
  let folder = false;
  try {
    folder = statSync(payload, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    // a loop of symbolic links (ELOOP), no permission: the payload's reader says what it is (hx35 p15: a raw ELOOP)
  }
  if (!folder) return;
  if (out === payload || out.startsWith(payload + sep))
    throw new UsageError(
      '--out',
      `${opts.out} is inside the --payload folder ${opts.payload}: the run's results.json and reports would be read as samples by the next run on it; give an --out outside it`,
    );
}

/**
 * Resolves the options of a run. Loads (and compiles) the user's config, installs the versions of
 * a version matrix (logged through `log`), and checks every option.
 * @throws UsageError naming the flag; ConfigError naming the config file and key
 */
export async function resolveRunRequest(
  opts: RunOptions,
  log: (line: string) => void = () => {},
): Promise<ResolvedRun> {
  const cwd = opts.cwd ?? process.cwd();
  checkOutsidePayload(opts, cwd);
  const { outDir, made } = makeOutFolder(opts.out, cwd);
  let prepared: Awaited<ReturnType<typeof prepareConfig>> | null = null;
  // on a later usage error (and after a run that wrote nothing) the folders made here are taken away again while empty (rmdir fails on a folder with files)
  const release = () => {
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
    for (const p of made)
      try {
        rmdirSync(p);
      } catch {
        break;
      }
  };
  const configFile = findConfig(cwd, opts.config);
  // before any user code runs: what a timer it arms changes later is seen against this seal (config/host-guard.ts)
  sealHost();
  try {
    if (configFile) log(configLoadedLine(configFile, opts.config === undefined));
    prepared = configFile ? await prepareConfig(configFile, outDir) : null;
  } catch (e) {
    release();
    throw e;
  }
  for (const line of [...startVariableLines(), ...changedVariableLines()]) log(line);
  try {
    const user: UserConfig = prepared?.config ?? { serializers: [], workloads: [] };
    const metrics = splitList(opts.metric);
    checkChoices('--metric', metrics, ['time', 'instructions', 'cold-start']);
    let valgrind: string | null = null;
    if (metrics.includes('instructions')) {
      try {
        valgrind = requireValgrind();
      } catch (e) {
        throw new UsageError('--metric', (e as Error).message);
      }
    }
    const matrix = await prepareVersionMatrix(splitList(opts.serializer), user, prepared?.modulePath, outDir, log);
    const policy = policyOption(opts);
    const seed = seedOption(opts.seed);
    checkListsNotEmpty(opts);
    const { payload, allS, sIds, dirs, sizes, chosenW } = await chooseSubjects(opts, cwd, log, user, matrix, policy);
    const jobs = jobsOption(opts.jobs);
    let targets: Target[];
    checkNotBlank('--target', opts.target, TARGET_BLANK);
    try {
      targets = parseTargets(splitList(opts.target));
    } catch (e) {
      throw new UsageError('--target', (e as Error).message);
    }
    const conformance = conformanceOption(opts, cwd);
    const chosenS = sIds.length ? allS.filter((s) => sIds.includes(s.id)) : allS;
    checkDirections(chosenS, sIds.length > 0, dirs as Direction[]);
    const runTargets = targets.length ? targets : [parseTarget(DEFAULT_TARGET)];
    checkPlatforms(chosenS, sIds.length > 0, runTargets);
    // what inference found, as this run says it: of JavaScript serializers only when it measures some
    const platforms = measuredPlatforms(runTargets, chosenS);
    const scopedPayload = payload
      ? { ...payload, findings: payload.findings.map((f) => findingFor(f, platforms)) }
      : undefined;
    checkNotBlank('--ledger', opts.ledger, LEDGER_BLANK);
    const ledgerOption = opts.ledger === true ? undefined : opts.ledger;
    const ledgerPath = resolveLedgerPath(
      cwd,
      ledgerOption ??
        (typeof user.ledger === 'string' && configFile ? resolve(dirname(configFile), user.ledger) : user.ledger),
    );
    const request: RunRequest = {
      cwd,
      outDir,
      policy,
      seed,
      workloads: chosenW,
      serializers: chosenS,
      allSerializers: allS,
      ...(sizes.length ? { sizes } : {}),
      directions: (dirs.length ? dirs : [...DIRECTIONS]) as Direction[],
      targets,
      configFile,
      ...((matrix?.configPath ?? prepared?.modulePath)
        ? { workerConfigPath: matrix?.configPath ?? prepared?.modulePath }
        : {}),
      ...(matrix ? { versions: matrix.versions } : {}),
      ledgerPath,
      valgrind,
      jobs,
      ...(opts.shard !== undefined ? { shard: parseShard(String(opts.shard)) } : {}),
      coldStartProcesses: policy.coldStart.byDefault || metrics.includes('cold-start') ? policy.coldStart.processes : 0,
      ...(opts.chromiumPath ? { chromiumPath: opts.chromiumPath } : {}),
      ...(scopedPayload ? { payload: scopedPayload } : {}),
      probes:
        opts.probes === false
          ? null
          : {
              ...(conformance ? { conformance } : {}),
              cache: opts.probeCache !== false,
              ...(opts.probeBudget !== undefined ? { budgetMs: parseProbeBudget(opts.probeBudget) ?? Infinity } : {}),
            },
    };
    return { request, release };
  } catch (e) {
    release();
    throw e;
  }
}
