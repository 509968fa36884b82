import { resolve } from 'node:path';
import Table from 'cli-table3';
import { readResults, writeResults } from '../results/io.js';
import { openLedger } from '../ledger/schema.js';
import { DuplicateRunError, recordResults } from '../ledger/record.js';
import { listRuns, loadRun, resolveRunRef } from '../ledger/queries.js';
import { resolveLedgerPath } from '../ledger/run-ledger.js';
import { openExistingLedger } from './ledger-source.js';
import { UsageError } from './usage-error.js';

/** The `--ledger` option shared by the ledger subcommands. */
export interface LedgerCliOptions { ledger?: string | boolean }

/**
 * `jsonbench ledger import <results.json>...`: records results made elsewhere (another machine, a
 * CI matrix job), each file in one transaction. A file already recorded is skipped with a note.
 * Returns 1 when a file could not be read or recorded, else 0.
 */
export async function ledgerImportCommand(files: string[], opts: LedgerCliOptions): Promise<number> {
  const path = resolveLedgerPath(process.cwd(), opts.ledger === false ? undefined : opts.ledger);
  if (!path) throw new UsageError('--ledger', 'the ledger is switched off ($JSONBENCH_LEDGER); pass --ledger PATH');
  const db = openLedger(path);
  let code = 0;
  try {
    for (const file of files) {
      try {
        const results = readResults(resolve(file));
        const runId = recordResults(db, results, { source: 'import', sourcePath: resolve(file), git: null });
        process.stdout.write(`${file}: recorded as run ${runId} (${results.cases.length} cases, ${results.environment.cpuModel}, node ${results.environment.node})\n`);
      } catch (e) {
        if (e instanceof DuplicateRunError) { process.stdout.write(`${file}: already in the ledger as run ${e.runId}; skipped\n`); continue; }
        process.stderr.write(`jsonbench: ${file}: ${(e as Error).message}\n`);
        code = 1;
      }
    }
  } finally { db.close(); }
  process.stdout.write(`ledger: ${path}\n`);
  return code;
}

/**
 * `jsonbench ledger export [run]`: writes a recorded run (default `latest`) back out as a results
 * file, to `--out` or stdout. @throws UsageError for an unknown run.
 */
export async function ledgerExportCommand(ref: string | undefined, opts: LedgerCliOptions & { out?: string }): Promise<number> {
  const db = openExistingLedger(opts.ledger);
  try {
    const id = resolveRunRef(db, ref ?? 'latest');
    if (id === undefined) throw new UsageError('[run]', `no run "${ref ?? 'latest'}" in the ledger (see \`jsonbench ledger list\`)`);
    const results = loadRun(db, id);
    if (opts.out) { writeResults(resolve(opts.out), results); process.stderr.write(`run ${id} → ${opts.out} (${results.cases.length} cases)\n`); }
    else process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    return 0;
  } finally { db.close(); }
}

/** `jsonbench ledger list`: the recorded runs, oldest first (`--json` for machines). */
export async function ledgerListCommand(opts: LedgerCliOptions & { json?: boolean }): Promise<number> {
  const db = openExistingLedger(opts.ledger);
  try {
    const runs = listRuns(db);
    if (opts.json) { process.stdout.write(JSON.stringify(runs, null, 2) + '\n'); return 0; }
    const t = new Table({ head: ['Run', 'Started', 'Finished', 'Policy', 'Cases', 'Measured', 'jsonbench', 'Commit', 'Node', 'Source'], style: { head: [], border: [] } });
    for (const r of runs) {
      t.push([String(r.id), r.startedAt.replace('T', ' ').slice(0, 19), r.finishedAt ? 'yes' : 'no (killed?)', r.policy, String(r.cases), String(r.measured), r.toolVersion,
        r.gitCommit ? `${r.gitCommit.slice(0, 8)}${r.gitDirty ? '+' : ''}` : '—', r.node, r.source === 'import' ? `import ${r.sourcePath ?? ''}` : 'run']);
    }
    process.stdout.write(`${t.toString()}\n`);
    return 0;
  } finally { db.close(); }
}
