import { runProbeSession, type ProbeOptions } from '../run/probe-session.js';
import { visibleControls } from '../report/table/escape.js';
import { renderProbesTerminal } from '../report/probes-text.js';

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
  const started = performance.now();
  const say = (line: string) => {
    if (!opts.json)
      process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${visibleControls(line)}\n`);
  };
  let done = 0;
  const run = await runProbeSession(opts, (e) => {
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
  });
  if (opts.json) process.stdout.write(JSON.stringify(run.results, null, 2) + '\n');
  else {
    process.stdout.write(
      renderProbesTerminal(run.results, {
        full: opts.full,
        narrow: opts.narrow,
        color: !process.env.NO_COLOR && Boolean(process.stdout.isTTY),
      }),
    );
    process.stdout.write(
      `\nin ${(run.elapsedMs / 1000).toFixed(1)} s · results: ${run.resultsPath}\nreport: ${run.reports.written.html ?? run.reports.written.md ?? 'not written'}${run.reports.written.md ? ` (Markdown: ${run.reports.written.md})` : ''}\n`,
    );
  }
  for (const f of run.reports.failed)
    process.stderr.write(`jsonbench: warning: the ${f.format} report was not written: ${visibleControls(f.error)}\n`);
  return 0;
}
