import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult, MeasuredCase, ResultsFile } from '../../src/results/types.js';
import { isMeasured } from '../../src/results/types.js';
import type { HistoryPoint } from '../../src/results/history.js';
import { formatTimeError, formatTimeInterval } from '../../src/report/units.js';
import { CSV_COLUMNS, renderCsv } from '../../src/report/csv.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderGithubActionBenchmark, type GabEntry } from '../../src/report/github-action-benchmark.js';
import { formatMeanError, formatPercentDelta, perRuntimeHead } from '../../src/report/per-runtime.js';
import { recommend } from '../../src/report/recommend.js';
import { asRuns, buildModel } from '../../src/report/model.js';
import { toViewData } from '../../src/report/html/view.js';
import { deltaCell, renderTable, targetCells } from '../../src/report/html/table.js';
import type { ViewRow } from '../../src/report/html/rebase.js';
import { renderHtml } from '../../src/report/html/page.js';
import { historyCells } from '../../src/report/history.js';
import { renderHistoryChart } from '../../src/report/html/history.js';
import { renderSite } from '../../src/report/site.js';
import { launchStatesAnalyser } from '../../src/analysers/launch-states.js';
import { policies } from '../../src/config/policies.js';
import { fixture } from './support.js';

/**
 * Since branch `stats5` a case's time interval is on the log scale: asymmetric about the mean and
 * never below 0 (results.json `time.interval`; `time.error` = mean × the larger log half-width).
 * The quiet fixture's zod case reads 63.2 µs [16.0–250 µs] (docs/intervals.md); a symmetric
 * "63.2 µs ± 86.9 µs" reached below 0. Every renderer must print the interval's own ends.
 */
const MEAN = 63_200;
const LOW = 16_000;
const HIGH = 250_000;
/** results.json's error: mean × the larger log half-width, ln(250/63.2) = 1.375 */
const ERROR = MEAN * Math.log(HIGH / MEAN);

/** The default-suite fixture with its first paired case's time made the asymmetric one above. */
function crafted(): { results: ResultsFile; c: MeasuredCase } {
  const results = structuredClone(fixture('default-suite'));
  const c = results.cases.find((x): x is MeasuredCase => isMeasured(x) && x.serializer !== x.baseline)!;
  c.time = { ...c.time, mean: MEAN, median: MEAN, error: ERROR, interval: [LOW, HIGH] };
  return { results, c };
}

test('the time formatters print a log-scale interval by its own ends, never a symmetric ± of the larger side', () => {
  assert.equal(formatTimeInterval([LOW, HIGH]), '16.0–250 µs');
  assert.equal(formatTimeInterval([950, 1200]), '950 ns–1.20 µs');
  assert.equal(formatTimeInterval(null), '—');
  assert.equal(formatTimeError(MEAN, [LOW, HIGH]), '+187/−47.2 µs');
  assert.equal(formatTimeError(1000, [900, 1200]), '+200/−100 ns');
  assert.equal(formatTimeError(1000, [950, 1_500_000]), '+1.50 ms/−50.0 ns');
  // a file written before stats5: the linear mean ± error, symmetric
  assert.equal(formatTimeError(525, [341, 709]), '±184 ns');
});

test('terminal and report.md: the Error column reads +above/−below of the asymmetric interval', () => {
  const { results, c } = crafted();
  const md = renderMarkdown(results);
  const row = md.split('\n').find((l) => l.includes(`| ${c.serializer} |`) && l.includes('63.2 µs'));
  assert.ok(row, 'the crafted row is in report.md');
  assert.match(row, /\| 63\.2 µs \| \+187\/−47\.2 µs \|/);
  assert.doesNotMatch(row, /86\.9 µs/, 'never the symmetric error');
  const text = renderTerminal(results, false, { width: 400, verbose: true });
  assert.match(text, /63\.2 µs +│? *\+187\/−47\.2 µs/);
  assert.doesNotMatch(text, /86\.9 µs/);
});

test('report.csv keeps error_ns and adds low_ns and high_ns, the recorded ends', () => {
  const { results, c } = crafted();
  const lines = renderCsv(results).split('\r\n');
  const head = lines[0].split(',');
  const col = (name: string) => head.indexOf(name);
  assert.ok(col('error_ns') >= 0 && col('low_ns') === col('error_ns') + 1 && col('high_ns') === col('low_ns') + 1);
  assert.deepEqual(CSV_COLUMNS.map((x) => x.name).slice(col('mean_ns'), col('high_ns') + 1), [
    'mean_ns',
    'error_ns',
    'low_ns',
    'high_ns',
  ]);
  const row = lines.find((l) => l.includes(`,${c.id},`))!.split(',');
  assert.equal(Number(row[col('mean_ns')]), MEAN);
  assert.equal(Number(row[col('error_ns')]), ERROR);
  assert.equal(Number(row[col('low_ns')]), LOW);
  assert.equal(Number(row[col('high_ns')]), HIGH);
  // a file written before stats5 (no interval): mean ± error, cut at 0
  const old = structuredClone(results);
  const o = old.cases.find((x) => x.id === c.id) as MeasuredCase;
  delete o.time.interval;
  o.time.error = 100_000;
  const orow = renderCsv(old)
    .split('\r\n')
    .find((l) => l.includes(`,${c.id},`))!
    .split(',');
  assert.deepEqual([Number(orow[col('low_ns')]), Number(orow[col('high_ns')])], [0, MEAN + 100_000]);
});

