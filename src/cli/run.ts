import { resolveRunRequest, type RunOptions } from '../run/request.js';
import { runSession } from '../run/session.js';
import { renderTerminal } from '../report/terminal.js';
import { progressView } from './progress.js';

/** Options of `jsonbench run`, as commander parses them (lists repeated or comma-separated). */
export interface RunCliOptions extends Omit<RunOptions, 'cwd'> { json?: boolean }

/** Statuses that make `jsonbench run` exit 1 (everything else is still measured and written). */
const FAILING = new Set(['failed', 'incorrect', 'timeout', 'crashed']);

/**
 * `jsonbench run`: resolves the options, runs the session, prints the tables (or the results JSON
 * with `--json`). Returns the exit code: 0, or 1 when a case failed, was incorrect, timed out or
 * crashed. @throws UsageError, ConfigError, WorkloadError (exit 2 in main)
 */
export async function runCommand(opts: RunCliOptions): Promise<number> {
  const say = (line: string) => { if (!opts.json) process.stderr.write(line.endsWith('\n') ? line : `${line}\n`); };
  const { request, release } = await resolveRunRequest(opts, say);
  const errTty = Boolean(process.stderr.isTTY);
  const progress = progressView({ isTty: errTty && !opts.json, tables: !opts.json, color: !process.env.NO_COLOR && errTty, width: errTty && process.stderr.columns > 0 ? process.stderr.columns : undefined });
  // Ctrl-C: restore the terminal (the bar hides the cursor) and say where the measured data is.
  let interrupted = '';
  const onSigint = () => {
    progress.stop();
    process.stderr.write(`\njsonbench: interrupted. ${interrupted || 'Nothing was measured yet.'}\n`);
    process.exit(130);
  };
  process.once('SIGINT', onSigint);
  try {
    const run = await runSession(request, (e) => {
      if (e.type === 'note') say(e.message);
      else if (e.type === 'warning') process.stderr.write(`jsonbench: warning: ${e.message}\n`);
      else if (e.type === 'started') interrupted = `Finished cases: ${e.partialPath}; every finished launch: ${e.launchLogPath}`;
      else progress.onEvent(e);
    });
    progress.stop();
    const { results, reports } = run;
    if (opts.json) {
      if (reports.written.html) process.stderr.write(`report: ${reports.written.html}\n`);
      process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    } else {
      process.stdout.write(renderTerminal(results, !process.env.NO_COLOR && Boolean(process.stdout.isTTY), { width: process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined }));
      process.stdout.write(`\n${results.cases.length} cases in ${(run.elapsedMs / 1000).toFixed(1)} s · results: ${run.resultsPath}\nreport: ${reports.written.html ?? reports.written.md ?? 'not written'}${reports.written.md ? ` (Markdown: ${reports.written.md})` : ''}\n`);
      if (run.ledger) process.stdout.write(`ledger: ${run.ledger.path} (run ${run.ledger.runId})\n`);
    }
    return results.cases.some((c) => FAILING.has(c.status)) ? 1 : 0;
  } finally {
    progress.stop();
    process.off('SIGINT', onSigint);
    release();
  }
}
