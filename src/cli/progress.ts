import cliProgress from 'cli-progress';
import { visibleControls } from '../report/table/escape.js';
import type { SessionEvent } from '../run/session.js';
import { etaText, formatEta, type ProgressCounts } from '../run/progress.js';
import { renderTerminal } from '../report/terminal.js';

/** The ETA's format lives with the progress bookkeeping (run/progress.ts); re-exported for the CLI's readers. */
export { formatEta };

/** What the terminal shows while a run goes on (on stderr; stdout keeps the final tables). */
export interface ProgressView {
  onEvent(e: SessionEvent): void;
  stop(): void;
}

/** Options of {@link progressView}. */
export interface ProgressViewOptions {
  /** stderr is a terminal: a live bar; else one line per finished case */
  isTty: boolean;
  /** print each group's table as soon as its cases are finished */
  tables: boolean;
  color: boolean;
  /** the terminal's width (characters), for the tables */
  width?: number;
}

/**
 * The cases part of the progress: `3/130 (of 192; 62 never launched)`: cases measured out of those
 * to measure, and, when the plan holds more (unsupported pairs, cases without a target), the
 * plan's total, which the run's summary counts.
 */
export function describeCases(counts: ProgressCounts): string {
  const skipped = counts.casesPlanned - counts.casesTotal;
  return `${counts.casesDone}/${counts.casesTotal}${skipped > 0 ? ` (of ${counts.casesPlanned}; ${skipped} never launched)` : ''}`;
}

/** `cases 3/12 · launches 9/48 · ETA 1m20s`: the counts and the time left, never past a total, never NaN. */
export function describeProgress(counts: ProgressCounts, elapsedMs: number): string {
  const eta = etaText(counts, elapsedMs);
  return `cases ${describeCases(counts)} · launches ${counts.launchesDone}/${counts.launchesTotal} · ETA ${eta}`;
}

/**
 * Progress on stderr. On a terminal a bar (cli-progress): cases finished, launches ended out of
 * their total (updated as each launch begins and each case ends), the ETA (run/progress.ts) and the current case; else one `[status] id (cases …)` line
 * per finished case that has numbers or failed. With `tables`, each group's table (its takeaways,
 * rows and findings: report/terminal.ts with `tablesOnly`) is printed the moment the group is
 * finished, above the bar, as BenchmarkDotNet prints each result; the full report follows at the end.
 */
export function progressView(o: ProgressViewOptions): ProgressView {
  const printGroup = (e: Extract<SessionEvent, { type: 'group-done' }>, write: (text: string) => void) => {
    if (!o.tables || e.cases.every((c) => c.status === 'unsupported')) return;
    write(`${renderTerminal(e.results, o.color, { width: o.width, tablesOnly: true }).trimEnd()}\n\n`);
  };
  if (o.isTty) {
    const bar = new cliProgress.SingleBar(
      {
        format: '{bar} cases {cases} · launches {value}/{total} ended · ETA {etaText} | {caseId}',
        hideCursor: true,
        clearOnComplete: true,
        forceRedraw: true,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      onEvent: (e) => {
        if (e.type === 'group-done') {
          printGroup(e, (text) => process.stderr.write(started ? `\r\x1b[K${text}` : text));
          return;
        }
        // the bar fills with launches that have ended (a one-launch group is not "full" while it runs); a finished case updates the counts too
        if (e.type === 'case-done') {
          if (started)
            bar.update(e.counts.launchesFinished, {
              cases: describeCases(e.counts),
              etaText: etaText(e.counts, e.elapsedMs),
            });
          return;
        }
        if (e.type !== 'launch') return;
        const payload = {
          caseId: `${e.caseId} (${e.mode}${e.mode === 'time' ? ` ${e.launch}` : ''}; launch ${e.index})`,
          cases: describeCases(e.counts),
          etaText: etaText(e.counts, e.elapsedMs),
        };
        if (!started) {
          bar.start(e.total, e.counts.launchesFinished, payload);
          started = true;
          return;
        }
        bar.setTotal(e.total);
        bar.update(e.counts.launchesFinished, payload);
      },
      stop: () => {
        if (started) {
          started = false;
          bar.stop();
        }
      },
    };
  }
  return {
    onEvent: (e) => {
      if (e.type === 'case-done' && e.result.status !== 'unsupported')
        process.stderr.write(
          `[${e.result.status}] ${visibleControls(e.result.id)} (${describeProgress(e.counts, e.elapsedMs)})\n`,
        );
      if (e.type === 'group-done') printGroup(e, (text) => process.stderr.write(text));
    },
    stop: () => {},
  };
}
