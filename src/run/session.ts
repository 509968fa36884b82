/**
 * A run session: the one place a run is orchestrated. A resolved request in (run/request.ts), a
 * results file out, events to an observer on the way:
 *
 *   plan (with the version matrix) → payloads → targets prepared and placed → ledger opened →
 *   groups run (each finished case appended to results.partial.jsonl and recorded in the ledger)
 *   → instruction counts → results.json → report.md and report.html (pure renderers) → the probes
 *   relevant to the payloads (run/probe-pass.ts; never timed; bounded by a total budget) →
 *   results.json and the reports again, with the probe matrix → done.
 *
 * The output folder is locked for the run (files/run-lock.ts: a second run into it is refused) and
 * the build it runs from is held (scripts/build.mjs refuses to rebuild under it).
 *
 * It prints nothing: the CLI (cli/run.ts) and the programmatic `run()` (src/index.ts) observe it.
 */
import { shardGroups } from '../plan/shard.js';
import { platformOf, type SerializerAdapter } from '../serializers/types.js';
import fs, { lstatSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, join } from 'node:path';
import { makeFolder } from '../files/make-folder.js';
import { holdBuild, lockRunFolder } from '../files/run-lock.js';
import { planCases, sizesFor, type PlannedCase } from '../plan/plan.js';
import {
  payloadKeyOf,
  variantSeed,
  WorkloadError,
  writePayload,
  writePayloadTexts,
  userVariantText,
  type PayloadFile,
} from '../plan/payloads.js';
import { variantPathOf } from '../case/coordinates.js';
import { wireSchema } from '../workloads/schema.js';
import { workloads as builtinWorkloads } from '../workloads/index.js';
import { schemaMismatch } from '../payload/conform.js';
import {
  generatesRecords,
  LARGE_PAYLOAD_BYTES,
  payloadId,
  payloadTexts,
  sha256Of,
  type ResolvedPayload,
} from '../payload/workload.js';
import type { Workload } from '../workloads/types.js';
import { expandTargets } from '../plan/targets.js';
import { DEFAULT_TARGET, parseTarget } from '../runtimes/index.js';
import { prepareTargets, type PreparedTargets } from '../runtimes/prepare.js';
import { defaultCacheDir } from '../runtimes/cache.js';
import { probeEnvironment } from '../runtimes/node-host.js';
import { loadAverageNow } from '../case/startup.js';
import { runInstructionsPass } from '../instructions/pass.js';
import {
  CASE_NUMBERS,
  RESULTS_SCHEMA_VERSION,
  type CaseResult,
  type Execution,
  type PayloadRecord,
  type ResultsFile,
} from '../results/types.js';
import { writeResults } from '../results/io.js';
import { statisticsIntact } from '../case/stats-seal.js';
import { sidecarPath } from '../results/integrity.js';
import { sealWritten } from '../files/process-end.js';
// a payload's file name shown as one line wherever a report, the terminal or a CI log prints it (hx5 I-ghcmd)
import { visibleName } from '../report/table/escape.js';
import { gitState, startRunRecorder, type RunRecorder } from '../ledger/run-ledger.js';
import { writeReports, type WrittenReports } from '../report/write.js';
import { countOf, formatBytes } from '../report/units.js';
import { runGroups, type ProgressEvent } from './runner.js';
import {
  DEFAULT_PROBE_BUDGET_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  runProbePass,
  writeProbePayload,
  type DotnetProbeRow,
} from './probe-pass.js';
import { dotnetCatalog, type DotnetProbe } from '../probes/dotnet/catalog.js';
import { ProbeVerdictCache } from './probe-cache.js';
import { serializers as builtinSerializers } from '../serializers/index.js';
import { relevantProbes } from '../plan/probe-plan.js';
import type { PayloadProbeSet } from '../probes/catalog/payload.js';
import { explainRejection } from '../payload/explain.js';
import { LOADED_BY_TARGET, serializerVersion } from '../plan/plan.js';
import { loadCatalog } from '../probes/index.js';
import { PROBE_FAMILIES, type ProbeFamily } from '../case/probe.js';
import { runColdStartPass } from './cold-start.js';
import { explainAllTimedOut } from './too-slow.js';
import { cpuPinning, slotCpus } from '../runtimes/pinning.js';
import type { Target } from '../runtimes/types.js';
import {
  hasMeasuredCases,
  inputMovedAside,
  keepFinishedRun,
  keptRunSentence,
  keepKilledRun,
  keepStrayPartials,
  RUN_PARTIAL,
  writeRunSnapshot,
} from './recover.js';
import { UsageError } from '../config/usage-error.js';
import { FileWriteError, named as namedWrite, writeFileNamed } from '../files/write-file.js';
import type { RunRequest } from './request.js';
import { checkHostSeal, HostPatched, ownImport, sealHost } from '../config/host-guard.js';
import { onHostFault, type HostFault } from '../host/user-code.js';
import { withDefaultStops } from '../host/default-stops.js';
import { PartialSigner } from './partial-mac.js';
import { deepFreeze } from '../case/frozen.js';

/** What a session tells its observer, in order: notes while preparing, `started`, progress, notes after. */
export type SessionEvent =
  /** `resultsPath`: the note says where results.json was written before the probe pass (a pass killed leaves it the only line naming it) */
  | { type: 'note'; message: string; resultsPath?: string }
  | { type: 'warning'; message: string }
  /** measuring begins: where finished cases and launches are appended as they end */
  | { type: 'started'; outDir: string; partialPath: string; launchLogPath: string; cases: number }
  | Exclude<ProgressEvent, { type: 'group-done' }>
  /** a group's cases are finished: `results` is the run's header with those cases alone, for a table printed at once (report/terminal.ts) */
  | (Extract<ProgressEvent, { type: 'group-done' }> & { results: ResultsFile });

/** What a finished session gives back. */
export interface SessionResult {
  results: ResultsFile;
  outDir: string;
  resultsPath: string;
  reports: WrittenReports;
  /** where the run was recorded, or null */
  ledger: { path: string; runId: number } | null;
  /** wall time from the start of measuring to the results file (ms) */
  elapsedMs: number;
}

