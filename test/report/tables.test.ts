import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTargetTables } from '../../src/report/target-columns.js';
import { renderHistoryMarkdown, renderHistoryTerminal } from '../../src/report/history.js';
import { renderInstructions } from '../../src/report/instructions.js';
import { renderCompareMarkdown, renderCompareTerminal } from '../../src/compare/render.js';
import { compareResults, DEFAULT_ALPHA, DEFAULT_THRESHOLDS, METRICS } from '../../src/compare/compare.js';
import { renderRuntimes } from '../../src/cli/runtimes.js';
import { renderList } from '../../src/cli/list.js';
import { renderTable } from '../../src/report/table/write.js';
import { escapeCell } from '../../src/report/table/escape.js';
import type { HistoryPoint } from '../../src/results/history.js';
import { makeResults, prng, roundsOf } from '../ledger/fixture.js';
import { assertSnapshot, fixture } from './support.js';

/**
 * Every table of the lab is a list of columns laid out by one writer (src/report/table/): a
 * snapshot per table and dialect, from fixed data, so a change of any table shows in review.
 */

const point = (runId: number, version: string, meanNs: number | null, status = 'measured'): HistoryPoint => ({
  runId,
  startedAt: `2025-0${runId}-01T00:00:00.000Z`,
  toolVersion: '0.1.0',
  gitCommit: runId === 2 ? 'abcdef0123456789' : null,
  caseId: `weather-station/1/single/serialize/fast-json-stringify@${version}`,
  workload: 'weather-station',
  size: 1,
  shape: 'single',
  direction: 'serialize',
  serializer: `fast-json-stringify@${version}`,
  adapter: 'fast-json-stringify',
  serializerVersion: version,
  target: 'node',
  targetVersion: '20.20.2',
  status,
  reason: status === 'measured' ? null : 'prepare: TypeError | <b>',
  meanNs,
  errorNs: meanNs === null ? null : meanNs * 0.05,
  ratio: meanNs === null ? null : 0.4,
  bytesPerOp: 1800,
  instructionsPerOp: runId === 2 ? 6589.8 : null,
});
const history = [point(1, '6.4.0', 404), point(1, '5.16.1', null, 'failed'), point(2, '7.3.10', 338)];

function comparison() {
  const r = prng(7);
  const base = makeResults([
    { serializer: 'json', rounds: roundsOf(r, 6, 5, 1000, 10) },
    { serializer: 'fast', rounds: roundsOf(r, 6, 5, 400, 5) },
  ]);
  const head = makeResults(
    [
      { serializer: 'json', rounds: roundsOf(r, 6, 5, 1000, 10) },
      { serializer: 'fast', rounds: roundsOf(r, 6, 5, 520, 5) },
    ],
    '2025-01-03T00:00:00.000Z',
  );
  return compareResults(base, head, { alpha: DEFAULT_ALPHA, thresholds: { ...DEFAULT_THRESHOLDS }, metrics: METRICS });
}

test('the run table: terminal (sections by class, notes wrapped) and Markdown (Class column)', () => {
  assertSnapshot('tables/run.terminal.txt', renderTerminal(fixture('single'), false));
  assertSnapshot('tables/run.md', renderMarkdown(fixture('single')));
});

test('the side-by-side table of a run on several targets, in both dialects', () => {
  assertSnapshot('tables/targets.terminal.txt', renderTargetTables(fixture('two-targets'), 'text'));
  assertSnapshot('tables/targets.md', renderTargetTables(fixture('two-targets'), 'markdown'));
});

test('the history table, in both dialects', () => {
  assertSnapshot('tables/history.terminal.txt', renderHistoryTerminal(history, false));
  assertSnapshot('tables/history.md', renderHistoryMarkdown(history));
});

test('the compare table, in both dialects (slower verdicts bold in Markdown)', () => {
  const c = comparison();
  assert.ok(
    c.cases.some((k) => k.metrics.some((m) => m.change.verdict === 'slower')),
    'the fixture has a slower case',
  );
  assertSnapshot('tables/compare.terminal.txt', renderCompareTerminal(c, 'base.json', 'head.json', false));
  assertSnapshot('tables/compare.md', renderCompareMarkdown(c, 'base.json', 'head.json'));
});

test('the instructions table, in both dialects', () => {
  const r = makeResults([
    { serializer: 'json', instructions: 20018.53 },
    { serializer: 'fast', instructions: 6589.81 },
  ]);
  assertSnapshot('tables/instructions.terminal.txt', renderInstructions(r));
  assertSnapshot('tables/instructions.md', renderInstructions(r, true));
});

