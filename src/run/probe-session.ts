/**
 * `jsonbench probe`: the capability matrix (issue 11). Options resolved like a run's (the user's
 * config, a version matrix such as `fast-json-stringify@5,6,7`, targets, an output folder), the
 * catalog of the chosen families (conformance from any folder of suite files), one probe pass
 * (run/probe-pass.ts) on every target, then a results file with no timed case and the probe
 * section, and the Markdown and HTML reports. Prints nothing: the CLI observes it.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DIRECTIONS, type Direction } from '../case/coordinates.js';
import { PROBE_FAMILIES, type ProbeFamily } from '../case/probe.js';
import { parseProbeBudget, parseProbeTimeout, policies } from '../config/policies.js';
import { findConfig, prepareConfig } from '../config/compile-config.js';
import { keepFinishedRun, keptRunSentence } from './recover.js';
import { checkChoices, checkNotBlank, splitList, UsageError } from '../config/usage-error.js';
import type { UserConfig } from '../config/user-config.js';
import { serializers as serializerRegistry } from '../serializers/index.js';
import { dotnetSerializers } from '../serializers/dotnet/index.js';
import { platformOf, type SerializerAdapter, type SerializerInfo } from '../serializers/types.js';
import { LOADED_BY_TARGET, serializerVersion } from '../plan/plan.js';
import { dotnetCatalog, type DotnetProbe } from '../probes/dotnet/catalog.js';
import { checkPlatforms, TARGET_BLANK } from './request.js';
import { prepareVersionMatrix, type VersionMatrix } from '../plan/version-matrix.js';
import type { ProbeRow } from '../plan/probe-plan.js';
import { loadCatalog } from '../probes/index.js';
import { readConformanceFolder } from '../probes/catalog/conformance-folder.js';
import { DEFAULT_TARGET, parseTarget, parseTargets } from '../runtimes/index.js';
import { prepareTargets } from '../runtimes/prepare.js';
import { defaultCacheDir } from '../runtimes/cache.js';
import { probeEnvironment } from '../runtimes/node-host.js';
import { loadAverageNow } from '../case/startup.js';
import type { Target } from '../runtimes/types.js';
import {
  RESULTS_SCHEMA_VERSION,
  type ProbesSection,
  type ProbeVerdictRecord,
  type ResultsFile,
} from '../results/types.js';
import { writeResults } from '../results/io.js';
import { writeReports, type WrittenReports } from '../report/write.js';
import {
  DEFAULT_PROBE_BUDGET_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  runProbePass,
  writeProbePayload,
  type ConformanceInput,
  type DotnetProbeRow,
} from './probe-pass.js';

/** The options of `jsonbench probe` (lists comma-separated or repeated). */
export interface ProbeOptions {
  /** serializer ids, with versions for a matrix (`fast-json-stringify@5,6,7`; default: every built-in and the config's) */
  serializer?: string[];
  /** probe families (default: all; conformance needs `conformance`) */
  family?: string[];
  /** a folder of JSONTestSuite / json.org checker / nativejson-benchmark roundtrip files */
  conformance?: string;
  /** serialize, deserialize (default: both) */
  direction?: string[];
  /** keep only probes whose id matches this regular expression */
  filter?: string;
  target?: string[];
  /** per probe side: the CLI's duration with its unit (`120s`, `1500ms`: config/policies.ts parseProbeTimeout), or ms as a number (default 120,000) */
  timeout?: string | number;
  /**
   * the pass's total wall time: a duration (`15m`, `1h`) or `off` (default: the timed run's probe
   * pass's, run/probe-pass.ts DEFAULT_PROBE_BUDGET_MS, 15 min); the sides left when it runs out are
   * `– skipped: the probe pass's budget of N s ran out before this probe`
   */
  probeBudget?: string;
  out?: string;
  config?: string;
  chromiumPath?: string;
  cwd?: string;
}

/** Events of a probe session, in order. */
export type ProbeSessionEvent =
  | { type: 'note'; message: string }
  | { type: 'started'; outDir: string; sides: number; rows: number; targets: number }
  | { type: 'launch'; row: string; target: string; cells: number; relaunch: boolean }
  | { type: 'verdict'; record: ProbeVerdictRecord };

export interface ProbeSessionResult {
  results: ResultsFile;
  outDir: string;
  resultsPath: string;
  reports: WrittenReports;
  elapsedMs: number;
}