/** Writes a user's payload at a size: their file's bytes (or records generated for `--size`) and the gate's generated second payload. */
function writeUserPayload(
  dir: string,
  payload: ResolvedPayload,
  w: Workload,
  size: number,
  seed: number,
  observe: (e: SessionEvent) => void,
): PayloadFile & { generated: boolean } {
  const texts = payloadTexts(payload, w, size, seed);
  if (texts.variantNote) observe({ type: 'note', message: texts.variantNote });
  // a generated variant gets hostile strings, as the built-in workloads' do; the payload itself (when the
  // variant could not be generated) is left as the user wrote it
  const variant = texts.variantNote ? texts.variant : userVariantText(w, texts.variant);
  return { ...writePayloadTexts(dir, w, size, texts.text, variant), generated: texts.generated };
}

/**
 * Adds to the reason of each deserialize case a library failed on a user's document "at position N"
 * what the payload holds there (payload/explain.ts): valid JSON its parser rejects. Only `single`
 * cases: their input is the document's own text, so the position is one in it.
 */
function explainPayloadRejections(cases: CaseResult[], payload: ResolvedPayload): void {
  for (const c of cases) {
    if ((c.status !== 'incorrect' && c.status !== 'failed') || c.direction !== 'deserialize' || c.shape !== 'single')
      continue;
    const unit = payload.source.units.find((u) => payloadId(u.source) === c.workload);
    const why = unit ? explainRejection(unit.text, c.reason) : null;
    if (why) c.reason = `${c.reason}; ${why}`;
  }
}

/**
 * The payload probes' data of a run on `--payload` (probes/catalog/payload.ts): per workload, its
 * schema and its samples: a document; or, for a folder of samples or an NDJSON file (one
 * workload of records), every sample or record, named as titles say it (`b.json`,
 * `log.ndjson record 7`), of which the probes cover those that add a path or kind of value.
 */
export function payloadProbeSets(payload: ResolvedPayload): PayloadProbeSet[] {
  const { kind, units } = payload.source;
  // an NDJSON unit's source is `file:line`; blank lines are skipped, so record k (its place among the records) can sit
  // on a later line (hx37 p03: "record 4" named the third record, on line 4 after a blank one)
  const name = (source: string, index: number) => {
    const m = /^(.*):(\d+)$/.exec(source);
    if (!m) return basename(source);
    return `${basename(m[1])} record ${index + 1}${Number(m[2]) !== index + 1 ? ` (line ${m[2]})` : ''}`;
  };
  return payload.workloads.map((w) => {
    const records = kind === 'samples' || kind === 'ndjson';
    const unit = payload.source.units.find((u) => payloadId(u.source) === w.id) ?? units[0];
    return {
      workload: w.id,
      file: visibleName(basename(unit.source.replace(/:\d+$/, ''))),
      schema: w.schema,
      sample: unit.value,
      ...(records && units.length > 1
        ? { more: units.slice(1).map((u, i) => ({ name: name(u.source, i + 1), value: u.value })) }
        : {}),
      inferred: payload.origin.library === 'inferred',
    };
  });
}

/** The bytes of a user's payload's text (its file's, or its units' together). */
function payloadBytes(payload: ResolvedPayload): number {
  return payload.source.text?.length ?? payload.source.units.reduce((n, u) => n + u.text.length, 0);
}

/** Records generated from a user's payload's schema (`--size`) at or above this count get a note before and after (3,000,000 take minutes, silently otherwise). */
export const GENERATION_NOTE_RECORDS = 10_000;

/**
 * Writes every payload of a run (each workload × size) into `payloadDir`, keyed by payload key.
 * Generating a user's payload at {@link GENERATION_NOTE_RECORDS} records or more is announced by a
 * `note` before (what and how many) and one after (its bytes and the time it took, s).
 */
