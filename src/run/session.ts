/**
 * A run session: the one place a run is orchestrated. A resolved request in (run/request.ts), a
 * results file out, events to an observer on the way:
 *
 *   plan (with the version matrix) → payloads → targets prepared and placed → ledger opened →
 *   groups run (each finished case appended to results.partial.jsonl and recorded in the ledger)
 *   → instruction counts → the probes relevant to the payloads (run/probe-pass.ts; never timed)
 *   → results.json → report.md and report.html (pure renderers) → done.
 *
 * It prints nothing: the CLI (cli/run.ts) and the programmatic `run()` (src/index.ts) observe it.
 */
import { platformOf, type SerializerAdapter } from '../serializers/types.js';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, join } from 'node:path';
import { makeFolder } from '../files/make-folder.js';
import { planCases, sizesFor } from '../plan/plan.js';
import { payloadKeyOf, writePayload, writePayloadTexts, type PayloadFile } from '../plan/payloads.js';
import { generatesRecords, payloadId, payloadTexts, sha256Of, type ResolvedPayload } from '../payload/workload.js';
import type { Workload } from '../workloads/types.js';
import { expandTargets } from '../plan/targets.js';
import { DEFAULT_TARGET, parseTarget } from '../runtimes/index.js';
import { prepareTargets, type PreparedTargets } from '../runtimes/prepare.js';
import { defaultCacheDir } from '../runtimes/cache.js';
import { probeEnvironment } from '../runtimes/node-host.js';
import { runInstructionsPass } from '../instructions/pass.js';
import { RESULTS_SCHEMA_VERSION, type Execution, type PayloadRecord, type ResultsFile } from '../results/types.js';
import { writeResults } from '../results/io.js';
import { startRunRecorder } from '../ledger/run-ledger.js';
import { writeReports, type WrittenReports } from '../report/write.js';
import { countOf, formatBytes } from '../report/units.js';
import { runGroups, type ProgressEvent } from './runner.js';
import { DEFAULT_PROBE_TIMEOUT_MS, runProbePass, writeProbePayload } from './probe-pass.js';
import { ProbeVerdictCache } from './probe-cache.js';
import { serializers as builtinSerializers } from '../serializers/index.js';
import { relevantProbes } from '../plan/probe-plan.js';
import { serializerVersion } from '../plan/plan.js';
import { loadCatalog } from '../probes/index.js';
import { PROBE_FAMILIES } from '../case/probe.js';
import { runColdStartPass } from './cold-start.js';
import { cpuPinning, slotCpus } from '../runtimes/pinning.js';
import type { Target } from '../runtimes/types.js';
import { keepKilledRun, RUN_PARTIAL, writeRunSnapshot } from './recover.js';
import type { RunRequest } from './request.js';