/** The options of `jsonbench probe` checked and resolved (see {@link ProbeOptions}). */
interface ResolvedProbeOptions {
  outDir: string;
  families: string[];
  dirs: string[];
  filter?: RegExp;
  /** per probe side (ms) */
  timeoutMs: number;
  /** the pass's total budget (ms; undefined: off) */
  budgetMs?: number;
  conformance?: ConformanceInput;
  /** the targets named (empty: the default target) */
  targets: Target[];
}

/**
 * Checks and resolves the options that need no config: the output folder, families, directions,
 * filter, timeout, budget, conformance folder and targets.
 * @throws UsageError naming the flag
 */
function resolveProbeOptions(opts: ProbeOptions, cwd: string): ResolvedProbeOptions {
  if (opts.out !== undefined && !opts.out.trim())
    throw new UsageError(
      '--out',
      'is empty (give a folder, or leave it out for jsonbench-results/probes-<timestamp>/)',
    );
  const outDir = resolve(
    cwd,
    opts.out ?? join('jsonbench-results', `probes-${new Date().toISOString().replace(/[:.]/g, '-')}`),
  );
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new UsageError('--out', `${outDir} exists and is not a folder`);
  const families = splitList(opts.family);
  checkChoices('--family', families, PROBE_FAMILIES);
  const dirs = splitList(opts.direction);
  checkChoices('--direction', dirs, DIRECTIONS);
  let filter: RegExp | undefined;
  if (opts.filter !== undefined) {
    try {
      filter = new RegExp(opts.filter);
    } catch (e) {
      throw new UsageError('--filter', (e as Error).message);
    }
  }
  // a string is the CLI's --timeout, a duration with its unit; a number is the library's, in ms
  const timeoutMs =
    opts.timeout === undefined
      ? DEFAULT_PROBE_TIMEOUT_MS
      : typeof opts.timeout === 'string'
        ? parseProbeTimeout(opts.timeout)
        : opts.timeout;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new UsageError('--timeout', `"${opts.timeout}" is not a positive number of ms`);
  const budgetMs = opts.probeBudget === undefined ? DEFAULT_PROBE_BUDGET_MS : parseProbeBudget(opts.probeBudget);
  if (families.includes('payload'))
    throw new UsageError(
      '--family',
      "payload probes are built from your payload: run jsonbench run --payload FILE (they join that run's probe pass)",
    );
  if (families.includes('conformance') && !opts.conformance)
    throw new UsageError(
      '--family',
      'conformance needs --conformance FOLDER (a folder of y_/n_/i_, pass/fail or roundtrip files)',
    );
  let conformance: ConformanceInput | undefined;
  if (opts.conformance !== undefined) {
    const folder = resolve(cwd, opts.conformance);
    try {
      conformance = { folder, ...readConformanceFolder(folder) };
    } catch (e) {
      throw new UsageError('--conformance', (e as Error).message);
    }
  }
  let targets: Target[];
  checkNotBlank('--target', opts.target, TARGET_BLANK);
  try {
    targets = parseTargets(splitList(opts.target));
  } catch (e) {
    throw new UsageError('--target', (e as Error).message);
  }
  return { outDir, families, dirs, filter, timeoutMs, budgetMs, conformance, targets };
}

/** What a probe session probes: the rows (JavaScript and .NET), the families and each catalog's probes. */
interface ProbeSubjects {
  matrix: VersionMatrix | null;
  /** every serializer chosen (ids, with version rows) */
  chosen: SerializerInfo[];
  rows: ProbeRow[];
  netChosen: SerializerInfo[];
  chosenFamilies: ProbeFamily[];
  probes: ReturnType<typeof loadCatalog>;
  netProbes: DotnetProbe[];
}

/**
 * The serializers and probes of a session, from `--serializer`, the config, the targets' platforms,
 * `--family` and `--filter`.
 * @throws UsageError naming the flag (an unknown serializer, one no target runs, a filter that selects no probe)
 */
