import { resolve } from 'node:path';
import { named } from '../files/write-file.js';
import { writeResults } from '../results/io.js';
import { makeFolder } from '../files/make-folder.js';
import { machinesOf, mergeRun, shardRanges } from '../results/merge.js';
import { writeReports } from '../report/write.js';
import { UsageError } from '../config/usage-error.js';
import { readRun } from './ledger-source.js';
import { sayOnStderr, stdoutWidth } from './output.js';
import { wrap } from '../report/fit.js';
import { keepFinishedRun, keptRunSentence } from '../run/recover.js';

/** Options of `jsonbench merge`, as commander parses them. */
export interface MergeOptions {
  out: string;
  /** `--partial`: merge the shards given though some are missing (the results record which, the reports say so) */
  partial?: boolean;
}

/**
 * `jsonbench merge <shard results…> --out <dir>`: joins the results files of all shards of one run
 * (`run --shard i/n`, e.g. the jobs of a CI matrix; or of one plan run per target) into the results
 * file the unsharded run would have written, the targets once each (results/merge.ts mergeRun), and writes it with report.md and report.html into `--out`.
 * Says on stderr when the shards ran on different machines (the header names the first's), and
 * when a shard had no integrity record (results/integrity.ts: the merged file records it in
 * `unchecked`, which its reports show; the merged file gets a sidecar of its own).
 * Returns the exit code (0). @throws UsageError without files; ResultsFileError (exit 2) for a
 * file that cannot be read, or shards that do not make one run
 */
export async function mergeCommand(files: string[], opts: MergeOptions): Promise<number> {
  if (!files.length) throw new UsageError('<results...>', 'give the results files of every shard');
  const runs = files.map((f) => readRun(resolve(f), 'merge'));
  const merged = mergeRun(runs, files, opts.partial === true);
  const gap = merged.partialMerge;
  if (gap)
    sayOnStderr(
      `jsonbench merge: warning: a partial merge (--partial): shard${gap.missing.length === 1 ? '' : 's'} ${shardRanges(gap.missing, gap.count)} missing, ${gap.absentCases} planned case${gap.absentCases === 1 ? '' : 's'} in no shard; the reports say so`,
    );
  const machines = machinesOf(runs);
  if (machines.length > 1)
    sayOnStderr(
      `jsonbench merge: the shards ran on ${machines.length} machines (${machines.join('; ')}); the reports name the first: ratios are within each process, absolute times are each machine's`,
    );
  const dir = resolve(opts.out);
  // never over a shard it reads (hostile tester: --out a shard's own folder replaced its results.json)
  const path0 = resolve(dir, 'results.json');
  for (const f of files) {
    const abs = resolve(f);
    if (abs === path0 || abs === dir)
      throw new UsageError('--out', `${opts.out} holds ${f}, one of the shards read: choose another folder`);
  }
  makeFolder(dir);
  // a finished run's results there are moved aside, never overwritten (docs/running.md, "The output folder")
  const previous = keepFinishedRun(dir);
  if (previous) process.stderr.write(`jsonbench merge: ${keptRunSentence(dir, previous)}\n`);
  const path = resolve(dir, 'results.json');
  // with its sidecar, as a run writes results.json (results/integrity.ts): the merge's readers check it
  named(path, () => writeResults(path, merged));
  const reports = writeReports(dir, [merged], ['md', 'html']);
  for (const f of reports.failed) sayOnStderr(`jsonbench merge: report.${f.format} was not written: ${f.error}`);
  process.stdout.write(
    `${wrap(`${merged.cases.length} cases from ${runs.length} shard${runs.length === 1 ? '' : 's'}${gap ? ` of ${gap.count} (partial)` : ''} · results: ${path}`, stdoutWidth(), '  ', { keepLongWords: true })}\n`,
  );
  for (const p of Object.values(reports.written)) process.stdout.write(`${p}\n`);
  return 0;
}