export async function writeRunPayloads(
  req: RunRequest,
  payloadDir: string,
  observe: (e: SessionEvent) => void,
): Promise<Map<string, PayloadFile>> {
  const payloads = new Map<string, PayloadFile>();
  for (const w of req.workloads)
    for (const size of sizesFor(w, req.policy, req.sizes)) {
      let p: PayloadFile;
      if (req.payload) {
        const big = size >= GENERATION_NOTE_RECORDS && generatesRecords(req.payload, w, size);
        // a large document's variant (generated from its schema) and its files take seconds: said before and after (hx7)
        const large = !big && payloadBytes(req.payload) >= LARGE_PAYLOAD_BYTES;
        const t0 = performance.now();
        const payload = req.payload;
        const write = () => {
          if (big)
            observe({
              type: 'note',
              message: `generating ${size.toLocaleString('en-US')} records of ${w.id} from its schema (the payload and the gate's second one, seeded)…`,
            });
          if (large)
            observe({
              type: 'note',
              message: `building ${w.id}'s payload files: its text and the gate's variant, generated from its schema…`,
            });
          return writeUserPayload(payloadDir, payload, w, size, req.seed, observe);
        };
        // a stop (Ctrl-C, SIGTERM) during a long generation ends the run at once (hx18 A25); the note is said with the
        // listeners already off, so a stop sent on seeing it is never one a listener took and ran only after the step
        p = big || large ? withDefaultStops(write) : write();
        if (large)
          observe({
            type: 'note',
            message: `built ${w.id}'s payload files in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
          });
        if (big)
          observe({
            type: 'note',
            message: `generated ${w.id} at ${size.toLocaleString('en-US')} records: ${formatBytes(p.bytes)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
          });
      } else {
        p = await writePayload(payloadDir, w, size, req.seed, { configPath: req.workerConfigPath });
        if (!builtinWorkloads.ids.includes(w.id)) checkOwnSchema(w, size, req.seed, p.path);
      }
      payloads.set(p.key, p);
    }
  return payloads;
}

/**
 * A config workload's payload (main and the gate's variant) must fit the workload's own schema (its
 * wire form), checked once before any case runs: one that does not would make every serializer that
 * reads the schema `incorrect` or `failed` for the workload's mistake, with results and ledger rows
 * against the libraries' versions (hostile tester hx1 1.3). Built-in workloads are not checked here
 * (their tests do). Checked as `--schema` is (payload/conform.ts: ajv, formats left to the libraries).
 * @throws WorkloadError naming the workload, build()'s arguments, the JSON path and the value
 */
function checkOwnSchema(w: Workload, size: number, seed: number, path: string): void {
  const schema = wireSchema(w.schema, w.wire?.naming);
  for (const [file, s] of [
    [path, seed],
    [variantPathOf(path), variantSeed(seed)],
  ] as const) {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const units = w.shapes.includes('single') || !Array.isArray(value) ? [value] : value;
    let m: ReturnType<typeof schemaMismatch>;
    try {
      m = schemaMismatch(units, schema);
    } catch (e) {
      throw new WorkloadError(
        `workload ${w.id}: its schema is not one jsonbench reads (${(e as Error).message}): every node needs a \`type\` (object with properties, array with items, string, number, boolean, enum, null, unknown, record, union, discriminated)`,
      );
    }
    if (m)
      throw new WorkloadError(
        `workload ${w.id}: build(${size}, ${s}) does not fit the workload's own schema${units.length > 1 ? ` in record ${m.index}` : ''} at ${m.path}: ${m.problem} (got ${m.got}). Every serializer that reads the schema would be called incorrect or failed for it, so nothing was measured: fix the workload's build() or its schema`,
      );
  }
}

/** What the results file records of a user's payload: one record per workload (a folder's samples: one each). */
function payloadRecords(
  payload: ResolvedPayload,
  files: ReadonlyMap<string, PayloadFile & { generated?: boolean }>,
): PayloadRecord[] {
  const { source, origin } = payload;
  return payload.workloads.map((w) => {
    const unit = source.kind === 'ndjson' ? undefined : source.units.find((u) => w.id === payloadId(u.source));
    const text = unit?.text ?? source.text ?? '';
    const measured = w.sizes
      .map((size) => files.get(payloadKeyOf(w.id, size)))
      .filter((f): f is PayloadFile & { generated?: boolean } => Boolean(f));
    return {
      workload: w.id,
      file: visibleName(basename(unit?.source ?? source.path)),
      kind: source.kind,
      bytes: Buffer.byteLength(text),
      sha256: sha256Of(text),
      units: unit ? 1 : source.units.length,
      payloads: measured.map((f) => ({
        size: Number(f.key.slice(w.id.length + 1)),
        bytes: f.bytes,
        sha256: f.sha256,
        generated: Boolean(f.generated),
      })),
      schema: {
        source: origin.library,
        ...(origin.file ? { file: visibleName(basename(origin.file)) } : {}),
        sha256: sha256Of(JSON.stringify(w.schema)),
        unconverted: origin.unconverted,
      },
      findings: payload.findings.map((f) => ({ kind: f.kind, path: f.path, count: f.count, text: f.text })),
    };
  });
}

/**
 * The key of a group's baseline in the results file's `policy.baselines`: by class for JavaScript
 * (`serialize`), by platform and class otherwise (`dotnet serialize`). Not run/relaunch-rule.ts
 * `baselineKey` (the payload, shape, direction, baseline and target whose baseline means are compared).
 */
function policyBaselineKey(c: { platform: string; caseClass: string }): string {
  return c.platform === 'javascript' ? c.caseClass : `${c.platform} ${c.caseClass}`;
}

/**
 * Loads playwright-core (the chromium target's driver) under the seal's {@link ownImport} when a
 * chromium target is named, before runtimes/chromium.ts imports it (the same module, cached): the
 * graceful-fs inside it wraps `fs.close` and `fs.closeSync` (and `process.cwd` and `chdir`) as it loads, and from 07695bf on the
 * seal took that for user code — every chromium run ended with exit 2 and no results.json. A
 * missing playwright-core is left to the target, which says how to add it.
 */
async function preloadPlaywright(targets: readonly Target[]): Promise<void> {
  if (!targets.some((t) => t.kind === 'chromium')) return;
  await ownImport(
    () => import('playwright-core').catch(() => undefined),
    [
      [fs, 'close', 'fs.close'],
      [fs, 'closeSync', 'fs.closeSync'],
      // graceful-fs's polyfills cache the working directory
      [process, 'cwd', 'process.cwd'],
      [process, 'chdir', 'process.chdir'],
    ],
  );
}

/** The report formats a run writes beside its results file. */
export const RUN_REPORTS = deepFreeze(['md', 'html'] as const);

/**
 * Runs a resolved request to its results file and reports. A misbehaving serializer fails its own
 * case; the session goes on. @throws WorkloadError when a workload cannot build its payload
 * (before anything is measured); file-system errors of the output folder.
 */
export async function runSession(
  req: RunRequest,
  observe: (e: SessionEvent) => void = () => {},
): Promise<SessionResult> {
  // a programmatic run's seal (the CLI took it before loading the config: run/request.ts)
  sealHost();
  const matrix = planCases(
    {
      workloads: req.workloads,
      serializers: req.serializers,
      sizes: req.sizes,
      directions: req.directions,
      policy: req.policy,
      resolveFrom: req.configFile ?? undefined,
      versions: req.versions,
    },
    req.allSerializers,
  );
  // a file this run reads that readying the folder would move aside is refused before anything moves (hx30 out-userfiles)
  const input = inputMovedAside(req.outDir, {
    '--payload': req.payload?.source.path,
    '--schema': req.payload?.origin.file,
    '--config': req.configFile ?? undefined,
  });
  if (input)
    throw new UsageError(
      '--out',
      `${input.path} is this run's ${input.flag}, and a run into ${req.outDir} moves its ${input.file} aside (a run moves the results.json, report.* and payloads/ it finds there to previous-<time>/): choose another --out, or move the file out of the folder (nothing was moved)`,
    );
  makeFolder(req.outDir);
  // one run per output folder (a second run into it is refused: RunLockError); a dead run's lock is taken over
  const lock = lockRunFolder(req.outDir);
  if (lock.tookOver)
    observe({
      type: 'note',
      message: `${req.outDir}: took over the lock of a run that is no longer running (pid ${lock.tookOver.pid ?? '?'}, since ${lock.tookOver.startedAt ?? '?'})`,
    });
  // the build this run runs from is held: scripts/build.mjs refuses to rebuild under it
  const buildDir = fileURLToPath(new URL('../../', import.meta.url));
  const releaseBuild = holdBuild(buildDir, req.outDir);
  const stampAtStart = buildStamp(buildDir);
  const hostFaults = new HostFaults(observe);
  try {
    return await runLocked(req, observe, matrix, hostFaults);
  } catch (e) {
    const replaced = buildReplaced(buildDir, stampAtStart);
    if (replaced) throw new Error(`${replaced}; the run stopped: ${(e as Error)?.message ?? String(e)}`);
    if (e instanceof FileWriteError) e.message += recoveryOf(req.outDir);
    throw e;
  } finally {
    const replaced = buildReplaced(buildDir, stampAtStart);
    if (replaced) observe({ type: 'warning', message: `${replaced}: cases that failed after it may be its doing` });
    releaseBuild();
    lock.release();
    hostFaults.stop();
  }
}

/**
 * Exceptions thrown in jsonbench's own process by code a serializer's hook left running there (a
 * timer armed in supports() or notes(): host/user-code.ts), during a run: each is said once (a
 * warning), and the serializer's cases are failed naming it — in a server the same exception
 * would crash the process (a worker fails the launch for it likewise). A fault of the config's top
 * level (no serializer) is said and fails nothing.
 */
class HostFaults {
  private readonly bySerializer = new Map<string, HostFault>();
  readonly stop: () => void;
  constructor(observe: (e: SessionEvent) => void) {
    this.stop = onHostFault((f) => {
      if (f.scope.serializer && this.bySerializer.has(f.scope.serializer)) return;
      if (f.scope.serializer) this.bySerializer.set(f.scope.serializer, f);
      observe({
        type: 'warning',
        message: `${f.scope.file}: ${f.kind} from code ${f.scope.hook} left running (a timer or callback) in jsonbench's own process, after it returned: ${f.message}${f.scope.serializer ? `; the cases of ${f.scope.serializer} are failed` : ''}`,
      });
    });
  }

  /** Fails `c` (in place) when its serializer's hooks left code that threw in the host. */
  amend(c: CaseResult): void {
    const f = this.bySerializer.get(c.serializer);
    if (!f || c.status === 'unsupported' || c.status === 'failed' || c.status === 'not-run') return;
    const reason = `${f.scope.hook.replace(/ of serializer "[^"]*"/, '')} left code running in jsonbench's own process that threw after it returned (${f.kind}: ${f.message}); a hook that runs in the host (supports(), notes()) must not leave work behind`;
    // a failed case has no numbers (results/types.ts CaseOutcomeSchema); its samples are kept
    for (const k of [...CASE_NUMBERS, 'mismatch']) delete (c as unknown as Record<string, unknown>)[k];
    Object.assign(c, { status: 'failed', reason });
  }
}

/**
 * What a run whose write failed (a full disk: issue 25) tells the user to do, after the error naming
 * the file: with the run's partial files in `outDir` (run/recover.ts), how to get its report back
 * from them; else to free space and run again.
 */
function recoveryOf(outDir: string): string {
  return hasMeasuredCases(outDir)
    ? `; the cases measured so far are kept in ${outDir} (results.partial.jsonl, launches.partial.jsonl): free some space, then \`jsonbench report ${outDir}\` rebuilds the run's report from them`
    : '; no case was finished and kept yet (a launch may be logged, but a report needs a kept case): free some space (or choose another --out) and run again';
}

/** The build's completion stamp (build/.complete, written last by scripts/build.mjs), or null when absent. */
function buildStamp(buildDir: string): string | null {
  try {
    return readFileSync(join(buildDir, '.complete'), 'utf8');
  } catch {
    return null;
  }
}

/** What happened to the build under the run (removed, or rebuilt), or null when it is the one the run started from. */
function buildReplaced(buildDir: string, atStart: string | null): string | null {
  if (atStart === null) return null;
  const now = buildStamp(buildDir);
  if (now === atStart) return null;
  return now === null
    ? `the build this run started from (${buildDir}) was removed while it ran`
    : `the build this run started from (${buildDir}) was rebuilt while it ran`;
}

/**
 * The results file as a run starts it (no case yet): environment, policy with each group's baseline
 * ({@link policyBaselineKey}), execution, git state, targets, payloads and the shard's whole plan.
 */
function startResults(
  req: RunRequest,
  planned: PlannedCase[][],
  targets: PreparedTargets,
  named: boolean,
  payloads: Map<string, PayloadFile>,
): ResultsFile {
  const git = gitState(req.cwd);
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: 'jsonbench',
    startedAt: new Date().toISOString(),
    environment: probeEnvironment(req.policy.profile),
    policy: {
      name: req.policy.name,
      profile: req.policy.profile,
      launches: req.policy.launches,
      maxLaunches: req.policy.maxLaunches,
      seed: req.seed,
      caseTimeoutMs: req.policy.caseTimeoutMs,
      adaptive: req.policy.adaptive,
      measure: req.policy.measure,
      baselines: Object.fromEntries(
        planned.filter((g) => g[0]?.baseline).map((g) => [policyBaselineKey(g[0]), g[0].baseline as string]),
      ),
    },
    execution: executionOf(req.jobs, named ? req.targets : []),
    ...(git ? { git } : {}),
    targets: targets.infos,
    ...(req.payload ? { payloads: payloadRecords(req.payload, payloads) } : {}),
    cases: [],
    ...(req.shard ? { shard: { ...req.shard, plan: planned.flat().map((c) => c.id) } } : {}),
  };
}