async function chooseProbeSubjects(
  opts: ProbeOptions,
  o: ResolvedProbeOptions,
  prepared: { modulePath: string; config: UserConfig } | null,
  configFile: string | null,
  observe: (e: ProbeSessionEvent) => void,
): Promise<ProbeSubjects> {
  const { families, filter, conformance, targets } = o;
  const user: UserConfig = prepared?.config ?? { serializers: [], workloads: [] };
  const matrix = await prepareVersionMatrix(splitList(opts.serializer), user, prepared?.modulePath, o.outDir, (m) =>
    observe({ type: 'note', message: m.trimEnd() }),
  );
  const all = await serializerRegistry.loadAll((matrix?.config ?? user).serializers);
  // .NET serializers (and their version rows) run in the C# worker of a .NET target (probes/dotnet/)
  const dotnet: SerializerInfo[] = [...(await dotnetSerializers.loadAll()), ...(matrix?.dotnetVariants ?? [])];
  const ids = matrix ? matrix.serializerIds : splitList(opts.serializer);
  checkChoices(
    '--serializer',
    ids,
    [...all, ...dotnet].map((s) => s.id),
  );
  const runTargets = targets.length ? targets : [parseTarget(DEFAULT_TARGET)];
  const targetPlatforms = new Set(runTargets.map((t) => t.platform ?? 'javascript'));
  const chosen: SerializerInfo[] = ids.length
    ? ids.map((id) => [...all, ...dotnet].find((a) => a.id === id)!)
    : [...all, ...dotnet.filter((d) => !matrix?.dotnetVariants.includes(d as never))];
  // a serializer named on no target of its platform, or a target none of them runs on, is refused with the fix
  // (a .NET target once answered "0 verdicts" with exit 0: new-user tryout, 2026-12-05)
  try {
    checkPlatforms(chosen, ids.length > 0, runTargets);
  } catch (e) {
    if (e instanceof UsageError)
      throw new UsageError(e.flag, e.message.slice(e.flag.length + 2).replace("the run's targets", 'the targets'));
    throw e;
  }
  const rows: ProbeRow[] = chosen
    .filter((a): a is SerializerAdapter => platformOf(a) === 'javascript' && targetPlatforms.has('javascript'))
    .map((adapter) => ({
      adapter,
      label: adapter.id,
      version: serializerVersion(adapter, matrix?.versions, configFile ?? undefined),
    }));
  const netChosen = chosen.filter((a) => platformOf(a) === 'dotnet' && targetPlatforms.has('dotnet'));
  const chosenFamilies = (
    families.length ? families : PROBE_FAMILIES.filter((f) => (f !== 'conformance' || conformance) && f !== 'payload')
  ) as ProbeFamily[];
  const probes = rows.length
    ? loadCatalog({
        families: chosenFamilies,
        ...(conformance ? { conformance: conformance.set } : {}),
      }).filter((p) => !filter || filter.test(p.id))
    : [];
  const netProbes: DotnetProbe[] = netChosen.length
    ? dotnetCatalog({ families: chosenFamilies, ...(conformance ? { conformance: conformance.set } : {}) }).filter(
        (p) => !filter || filter.test(p.id),
      )
    : [];
  const flag = filter ? '--filter' : '--family';
  if (rows.length && probes.length === 0)
    throw new UsageError(
      flag,
      'selects no probe of the JavaScript catalog (the JavaScript serializers would have none)',
    );
  if (netChosen.length && netProbes.length === 0)
    throw new UsageError(
      flag,
      'selects no probe of the .NET catalog (docs/probes.md lists it): the .NET serializers would have none',
    );
  if (probes.length === 0 && netProbes.length === 0) throw new UsageError(flag, 'selects no probe');
  return { matrix, chosen, rows, netChosen, chosenFamilies, probes, netProbes };
}

/** The note that some probe sides ran out of the pass's budget, or undefined when none did. */
function budgetNote(section: ProbesSection, budgetMs: number | undefined): string | undefined {
  const outOfBudget = section.verdicts.filter(
    (v) => v.verdict.mark === '–' && /budget of \d+ s ran out/.test(v.verdict.reason),
  ).length;
  if (!outOfBudget) return undefined;
  return `${outOfBudget} probe side${outOfBudget === 1 ? ' was' : 's were'} skipped: the pass's budget of ${budgetMs! < 120_000 ? `${Math.round(budgetMs! / 1000)} s` : `${Math.round(budgetMs! / 60_000)} min`} ran out; raise it with --probe-budget (e.g. 1h, or off)`;
}

/**
 * Resolves the options, runs the pass, writes results.json, report.md and report.html.
 * @throws UsageError naming the flag (bad family, serializer, direction, filter, timeout, conformance folder); ConfigError
 */
