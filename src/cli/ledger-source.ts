/**
 * How commands that read past runs find them: a results file (or the folder holding its
 * `results.json`), or a run reference in the ledger (`12`, `latest`, `latest~1`).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { readResults } from '../results/io.js';
import { NO_SIDECAR, NOT_SIGNED, sidecarPath, type IntegrityRecord } from '../results/integrity.js';
import type { ResultsFile } from '../results/types.js';
import { ResultsFileError } from '../results/errors.js';
import { isUnfinishedRun, recoverRun, RUN_PARTIAL } from '../run/recover.js';
import { sayOnStderr } from './output.js';
import { openLedgerToRead, type Db } from '../ledger/schema.js';
import { loadRun, resolveRunRef } from '../ledger/queries.js';
import { vouchedResultsSha } from '../ledger/record.js';
import { resolveLedgerPath } from '../ledger/run-ledger.js';
import { checkNotBlank, UsageError } from '../config/usage-error.js';

/**
 * Opens the ledger a read command uses (`--ledger PATH` or the default).
 * @throws UsageError naming `--ledger` when there is no ledger there (reads never create one).
 */
export function openExistingLedger(option: string | boolean | undefined, cwd = process.cwd()): Db {
  checkNotBlank('--ledger', option, "give the ledger's path, or leave --ledger out for the default");
  const path = resolveLedgerPath(cwd, option === false ? undefined : option);
  if (!path || !existsSync(path))
    throw new UsageError(
      '--ledger',
      `no ledger at ${path ?? '(disabled)'}; record one with \`jsonbench run\` or \`jsonbench ledger import\`, or pass --ledger PATH`,
    );
  // a read-only ledger is read from a private copy (ledger/schema.ts)
  return openLedgerToRead(path);
}

/**
 * The ledger's record of a run's results hash, for {@link readRun}: asked only for a results file with
 * no sidecar (hx7 F4), it opens the ledger (`--ledger`, else the default: $JSONBENCH_LEDGER or
 * .jsonbench/ledger.db under `cwd`) when there is one, and never creates one; a ledger that cannot
 * be read (a folder, a broken file) holds no record. The record of a run recorded by `jsonbench run`
 * (or by an import of a checked file: ledger/record.ts vouchedResultsSha).
 */
export function ledgerRecordOf(
  ledgerOption: string | boolean | undefined,
  cwd = process.cwd(),
): (results: ResultsFile) => IntegrityRecord | undefined {
  return (results) => {
    const path = resolveLedgerPath(
      cwd,
      typeof ledgerOption === 'string' && ledgerOption.trim() ? ledgerOption : undefined,
    );
    let db: Db | undefined;
    try {
      if (!path || !statSync(path).isFile()) return undefined;
      db = openLedgerToRead(path);
      const { cases: _cases, ...header } = results;
      void _cases;
      const row = vouchedResultsSha(db, header);
      if (!row) return undefined;
      const shown = relative(cwd, path);
      return {
        sha: row.sha,
        where: `the ledger ${shown && !shown.startsWith('..') ? shown : path} (run ${row.runId})`,
      };
    } catch {
      return undefined;
    } finally {
      db?.close();
    }
  };
}

/**
 * The stderr line of a results file read unchecked (`ResultsFile.unchecked`): it has no integrity
 * record (no sidecar, no ledger record of its run), its sidecar was not signed by this user's
 * jsonbench (results/integrity.ts NOT_SIGNED), or it is a merge of shards that were unchecked; ''
 * when it was checked. `command` names the command (`report`, `compare`, `merge`, `ledger import`).
 */
export function uncheckedLine(command: string, path: string, results: ResultsFile): string {
  if (!results.unchecked) return '';
  if (results.unchecked === NO_SIDECAR)
    return `jsonbench ${command}: ${path} has no integrity record (${basename(sidecarPath(path))}): it is read as it is, unchecked`;
  if (results.unchecked === NOT_SIGNED)
    return `jsonbench ${command}: ${path}: integrity: unchecked (${NOT_SIGNED}): its numbers are read as they are`;
  return `jsonbench ${command}: ${path}: its integrity is unchecked (${results.unchecked})`;
}

/** readResults with the ledger's record for a file without a sidecar ({@link ledgerRecordOf}), saying on stderr when it is read unchecked. */
function readChecked(path: string, command: string, ledgerOption: string | boolean | undefined): ResultsFile {
  const results = readResults(path, { recordOf: ledgerRecordOf(ledgerOption) });
  const line = uncheckedLine(command, path, results);
  if (line) sayOnStderr(line);
  return results;
}