/** Says how `--jobs` above 1 runs: pinned (a note) or unpinned (a warning). */
function noteExecution(ex: NonNullable<ResultsFile['execution']>, observe: (e: SessionEvent) => void): void {
  if (ex.jobs > 1)
    observe(
      ex.pinning === 'taskset'
        ? {
            type: 'note',
            message: `--jobs ${ex.jobs}: ${ex.jobs} groups at once, pinned to CPUs ${ex.cpus!.join(', ')} (taskset)${ex.note ? `; ${ex.note}` : ''}`,
          }
        : {
            type: 'warning',
            message: `--jobs ${ex.jobs}: groups run at once but unpinned (${ex.note}); they may take turns on a core`,
          },
    );
}

/**
 * Readies the output folder: a killed run's kept cases and a finished run's results there are moved
 * aside (each said in a warning), and the partial files are started empty. Returns their paths.
 */
function readyOutFolder(
  outDir: string,
  observe: (e: SessionEvent) => void,
): { partialPath: string; launchLogPath: string } {
  const partialPath = join(outDir, RUN_PARTIAL.cases);
  const launchLogPath = join(outDir, RUN_PARTIAL.launches);
  // a killed run's kept cases in this folder are moved aside, never overwritten (measured results are never lost)
  // a partial file that is a symbolic link was not written by a run (hx20 a05: announced as a killed run's cases)
  const links = Object.values(RUN_PARTIAL).filter((f) => {
    try {
      return lstatSync(join(outDir, f)).isSymbolicLink();
    } catch {
      return false;
    }
  });
  const kept = keepKilledRun(outDir);
  if (kept)
    observe({
      type: 'warning',
      message: links.length
        ? `${outDir} held ${links.join(', ')} as symbolic link${links.length === 1 ? '' : 's'}, not files a run writes: moved to ${kept}, what ${links.length === 1 ? 'it points' : 'they point'} to untouched`
        : `${outDir} held a killed run's measured cases: moved to ${kept} (\`jsonbench report ${kept}\` rebuilds it)`,
    });
  // partial files without their header (no rebuild possible) are moved aside too, never emptied
  const stray = keepStrayPartials(outDir);
  if (stray)
    observe({
      type: 'warning',
      message: `${outDir} held ${stray.files.join(', ')} without the run.partial.json they belong to (nothing to rebuild a run from): moved to ${stray.to}, nothing overwritten`,
    });
  // and a finished run's results.json and reports likewise (docs/running.md, "The output folder")
  const previous = keepFinishedRun(outDir);
  if (previous)
    observe({
      type: 'warning',
      message: keptRunSentence(outDir, previous),
    });
  writeFileNamed(partialPath, '');
  writeFileNamed(launchLogPath, '');
  return { partialPath, launchLogPath };
}

