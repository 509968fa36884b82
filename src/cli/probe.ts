import { runProbeSession, type ProbeOptions } from '../run/probe-session.js';
import { sayOnStderr, stdoutWidth } from './output.js';
import { renderProbesTerminal } from '../report/probes-text.js';
import { wrap } from '../report/fit.js';
import { checkInputPaths, conformanceSkippedLines } from './input-files.js';
import { HEARTBEAT_MS } from './progress.js';

/** Options of `jsonbench probe`, as commander parses them. */
export interface ProbeCliOptions extends Omit<ProbeOptions, 'cwd'> {
  json?: boolean;
  full?: boolean;
  narrow?: boolean;
}

/**
 * `jsonbench probe`: runs the probe matrix and prints it (or the results JSON with `--json`);
 * writes results.json, report.md and report.html. Returns 0: a failing verdict is a finding about a
 * library, not a failure of the command. @throws UsageError, ConfigError (exit 2 in main)
 */
export async function probeCommand(opts: ProbeCliOptions): Promise<number> {
  // a FIFO as --config blocked importing it, with no output (hx8): refused before anything opens it
  checkInputPaths(opts);
  const started = performance.now();
  let saidAt = started;
  const say = (line: string) => {
    saidAt = performance.now();
    if (!opts.json) sayOnStderr(`[${((saidAt - started) / 1000).toFixed(0)} s] ${line}`);
  };
  let done = 0;
  let verdictAt = started;
  let row = '';
  // a probe side that hangs is silent until its timeout (120 s by default): hx9's PR9 saw no line for 120 s
  const heartbeat = setInterval(() => {
    if (row && performance.now() - saidAt >= HEARTBEAT_MS)
      say(
        `probing ${row}: no verdict for ${((performance.now() - verdictAt) / 1000).toFixed(0)} s (${done} so far; a probe side that does not answer is killed at its --timeout)`,
      );
  }, HEARTBEAT_MS / 2);
  heartbeat.unref();
  const run = await runProbeSession(opts, (e) => {
    if (e.type === 'launch') row = `${e.row}${e.target !== 'node' ? ` on ${e.target}` : ''}`;
    if (e.type === 'verdict') verdictAt = performance.now();
    if (e.type === 'note') say(e.message);
    else if (e.type === 'started')
      say(
        `${e.sides} probe sides × ${e.rows} serializer rows × ${e.targets} target${e.targets === 1 ? '' : 's'}; writing to ${e.outDir}`,
      );
    else if (e.type === 'launch')
      say(
        `${e.row}${e.target !== 'node' ? ` on ${e.target}` : ''}: ${e.relaunch ? 'a fresh worker for the remaining' : 'a worker for'} ${e.cells} probe side${e.cells === 1 ? '' : 's'} (${done} verdicts so far)`,
      );
    else if (e.type === 'verdict') {
      done++;
      const v = e.record.verdict;
      if (v.mark === '✗' && (v.fault === 'crash' || v.fault === 'hang'))
        say(`${e.record.serializer}: ${e.record.probe} ${e.record.direction}: ✗ ${v.fault}: ${v.actual}`);
    }
  }).finally(() => clearInterval(heartbeat));
  if (opts.json) process.stdout.write(JSON.stringify(run.results, null, 2) + '\n');
  else {
    process.stdout.write(
      renderProbesTerminal(run.results, {
        full: opts.full,
        narrow: opts.narrow,
        color: !process.env.NO_COLOR && Boolean(process.stdout.isTTY),
        width: stdoutWidth(),
      }),
    );
    // a path is never cut: each on its own line, a long one past the width rather than broken
    const lines = [
      `in ${(run.elapsedMs / 1000).toFixed(1)} s · results: ${run.resultsPath}`,
      `report: ${run.reports.written.html ?? run.reports.written.md ?? 'not written'}`,
      ...(run.reports.written.md && run.reports.written.html ? [`Markdown: ${run.reports.written.md}`] : []),
    ];
    process.stdout.write(`\n${lines.map((l) => wrap(l, stdoutWidth(), '  ', { keepLongWords: true })).join('\n')}\n`);
  }
  for (const line of conformanceSkippedLines(run.results)) sayOnStderr(line);
  for (const f of run.reports.failed)
    sayOnStderr(`jsonbench: warning: the ${f.format} report was not written: ${f.error}`);
  return 0;
}
