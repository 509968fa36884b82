/**
 * How commands that read past runs find them: a results file (or the folder holding its
 * `results.json`), or a run reference in the ledger (`12`, `latest`, `latest~1`).
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readResults } from '../results/io.js';
import type { ResultsFile } from '../results/types.js';
import { ResultsFileError } from '../results/errors.js';
import { isUnfinishedRun, recoverRun, RUN_PARTIAL } from '../run/recover.js';
import { sayOnStderr } from './output.js';
import { openLedgerToRead, type Db } from '../ledger/schema.js';
import { loadRun, resolveRunRef } from '../ledger/queries.js';
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
 * A results file, or a run folder: its results.json, else the run a kill interrupted, rebuilt from
 * its partial files (run/recover.ts), with a note on stderr saying how much was rebuilt (`command`
 * names the command in it: `report`, `compare`). Each rebuilt case carries the `interrupted` finding
 * ("rebuilt from N finished launches").
 * @throws ResultsFileError for a folder with neither, or a file or partial files that cannot be read
 */
export function readRun(path: string, command: string): ResultsFile {
  if (!(existsSync(path) && statSync(path).isDirectory())) return sayUnread(readResults(path), path, command);
  const finished = join(path, 'results.json');
  if (existsSync(finished)) return sayUnread(readResults(finished), finished, command);
  if (!isUnfinishedRun(path))
    throw new ResultsFileError(
      path,
      '',
      `a folder without results.json or ${RUN_PARTIAL.header}: not a jsonbench run folder (give a results file, or the --out folder of a run)`,
    );
  const r = recoverRun(path);
  sayOnStderr(
    `jsonbench ${command}: ${path} is a run that did not finish: ${r.finished} case(s) finished, ${r.rebuilt} rebuilt from their launches (marked ⏹), ${r.lost} never measured (status not-run: the run was killed before them)`,
  );
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
  if (existsSync(path)) return { results: readRun(path, 'compare'), label: ref };
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
