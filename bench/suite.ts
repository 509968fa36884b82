/**
 * `npm run bench:suite`: how long the whole suite takes. Runs `jsonbench run --policy quick`, then
 * `jsonbench run --policy default` (every workload and serializer; several minutes — run it once),
 * each once through the CLI as a user would, and prints each duration with what was run: cases by
 * status, worker launches, and the share of wall time spent inside workers.
 *
 * Flags: --policy <name> (repeatable; default quick and default), --out <dir> (default: a
 * temporary folder; each policy's results.json and the CLI's table go to <dir>/<policy>/).
 * Extra arguments after `--` go to every `jsonbench run` (e.g. `-- --workload users`).
 */
import { mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ResultsFile } from '../src/results/types.js';

const bin = fileURLToPath(new URL('../../bin/jsonbench.js', import.meta.url));
const log = (s: string) => process.stdout.write(s + '\n');

/** `12 min 34.5 s` or `34.5 s`. */
export function renderDuration(ms: number): string {
  const s = ms / 1000;
  return s >= 60 ? `${Math.floor(s / 60)} min ${(s % 60).toFixed(1)} s` : `${s.toFixed(1)} s`;
}

/** The 1, 5, 15-minute load averages (`/proc/loadavg`), or `n/a`. */
function loadAverage(): string {
  try { return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '); } catch { return 'n/a'; }
}

/**
 * One line about a finished run: cases by status, case launches (a group launch counts once per
 * case it measured), worker processes (a group launch's record is shared by its cases: counted
 * once, by its elapsed time and launch number), time inside workers (ms).
 */
export function summarise(results: ResultsFile): { cases: string; launches: number; processes: number; workerMs: number } {
  const byStatus = new Map<string, number>();
  for (const c of results.cases) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
  const launches = results.cases.flatMap((c) => c.samples.launches);
  // one process per distinct (group, launch, elapsed time): cases of a group launch share its elapsedMs
  const processes = new Map<string, number>();
  for (const c of results.cases) for (const l of c.samples.launches) processes.set(`${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.class}/${c.target.id}#${l.launch}:${l.elapsedMs}`, l.elapsedMs);
  return {
    cases: `${results.cases.length} cases (${[...byStatus].map(([s, n]) => `${n} ${s}`).join(', ')})`,
    launches: launches.length,
    processes: processes.size,
    workerMs: [...processes.values()].reduce((a, b) => a + b, 0),
  };
}

function main(): number {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { policy: { type: 'string', multiple: true }, out: { type: 'string' } } });
  const chosen = values.policy?.length ? values.policy : ['quick', 'default'];
  const outDir = values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-suite-'));
  const rows: string[] = [];
  const t0 = performance.now();
  for (const policy of chosen) {
    const dir = join(outDir, policy);
    mkdirSync(dir, { recursive: true });
    const loadBefore = loadAverage();
    log(`jsonbench run --policy ${policy} … (table in ${join(dir, 'table.txt')}; load ${loadBefore})`);
    const start = performance.now();
    const child = spawnSync(process.execPath, [bin, 'run', '--policy', policy, '--out', dir, '--no-ledger', ...positionals], {
      stdio: ['ignore', openSync(join(dir, 'table.txt'), 'w'), 'inherit'],
    });
    const ms = performance.now() - start;
    let detail = `exit ${child.status ?? child.signal}`;
    try {
      const s = summarise(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsFile);
      detail += `; ${s.cases}; ${s.processes} worker processes (${s.launches} case launches), ${renderDuration(s.workerMs)} inside them`;
    } catch (e) {
      detail += `; no results.json (${(e as Error).message})`;
    }
    rows.push(`${policy.padEnd(8)} ${renderDuration(ms).padStart(14)}   ${detail}; load ${loadBefore} → ${loadAverage()}`);
    log(rows.at(-1)!);
  }
  log('');
  log('suite durations:');
  for (const r of rows) log(`  ${r}`);
  log(`  total    ${renderDuration(performance.now() - t0).padStart(14)}`);
  return 0;
}

process.exitCode = main();
