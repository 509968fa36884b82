import { replaceAdvice, replaceRefusal } from '../files/replace-guard.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { named } from '../files/write-file.js';
import { join, resolve } from 'node:path';
import { isUnfinishedRun, RUN_PARTIAL } from '../run/recover.js';
import { sayOnStderr, stdoutWidth } from './output.js';
import { wrap } from '../report/fit.js';
import { visibleControls } from '../report/table/escape.js';
import type { Column } from '../report/table/column.js';
import { renderTable } from '../report/table/write.js';
import { countOf } from '../report/units.js';
import { readResults, readResultsText, writeResults } from '../results/io.js';
import { sha256Of } from '../results/integrity.js';
import { ResultsFileError } from '../results/errors.js';
import { openLedger } from '../ledger/schema.js';
import { DuplicateRunError, recordedResultsSha, recordResults, vouchedResultsSha } from '../ledger/record.js';
import { listRuns, loadRun, resolveRunRef, runSummary, type RunSummary } from '../ledger/queries.js';
import { resolveLedgerPath } from '../ledger/run-ledger.js';
import { openExistingLedger, uncheckedLine } from './ledger-source.js';
import { checkNotBlank, UsageError } from '../config/usage-error.js';
import { deepFreeze } from '../case/frozen.js';

/** A line on stdout, wrapped at its width (a path longer than the line kept whole on its own). */
const say = (line: string) =>
  process.stdout.write(`${wrap(visibleControls(line), stdoutWidth(), '  ', { keepLongWords: true })}\n`);

/** The `--ledger` option shared by the ledger subcommands. */
export interface LedgerCliOptions {
  ledger?: string | boolean;
}

/**
 * The commit a results file of the action's history branch was measured at, from its folder's name
 * (`runs/<UTC time>-<sha, 12 hex digits>/results.json`, scripts/ci/action.sh history), for files
 * written before results carried `git`; null for any other path.
 */
function commitOfFolder(file: string): { commit: string; dirty: boolean } | null {
  const m = /(?:^|[\\/])\d{8}T\d{6}Z-([0-9a-f]{7,40})[\\/]results\.json$/.exec(file);
  return m ? { commit: m[1], dirty: false } : null;
}

/**
 * `jsonbench ledger import <results.json>...`: records results made elsewhere (another machine, a
 * CI matrix job), each file in one transaction, with the commit it was measured at (its `git`, else
 * the action's history folder name `<UTC time>-<sha>`). A file already recorded is skipped with a
 * note. Returns 1 when a file could not be read or recorded, else 0.
 */
export async function ledgerImportCommand(files: string[], opts: LedgerCliOptions): Promise<number> {
  checkNotBlank('--ledger', opts.ledger, "give the ledger's path, or leave --ledger out for the default");
  const path = resolveLedgerPath(process.cwd(), opts.ledger === false ? undefined : opts.ledger);
  if (!path) throw new UsageError('--ledger', 'the ledger is switched off ($JSONBENCH_LEDGER); pass --ledger PATH');
  const db = openLedger(path);
  let code = 0;
  try {
    for (const given of files) {
      let file = given;
      let checkedNow = false;
      try {
        // a run's folder means its results.json, as `report` and `compare` read it
        file = resultsFileOf(given);
        // a file without a sidecar: checked against this ledger's record of its run, else said unchecked (hx7 F4)
        const results = readResults(resolve(file), {
          recordOf: (r) => {
            const row = vouchedResultsSha(db, r);
            return row && { sha: row.sha, where: `the ledger ${path} (run ${row.runId})` };
          },
        });
        checkedNow = !results.unchecked;
        const uncheckedSaid = uncheckedLine('ledger import', file, results);
        if (uncheckedSaid) sayOnStderr(uncheckedSaid);
        // a case this jsonbench cannot read (a newer one's status) would be lost from the ledger's copy of the run
        if (results.unread?.length)
          throw new Error(
            `not recorded: ${results.unread.map((u) => u.problem).join('; ')}; a ledger run keeps every case of its file`,
          );
        // a file read unchecked is recorded with its mark (ledger list and history show it), never with its hash: it vouches for nothing (hx8)
        const runId = recordResults(
          db,
          results,
          { source: 'import', sourcePath: resolve(file), git: results.git ?? commitOfFolder(resolve(file)) },
          results.unchecked ? undefined : sha256Of(readResultsText(resolve(file))),
        );
        say(
          `${file}: recorded as run ${runId} (${countOf(results.cases.length, 'case')}, ${results.environment.cpuModel}, node ${results.environment.node})${results.unchecked ? `, integrity unchecked (${results.unchecked})` : ''}`,
        );
      } catch (e) {
        if (e instanceof DuplicateRunError) {
          // the run as recorded: a file with its header but another text was changed after the run (hx4 afterlife-noenv)
          const recorded = recordedResultsSha(db, e.runId);
          const now = recorded === undefined ? undefined : sha256Of(readResultsText(resolve(file)));
          if (recorded !== undefined && now !== recorded) {
            sayOnStderr(
              `jsonbench: ${file}: run ${e.runId}'s results file, changed after the run wrote it: its sha256 is ${now}, the ledger recorded ${recorded}; not recorded again (the ledger keeps the run as it was measured)`,
            );
            code = 1;
            continue;
          }
          // the run recorded from a file read unchecked, and this file checks (hx29 L-shadow: a forged copy imported
          // first made the genuine file "already in the ledger; skipped", history showing the forgery unmarked here)
          const earlier = runSummary(db, e.runId);
          if (recorded === undefined && earlier?.unchecked && checkedNow) {
            sayOnStderr(
              `jsonbench: ${file}: run ${e.runId} in the ledger is this run imported earlier from a file read unchecked (${earlier.unchecked}): the ledger does not vouch for its numbers, which may differ from this file's (whose integrity checks); not recorded again. To keep this file's numbers, start a ledger from it (--ledger <new file>)`,
            );
            code = 1;
            continue;
          }
          say(`${file}: already in the ledger as run ${e.runId}; skipped`);
          continue;
        }
        // a ResultsFileError names the file itself
        const named = e instanceof ResultsFileError ? '' : `${file}: `;
        sayOnStderr(`jsonbench: ${named}${(e as Error).message}`);
        code = 1;
      }
    }
  } finally {
    db.close();
  }
  say(`ledger: ${path}`);
  return code;
}