/** What a session tells its observer, in order: notes while preparing, `started`, progress, notes after. */
export type SessionEvent =
  | { type: 'note'; message: string }
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
): PayloadFile & { generated: boolean } {
  const texts = payloadTexts(payload, w, size, seed);
  return { ...writePayloadTexts(dir, w, size, texts.text, texts.variant), generated: texts.generated };
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
        const t0 = performance.now();
        if (big)
          observe({
            type: 'note',
            message: `generating ${size.toLocaleString('en-US')} records of ${w.id} from its schema (the payload and the gate's second one, seeded)…`,
          });
        p = writeUserPayload(payloadDir, req.payload, w, size, req.seed);
        if (big)
          observe({
            type: 'note',
            message: `generated ${w.id} at ${size.toLocaleString('en-US')} records: ${formatBytes(p.bytes)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
          });
      } else p = await writePayload(payloadDir, w, size, req.seed, { configPath: req.workerConfigPath });
      payloads.set(p.key, p);
    }
  return payloads;
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
      file: basename(unit?.source ?? source.path),
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
        ...(origin.file ? { file: basename(origin.file) } : {}),
        unconverted: origin.unconverted,
      },
      findings: payload.findings.map((f) => ({ kind: f.kind, path: f.path, count: f.count, text: f.text })),
    };
  });
}

/** How the results file names a group's baseline: by class for JavaScript (`serialize`), by platform and class otherwise (`dotnet serialize`). */
function baselineKey(c: { platform: string; caseClass: string }): string {
  return c.platform === 'javascript' ? c.caseClass : `${c.platform} ${c.caseClass}`;
}

/** The report formats a run writes beside its results file. */
export const RUN_REPORTS = ['md', 'html'] as const;

/**
 * Runs a resolved request to its results file and reports. A misbehaving serializer fails its own
 * case; the session goes on. @throws WorkloadError when a workload cannot build its payload
 * (before anything is measured); file-system errors of the output folder.
 */
export async function runSession(
  req: RunRequest,
  observe: (e: SessionEvent) => void = () => {},
): Promise<SessionResult> {
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
  makeFolder(req.outDir);
  const payloads = await writeRunPayloads(req, join(req.outDir, 'payloads'), observe);
  const probePayload = req.probes ? writeProbePayload(join(req.outDir, 'payloads'), req.probes.conformance) : null;
  const named = req.targets.length > 0;
  let targets: PreparedTargets | null = null;
  try {
    targets = await prepareTargets(
      named ? req.targets : [parseTarget(DEFAULT_TARGET)],
      {
        cacheDir: defaultCacheDir(),
        bundleDir: join(req.outDir, 'worker'),
        payloadPaths: [...[...payloads.values()].map((p) => p.path), ...(probePayload ? [probePayload] : [])],
        chromiumPath: req.chromiumPath,
        workloads: req.workloads,
        serializers: req.serializers.map((s) => s.id),
      },
      (line) => {
        if (named) observe({ type: 'note', message: line });
      },
    );
    const groups = expandTargets(
      matrix,
      targets.platforms.map((p) => ({
        target: p.ref,
        platform: p.platform,
        ...(p.serializerVersions ? { serializerVersions: p.serializerVersions } : {}),
      })),
      named,
    );
    const results: ResultsFile = {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      tool: 'jsonbench',
      startedAt: new Date().toISOString(),
      environment: probeEnvironment(),
      policy: {
        name: req.policy.name,
        launches: req.policy.launches,
        maxLaunches: req.policy.maxLaunches,
        seed: req.seed,
        caseTimeoutMs: req.policy.caseTimeoutMs,
        measure: req.policy.measure,
        baselines: Object.fromEntries(
          groups.filter((g) => g[0]?.baseline).map((g) => [baselineKey(g[0]), g[0].baseline as string]),
        ),
      },
      execution: executionOf(req.jobs, named ? req.targets : []),
      targets: targets.infos,
      ...(req.payload ? { payloads: payloadRecords(req.payload, payloads) } : {}),
      cases: [],
    };
    const ex = results.execution!;
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
    const partialPath = join(req.outDir, RUN_PARTIAL.cases);
    const launchLogPath = join(req.outDir, RUN_PARTIAL.launches);
    // a killed run's kept cases in this folder are moved aside, never overwritten (measured results are never lost)
    const kept = keepKilledRun(req.outDir);
    if (kept)
      observe({
        type: 'warning',
        message: `${req.outDir} held a killed run's measured cases: moved to ${kept} (\`jsonbench report ${kept}\` rebuilds it)`,
      });
    writeFileSync(partialPath, '');
    writeFileSync(launchLogPath, '');
    // what `jsonbench report <folder>` needs to rebuild the run if the host is killed (run/recover.ts)
    const snapshotPath = writeRunSnapshot(req.outDir, { results, groups, payloads: [...payloads.values()] });
    const ledger = req.ledgerPath
      ? startRunRecorder(req.ledgerPath, results, req.outDir, req.cwd, (m) => observe({ type: 'warning', message: m }))
      : null;
    observe({ type: 'started', outDir: req.outDir, partialPath, launchLogPath, cases: groups.flat().length });
    const t0 = performance.now();
    const prepared = targets;
    results.cases = await runGroups({
      groups,
      payloads,
      policy: req.policy,
      configPath: req.workerConfigPath,
      partialPath,
      launchLogPath,
      launchFor: prepared.launchFor,
      faultOf: prepared.faultOf,
      jobs: req.jobs,
      ...(results.execution?.cpus ? { cpus: results.execution.cpus } : {}),
      onProgress: (e) => {
        if (e.type === 'case-done') ledger?.record(e.result);
        observe(e.type === 'group-done' ? { ...e, results: { ...results, cases: e.cases } } : e);
      },
    });
    if (req.coldStartProcesses > 0) {
      observe({
        type: 'note',
        message: `cold start: ${req.coldStartProcesses} fresh process${req.coldStartProcesses === 1 ? '' : 'es'} per measured case`,
      });
      await runColdStartPass({
        cases: results.cases,
        processes: req.coldStartProcesses,
        payloadOf: (c) => payloads.get(payloadKeyOf(c.workload, c.size)),
        launchFor: prepared.launchFor,
        configPath: req.workerConfigPath,
        measure: req.policy.measure,
        timeoutMs: req.policy.caseTimeoutMs,
        jobs: req.jobs,
        ...(results.execution?.cpus ? { cpus: results.execution.cpus } : {}),
        onProgress: observe,
      });
    }
    if (req.valgrind) {
      await runInstructionsPass(
        {
          cases: results.cases,
          payloadOf: (c) => payloads.get(payloadKeyOf(c.workload, c.size)),
          configPath: req.workerConfigPath,
          log: (message) => observe({ type: 'note', message }),
          onCounted: (c) => ledger?.addInstructions(c),
          jobs: req.jobs,
        },
        req.valgrind,
      );
    }
    if (req.probes && probePayload) {
      // The probes relevant to the payloads' schemas, for every serializer of the run: what the fast choice costs in behaviour.
      const conformance = req.probes.conformance;
      const families = PROBE_FAMILIES.filter((f) => f !== 'conformance' || conformance);
      const chosen = relevantProbes(
        loadCatalog({ families, ...(conformance ? { conformance: conformance.set } : {}) }),
        req.workloads,
      );
      // Every serializer with a case in the run, class baselines included (a recommendation weighs a choice against its baseline's verdicts).
      const inRun = new Set(matrix.flat().map((c) => c.serializer));
      // JavaScript serializers only: the probes run in the lab's JavaScript workers
      const adapters = [
        ...req.serializers,
        ...req.allSerializers.filter((a) => inRun.has(a.id) && !req.serializers.some((s) => s.id === a.id)),
      ].filter((a): a is SerializerAdapter => platformOf(a) === 'javascript');
      const rows = adapters.map((adapter) => ({
        adapter,
        label: adapter.id,
        version: serializerVersion(adapter, req.versions, req.configFile ?? undefined),
      }));
      // the probes run in JavaScript workers: a run on .NET or Mono targets alone has nothing to probe
      if (!prepared.platforms.some((p) => p.platform === 'javascript'))
        observe({
          type: 'note',
          message:
            "probes: none (no JavaScript target in this run: the probes are JavaScript's; .NET serializers are not probed)",
        });
      else {
        observe({
          type: 'note',
          message: `probes: ${chosen.probes.length} relevant to the payloads × ${countOf(rows.length, 'serializer')} (untimed)…`,
        });
        const t1 = performance.now();
        results.probes = await runProbePass({
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
          timeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
          relevantTo: chosen.relevantTo,
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
        const failing = results.probes.verdicts.filter((v) => v.verdict.mark === '✗' || v.verdict.mark === '⚠').length;
        const fromCache = results.probes.cache?.hits
          ? `, ${results.probes.cache.hits} read from the verdict cache`
          : '';
        observe({
          type: 'note',
          message: `probes: ${countOf(results.probes.verdicts.length, 'verdict')} (${failing} failing${fromCache}) in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
        });
      }
    }
    results.finishedAt = new Date().toISOString();
    results.environment.loadAverage.end = os.loadavg();
    const history = ledger?.historyOf(results.cases) ?? [];
    ledger?.finish(results);
    const resultsPath = join(req.outDir, 'results.json');
    writeResults(resultsPath, results);
    rmSync(partialPath, { force: true });
    rmSync(launchLogPath, { force: true });
    rmSync(snapshotPath, { force: true });
    const reports = writeReports(req.outDir, [results], RUN_REPORTS, { history });
    for (const f of reports.failed)
      observe({ type: 'warning', message: `the ${f.format} report was not written: ${f.error}` });
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