test('`list` at 80 columns keeps where each serializer runs: a heading per platform names its targets; Family goes first, said once (nu6: "Runs on" was dropped)', () => {
  const ws = [
    {
      id: 'users-settings-record',
      description: "The users-settings payload on .NET as study 001's code: a positional record",
      sizes: [100, 1000],
      defaultSizes: [100],
      shapes: ['list'],
    },
  ];
  const rows = [
    {
      id: 'safe-stable-stringify',
      version: '3.0.0',
      family: 'builtin',
      deserializeClass: null,
      supported: ['users-settings-record/list/ser'],
    },
    {
      id: 'stj-sourcegen',
      version: 'as loaded by the target',
      family: 'source-generated',
      deserializeClass: 'transform',
      supported: ['users-settings-record/list/ser', 'users-settings-record/list/de'],
      platform: 'dotnet',
    },
  ];
  for (const width of [80, 120]) {
    const text = renderList(ws, rows, false, width);
    const lines = text.trimEnd().split('\n');
    assert.deepEqual(
      lines.filter((l) => [...l].length > width),
      [],
      `no line over ${width}`,
    );
    // a heading wraps after a comma ("chromium,\n  quickjs:"); the open tables' rows also start with two spaces
    const flat = text.replace(/,\n {2}/g, ', ');
    assert.match(flat, /^JavaScript serializers, run on node, node@[\d|]+, bun, deno, chromium, quickjs:$/m);
    assert.match(flat, /^\.NET serializers, run on dotnet, dotnet@[\d|]+, mono:$/m);
    assert.ok(
      flat.indexOf('JavaScript serializers') < flat.indexOf('safe-stable-stringify') &&
        flat.indexOf('safe-stable-stringify') < flat.indexOf('.NET serializers') &&
        flat.indexOf('.NET serializers') < flat.indexOf('stj-sourcegen'),
      'each serializer under its platform',
    );
    assert.ok((text.match(/left out to fit/g) ?? []).length <= 1, 'the columns left out are said once');
  }
  assert.match(
    renderList(ws, rows, false, 80),
    /\(column left out to fit 80 characters: Family; a wider terminal shows it\)/,
  );
  assert.doesNotMatch(renderList(ws, rows, false, 120), /left out/);
});

test('the list and runtimes tables', () => {
  assertSnapshot(
    'tables/list.terminal.txt',
    renderList(
      [
        {
          id: 'weather-station',
          description: 'One ~409-byte weather-station current-conditions response; nullable fields, numbers as strings',
          sizes: [1],
          defaultSizes: [1],
          shapes: ['single'],
        },
      ],
      [
        {
          id: 'safe-stable-stringify',
          version: '3.0.0',
          family: 'builtin',
          deserializeClass: null,
          supported: ['weather-station/single/ser'],
        },
      ],
      false,
    ),
  );
  assertSnapshot(
    'tables/runtimes.terminal.txt',
    renderRuntimes(
      [
        { target: 'node', installed: true, version: '20.20.2', where: '/usr/bin/node', install: null },
        { target: 'bun', installed: false, version: null, where: null, install: 'jsonbench runtimes install bun' },
      ],
      '/cache/jsonbench',
    ),
  );
});

test('one escaper: data cannot break a Markdown row, load an image, inject HTML, or send escape sequences to a terminal', () => {
  const hostile =
    'a|b\\c <img src=x> ![x](http://e/x.png)\r\nnext\u2028line \u001b]52;c;cGF3bmVk\u0007 \u001b[2J\u009b';
  assert.equal(
    escapeCell(hostile, 'markdown'),
    'a\\|b\\\\c &lt;img src=x&gt; !\\[x]\\(http://e/x.png) next line ␛]52;c;cGF3bmVk␇ ␛[2J\ufffd',
  );
  assert.equal(
    escapeCell(hostile, 'terminal'),
    'a|b\\c <img src=x> ![x](http://e/x.png) next line ␛]52;c;cGF3bmVk␇ ␛[2J\ufffd',
  );
  const md = renderTable({ columns: [{ id: 'x', header: 'X', cell: (r: string) => r }], rows: [hostile] }, 'markdown');
  assert.equal(md.split('\n').length, 3, 'one header, one rule, one row');
});

test('a 178 KB message is cut, not laid out: every renderer shows at most the cap, fast', () => {
  const long = 'x'.repeat(178_000);
  const t0 = performance.now();
  const text = renderTable(
    { columns: [{ id: 'why', header: 'Why', cell: (r: string) => r, wrap: 50 }], rows: [long] },
    'terminal',
  );
  assert.ok(performance.now() - t0 < 5000, 'laid out in under 5 s');
  assert.ok(text.length < 2000, `the cell is cut to the cap (${text.length} characters)`);
  assert.match(escapeCell(long, 'markdown'), /^x{499}…$/);
});