/** The optional passes over the measured cases: cold start (`--metric cold-start`) and instruction counts (valgrind). */
async function extraPasses(
  req: RunRequest,
  cases: CaseResult[],
  payloads: Map<string, PayloadFile>,
  prepared: PreparedTargets,
  ledger: RunRecorder | null,
  cpus: number[] | undefined,
  observe: (e: SessionEvent) => void,
): Promise<void> {
  if (req.coldStartProcesses > 0) {
    observe({
      type: 'note',
      message: `cold start: ${req.coldStartProcesses} fresh process${req.coldStartProcesses === 1 ? '' : 'es'} per measured case`,
    });
    await runColdStartPass({
      cases,
      processes: req.coldStartProcesses,
      payloadOf: (c) => payloads.get(payloadKeyOf(c.workload, c.size)),
      launchFor: prepared.launchFor,
      configPath: req.workerConfigPath,
      measure: req.policy.measure,
      timeoutMs: req.policy.caseTimeoutMs,
      jobs: req.jobs,
      ...(cpus ? { cpus } : {}),
      onProgress: observe,
    });
  }
  if (req.valgrind) {
    await runInstructionsPass(
      {
        cases,
        payloadOf: (c) => payloads.get(payloadKeyOf(c.workload, c.size)),
        configPath: req.workerConfigPath,
        log: (message) => observe({ type: 'note', message }),
        onCounted: (c) => ledger?.addInstructions(c),
        jobs: req.jobs,
      },
      req.valgrind,
    );
  }
}

/** How the note after timing names the reports written (hx26 K4: under `ulimit -f` it said "and the reports" while report.html was not): " and the reports", " and report.md (report.html was not written)", "; the reports were not written". */
function reportsSaid(reports: WrittenReports): string {
  const failed = reports.failed.map((f) => `report.${f.format}`);
  if (!failed.length) return ' and the reports';
  const written = Object.keys(reports.written).map((f) => `report.${f}`);
  if (!written.length) return `; ${failed.join(' and ')} ${failed.length === 1 ? 'was' : 'were'} not written`;
  return ` and ${written.join(' and ')} (${failed.join(' and ')} ${failed.length === 1 ? 'was' : 'were'} not written)`;
}

/**
 * Runs the probe pass after the measured results and their reports are written, then writes both
 * again with the probe matrix; a pass that fails, or user code that changed the process during it,
 * leaves them as they are (a warning says why). Returns the reports last written.
 * @param io.sealHolds '' while no user code changed jsonbench's process, else what changed
 */
