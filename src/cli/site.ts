import { replaceAdvice, replaceRefusal } from '../files/replace-guard.js';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../files/write-file.js';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../config/usage-error.js';
import { caseHistory, listRuns, loadRun } from '../ledger/queries.js';
import { renderSite } from '../report/site.js';
import { exporters } from '../report/index.js';
import { makeFolder } from '../files/make-folder.js';
import { openExistingLedger } from './ledger-source.js';
import { trustedPoints } from './history.js';
import { sayOnStderr } from './output.js';
import { ResultsFileError } from '../results/errors.js';

/**
 * The latest run's report page, or null (with a warning) when that run cannot be read back: one
 * damaged run never keeps the history pages from being built.
 */
function latestReport(db: Parameters<typeof loadRun>[0], runId: number): string | null {
  try {
    return exporters.html.render([loadRun(db, runId)]);
  } catch (e) {
    if (!(e instanceof ResultsFileError)) throw e;
    process.stderr.write(`jsonbench site: warning: ${e.message}; the site has no latest report\n`);
    return null;
  }
}

/** Options of `jsonbench site`, as commander parses them. */
export interface SiteOptions {
  ledger?: string | boolean;
  out: string;
  title?: string;
}

/**
 * `jsonbench site [--ledger PATH] [--out DIR]`: builds the static history site from the ledger
 * (report/site.ts): index.html, a page per workload × size × shape × direction, and the latest
 * run's report at latest/report.html. Unsupported cases (never a number) are left out. Prints the
 * index's path. Returns 0. @throws UsageError when there is no ledger
 */
export async function siteCommand(opts: SiteOptions): Promise<number> {
  const db = openExistingLedger(opts.ledger);
  let files;
  try {
    const runs = listRuns(db);
    // a point edited after its run (not what `ledger export` reads, or outside its own interval) is left out, said (history.ts)
    const points = trustedPoints(
      caseHistory(db, {}).filter((p) => p.status !== 'unsupported'),
      sayOnStderr,
    );
    const last = runs.at(-1);
    const latestReportHtml = last ? latestReport(db, last.id) : null;
    files = renderSite({ runs, points, latestReportHtml, ...(opts.title ? { title: opts.title } : {}) });
  } finally {
    db.close();
  }
  const dir = resolve(opts.out);
  // hx23 O07: a file as --out gave a raw "ENOTDIR: not a directory, stat '…/home.html/pages'"
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UsageError(
      '--out',
      `${opts.out} exists and is not a folder: the site is a folder of pages; choose a folder`,
    );
  // hx25 s_symdir: --out/pages as a link to another folder put the pages there, unsaid; a folder of the site that is a
  // link is refused, as run refuses one in its output folder
  for (const sub of new Set(
    Object.keys(files)
      .map((rel) => dirname(rel))
      .filter((d) => d !== '.'),
  )) {
    const parts = sub.split(/[\\/]/);
    for (let i = 1; i <= parts.length; i++) {
      const folder = join(dir, ...parts.slice(0, i));
      let link = false;
      try {
        link = lstatSync(folder).isSymbolicLink();
      } catch {
        // absent: made below
      }
      if (link)
        throw new UsageError(
          '--out',
          `${join(opts.out, ...parts.slice(0, i))} is a symbolic link: jsonbench does not write the site's pages through a link; remove it or choose another folder`,
        );
    }
  }
  // hx18 A41: a user's own index.html replaced; every page is checked before any is written
  for (const rel of Object.keys(files)) {
    const refused = replaceRefusal(join(dir, rel), 'HTML page');
    if (refused)
      throw new UsageError('--out', `${join(opts.out, rel)} ${refused}: ${replaceAdvice(refused, 'folder')}`);
  }
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    makeFolder(dirname(path));
    // whole or not at all, a failure naming the page (hx27 fd01: a full disk said only "ENOSPC: no space left on device, write")
    writeFileAtomic(path, text);
  }
  process.stdout.write(`site: ${join(dir, 'index.html')} (${Object.keys(files).length} files)\n`);
  return 0;
}