/**
 * The results file `ledger import` reads for `path`: a run's folder means its results.json (as
 * `report` and `compare` read one), anything else is `path` itself.
 * @throws ResultsFileError for the folder of a run that never wrote its results.json (killed, or cut
 * short by a full disk: hx8 was told "is a folder, not a results file: give the results.json a run
 * wrote (or its folder)" of the very folder), saying what it is and that `report` rebuilds it
 */
function resultsFileOf(path: string): string {
  const full = resolve(path);
  if (!(existsSync(full) && statSync(full).isDirectory())) return path;
  if (existsSync(join(full, 'results.json'))) return join(path, 'results.json');
  if (isUnfinishedRun(full))
    throw new ResultsFileError(
      path,
      '',
      `is the folder of a run that did not finish (killed, or cut short by a full disk): it holds ${RUN_PARTIAL.header} and no results.json, and the ledger records only what a run wrote when it finished. What it measured can still be read: \`jsonbench report ${path}\` rebuilds its report from its partial files`,
    );
  throw new ResultsFileError(
    path,
    '',
    `is a folder without results.json or ${RUN_PARTIAL.header}: not a jsonbench run folder (give a results file, or the --out folder of a run)`,
  );
}

/**
 * Why an existing results file at `path` must not be replaced by an export of the run started at `startedAt`: it
 * holds another run (hx19 G02: a copy of another run's results.json, under another name and without its sidecar,
 * was replaced with exit 0). Null when absent, or the same run exported again.
 */
function otherRun(path: string, startedAt: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  let started: unknown;
  try {
    started = (JSON.parse(text) as { startedAt?: unknown } | null)?.startedAt;
  } catch {
    started = undefined;
  }
  return started === startedAt
    ? null
    : `holds another run's results (started ${typeof started === 'string' ? started : 'at an unknown time'}), not this run's (started ${startedAt})`;
}

/**
 * `jsonbench ledger export [run]`: writes a recorded run (default `latest`) back out as a results
 * file, to `--out` or stdout. @throws UsageError for an unknown run.
 */
export async function ledgerExportCommand(
  ref: string | undefined,
  opts: LedgerCliOptions & { out?: string },
): Promise<number> {
  const db = openExistingLedger(opts.ledger);
  try {
    const id = resolveRunRef(db, ref ?? 'latest');
    if (id === undefined)
      throw new UsageError('[run]', `no run "${ref ?? 'latest'}" in the ledger (see \`jsonbench ledger list\`)`);
    const results = loadRun(db, id);
    if (opts.out) {
      // hx18 A42/A43: over the ledger it read (exit 0, the ledger gone) and over another run's results.json
      const refused =
        replaceRefusal(resolve(opts.out), 'results file') ?? otherRun(resolve(opts.out), results.startedAt);
      if (refused) throw new UsageError('--out', `${opts.out} ${refused}: ${replaceAdvice(refused)}`);
      // a failure names the file (hx27 fd01: a full disk said only "ENOSPC: no space left on device, write")
      named(resolve(opts.out), () => writeResults(resolve(opts.out!), results));
      sayOnStderr(`run ${id} → ${opts.out} (${countOf(results.cases.length, 'case')})`);
    } else process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    return 0;
  } finally {
    db.close();
  }
}

