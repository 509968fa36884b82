/**
 * `npm run bench:suite`: how long jsonbench takes, as a user runs it. Runs, each once through the
 * CLI:
 * - `payload`: `jsonbench run --payload <file> --policy quick` on a ~50 KB API response
 *   (test/fixtures/payload/api-50k.json: every built-in serializer, both directions, inference and
 *   typia's run-time generation included; issue 10's target is at most 60 s on 2 cores);
 * - `quick`: `jsonbench run --policy quick` (the built-in workloads);
 * - `default`: `jsonbench run --policy default` (every workload and serializer; several minutes).
 * Prints each duration with the load average before and after (1/5/15 min: the machine may be
 * shared) and what was run: cases by status, worker launches, and the time spent inside workers.
 *
 * Flags: --run <payload|quick|default> (repeatable; default all three; `--policy` is the same
 * flag), --payload <file> (the payload run's file), --out <dir> (default: a temporary folder;
 * each run's results.json and the CLI's table go to <dir>/<run>/).
 * Extra arguments after `--` go to every `jsonbench run` (e.g. `-- --serializer json`).
 */
import { mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ResultsFile } from '../src/results/types.js';

const bin = fileURLToPath(new URL('../../bin/jsonbench.js', import.meta.url));
/** The payload run's default file: a ~50 KB API response written by test/fixtures/payload/make-fixtures.mjs. */
const PAYLOAD_50K = fileURLToPath(new URL('../../test/fixtures/payload/api-50k.json', import.meta.url));
/** What each run asks `jsonbench run` for. */
const RUNS: Record<string, (payload: string) => string[]> = {
  payload: (file) => ['--payload', file, '--policy', 'quick'],
  quick: () => ['--policy', 'quick'],
  default: () => ['--policy', 'default'],
};
/** Each run's target on 2 cores (issue 10: the payload run; issue 13: the quick and default suites). */
const TARGET_MS: Record<string, number> = { payload: 60_000, quick: 60_000, default: 300_000 };
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join('/');
const log = (s: string) => process.stdout.write(s + '\n');

/** `12 min 34.5 s` or `34.5 s`. */
export function renderDuration(ms: number): string {
  const s = ms / 1000;
  return s >= 60 ? `${Math.floor(s / 60)} min ${(s % 60).toFixed(1)} s` : `${s.toFixed(1)} s`;
}

/**
 * One line about a finished run: cases by status, case launches (a group launch counts once per
 * case it measured), worker processes (a group launch's record is shared by its cases: counted
 * once, by its elapsed time and launch number), time inside workers (ms).
 */
export function summarise(results: ResultsFile): {
  cases: string;
  launches: number;
  processes: number;
  workerMs: number;
} {
  const byStatus = new Map<string, number>();
  for (const c of results.cases) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
  const launches = results.cases.flatMap((c) => c.samples.launches);
  // one process per distinct (group, launch, elapsed time): cases of a group launch share its elapsedMs
  const processes = new Map<string, number>();
  for (const c of results.cases)
    for (const l of c.samples.launches)
      processes.set(
        `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.class}/${c.target.id}#${l.launch}:${l.elapsedMs}`,
        l.elapsedMs,
      );
  return {
    cases: `${results.cases.length} cases (${[...byStatus].map(([s, n]) => `${n} ${s}`).join(', ')})`,
    launches: launches.length,
    processes: processes.size,
    workerMs: [...processes.values()].reduce((a, b) => a + b, 0),
  };
}

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      run: { type: 'string', multiple: true },
      policy: { type: 'string', multiple: true },
      payload: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const asked = [...(values.run ?? []), ...(values.policy ?? [])];
  const chosen = asked.length ? asked : ['payload', 'quick', 'default'];
  const unknown = chosen.filter((r) => !Object.hasOwn(RUNS, r));
  if (unknown.length) {
    process.stderr.write(
      `bench:suite: unknown run ${unknown.join(', ')} (choose from ${Object.keys(RUNS).join(', ')})\n`,
    );
    return 2;
  }
  const outDir = values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-suite-'));
  const rows: string[] = [];
  const t0 = performance.now();
  for (const name of chosen) {
    const dir = join(outDir, name);
    mkdirSync(dir, { recursive: true });
    const args = ['run', ...RUNS[name](values.payload ?? PAYLOAD_50K), '--out', dir, '--no-ledger', ...positionals];
    log(`jsonbench ${args.join(' ')} … (table in ${join(dir, 'table.txt')})`);
    const loadBefore = load();
    const start = performance.now();
    const child = spawnSync(process.execPath, [bin, ...args], {
      stdio: ['ignore', openSync(join(dir, 'table.txt'), 'w'), 'inherit'],
    });
    const ms = performance.now() - start;
    let detail = `exit ${child.status ?? child.signal}; load average ${loadBefore} before, ${load()} after (${cpus().length} cores)`;
    try {
      const s = summarise(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsFile);
      detail += `; ${s.cases}; ${s.processes} worker processes (${s.launches} case launches), ${renderDuration(s.workerMs)} inside them`;
    } catch (e) {
      detail += `; no results.json (${(e as Error).message})`;
    }
    const target = TARGET_MS[name];
    if (target) detail += `; target ≤ ${renderDuration(target)} on 2 cores: ${ms <= target ? 'met' : 'missed'}`;
    rows.push(`${name.padEnd(8)} ${renderDuration(ms).padStart(14)}   ${detail}`);
    log(rows.at(-1)!);
  }
  log('');
  log('suite durations:');
  for (const r of rows) log(`  ${r}`);
  log(`  total    ${renderDuration(performance.now() - t0).padStart(14)}`);
  return 0;
}

process.exitCode = main();
