import { appendFileSync, existsSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import os from 'node:os';
import cliProgress from 'cli-progress';
import { policies, type RunPolicy } from '../config/policies.js';
import { findConfig, prepareConfig } from '../config/compile-config.js';
import { makeFolder } from '../config/out-dir.js';
import type { UserConfig } from '../config/user-config.js';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import type { Direction } from '../workloads/types.js';
import { planCases, sizesFor } from '../plan/plan.js';
import { writePayload, type PayloadFile } from '../plan/payloads.js';
import { runGroups, type ProgressEvent } from '../run/runner.js';
import { probeEnvironment } from '../results/environment.js';
import { RESULTS_SCHEMA_VERSION, type ResultsFile } from '../results/types.js';
import { writeResults } from '../results/io.js';
import { renderTerminal } from '../report/terminal.js';
import { writeReports } from './report.js';
import { checkChoices, splitList, UsageError } from './usage-error.js';
import { resolveLedgerPath, startRunRecorder } from '../ledger/run-ledger.js';
import { applyVariantVersions, prepareVersionMatrix } from './serializer-versions.js';
import { requireValgrind, runInstructionsPass } from '../instructions/pass.js';
import { renderInstructions } from '../instructions/render.js';
import { parseTargets } from '../runtimes/index.js';
import { prepareTargets, type PreparedTargets } from '../runtimes/prepare.js';
import { defaultCacheDir } from '../runtimes/cache.js';
import { expandTargets } from '../plan/targets.js';
import { renderTargetTables } from '../report/target-columns.js';

/** Options of `jsonbench run`, as commander parses them. */
export interface RunOptions {
  workload?: string[]; serializer?: string[]; size?: string[]; direction?: string[];
  policy: string; out?: string; json?: boolean; config?: string; seed: string;
  /** `--metric instructions` adds a callgrind count per case after the timed run */
  metric?: string[];
  /** `--ledger PATH` (string), `--no-ledger` (false), or unset (the default ledger) */
  ledger?: string | boolean;
  /** `--target` list: node, node@22, bun, deno, chromium, quickjs, ssh://user@host[:port] */
  target?: string[];
  /** `--chromium-path` (default /usr/bin/chromium) */
  chromiumPath?: string;
}

/** Largest accepted --seed: payloads use seed and seed + 1 as 32-bit seeds, which must differ. */
const MAX_SEED = 2 ** 32 - 2;

/** Statuses that make `jsonbench run` exit 1 (everything else is still measured and written). */
const FAILING = new Set(['failed', 'incorrect', 'timeout', 'crashed']);

function progressReporter(isTty: boolean): { onProgress: (e: ProgressEvent) => void; stop: () => void } {
  if (isTty) {
    const bar = new cliProgress.SingleBar({ format: '{bar} {value}/{total} launches | ETA {eta_formatted} | {caseId}', hideCursor: true, clearOnComplete: true, stream: process.stderr }, cliProgress.Presets.shades_classic);
    let started = false;
    return {
      onProgress: (e) => {
        if (e.type !== 'launch') return;
        if (!started) { bar.start(e.total, 0, { caseId: '' }); started = true; }
        bar.update(e.index - 1, { caseId: `${e.caseId} (${e.mode}${e.mode === 'time' ? ` ${e.launch}` : ''})` });
      },
      stop: () => { if (started) bar.stop(); },
    };
  }
  return {
    onProgress: (e) => {
      if (e.type === 'case-done' && e.result.status !== 'unsupported') process.stderr.write(`[${e.result.status}] ${e.result.id}\n`);
    },
    stop: () => {},
  };
}

/** Resolves the run's policy and filters; @throws UsageError naming a bad flag value. */
export async function resolveRun(opts: RunOptions, user: UserConfig) {
  const policy: RunPolicy | undefined = Object.hasOwn(policies, opts.policy) ? policies[opts.policy as RunPolicy['name']] : undefined;
  if (!policy) throw new UsageError('--policy', `unknown "${opts.policy}" (choose from: ${Object.keys(policies).join(', ')})`);
  // faker's generator is seeded with 32-bit integers, and the gate's variant payload uses seed + 1
  const seed = /^\d+$/.test(String(opts.seed).trim()) ? Number(opts.seed) : NaN;
  if (!Number.isSafeInteger(seed) || seed > MAX_SEED) throw new UsageError('--seed', `"${opts.seed}" is not an integer from 0 to ${MAX_SEED}`);
  for (const [flag, value] of [['--workload', opts.workload], ['--serializer', opts.serializer], ['--size', opts.size], ['--direction', opts.direction]] as const) {
    if (value !== undefined && splitList(value).length === 0) throw new UsageError(flag, 'needs at least one value');
  }
  const allW = await workloads.loadAll(user.workloads);
  const allS = await serializers.loadAll(user.serializers);
  const wIds = splitList(opts.workload);
  const sIds = splitList(opts.serializer);
  const dirs = splitList(opts.direction);
  checkChoices('--workload', wIds, allW.map((w) => w.id));
  checkChoices('--serializer', sIds, allS.map((s) => s.id));
  checkChoices('--direction', dirs, ['serialize', 'deserialize']);
  const sizes = splitList(opts.size).map((s) => {
    const n = Number(s.replace(/_/g, ''));
    if (!Number.isInteger(n) || n <= 0) throw new UsageError('--size', `"${s}" is not a positive integer`);
    return n;
  });
  const chosenW = wIds.length ? allW.filter((w) => wIds.includes(w.id)) : allW;
  if (sizes.length && chosenW.every((w) => sizesFor(w, policy, sizes).length === 0)) {
    throw new UsageError('--size', `no chosen workload has size ${sizes.join(', ')} (sizes: ${chosenW.map((w) => `${w.id} ${w.sizes.join('/')}`).join('; ')})`);
  }
  return {
    policy, seed, allSerializers: allS,
    workloads: chosenW,
    serializers: sIds.length ? allS.filter((s) => sIds.includes(s.id)) : allS,
    sizes: sizes.length ? sizes : undefined,
    directions: (dirs.length ? dirs : ['serialize', 'deserialize']) as Direction[],
  };
}

/** `jsonbench run`: plan → payloads → run → results.json, report.md, report.html → table. Returns the exit code. */
export async function runCommand(opts: RunOptions): Promise<number> {
  const cwd = process.cwd();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (opts.out !== undefined && !opts.out.trim()) throw new UsageError('--out', 'is empty (give a folder, or leave it out for jsonbench-results/<timestamp>/)');
  const outDir = resolve(cwd, opts.out ?? join('jsonbench-results', stamp));
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new UsageError('--out', `${outDir} exists and is not a folder`);
  const configFile = findConfig(cwd, opts.config);
  const prepared = configFile ? await prepareConfig(configFile, outDir) : null;
  const user = prepared?.config ?? { serializers: [], workloads: [] };
  let targets: PreparedTargets | null = null;
  try {
    const metrics = splitList(opts.metric);
    checkChoices('--metric', metrics, ['time', 'instructions']);
    let valgrind: string | null = null;
    if (metrics.includes('instructions')) { try { valgrind = requireValgrind(); } catch (e) { throw new UsageError('--metric', (e as Error).message); } }
    const matrix = await prepareVersionMatrix(splitList(opts.serializer), user, prepared?.modulePath, outDir, (m) => { if (!opts.json) process.stderr.write(m); });
    const r = await resolveRun(matrix ? { ...opts, serializer: matrix.serializerIds } : opts, matrix?.config ?? user);
    let targetList;
    try { targetList = parseTargets(splitList(opts.target)); } catch (e) { throw new UsageError('--target', (e as Error).message); }
    let groups = planCases({ workloads: r.workloads, serializers: r.serializers, sizes: r.sizes, directions: r.directions, policy: r.policy, resolveFrom: configFile ?? undefined }, r.allSerializers);
    applyVariantVersions(groups, matrix);
    makeFolder(outDir);
    const payloads = new Map<string, PayloadFile>();
    for (const w of r.workloads) for (const size of sizesFor(w, r.policy, r.sizes)) {
      const p = await writePayload(join(outDir, 'payloads'), w, size, r.seed, { configPath: prepared?.modulePath });
      payloads.set(p.key, p);
    }
    if (targetList.length) {
      targets = await prepareTargets(targetList, { cacheDir: defaultCacheDir(), bundleDir: join(outDir, 'worker'), payloadPaths: [...payloads.values()].map((p) => p.path), chromiumPath: opts.chromiumPath },
        (line) => { if (!opts.json) process.stderr.write(`${line}\n`); });
      groups = expandTargets(groups, targets.refs);
    }
    const results: ResultsFile = {
      schemaVersion: RESULTS_SCHEMA_VERSION, tool: 'jsonbench', startedAt: new Date().toISOString(),
      environment: probeEnvironment(),
      policy: { name: r.policy.name, launches: r.policy.launches, seed: r.seed, caseTimeoutMs: r.policy.caseTimeoutMs, measure: r.policy.measure, baselines: Object.fromEntries(groups.filter((g) => g[0]?.baseline).map((g) => [g[0].caseClass, g[0].baseline])) as ResultsFile['policy']['baselines'] },
      ...(targets ? { targets: targets.infos } : {}),
      cases: [],
    };
    const progress = progressReporter(Boolean(process.stderr.isTTY) && !opts.json);
    const partialPath = join(outDir, 'results.partial.jsonl');
    writeFileSync(partialPath, '');
    const ledgerPath = resolveLedgerPath(cwd, opts.ledger ?? (typeof user.ledger === 'string' && configFile ? resolve(dirname(configFile), user.ledger) : user.ledger));
    const ledger = ledgerPath ? startRunRecorder(ledgerPath, results, outDir, cwd, (m) => process.stderr.write(`jsonbench: warning: ${m}\n`)) : null;
    const onProgress = (e: ProgressEvent) => { if (e.type === 'case-done') ledger?.record(e.result); progress.onProgress(e); };
    const t0 = performance.now();
    const launchLogPath = join(outDir, 'launches.partial.jsonl');
    writeFileSync(launchLogPath, '');
    // Ctrl-C: restore the terminal (the progress bar hides the cursor) and say where the measured data is.
    const onSigint = () => {
      process.off('SIGINT', onSigint);
    progress.stop();
      process.stderr.write(`\njsonbench: interrupted. Finished cases: ${partialPath}; every finished launch: ${launchLogPath}\n`);
      process.exit(130);
    };
    process.once('SIGINT', onSigint);
    results.cases = await runGroups({ groups, payloads, policy: r.policy, configPath: matrix?.configPath ?? prepared?.modulePath, partialPath, launchLogPath, onProgress,
      ...(targets ? { launchFor: targets.launchFor, faultOf: targets.faultOf } : {}) });
    progress.stop();
    if (valgrind) await runInstructionsPass({ cases: results.cases, payloadPathOf: (c) => payloads.get(`${c.workload}-${c.size}`)?.path, configPath: matrix?.configPath ?? prepared?.modulePath, log: (l) => { if (!opts.json) process.stderr.write(`${l}\n`); }, onCounted: (c) => ledger?.addInstructions(c) }, valgrind);
    results.finishedAt = new Date().toISOString();
    results.environment.loadAverage.end = os.loadavg();
    const history = ledger?.historyOf(results.cases) ?? [];
    ledger?.finish(results);
    writeResults(join(outDir, 'results.json'), results);
    rmSync(partialPath, { force: true });
    rmSync(launchLogPath, { force: true });
    const reports = writeReports(outDir, [history.length ? { ...results, history } as ResultsFile : results], ['md', 'html']);
    if ((results.targets?.length ?? 0) > 1 && reports.written.md) appendFileSync(reports.written.md, `\n## Side by side, by target\n\n${renderTargetTables(results, 'markdown')}`);
    for (const f of reports.failed) process.stderr.write(`jsonbench: warning: the ${f.format} report was not written: ${f.error}\n`);
    if (opts.json && reports.written.html) process.stderr.write(`report: ${reports.written.html}\n`);
    if (opts.json) process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    else {
      const color = !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
      process.stdout.write(renderTerminal(results, color));
      if (valgrind) process.stdout.write(`\n${renderInstructions(results)}`);
      if ((results.targets?.length ?? 0) > 1) process.stdout.write(`\n${renderTargetTables(results, 'text')}`);
      process.stdout.write(`\n${results.cases.length} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s · results: ${join(outDir, 'results.json')}\nreport: ${reports.written.html ?? reports.written.md ?? 'not written'}${reports.written.md ? ` (Markdown: ${reports.written.md})` : ''}\n`);
      if (ledger) process.stdout.write(`ledger: ${ledger.path} (run ${ledger.runId})\n`);
    }
    return results.cases.some((c) => FAILING.has(c.status)) ? 1 : 0;
  } finally {
    await targets?.close();
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
  }
}
