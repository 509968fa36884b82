import { writeFileSync } from 'node:fs';
import { makeFolder } from '../files/make-folder.js';
import { dirname, join, resolve } from 'node:path';
import { readResults } from '../results/io.js';
import { exporters, reportFormats, type ReportFormat } from '../report/index.js';
import { checkChoices, UsageError } from '../config/usage-error.js';

/** Options of `jsonbench report`, as commander parses them. */
export interface ReportOptions { format: string; out?: string }

/**
 * `jsonbench report <results.json>... [--format f] [--out FILE]`: reads the results files (several
 * merge into one report), renders one format and writes it; runs nothing. Without `--out`, HTML goes
 * to `report.html` beside the first results file (its path is printed) and the text formats go to
 * stdout; `--out -` always means stdout. Returns the exit code (0).
 * @throws UsageError for an unknown format or a results file that cannot be read
 */
export async function reportCommand(files: string[], opts: ReportOptions): Promise<number> {
  checkChoices('--format', [opts.format], reportFormats);
  const format = opts.format as ReportFormat;
  if (!files.length) throw new UsageError('<results.json>', 'give at least one results file');
  const runs = files.map((f) => {
    try { return readResults(resolve(f)); } catch (e) { throw new UsageError('<results.json>', (e as Error).message); }
  });
  const text = exporters[format].render(runs);
  const target = opts.out ?? (format === 'html' ? join(dirname(resolve(files[0])), exporters.html.fileName) : '-');
  if (target === '-') {
    process.stdout.write(text);
    return 0;
  }
  const path = resolve(target);
  makeFolder(dirname(path));
  writeFileSync(path, text);
  process.stdout.write(`${path}\n`);
  return 0;
}