test('github-action-benchmark: the time entry’s range is the interval low–high, not ± error', () => {
  const { results, c } = crafted();
  const entries = JSON.parse(renderGithubActionBenchmark(results)) as GabEntry[];
  const mine = entries.filter((e) => e.unit === 'ns/op' && e.value === MEAN);
  assert.equal(mine.length, 1, c.id);
  assert.equal(mine[0].range, '16000.000–250000.000');
});

test('per-runtime columns: Mean [interval], and Δ’s ≈ from the intervals, not from mean ± error', () => {
  const { c } = crafted();
  assert.deepEqual(perRuntimeHead(['node', 'bun']), [
    'node Mean [interval]',
    'node Ratio',
    'node Allocated',
    'bun Mean [interval]',
    'bun Δ',
    'bun Ratio',
    'bun Allocated',
  ]);
  assert.equal(formatMeanError(c), '63.2 µs [16.0–250 µs]');
  // 12 µs [11–13 µs] on another target: ± errors (86.9 + 1) overlap 51.2 µs apart, the intervals do not (16.0 > 13)
  const other: CaseResult = { ...c, time: { ...c.time, mean: 12_000, error: 1_000, interval: [11_000, 13_000] } };
  assert.equal(formatPercentDelta(other, c), '−81%');
  // and they do overlap when the other's interval reaches 16 µs
  const near: CaseResult = { ...c, time: { ...c.time, mean: 14_000, error: 3_000, interval: [11_000, 17_000] } };
  assert.equal(formatPercentDelta(near, c), '≈ −78%');
});

test('report.html: Mean [low–high] in the table (and in the shipped page), Δ from the two asymmetric intervals', () => {
  const { results, c } = crafted();
  const data = toViewData(buildModel(asRuns(results)));
  const v = data.cases.find((x) => x.id === c.id)!;
  assert.deepEqual(v.interval, [LOW, HIGH]);
  assert.ok(!('error' in v), 'the symmetric error is not embedded');
  const row: ViewRow = {
    serializer: v.serializer,
    c: v,
    ratio: v.ratio,
    interval: v.ratioInterval,
    allocRatio: null,
    derived: false,
  };
  const cells = targetCells(row, false);
  assert.match(cells, /63\.2 µs<span class="err"> \[16\.0–250 µs\]<\/span>/);
  assert.match(renderTable(['node'], [[row]], null), /<th>Mean \[interval\]<\/th>/);
  assert.match(renderHtml(results), /63\.2 µs<span class="err"> \[16\.0–250 µs\]<\/span>/);
  // Δ against 12 µs [11–13 µs]: the quotient's log interval reaches ln(12/63.2) ± …, clear of 0 below
  // (√(ln(12/11)² + ln(250/63.2)²) = 1.38 < ln(63.2/12) = 1.66): a change; a symmetric reading said the same
  const at = (mean: number, interval: [number, number]): ViewRow => ({ ...row, c: { ...v, mean, interval } });
  assert.match(deltaCell(row, at(12_000, [11_000, 13_000])), /class="num faster" title="−[\d.]+% to −[\d.]+%">−81\.0%/);
  // 25 µs [24–26 µs]: ln(63.2/25) = 0.93 lies within the interval's lower reach √(ln(25/24)² + 1.375²) = 1.38 → ≈
  assert.match(deltaCell(row, at(25_000, [24_000, 26_000])), /class="num dim" title="within noise[^"]*">≈ −60\.4%/);
  // the other way up: 160 µs [150–170 µs] above 63.2 µs reaches ln(160/63.2) = 0.93 against the lower
  // side's √(ln(160/150)² + ln(63.2/16)²) = 1.38: ≈; the symmetric noise (ln 3.95 both sides) said the same,
  // but 500 µs [480–520 µs] is clear of it (ln(500/63.2) = 2.07 > 1.38)
  assert.match(deltaCell(row, at(160_000, [150_000, 170_000])), /≈ \+153\.2%/);
  assert.match(deltaCell(row, at(500_000, [480_000, 520_000])), /class="num slower"[^>]*>\+691\.1%/);
});

