import { test } from 'node:test';
import assert from 'node:assert/strict';
import xterm from '@xterm/headless';
import { progressView } from '../../src/cli/progress.js';
import { renderTerminal } from '../../src/report/terminal.js';
import type { SessionEvent } from '../../src/run/session.js';
import type { ProgressCounts } from '../../src/run/progress.js';
import { fixture } from '../report/support.js';

/**
 * The live display never corrupts the screen (issue 22 item 2): the raw bytes a run writes to a
 * terminal — the bar's redraws on stderr and the tables printed above it — are replayed into a
 * terminal emulator (@xterm/headless 6.0.0) at 120×40 and 80×40, and the final screen plus its
 * scrollback must hold every table row intact, in order, with no bar drawn over one. The old bar
 * (cli-progress SingleBar: ESC 7 at start, ESC 8 at stop, ESC[?7l for the whole run) drew the final
 * report over the tables that had scrolled, and cut every long line.
 */

/** A stream that records what is written, as a terminal would receive it. */
function recorder(columns: number) {
  const chunks: string[] = [];
  return {
    chunks,
    stream: {
      isTTY: true,
      columns,
      rows: 40,
      write(chunk: string | Uint8Array, ...rest: unknown[]) {
        chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        const cb = rest.find((x) => typeof x === 'function') as (() => void) | undefined;
        cb?.();
        return true;
      },
    } as unknown as NodeJS.WritableStream & { isTTY: boolean; columns: number },
  };
}

