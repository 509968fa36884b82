import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import os from 'node:os';
import cliProgress from 'cli-progress';
import { policies, type RunPolicy } from '../config/policies.js';
import { findConfig, prepareConfig } from '../config/compile-config.js';
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
import { renderMarkdown } from '../report/markdown.js';
import { checkChoices, splitList, UsageError } from './usage-error.js';

/** Options of `jsonbench run`, as commander parses them. */
export interface RunOptions {
  workload?: string[]; serializer?: string[]; size?: string[]; direction?: string[];
  policy: string; out?: string; json?: boolean; config?: string; seed: string;
}

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
  const policy: RunPolicy | undefined = policies[opts.policy as RunPolicy['name']];
  if (!policy) throw new UsageError('--policy', `unknown "${opts.policy}" (choose from: ${Object.keys(policies).join(', ')})`);
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed)) throw new UsageError('--seed', `"${opts.seed}" is not an integer`);
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

/** `jsonbench run`: plan → payloads → run → results.json, report.md → table. Returns the exit code. */
export async function runCommand(opts: RunOptions): Promise<number> {
  const cwd = process.cwd();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = resolve(cwd, opts.out ?? join('jsonbench-results', stamp));
  const configFile = findConfig(cwd, opts.config);
  const prepared = configFile ? await prepareConfig(configFile, outDir) : null;
  const user = prepared?.config ?? { serializers: [], workloads: [] };
  try {
    const r = await resolveRun(opts, user);
    const groups = planCases({ workloads: r.workloads, serializers: r.serializers, sizes: r.sizes, directions: r.directions, policy: r.policy, resolveFrom: configFile ?? undefined }, r.allSerializers);
    mkdirSync(outDir, { recursive: true });
    const payloads = new Map<string, PayloadFile>();
    for (const w of r.workloads) for (const size of sizesFor(w, r.policy, r.sizes)) {
      const p = writePayload(join(outDir, 'payloads'), w, size, r.seed);
      payloads.set(p.key, p);
    }
    const results: ResultsFile = {
      schemaVersion: RESULTS_SCHEMA_VERSION, tool: 'jsonbench', startedAt: new Date().toISOString(),
      environment: probeEnvironment(),
      policy: { name: r.policy.name, launches: r.policy.launches, seed: r.seed, caseTimeoutMs: r.policy.caseTimeoutMs, measure: r.policy.measure, baselines: Object.fromEntries(groups.filter((g) => g[0]?.baseline).map((g) => [g[0].caseClass, g[0].baseline])) as ResultsFile['policy']['baselines'] },
      cases: [],
    };
    const progress = progressReporter(Boolean(process.stderr.isTTY) && !opts.json);
    const partialPath = join(outDir, 'results.partial.jsonl');
    writeFileSync(partialPath, '');
    const t0 = performance.now();
    results.cases = await runGroups({ groups, payloads, policy: r.policy, configPath: prepared?.modulePath, partialPath, onProgress: progress.onProgress });
    progress.stop();
    results.finishedAt = new Date().toISOString();
    results.environment.loadAverage.end = os.loadavg();
    writeResults(join(outDir, 'results.json'), results);
    rmSync(partialPath, { force: true });
    writeFileSync(join(outDir, 'report.md'), renderMarkdown(results));
    if (opts.json) process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    else {
      const color = !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
      process.stdout.write(renderTerminal(results, color));
      process.stdout.write(`\n${results.cases.length} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s · results: ${join(outDir, 'results.json')}\nreport: ${join(outDir, 'report.md')}\n`);
    }
    return results.cases.some((c) => FAILING.has(c.status)) ? 1 : 0;
  } finally {
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
  }
}