test('recommend(): the pick carries the mean’s interval beside results.json’s error', () => {
  const { results } = crafted();
  const recs = recommend(results);
  const at = recs.findIndex((r) => r.pick !== null);
  const before = recs[at];
  const c = results.cases.find(
    (x): x is MeasuredCase =>
      isMeasured(x) &&
      x.serializer === before.pick!.serializer &&
      x.class === before.caseClass &&
      x.direction === before.direction,
  )!;
  c.time = { ...c.time, mean: MEAN, error: ERROR, interval: [LOW, HIGH] };
  const pick = recommend(results)[at].pick!;
  assert.equal(pick.serializer, before.pick!.serializer);
  assert.deepEqual(pick.timeInterval, [LOW, HIGH]);
  assert.equal(pick.errorNs, ERROR);
});

test('the launch-states finding names the interval’s ends, never mean ± error', () => {
  const { results } = crafted();
  const base = results.cases.find((x): x is MeasuredCase => isMeasured(x) && x.serializer === x.baseline)!;
  base.time = { ...base.time, mean: MEAN, error: ERROR, interval: [LOW, HIGH] };
  const [f] = launchStatesAnalyser.analyse(base, {
    policy: policies.default.measure,
    launchStates: {
      time: {
        states: [
          { value: 20_000, launches: [0] },
          { value: 200_000, launches: [1] },
        ],
        widened: true,
      },
    },
  });
  assert.match(
    f.message,
    /The reported mean 63\.2 µs \[16\.0 µs–250 µs\] is the mean over all the launches, each state by its share; its interval counts how uncertain the shares are and is widened for them/,
  );
  assert.doesNotMatch(f.message, /±/);
});

/** A ledger point of the crafted case, as caseHistory gives it back (the interval from its case record). */
const point = (timeInterval: [number, number] | null | undefined): HistoryPoint => ({
  runId: 3,
  startedAt: '2026-12-06T10:00:00.000Z',
  toolVersion: '0.1.0',
  gitCommit: null,
  caseId: 'users-settings/100/list/deserialize/zod',
  workload: 'users-settings',
  size: 100,
  shape: 'list',
  direction: 'deserialize',
  serializer: 'zod',
  adapter: 'zod',
  serializerVersion: '4.6.7',
  target: 'node',
  targetVersion: '20.20.2',
  status: 'measured',
  reason: null,
  meanNs: MEAN,
  errorNs: ERROR,
  ratio: null,
  bytesPerOp: null,
  instructionsPerOp: null,
  ...(timeInterval !== undefined ? { timeInterval } : {}),
});

test('history and site: the Error cell, the chart’s error bar and the site’s table read the recorded interval', () => {
  const p = point([LOW, HIGH]);
  assert.ok(historyCells(p).includes('+187/−47.2 µs'), historyCells(p).join(' | '));
  // a point without a recorded interval (a run before stats5): mean ± error as that error meant then, cut at 0
  assert.ok(historyCells(point(undefined)).includes('+86.9/−63.2 µs'), historyCells(point(undefined)).join(' | '));
  // the chart's bar runs from 16 µs to 250 µs: its top is 1.1 × 250 µs, and its tooltip names the ends
  const svg = renderHistoryChart([p]);
  assert.match(svg, /63\.2 µs \[16\.0–250 µs\]<\/title>/);
  assert.match(svg, />275 µs<\/text>/, 'the axis tops at 1.1 × the interval’s high end');
  // the error bar: the one vertical line (x1 = x2)
  const ys = [...svg.matchAll(/<line x1="([\d.]+)" x2="\1" y1="([\d.]+)" y2="([\d.]+)"/g)].map((m) => [
    Number(m[2]),
    Number(m[3]),
  ]);
  assert.equal(ys.length, 1, 'one error bar');
  // y is linear in ns: the bar's length over the axis's (0 → top) is (250 − 16) / 275
  const axis = [...svg.matchAll(/<line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)" y2="\1" stroke="#ddd"/g)].map((m) =>
    Number(m[1]),
  );
  const span = Math.max(...axis) - Math.min(...axis);
  assert.ok(Math.abs((ys[0][1] - ys[0][0]) / span - (HIGH - LOW) / 275_000) < 0.01, `${ys[0]} over ${span}`);
  const site = renderSite({ runs: [], points: [p], latestReportHtml: null });
  const page = Object.entries(site).find(([k]) => k.startsWith('pages/'))![1];
  assert.match(page, /63\.2 µs \[16\.0–250 µs\]/);
  assert.match(page, /<th>Mean \[CI\]<\/th>/);
});