const counts = (done: number, total: number): ProgressCounts => ({
  launchesDone: done,
  launchesFinished: done,
  launchesTotal: total,
  casesDone: done,
  casesTotal: total,
  casesPlanned: total,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The screen after the bytes: every line of the buffer (scrollback included), right-trimmed. */
async function screen(bytes: string, cols: number): Promise<string[]> {
  const term = new xterm.Terminal({ cols, rows: 40, scrollback: 5000, allowProposedApi: true });
  // a terminal turns LF into CR LF (the tty's onlcr); the emulator is fed what the screen gets
  await new Promise<void>((resolve) => term.write(bytes.replace(/\r?\n/g, '\r\n'), resolve));
  const b = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < b.length; i++) lines.push(b.getLine(i)?.translateToString(true) ?? '');
  term.dispose();
  return lines;
}

for (const cols of [120, 80]) {
  test(`replayed into a ${cols}×40 terminal, every table row printed during the run is intact and in order`, async () => {
    const r = fixture('single');
    const tty = recorder(cols);
    const groups = [...new Set(r.cases.map((c) => c.direction))];
    const texts = groups.map((d) => {
      const cases = r.cases.filter((c) => c.direction === d);
      return {
        cases,
        text: `${renderTerminal({ ...r, cases }, false, { width: cols, tablesOnly: true }).trimEnd()}\n`,
      };
    });
    // stdout and stderr are the same terminal: both write to one recorder
    const view = progressView({
      isTty: true,
      width: cols,
      streams: { stderr: tty.stream, tables: tty.stream },
      groupText: (e) => texts.find((t) => t.cases === e.cases)?.text ?? null,
    });
    const total = 12;
    let launch = 0;
    const launchEvent = (): SessionEvent => ({
      type: 'launch',
      index: ++launch,
      total,
      caseId: `weather-station/1/single/serialize/a-serializer-with-a-long-name-${launch}`.repeat(2),
      mode: 'time',
      launch: 1,
      counts: counts(launch, total),
      elapsedMs: launch * 1000,
    });
    for (const [g, t] of texts.entries()) {
      for (let i = 0; i < 4; i++) {
        view.onEvent(launchEvent());
        await sleep(120); // the bar redraws every 100 ms
      }
      view.note(
        `jsonbench: a note printed while group ${g + 1} runs, long enough to wrap at eighty columns: ${'x'.repeat(60)}`,
      );
      view.onEvent({
        type: 'group-done',
        cases: t.cases,
        done: g + 1,
        groups: texts.length,
        results: r,
      } as SessionEvent);
      await sleep(120);
    }
    view.stop();
    const bytes = tty.chunks.join('');
    // never a cursor save/restore, never line wrapping turned off
    assert.doesNotMatch(bytes, /\x1b7|\x1b8|\x1b\[\?7l/);
    const lines = await screen(bytes, cols);
    const expected = texts.flatMap((t) => t.text.trimEnd().split('\n'));
    // the open tables' rows and header: indented, a serializer then two spaces (takeaway lines wrap with one)
    const rows = expected.filter((l) => /^ {2}\S+ {2,}/.test(l));
    assert.ok(rows.length >= 10, 'the fixture gives table rows');
    // each expected line appears as a whole screen line, in order
    let at = 0;
    for (const line of expected) {
      const found = lines.indexOf(line.trimEnd(), at);
      assert.ok(
        found >= 0,
        `${cols} columns: missing or overwritten: ${JSON.stringify(line)}\nscreen:\n${lines.join('\n')}`,
      );
      at = found + 1;
    }
    // the bar is gone at the end, and was never left inside the tables
    assert.ok(!lines.some((l) => /[░█]{5}/.test(l)), 'no bar left on the screen');
    for (const l of lines) assert.ok([...l].length <= cols);
  });
}

test('not a terminal: plain lines (measuring, each group done, a heartbeat while silent), no control sequence', async () => {
  const out = recorder(100);
  const err = recorder(100);
  (err.stream as { isTTY: boolean }).isTTY = false;
  (out.stream as { isTTY: boolean }).isTTY = false;
  const r = fixture('single');
  const view = progressView({
    isTty: false,
    width: 100,
    heartbeatMs: 150,
    streams: { stderr: err.stream, tables: out.stream },
    groupText: () => 'TABLE\n',
  });
  view.onEvent({ type: 'started', outDir: '/x', partialPath: '/x/p', launchLogPath: '/x/l', cases: 7 });
  view.onEvent({
    type: 'launch',
    index: 1,
    total: 4,
    caseId: 'weather-station/1/single/serialize/typia',
    mode: 'time',
    launch: 1,
    counts: counts(0, 4),
    elapsedMs: 10,
  });
  await sleep(1300);
  view.onEvent({ type: 'group-done', cases: r.cases, done: 1, groups: 1, results: r } as SessionEvent);
  view.stop();
  const text = err.chunks.join('');
  assert.doesNotMatch(text, /\x1b/);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], "jsonbench: measuring 7 cases; each group's table follows when it is done");
  assert.ok(
    lines.some((l) =>
      /^jsonbench: cases 0\/4 · launches 0\/4 · ETA .* · measuring \(1 s\) · weather-station\/1\/single\/serialize\/(typia|…)$/.test(
        l,
      ),
    ),
    `a heartbeat: ${text}`,
  );
  // the group's cases count as done though no case-done event came (nu6: "group 1/6 done (cases 0/15 …)"), never past
  // the total; no launch count beside the groups (a quick launch carries several)
  assert.match(lines[lines.length - 1], /^jsonbench: group 1\/1 done · cases 4\/4 · ETA \S+$/);
  assert.equal(out.chunks.join(''), 'TABLE\n');
});

test('piped group lines: one level of parentheses, the unsupported said once, no "ETA 0s" while groups remain (nu9)', () => {
  const err = recorder(100);
  (err.stream as { isTTY: boolean }).isTTY = false;
  const r = fixture('single');
  const view = progressView({
    isTty: false,
    width: 100,
    streams: { stderr: err.stream, tables: recorder(100).stream },
  });
  // a quick launch carried every group: all its work is finished when the first group is done
  const c = { ...counts(1, 1), casesDone: 7, casesTotal: 16, casesPlanned: 24 };
  view.onEvent({
    type: 'launch',
    index: 1,
    total: 1,
    caseId: 'x',
    mode: 'time',
    launch: 1,
    counts: c,
    elapsedMs: 5000,
  });
  view.onEvent({ type: 'group-done', cases: [], done: 1, groups: 6, results: r } as unknown as SessionEvent);
  view.onEvent({ type: 'group-done', cases: [], done: 6, groups: 6, results: r } as unknown as SessionEvent);
  view.stop();
  const lines = err.chunks
    .join('')
    .trimEnd()
    .split('\n')
    .filter((l) => l.includes('done'));
  assert.deepEqual(lines, [
    'jsonbench: group 1/6 done · cases 7/16 (8 more unsupported, not run)',
    // said on the first line only (nu12: on every one of six)
    'jsonbench: group 6/6 done · cases 7/16 · ETA 0s',
  ]);
});
