import cliProgress from 'cli-progress';
import { clip, visibleControls } from '../report/table/escape.js';
import { wrap, wrapAtMost } from '../report/fit.js';
import type { SessionEvent } from '../run/session.js';
import { etaText, formatEta, type ProgressCounts } from '../run/progress.js';
import { caseReason } from '../report/reason.js';

/** The ETA's format lives with the progress bookkeeping (run/progress.ts); re-exported for the CLI's readers. */
export { formatEta };

/** What the terminal shows while a run goes on: a live bar or plain lines on stderr, each group's table as it finishes. */
export interface ProgressView {
  onEvent(e: SessionEvent): void;
  /** a line (a note, a warning) printed above the bar, never over it; on stderr */
  note(line: string): void;
  /** a finished table's text: above the bar when stdout is that terminal, else on stdout (as a group's `groupText`) */
  table(text: string): void;
  /** removes the bar (the terminal as it was: cursor shown, nothing restored over printed text); idempotent */
  stop(): void;
}

/** Where the view writes: stderr for the progress, `tables` for each group's table (stdout). */
export interface ProgressStreams {
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  tables: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Options of {@link progressView}. */
export interface ProgressViewOptions {
  /** stderr is a terminal: a live bar; else plain lines (a phase, each group done, a heartbeat while silent) */
  isTty: boolean;
  /** the text of a finished group's table (report/terminal.ts with `tablesOnly`), or null to print none */
  groupText?: (e: Extract<SessionEvent, { type: 'group-done' }>) => string | null;
  /** the width to fit the bar to (characters) */
  width: number;
  /** default: process.stderr and process.stdout */
  streams?: ProgressStreams;
  /** plain lines: the longest silence before a heartbeat line (ms); default {@link HEARTBEAT_MS} */
  heartbeatMs?: number;
}

/** With stderr not a terminal, a line says where the run is after this long without one (ms): CI logs never go quiet for long. */
export const HEARTBEAT_MS = 10_000;

/** Plain lines: a launch's step (reading the payload, the gate…) that lasts this long gets a line of its own (ms); quicker ones none. */
export const STAGE_LINE_MS = 3_000;

/** A worker's step as the progress line names it (run/run-context.ts `stage` events). */
export function stageWords(e: Extract<SessionEvent, { type: 'stage' }>): string {
  switch (e.stage) {
    case 'load':
      return e.side ? `loading the ${e.side}` : 'reading the payload, loading the serializers';
    case 'prepare':
      return `preparing the ${e.side ?? 'serializer'}`;
    case 'verify':
      return `the correctness gate (${e.side ?? 'serializer'})`;
    case 'warmup':
      return 'warming up';
    default:
      return 'timing rounds';
  }
}

/** The most lines a case without a number gets on plain stderr (its reason in full is in report.md and at the run's end). */
const CASE_LINES = 3;

/**
 * The bar's cases: `16/16 (of 24; 8 unsupported)`: as {@link describeCases}, shorter, so the bar's
 * count agrees with the summary's "24 cases" (nu7 read "cases 16/16" beside "24 cases") and fits at 80 columns.
 */
export function barCases(counts: ProgressCounts): string {
  const skipped = counts.casesPlanned - counts.casesTotal;
  return `${counts.casesDone}/${counts.casesTotal}${skipped > 0 ? ` (of ${counts.casesPlanned}; ${skipped} unsupported)` : ''}`;
}

/**
 * The cases part of the progress: `3/130 (of 192; 62 unsupported, not run)`: cases measured out of
 * those to measure, and, when the plan holds more (unsupported pairs, cases without a target), the
 * plan's total, which the run's summary counts (issue 22: "never launched" read as a failure).
 */
export function describeCases(counts: ProgressCounts): string {
  const skipped = counts.casesPlanned - counts.casesTotal;
  return `${counts.casesDone}/${counts.casesTotal}${skipped > 0 ? ` (of ${counts.casesPlanned}; ${skipped} unsupported, not run)` : ''}`;
}

/** `cases 3/12 · launches 9/48 · ETA 1m20s`: the counts and the time left, never past a total, never NaN. */
export function describeProgress(counts: ProgressCounts, elapsedMs: number): string {
  const eta = etaText(counts, elapsedMs);
  return `cases ${describeCases(counts)} · launches ${counts.launchesDone}/${counts.launchesTotal} · ETA ${eta}`;
}

/**
 * Progress on stderr, and each group's table the moment the group is finished (as hyperfine and
 * mitata print each result as it is measured; the run's end prints only what is new).
 *
 * On a terminal: one live line (cli-progress `MultiBar` with one bar: cases, launches ended out of
 * their total, the ETA and the current case, cut to the width). Tables and notes are printed above
 * it through `MultiBar.log()`, which clears the bar's line, writes them, and draws the bar again
 * below: no cursor save/restore (ESC 7 / ESC 8) that would later draw over text that scrolled, and
 * line wrapping is left on (`linewrap: true`: cli-progress would otherwise send ESC[?7l for the
 * whole run and cut every long line). When stdout is not that terminal (redirected), the tables go
 * to stdout itself. On stop the bar's line is cleared and the cursor shown.
 *
 * Not a terminal: plain lines, never a control sequence: when measuring starts, when each group is
 * done (with the counts and the ETA), a line for a worker's step that lasts {@link STAGE_LINE_MS}
 * (reading a large payload, its gate), and a heartbeat naming the current case (and its step)
 * after {@link HEARTBEAT_MS} without a line. On a terminal the bar names the step. Tables go to stdout.
 */
export function progressView(o: ProgressViewOptions): ProgressView {
  const streams = o.streams ?? { stderr: process.stderr, tables: process.stdout };
  const width = Math.max(20, o.width);
  if (o.isTty) return barView(o, streams, width);
  return plainView(o, streams);
}

/** The bar's text for a launch: counts, ETA, its case, and its mode (`time 2`) or its worker's current step. */
function launchLine(e: Extract<SessionEvent, { type: 'launch' }>, step?: string): string {
  return `cases ${barCases(e.counts)} · ETA ${etaText(e.counts, e.elapsedMs)} · launches ${e.counts.launchesFinished}/${e.total} · ${e.caseId}${step ? `: ${step}` : ` (${e.mode}${e.mode === 'time' ? ` ${e.launch}` : ''})`}`;
}

function barView(o: ProgressViewOptions, streams: ProgressStreams, width: number): ProgressView {
  const sameScreen = Boolean(streams.tables.isTTY);
  const barSize = Math.max(10, Math.min(30, Math.floor(width / 5)));
  const multi = new cliProgress.MultiBar(
    {
      format: '{bar} {info}',
      barsize: barSize,
      hideCursor: true,
      clearOnComplete: true,
      stopOnComplete: false,
      // redraw after a log() even when the bar's text did not change (else the bar vanishes until the next update)
      forceRedraw: true,
      linewrap: true,
      gracefulExit: false,
      stream: streams.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | null = null;
  let stopped = false;
  // the last launch's line, which a step of its worker (stage) completes
  let lastLaunch: Extract<SessionEvent, { type: 'launch' }> | null = null;
  // the line after the bar: cut so the bar never wraps (a wrapped bar would be redrawn one line too low)
  const info = (text: string) => visibleControls(clip(text, width - barSize - 2));
  const log = (text: string) => {
    const t = text.endsWith('\n') ? text : `${text}\n`;
    if (!bar) streams.stderr.write(t);
    else {
      multi.log(t);
      multi.update();
    }
  };
  const table = (text: string) => {
    if (stopped) return;
    if (sameScreen) log(text);
    else streams.tables.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  return {
    note: (line) => log(wrap(visibleControls(line), width, '  ', { keepLongWords: true })),
    table,
    onEvent: (e) => {
      if (stopped) return;
      if (e.type === 'group-done') {
        const text = o.groupText?.(e);
        if (text) table(text);
        return;
      }
      if (e.type === 'case-done') {
        bar?.update(e.counts.launchesFinished, {
          info: info(
            `cases ${barCases(e.counts)} · ETA ${etaText(e.counts, e.elapsedMs)} · launches ${e.counts.launchesFinished}/${e.counts.launchesTotal}`,
          ),
        });
        return;
      }
      if (e.type === 'stage') {
        // the last launch's line, its step in place of its mode
        if (bar && lastLaunch)
          bar.update(lastLaunch.counts.launchesFinished, { info: info(launchLine(lastLaunch, stageWords(e))) });
        return;
      }
      if (e.type !== 'launch') return;
      lastLaunch = e;
      const payload = { info: info(launchLine(e)) };
      if (!bar) {
        bar = multi.create(e.total, e.counts.launchesFinished, payload);
        return;
      }
      bar.setTotal(e.total);
      bar.update(e.counts.launchesFinished, payload);
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      if (bar) {
        // flush what log() holds, then clear the bar's line
        multi.update();
        multi.stop();
      }
    },
  };
}

/** Whole seconds since `t` (a `Date.now()`). */
const secondsSince = (t: number) => Math.round((Date.now() - t) / 1000);

function plainView(o: ProgressViewOptions, streams: ProgressStreams): ProgressView {
  let last = Date.now();
  let current: { counts: ProgressCounts; elapsedMs: number; caseId?: string } | null = null;
  // the current launch's step (a worker's stage), since when, and whether a line said it (timing gets none: the heartbeat names it)
  let step: { caseId: string; words: string; since: number; said: boolean } | null = null;
  const stepMs = Math.min(STAGE_LINE_MS, o.heartbeatMs ?? STAGE_LINE_MS);
  // the step before the case id: a long id is what the width cuts (hx7's rerun: "measuring payload:…/ty…")
  // a launch's line says for how long it has run: two heartbeats of one long launch never print the same line
  let launchSince = Date.now();
  const doing = (id: string) =>
    step?.caseId === id
      ? `${step.words} (${secondsSince(step.since)} s) · ${id}`
      : `measuring (${secondsSince(launchSince)} s) · ${id}`;
  let groupCases = 0;
  let saidSkipped = false;
  // after the last group: what the run is doing (notes that announce work: probes, cold starts…) and since when,
  // innermost last; a later note with the same leading word (`typia: … ready in 8.1 s`) ends it
  const phases: { text: string; since: number }[] = [];
  const leadOf = (text: string) => /^[^:\s]+:/.exec(text)?.[0];
  const line = (text: string) => {
    // wrapped at the width (COLUMNS, or 100) with a hanging indent; a path or id longer than the line stays whole on its own
    streams.stderr.write(`${wrap(visibleControls(text), o.width, '  ', { keepLongWords: true })}\n`);
    last = Date.now();
  };
  const every = o.heartbeatMs ?? HEARTBEAT_MS;
  const timer = setInterval(
    () => {
      // a step that lasts seconds (a large payload's reading, its gate) is said once, then the heartbeat repeats it
      if (step && !step.said && Date.now() - step.since >= stepMs) {
        step.said = true;
        line(clip(`jsonbench: ${step.caseId}: ${step.words}…`, o.width));
        return;
      }
      if (Date.now() - last < every) return;
      if (current)
        line(
          clip(
            `jsonbench: ${describeProgress(current.counts, current.elapsedMs)}${current.caseId ? ` · ${doing(current.caseId)}` : ''}`,
            o.width,
          ),
        );
      else if (phases.length) {
        const phase = phases[phases.length - 1];
        const since = ` (${Math.round((Date.now() - phase.since) / 1000)} s)`;
        line(`jsonbench: still at: ${clip(phase.text, Math.max(20, o.width - 22 - since.length))}${since}`);
      }
    },
    Math.min(1000, every),
  );
  timer.unref();
  return {
    table: (text) => streams.tables.write(text.endsWith('\n') ? text : `${text}\n`),
    note: (text) => {
      line(text);
      if (current) return;
      // a note that announces work under way (`probes: 125 relevant … (untimed)…`) names the phase a heartbeat repeats
      const lead = leadOf(text);
      let open = phases.length - 1;
      while (open >= 0 && (lead === undefined || leadOf(phases[open].text) !== lead)) open--;
      if (open >= 0) phases.splice(open);
      if (text.trimEnd().endsWith('…')) phases.push({ text, since: Date.now() });
    },
    onEvent: (e) => {
      if (e.type === 'started')
        line(`jsonbench: measuring ${e.cases} cases; each group's table follows when it is done`);
      else if (e.type === 'launch') {
        current = { counts: e.counts, elapsedMs: e.elapsedMs, caseId: e.caseId };
        step = null;
        launchSince = Date.now();
      } else if (e.type === 'stage')
        step = { caseId: e.caseId, words: stageWords(e), since: Date.now(), said: e.stage === 'rounds' };
      else if (e.type === 'case-done') {
        current = { ...current, counts: e.counts, elapsedMs: e.elapsedMs };
        // a case without a number is news for a CI log at once (the run's end lists them all again on stdout)
        if (e.result.status !== 'measured' && e.result.status !== 'unsupported')
          // wrapped at word boundaries, at most three lines (nu7: "a lone su…" cut mid-word at one line)
          line(
            wrapAtMost(
              visibleControls(`[${e.result.status}] ${e.result.id}: ${caseReason(e.result).replace(/\s+/g, ' ')}`),
              o.width,
              '  ',
              CASE_LINES,
            ),
          );
      } else if (e.type === 'group-done') {
        // the cases of the groups done are done, whatever case-done event is still to come (nu6: "group 1/6 done
        // (cases 0/15 …)"); launches are left out here: a quick launch carries several groups ("launches 4/4"
        // beside "one launch per group")
        groupCases += e.cases.filter((c) => c.status !== 'unsupported').length;
        const counts = current
          ? {
              ...current.counts,
              casesDone: Math.min(current.counts.casesTotal, Math.max(current.counts.casesDone, groupCases)),
            }
          : null;
        // one level of parentheses, and no "ETA 0s" while groups remain (nu9: a quick launch carries several groups, so
        // its work is all finished when the first of them is done: "group 1/6 done (cases 7/16 (of 24; …) · ETA 0s)")
        const eta = counts && current ? etaText(counts, current.elapsedMs) : '?';
        // said on the first group's line only (nu12: "(8 more unsupported, not run)" on all six)
        const skipped = counts && !saidSkipped ? counts.casesPlanned - counts.casesTotal : 0;
        if (skipped > 0) saidSkipped = true;
        line(
          `jsonbench: group ${e.done}/${e.groups} done${
            counts
              ? ` · cases ${counts.casesDone}/${counts.casesTotal}${skipped > 0 ? ` (${skipped} more unsupported, not run)` : ''}${eta === '0s' && e.done < e.groups ? '' : ` · ETA ${eta}`}`
              : ''
          }`,
        );
        const text = o.groupText?.(e);
        if (text) streams.tables.write(text.endsWith('\n') ? text : `${text}\n`);
        if (e.done === e.groups) [current, step] = [null, null];
      }
    },
    stop: () => clearInterval(timer),
  };
}
