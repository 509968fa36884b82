import { existsSync, realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../files/write-file.js';
import { replaceAdvice, replaceRefusal, type OwnFile } from '../files/replace-guard.js';
import { makeFolder } from '../files/make-folder.js';
import { basename, dirname, join, resolve } from 'node:path';
import { exporters, reportFormats, type ReportFormat } from '../report/index.js';
import { checkChoices, UsageError } from '../config/usage-error.js';
import { readRun } from './ledger-source.js';
import { payloadBytesMismatch, runsOf } from '../results/merge.js';
import { sameRun } from '../results/same-run.js';
import { sayOnStderr } from './output.js';
import { visibleName } from '../report/table/escape.js';

/** Options of `jsonbench report`, as commander parses them. */
export interface ReportOptions {
  format: string;
  out?: string;
}

/**
 * `jsonbench report <results.json | run folder>... [--format f] [--out FILE]`: reads the results
 * files (several merge into one report; the shards of one run, `run --shard`, into one run as
 * `jsonbench merge` joins them, and runs of one plan on different targets into one run with the
 * targets side by side), renders one format and writes it; runs nothing. A run
 * folder means its results.json, or for a run that was killed, what it measured rebuilt from its
 * partial files (run/recover.ts; a note on stderr says how much). Without `--out`, HTML goes to
 * `report.html` beside the first results file (its path is printed) and the text formats go to
 * stdout; `--out -` always means stdout. Returns the exit code (0).
 * @throws UsageError for an unknown format; ResultsFileError naming a results file that cannot be
 * read or does not match the schema (with the JSON path of the first problem)
 */
export async function reportCommand(files: string[], opts: ReportOptions): Promise<number> {
  checkChoices('--format', [opts.format], reportFormats);
  const format = opts.format as ReportFormat;
  if (!files.length) throw new UsageError('<results.json>', 'give at least one results file');
  sameFileTwice(files);
  const read = files.map((f) => readRun(resolve(f), 'report'));
  // two copies of one run (hx6): shown side by side they read as two runs that agree exactly
  read.forEach((r, i) => {
    const j = read.findIndex((o, k) => k < i && sameRun(o, r));
    if (j >= 0)
      throw new UsageError(
        '<results.json>',
        `${files[j]} and ${files[i]} hold the same run (started ${r.startedAt}, the same cases and means): each run is shown once; give it once`,
      );
  });
  // hx24 CM2: two files named small.json measured as one payload id were shown as one case on two targets, no word
  const mismatch = payloadBytesMismatch(read);
  if (mismatch)
    sayOnStderr(
      `jsonbench report: warning: ${files[mismatch.first]} and ${files[mismatch.second]} measured payload ${visibleName(mismatch.workload)} on different bytes (sha256 ${mismatch.firstSha.slice(0, 12)}… and ${mismatch.secondSha.slice(0, 12)}…): their rows are two payloads under one name, not one payload measured twice`,
    );
  // the shards of one run (run --shard) are one run, merged as `jsonbench merge` does; runs of one
  // plan on different targets are one run with the targets side by side
  const runs = runsOf(read, files);
  const text = exporters[format].render(runs);
  const first = resolve(files[0]);
  const target =
    opts.out ?? (format === 'html' ? join(isFolder(first) ? first : dirname(first), exporters.html.fileName) : '-');
  if (target === '-') {
    process.stdout.write(text);
    return 0;
  }
  const path = resolve(target);
  // never over what it reads (hostile tester: `--out` the results file itself replaced it with Markdown)
  const inputs = files.map((f) => resolve(f)).flatMap((f) => (isFolder(f) ? [join(f, 'results.json'), f] : [f]));
  if (inputs.includes(path))
    throw new UsageError('--out', `${target} is one of the results files read: choose another file`);
  // nor over the report of another run (issue 25: a finished run's report replaced by one of other results)
  const folder = dirname(path);
  if (
    /^report\./.test(basename(path)) &&
    existsSync(path) &&
    existsSync(join(folder, 'results.json')) &&
    !inputs.includes(join(folder, 'results.json'))
  )
    throw new UsageError(
      '--out',
      `${target} is the report of the run in ${folder} (its results.json is not one of the files read): writing it would replace that run's report; choose another file (to replace it, delete it first)`,
    );
  const kept = keptFile(path, format);
  if (kept) throw new UsageError('--out', `${target} ${kept}: ${replaceAdvice(kept)}`);
  makeFolder(dirname(path));
  writeFileAtomic(path, text);
  process.stdout.write(`${path}\n`);
  return 0;
}

/** The kind of file each format writes, as files/replace-guard.ts tells an existing one. */
const OWN_KIND: Record<ReportFormat, OwnFile> = {
  md: 'md report',
  html: 'HTML page',
  json: 'json report',
  csv: 'csv report',
  bmf: 'Bencher Metric Format report',
  'github-action-benchmark': 'github-action-benchmark report',
};

/**
 * Why an existing file at `--out` is not a report this command may replace, or null: only a report of the format's
 * kind jsonbench wrote is replaced (files/replace-guard.ts). hx8 wrote a report over a ledger (`--out shared.db`),
 * over another run's results.json and over the sidecar of the file being read; hx18 over the run's own payload
 * file (a `.json`: the next run measured the report) and a user's notes.md, each with exit 0.
 */
function keptFile(path: string, format: ReportFormat): string | null {
  return replaceRefusal(path, OWN_KIND[format]);
}

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/**
 * Refuses a results file given twice (hx4: `report a.json a.json` showed one run twice, as two runs
 * side by side): the same file by its real path, or a run folder and its results.json.
 * @throws UsageError naming both arguments
 */
export function sameFileTwice(files: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const f of files) {
    let path = resolve(f);
    try {
      path = realpathSync(path);
      if (statSync(path).isDirectory()) path = join(path, 'results.json');
      path = realpathSync(path);
    } catch {
      /* a missing file: readRun names it */
    }
    const before = seen.get(path);
    if (before !== undefined)
      throw new UsageError(
        '<results.json>',
        `${before === f ? `${f} is given twice` : `${before} and ${f} are the same file (${path})`}: each results file is read once`,
      );
    seen.set(path, f);
  }
}