async function withProbeMatrix(
  req: RunRequest,
  observe: (e: SessionEvent) => void,
  results: ResultsFile,
  io: {
    probe: ProbePassContext;
    sealHolds: () => string;
    amend: (c: CaseResult) => void;
    write: () => void;
    report: () => WrittenReports;
  },
): Promise<WrittenReports> {
  let reports = io.report();
  if (req.probes && io.probe.probePayload)
    observe({
      type: 'note',
      message: `results written to ${join(req.outDir, 'results.json')}${reportsSaid(reports)}; the probe pass adds its matrix to ${reports.failed.length && !Object.keys(reports.written).length ? 'it' : 'them'} when it ends`,
      resultsPath: join(req.outDir, 'results.json'),
    });
  const probed = await probePass(req, observe, io.probe).catch((e: unknown) => {
    // an optional pass never costs the measured results: they are written; say what went wrong
    observe({
      type: 'warning',
      message: `the probe pass failed (${(e as Error)?.message ?? String(e)}): results.json and the reports have no probe matrix`,
    });
    return undefined;
  });
  const tampered = probed ? io.sealHolds() : '';
  if (probed && tampered)
    observe({
      type: 'warning',
      message: `user code changed jsonbench's own process during the probe pass: ${tampered} (put back); the probe matrix is left out`,
    });
  // the pass ended (with a matrix or without one): the file no longer says it is pending
  if (!results.probePending && !(probed && !tampered)) return reports;
  const before = { finishedAt: results.finishedAt, end: results.environment.loadAverage.end };
  delete results.probePending;
  if (probed && !tampered) {
    for (const c of results.cases) io.amend(c);
    results.probes = probed;
    results.finishedAt = new Date().toISOString();
    results.environment.loadAverage.end = loadAverageNow();
  }
  try {
    io.write();
  } catch (e) {
    // results.json is written whole or not at all (files/write-file.ts): the one written when timing ended stands, and
    // the run with it (hx27 d01b: a disk that filled during the probe pass read "no case was finished and kept", exit 2)
    delete results.probes;
    results.probePending = true;
    results.finishedAt = before.finishedAt;
    results.environment.loadAverage.end = before.end;
    observe({
      type: 'warning',
      message: `the probe matrix could not be added to results.json (${(e as Error)?.message ?? String(e)}): results.json and the reports written when timing ended are kept, without it`,
    });
    return reports;
  }
  return io.report();
}

async function runLocked(
  req: RunRequest,
  observe: (e: SessionEvent) => void,
  matrix: ReturnType<typeof planCases>,
  hostFaults: HostFaults,
): Promise<SessionResult> {
  // a finished or killed run in the folder is moved aside first, its payloads/ with it, before this run's are written
  // (hx29 O-payclob: the moved run's payload of the same name was replaced by this run's bytes)
  const { partialPath, launchLogPath } = readyOutFolder(req.outDir, observe);
  const payloads = await writeRunPayloads(req, join(req.outDir, 'payloads'), observe);
  const payloadSets = req.payload ? payloadProbeSets(req.payload) : [];
  const netProbes = dotnetProbesOf(req);
  const probePayload = req.probes
    ? writeProbePayload(join(req.outDir, 'payloads'), req.probes.conformance, payloadSets, netProbes.probes)
    : null;
  const named = req.targets.length > 0;
  let targets: PreparedTargets | null = null;
  try {
    await preloadPlaywright(req.targets);
    targets = await prepareTargets(
      named ? req.targets : [parseTarget(DEFAULT_TARGET)],
      {
        cacheDir: defaultCacheDir(),
        bundleDir: join(req.outDir, 'worker'),
        payloadPaths: [...[...payloads.values()].map((p) => p.path), ...(probePayload ? [probePayload] : [])],
        chromiumPath: req.chromiumPath,
        workloads: req.workloads,
        profile: req.policy.profile,
        serializers: req.serializers.map((s) => s.id),
      },
      (line) => {
        if (named) observe({ type: 'note', message: line });
      },
    );
    const planned = expandTargets(
      matrix,
      targets.platforms.map((p) => ({
        target: p.ref,
        platform: p.platform,
        ...(p.serializerVersions ? { serializerVersions: p.serializerVersions } : {}),
      })),
      named,
    );
    // a shard measures every count-th group, and records the whole plan's case ids for `jsonbench merge`
    const groups = req.shard ? shardGroups(planned, req.shard) : planned;
    const results = startResults(req, planned, targets, named, payloads);
    noteExecution(results.execution!, observe);
    // what `jsonbench report <folder>` needs to rebuild the run if the host is killed (run/recover.ts)
    const snapshot = writeRunSnapshot(req.outDir, { results, groups, payloads: [...payloads.values()] });
    const snapshotPath = snapshot.path;
    // each line of the partial files signed as it is appended (run/partial-mac.ts): a killed run's rebuild is checked
    const signer = new PartialSigner(req.outDir, snapshot.text);
    const ledger = req.ledgerPath
      ? startRunRecorder(req.ledgerPath, results, req.outDir, req.cwd, (m) => observe({ type: 'warning', message: m }))
      : null;
    observe({ type: 'started', outDir: req.outDir, partialPath, launchLogPath, cases: groups.flat().length });
    const t0 = performance.now();
    const prepared = targets;
    // what user code changed in this process after its guarded call returned (a timer, a promise): seen
    // at each finished case, which is then no longer recorded, and before results.json (config/host-guard.ts)
    let tampered = '';
    const sealHolds = () => (tampered ||= checkHostSeal()) === '';
    results.cases = await runGroups({
      groups,
      payloads,
      policy: req.policy,
      configPath: req.workerConfigPath,
      partialPath,
      launchLogPath,
      signer,
      launchFor: prepared.launchFor,
      faultOf: prepared.faultOf,
      jobs: req.jobs,
      ...(results.execution?.cpus ? { cpus: results.execution.cpus } : {}),
      amend: (c) => hostFaults.amend(c),
      onProgress: (e) => {
        if (e.type === 'case-done' && sealHolds()) ledger?.record(e.result);
        observe(e.type === 'group-done' ? { ...e, results: { ...results, cases: e.cases } } : e);
      },
    });
    // a fault that came after a case finished fails it too
    for (const c of results.cases) hostFaults.amend(c);
    if (req.payload) explainPayloadRejections(results.cases, req.payload);
    for (const note of explainAllTimedOut(results.cases, req.policy, payloads))
      observe({ type: 'note', message: note });
    await extraPasses(req, results.cases, payloads, prepared, ledger, results.execution?.cpus, observe);
    // the measured results are written now, before anything optional runs (the probe pass): a run
    // whose probe pass is slow, hangs or is killed keeps its results.json and reports
    results.finishedAt = new Date().toISOString();
    results.environment.loadAverage.end = loadAverageNow();
    if (!sealHolds())
      throw new HostPatched(
        'user code (a timer or a promise armed by a config, a serializer or a schema module)',
        tampered,
        `: the numbers this process handled after the change cannot be trusted, so results.json and the reports were not written`,
      );
    // jStat is frozen before user code loads (case/stats-seal.ts); its quantiles checked before any interval is written
    if (!statisticsIntact())
      throw new Error(
        "user code changed the statistics jsonbench computes its intervals with (jStat's t, normal or F quantiles are no longer right): results.json and the reports were not written",
      );
    const history = ledger?.historyOf(results.cases) ?? [];
    const resultsPath = join(req.outDir, 'results.json');
    // the hash of the results file last written goes to the ledger (results/integrity.ts)
    // a run killed during its probe pass leaves this file: it says the pass had not finished (hx27 k03)
    if (req.probes && probePayload) results.probePending = true;
    let resultsSha = writeSealed(resultsPath, results);
    rmSync(partialPath, { force: true });
    rmSync(launchLogPath, { force: true });
    rmSync(snapshotPath, { force: true });
    rmSync(join(req.outDir, RUN_PARTIAL.mac), { force: true });
    const warned = new Set<string>();
    const report = () => {
      const written = writeReports(req.outDir, [results], RUN_REPORTS, { history });
      // sealed as written: a config's timer or exit listener changing them before the process ends is undone (files/process-end.ts)
      for (const path of Object.values(written.written)) if (path) sealWritten(path);
      for (const f of written.failed) {
        const message = `the ${f.format} report was not written: ${f.error}`;
        if (!warned.has(message)) observe({ type: 'warning', message });
        warned.add(message);
      }
      return written;
    };
    const reports = await withProbeMatrix(req, observe, results, {
      probe: { matrix, prepared, probePayload, cases: results.cases, payloadSets, netProbes },
      sealHolds: () => (sealHolds() ? '' : tampered),
      amend: (c) => hostFaults.amend(c),
      write: () => {
        resultsSha = writeSealed(resultsPath, results);
      },
      report,
    });
    ledger?.finish(results, resultsSha);
    return {
      results,
      outDir: req.outDir,
      resultsPath,
      reports,
      ledger: ledger ? { path: ledger.path, runId: ledger.runId } : null,
      elapsedMs: performance.now() - t0,
    };
  } finally {
    await targets?.close();
  }
}