/** Whether a run finished, and if not whether it is still going or was killed (see {@link RunSummary.state}). */
export function finishedCell(r: RunSummary): string {
  switch (r.state) {
    case 'finished':
      return 'yes';
    case 'running':
      return `no: running (pid ${r.recorder!.pid})`;
    case 'killed':
      return `no: killed (pid ${r.recorder!.pid} is gone)`;
    case 'cut-short':
      return `no: cut short (a ledger write failed, such as on a full disk; the run itself finished: ${r.sourcePath}/results.json)`;
    default:
      return r.recorder
        ? `no: running or killed (recorded on ${r.recorder.host})`
        : 'no: killed, or still running (recorded by a jsonbench that did not note its process)';
  }
}

/** What a run measured: its workloads, or `payload <name>…` when they are all a `--payload`'s; `—` for none. */
function workloadsCell(r: RunSummary): string {
  const names = r.workloads;
  if (!names.length) return '—';
  if (names.every((w) => w.startsWith('payload:')))
    return `payload ${names.map((w) => w.slice('payload:'.length)).join(', ')}`;
  return names.join(', ');
}

/** How a run ended, in a word: `yes`, `running`, `killed`, `cut short`, `unknown` ({@link finishedCell} says it in full). */
function finishedWord(r: RunSummary): string {
  if (r.state === 'cut-short') return 'cut short';
  return r.state === 'finished' ? 'yes' : r.state === 'running' || r.state === 'killed' ? r.state : 'unknown';
}

/**
 * The columns of `jsonbench ledger list`: what tells runs apart first (when, what it measured: its
 * workloads or payload, how many serializers, the policy, its cases), then where it came from. On a
 * narrow terminal Source, jsonbench, Commit, Node and Serializers are left out in that order, and
 * Workloads and Finished are cut.
 */
export const RUN_LIST_COLUMNS: readonly Column<RunSummary>[] = deepFreeze([
  { id: 'run', header: 'Run', cell: (r) => String(r.id), align: 'right' },
  { id: 'started', header: 'Started', cell: (r) => r.startedAt.replace('T', ' ').slice(0, 16) },
  { id: 'workloads', header: 'Workloads', cell: workloadsCell, clip: '', least: 21 },
  { id: 'serializers', header: 'Serializers', cell: (r) => String(r.serializers), align: 'right', priority: 2 },
  { id: 'policy', header: 'Policy', cell: (r) => r.policy },
  { id: 'cases', header: 'Measured', cell: (r) => `${r.measured}/${r.cases}`, align: 'right' },
  { id: 'finished', header: 'Finished', cell: finishedCell, shorter: (r) => [finishedWord(r)], clip: '' },
  { id: 'node', header: 'Node', cell: (r) => r.node, priority: 3 },
  {
    id: 'commit',
    header: 'Commit',
    cell: (r) => (r.gitCommit ? `${r.gitCommit.slice(0, 8)}${r.gitDirty ? '+' : ''}` : '—'),
    priority: 4,
  },
  { id: 'jsonbench', header: 'jsonbench', cell: (r) => r.toolVersion, priority: 5 },
  {
    id: 'source',
    header: 'Source',
    // an import read unchecked (results/integrity.ts): said here, and below the table whatever the width
    cell: (r) => (r.source === 'import' ? `import${r.unchecked ? ' (unchecked)' : ''} ${r.sourcePath ?? ''}` : 'run'),
    wrap: 40,
    priority: 6,
  },
]);

/** `jsonbench ledger list`: the recorded runs, oldest first (`--json` for machines). */
export async function ledgerListCommand(opts: LedgerCliOptions & { json?: boolean }): Promise<number> {
  const db = openExistingLedger(opts.ledger);
  try {
    const runs = listRuns(db);
    if (opts.json) {
      process.stdout.write(JSON.stringify(runs, null, 2) + '\n');
      return 0;
    }
    const width = stdoutWidth();
    process.stdout.write(
      `${renderTable({ columns: RUN_LIST_COLUMNS, rows: runs, compact: true }, 'terminal', { width })}\n`,
    );
    const unchecked = runs.filter((r) => r.unchecked).map((r) => r.id);
    if (unchecked.length)
      process.stdout.write(
        `${wrap(`⚠ unchecked: run${unchecked.length === 1 ? '' : 's'} ${unchecked.join(', ')} imported from a results file whose integrity could not be checked (no sidecar, or one not written by jsonbench for this user): the ledger does not vouch for ${unchecked.length === 1 ? 'its' : 'their'} numbers`, width)}\n`,
      );
    return 0;
  } finally {
    db.close();
  }
}