export async function runProbeSession(
  opts: ProbeOptions,
  observe: (e: ProbeSessionEvent) => void = () => {},
): Promise<ProbeSessionResult> {
  const cwd = opts.cwd ?? process.cwd();
  const o = resolveProbeOptions(opts, cwd);
  const { outDir, dirs, timeoutMs, budgetMs, conformance, targets } = o;
  const configFile = findConfig(cwd, opts.config);
  const prepared = configFile ? await prepareConfig(configFile, outDir) : null;
  try {
    const { matrix, chosen, rows, netChosen, chosenFamilies, probes, netProbes } = await chooseProbeSubjects(
      opts,
      o,
      prepared,
      configFile,
      observe,
    );
    const directions = (dirs.length ? dirs : [...DIRECTIONS]) as Direction[];
    const payloadPath = writeProbePayload(join(outDir, 'payloads'), conformance, [], netProbes);
    const named = targets.length > 0;
    const ready = await prepareTargets(
      named ? targets : [parseTarget(DEFAULT_TARGET)],
      {
        cacheDir: defaultCacheDir(),
        bundleDir: join(outDir, 'worker'),
        payloadPaths: [payloadPath],
        chromiumPath: opts.chromiumPath,
        // a .NET target builds the worker of each version row (`newtonsoft@13.0.1`)
        serializers: chosen.map((s) => s.id),
      },
      (line) => {
        if (named) observe({ type: 'note', message: line });
      },
    );
    try {
      const startedAt = new Date().toISOString();
      const environment = probeEnvironment();
      const sides = [...probes, ...netProbes].reduce((n, p) => n + directions.filter((d) => p[d]).length, 0);
      observe({ type: 'started', outDir, sides, rows: rows.length + netChosen.length, targets: ready.refs.length });
      const loaded = (targetId: string) => ready.platforms.find((p) => p.ref.id === targetId)?.serializerVersions;
      const netRows: DotnetProbeRow[] = netChosen.map((serializer) => ({
        serializer,
        label: serializer.id,
        version: (targetId) =>
          matrix?.versions.get(serializer.id) ?? loaded(targetId)?.[serializer.id] ?? LOADED_BY_TARGET,
      }));
      const t0 = performance.now();
      const section = await runProbePass({
        selection: 'asked',
        families: chosenFamilies,
        probes,
        rows,
        directions,
        targets: ready.refs,
        launchFor: (t) => ready.launchFor({ target: t }),
        faultOf: (t) => ready.faultOf({ target: t }),
        payloadPath,
        conformance,
        configPath: matrix?.configPath ?? prepared?.modulePath,
        timeoutMs,
        // as the timed run's pass (issue 25: a serializer hanging on every probe cost 680 sides × 120 s ≈ 22.7 h)
        ...(budgetMs !== undefined ? { budgetMs } : {}),
        skipAfterHang: true,
        onVerdict: (record) => observe({ type: 'verdict', record }),
        onLaunch: (e) => observe({ type: 'launch', ...e }),
        onNote: (message) => observe({ type: 'note', message }),
        ...(netRows.length ? { dotnet: { rows: netRows, probes: netProbes } } : {}),
      });
      environment.loadAverage.end = loadAverageNow();
      const note = budgetNote(section, budgetMs);
      if (note) observe({ type: 'note', message: note });
      const results: ResultsFile = {
        schemaVersion: RESULTS_SCHEMA_VERSION,
        tool: 'jsonbench',
        startedAt,
        finishedAt: new Date().toISOString(),
        environment,
        // Probes are never timed: the policy is recorded only because every results file has one.
        policy: {
          name: 'probe',
          launches: 1,
          seed: 0,
          caseTimeoutMs: timeoutMs,
          // a copy: results never alias the frozen policy table (config/policies.ts)
          measure: structuredClone(policies.default.measure),
          baselines: {},
        },
        targets: ready.infos,
        cases: [],
        probes: section,
      };
      const resultsPath = join(outDir, 'results.json');
      // a finished run's results there are moved aside, never overwritten (docs/running.md, "The output folder")
      const previous = keepFinishedRun(outDir);
      if (previous)
        observe({
          type: 'note',
          message: keptRunSentence(outDir, previous),
        });
      writeResults(resultsPath, results);
      const reports = writeReports(outDir, [results], ['md', 'html']);
      return { results, outDir, resultsPath, reports, elapsedMs: performance.now() - t0 };
    } finally {
      await ready.close();
    }
  } finally {
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
  }
}