const builtinSerializerIds = builtinSerializers.ids;

/** Writes results.json (and its .sha256 sidecar) and seals both at once (files/process-end.ts): what the process ends with is what was written. Returns the SHA-256 of the text written. */
function writeSealed(resultsPath: string, results: ResultsFile): string {
  const sha = namedWrite(resultsPath, () => writeResults(resultsPath, results));
  sealWritten(resultsPath);
  sealWritten(sidecarPath(resultsPath));
  return sha;
}

/** Targets whose workers are local processes a CPU mask reaches (Chromium's page and ssh's remote worker are not). */
const PINNABLE = new Set(['node-host', 'node-version', 'bun', 'deno', 'quickjs']);

/**
 * How groups are scheduled: `jobs` at once, each slot pinned to a CPU of its own when jobs > 1 and
 * taskset can (one group at a time runs unpinned, as it always did: V8's helper threads may use
 * the other cores).
 */
function executionOf(jobs: number, targets: readonly Target[]): Execution {
  if (jobs === 1) return { jobs, pinning: 'none', note: 'one group at a time, unpinned' };
  const pinning = cpuPinning();
  if (pinning.tool === 'none') return { jobs, pinning: 'none', note: pinning.reason };
  const cpus = slotCpus(jobs);
  if (!cpus) return { jobs, pinning: 'none', note: `this process may run on fewer than ${jobs} CPUs (taskset -cp)` };
  const unpinned = targets.filter((t) => !PINNABLE.has(t.kind)).map((t) => t.id);
  return {
    jobs,
    pinning: 'taskset',
    cpus,
    ...(unpinned.length ? { note: `not pinned: ${unpinned.join(', ')} (not a local worker process)` } : {}),
  };
}

/** What the probe pass of a run needs from its session. */
interface ProbePassContext {
  matrix: ReturnType<typeof planCases>;
  prepared: PreparedTargets;
  probePayload: string | null;
  /** the run's measured cases: a serializer that hung or crashed in one is not probed */
  cases: readonly CaseResult[];
  /** the payload probes' data of a `--payload` run (empty otherwise) */
  payloadSets: PayloadProbeSet[];
  /** the .NET probes relevant to the payloads ({@link dotnetProbesOf}) */
  netProbes: ReturnType<typeof dotnetProbesOf>;
}

/** The probe families a run's pass asks (conformance with a folder, payload probes on a `--payload` run). */
function passFamilies(req: RunRequest, payloadSets: readonly PayloadProbeSet[]): ProbeFamily[] {
  return PROBE_FAMILIES.filter(
    (f) => (f !== 'conformance' || req.probes?.conformance) && (f !== 'payload' || payloadSets.length),
  );
}

/**
 * The .NET probes relevant to a run's payloads (probes/dotnet/catalog.ts, chosen as the JavaScript ones
 * are: plan/probe-plan.ts `isRelevant`), when the run probes and has a .NET target and a .NET serializer;
 * else none. Their cells go into the probe file before the targets are prepared.
 */
function dotnetProbesOf(req: RunRequest): { probes: DotnetProbe[]; relevantTo: Record<string, string[]> } {
  const none = { probes: [], relevantTo: {} };
  if (!req.probes || !req.targets.some((t) => t.platform === 'dotnet')) return none;
  if (!req.serializers.some((s) => platformOf(s) === 'dotnet')) return none;
  const conformance = req.probes.conformance;
  return relevantProbes(
    dotnetCatalog({ families: passFamilies(req, []), ...(conformance ? { conformance: conformance.set } : {}) }),
    req.workloads,
  ) as { probes: DotnetProbe[]; relevantTo: Record<string, string[]> };
}