/**
 * A results file, or a run folder: its results.json, else the run a kill interrupted, rebuilt from
 * its partial files (run/recover.ts), with a note on stderr saying how much was rebuilt (`command`
 * names the command in it: `report`, `compare`). Each rebuilt case carries the `interrupted` finding
 * ("rebuilt from N finished launches"). A results file with no sidecar is checked against the
 * ledger's record of its run (`ledgerOption`: `--ledger`, else the default ledger), and said on
 * stderr when there is none ({@link uncheckedLine}).
 * @throws ResultsFileError for a folder with neither, or a file or partial files that cannot be
 * read; ChangedResultsError for a file whose sidecar or ledger record holds another hash
 */
export function readRun(path: string, command: string, ledgerOption?: string | boolean): ResultsFile {
  if (!(existsSync(path) && statSync(path).isDirectory()))
    return sayUnread(readChecked(path, command, ledgerOption), path, command);
  const finished = join(path, 'results.json');
  if (existsSync(finished)) return sayUnread(readChecked(finished, command, ledgerOption), finished, command);
  if (!isUnfinishedRun(path))
    throw new ResultsFileError(
      path,
      '',
      `a folder without results.json or ${RUN_PARTIAL.header}: not a jsonbench run folder (give a results file, or the --out folder of a run)`,
    );
  const r = recoverRun(path);
  // hx10 FD-40k-report: a run stopped by a full disk was said "killed"; a cut last record was dropped without a word
  for (const note of r.stopped?.notes ?? []) sayOnStderr(`jsonbench ${command}: ${path}: ${note}`);
  sayOnStderr(
    r.live
      ? `jsonbench ${command}: ${path} is a run still going (${r.live}): so far ${r.finished} case(s) finished, ${r.rebuilt} rebuilt from their launches (marked ⏹), ${r.lost} not measured yet (status not-run); run this again when it ends`
      : `jsonbench ${command}: ${path} is a run that did not finish: ${r.finished} case(s) finished, ${r.rebuilt} rebuilt from their launches (marked ⏹), ${r.lost} never measured (status not-run: the run ${r.stopped ? 'stopped' : 'was killed'} before them)`,
  );
  const unchecked = uncheckedLine(command, path, r.results);
  if (unchecked) sayOnStderr(unchecked);
  return sayUnread(r.results, path, command);
}

/** Says on stderr which cases of `where` were left out (a status of a newer jsonbench: ResultsFile.unread); returns `results`. */
export function sayUnread(results: ResultsFile, where: string, command: string): ResultsFile {
  for (const u of results.unread ?? []) sayOnStderr(`jsonbench ${command}: ${where}: ${u.problem}`);
  return results;
}

/** A loaded side of a comparison and how to name it. */
export interface LoadedRun {
  results: ResultsFile;
  label: string;
}

/**
 * Loads `ref`: an existing file or folder → its results file (a killed run's folder: what it measured, rebuilt, see {@link readRun}); else a run reference in the ledger.
 * @throws UsageError naming `what` (e.g. "<base>") when it is neither; Error from readResults on a bad file.
 */
export function loadRunRef(
  ref: string,
  what: string,
  ledgerOption: string | boolean | undefined,
  cwd = process.cwd(),
): LoadedRun {
  const path = resolve(cwd, ref);
  if (existsSync(path)) {
    // a path that also reads as a ledger run: the path wins, said (hx20 a35: a folder named `latest` was compared
    // where the user meant the ledger's latest run, without a word)
    if (/^(\d+|latest(~\d+)?)$/.test(ref))
      sayOnStderr(
        `jsonbench compare: ${what} "${ref}" is read as the ${statSync(path).isDirectory() ? 'folder' : 'file'} ${path}, not the ledger's run ${ref}; for the ledger's, run compare from another folder (or give its id from \`jsonbench ledger list\`)`,
      );
    return { results: readRun(path, 'compare', ledgerOption), label: ref };
  }
  if (!/^(\d+|latest(~\d+)?)$/.test(ref))
    throw new UsageError(what, `"${ref}" is neither a results file nor a ledger run (a run id, latest, latest~N)`);
  const db = openExistingLedger(ledgerOption, cwd);
  try {
    const id = resolveRunRef(db, ref);
    if (id === undefined) throw new UsageError(what, `no run "${ref}" in the ledger (see \`jsonbench ledger list\`)`);
    return { results: sayUnread(loadRun(db, id), `ledger run ${id}`, 'compare'), label: `run ${id}` };
  } finally {
    db.close();
  }
}