/**
 * The probes relevant to the payloads, for every serializer of the run (run/probe-pass.ts), after
 * the results are written: bounded by `req.probes.budgetMs` (default {@link DEFAULT_PROBE_BUDGET_MS})
 * and skipping the serializers whose timed case hung or crashed. Undefined when no pass runs.
 */
async function probePass(
  req: RunRequest,
  observe: (e: SessionEvent) => void,
  { matrix, prepared, probePayload, cases, payloadSets, netProbes }: ProbePassContext,
): Promise<ResultsFile['probes']> {
  if (!req.probes || !probePayload) return undefined;
  let section: ResultsFile['probes'];
  // The probes relevant to the payloads' schemas, for every serializer of the run: what the fast choice costs in behaviour.
  const conformance = req.probes.conformance;
  const families = passFamilies(req, payloadSets);
  const chosen = relevantProbes(
    loadCatalog({
      families,
      ...(conformance ? { conformance: conformance.set } : {}),
      ...(payloadSets.length ? { payload: payloadSets } : {}),
    }),
    req.workloads,
  );
  // Every serializer with a case in the run, class baselines included (a recommendation weighs a choice against its baseline's verdicts).
  const inRun = new Set(matrix.flat().map((c) => c.serializer));
  // JavaScript serializers only: the probes run in the lab's JavaScript workers
  const adapters = [
    ...req.serializers,
    ...req.allSerializers.filter((a) => inRun.has(a.id) && !req.serializers.some((s) => s.id === a.id)),
  ].filter((a): a is SerializerAdapter => platformOf(a) === 'javascript');
  const onPlatform = (p: string) => prepared.platforms.some((x) => x.platform === p);
  const rows = onPlatform('javascript')
    ? adapters.map((adapter) => ({
        adapter,
        label: adapter.id,
        version: serializerVersion(adapter, req.versions, req.configFile ?? undefined),
      }))
    : [];
  // .NET serializers with a case in the run: their probes run in the C# worker of each .NET target (probes/dotnet/)
  const loaded = (targetId: string) => prepared.platforms.find((p) => p.ref.id === targetId)?.serializerVersions;
  const netRows: DotnetProbeRow[] = netProbes.probes.length
    ? [
        ...req.serializers,
        ...req.allSerializers.filter((a) => inRun.has(a.id) && !req.serializers.some((s) => s.id === a.id)),
      ]
        .filter((a) => platformOf(a) === 'dotnet' && inRun.has(a.id))
        .map((serializer) => ({
          serializer,
          label: serializer.id,
          version: (targetId: string) =>
            req.versions?.get(serializer.id) ?? loaded(targetId)?.[serializer.id] ?? LOADED_BY_TARGET,
        }))
    : [];
  if (!rows.length && !netRows.length)
    observe({
      type: 'note',
      message: 'probes: none (no serializer of this run on a target its probes run on)',
    });
  else {
    observe({
      type: 'note',
      message: `probes: ${[...(rows.length ? [`${chosen.probes.length} relevant to the payloads × ${countOf(rows.length, 'serializer')}`] : []), ...(netRows.length ? [`${netProbes.probes.length} .NET probes × ${countOf(netRows.length, '.NET serializer')}`] : [])].join(', ')} (untimed)…`,
    });
    const t1 = performance.now();
    section = await runProbePass({
      selection: 'relevant',
      families,
      probes: chosen.probes,
      rows,
      directions: req.directions,
      targets: prepared.refs,
      launchFor: (t) => prepared.launchFor({ target: t }),
      faultOf: (t) => prepared.faultOf({ target: t }),
      payloadPath: probePayload,
      conformance,
      configPath: req.workerConfigPath,
      timeoutMs: req.probes.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      budgetMs: req.probes.budgetMs ?? DEFAULT_PROBE_BUDGET_MS,
      skip: unprobed(cases),
      skipAfterHang: true,
      relevantTo: mergeRelevance(chosen.relevantTo, netRows.length ? netProbes.relevantTo : {}),
      ...(netRows.length ? { dotnet: { rows: netRows, probes: netProbes.probes } } : {}),
      onNote: (message) => observe({ type: 'note', message }),
      // Built-in serializers on built-in probes only, and never with a config (its top level runs in the probe worker and could change what a built-in does).
      ...(req.probes.cache && !req.workerConfigPath && !req.configFile
        ? {
            cache: {
              store: new ProbeVerdictCache(join(defaultCacheDir(), 'probe-verdicts')),
              cacheable: (row: { label: string; adapter: { id: string } }) =>
                row.label === row.adapter.id && builtinSerializerIds.includes(row.label),
            },
          }
        : {}),
    });
    const failing = section.verdicts.filter((v) => v.verdict.mark === '✗' || v.verdict.mark === '⚠').length;
    const skipped = section.verdicts.filter((v) => v.verdict.mark === '–' && v.verdict.reason.startsWith('skipped: '));
    const fromCache = section.cache?.hits ? `, ${section.cache.hits} read from the verdict cache` : '';
    const skips = skipped.length
      ? `, ${skipped.length} skipped (${[...new Set(skipped.map((v) => (v.verdict as { reason: string }).reason.slice(9)))].slice(0, 3).join('; ')})`
      : '';
    observe({
      type: 'note',
      message: `probes: ${countOf(section.verdicts.length, 'verdict')} (${failing} failing${fromCache}${skips}) in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    });
  }
  return section;
}

/** Probe id → workloads, of the JavaScript and the .NET probes of a pass together. */
function mergeRelevance(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = { ...a };
  for (const [id, ws] of Object.entries(b)) out[id] = [...new Set([...(out[id] ?? []), ...ws])];
  return out;
}

/**
 * The serializers (by row label) whose probes are skipped, with why: one that hung (timeout) or
 * crashed in a timed case would most likely cost every probe a full timeout (issue 25).
 */
function unprobed(cases: readonly CaseResult[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of cases)
    if ((c.status === 'timeout' || c.status === 'crashed') && !out.has(c.serializer))
      out.set(c.serializer, `it ${c.status === 'timeout' ? 'hung' : 'crashed'} in its timed case ${c.id}`);
  return out;
}
