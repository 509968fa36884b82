import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryPoint } from '../../src/results/history.js';
import { historySeries, renderHistoryMarkdown, renderHistoryTerminal } from '../../src/report/history.js';
import { renderHistorySection } from '../../src/report/html/history.js';

const point = (
  runId: number,
  startedAt: string,
  version: string,
  meanNs: number | null,
  status = 'measured',
): HistoryPoint => ({
  runId,
  startedAt,
  toolVersion: '0.1.0',
  gitCommit: null,
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
  reason: status === 'measured' ? null : 'prepare: <TypeError>',
  meanNs,
  errorNs: meanNs === null ? null : meanNs * 0.05,
  ratio: null,
  bytesPerOp: 1800,
  instructionsPerOp: null,
});

const points = [
  point(2, '2025-02-01T00:00:00.000Z', '7.3.10', 470),
  point(1, '2025-01-01T00:00:00.000Z', '10.0.0', 300),
  point(1, '2025-01-01T00:00:00.000Z', '9.1.0', 560),
  point(1, '2025-01-01T00:00:00.000Z', '5.16.1', null, 'failed'),
];

test("a case's points are ordered by run, then by serializer version as semver (9 before 10)", () => {
  const [s] = historySeries(points);
  assert.deepEqual(
    s.points.map((p) => `${p.runId}:${p.serializerVersion}`),
    ['1:5.16.1', '1:9.1.0', '1:10.0.0', '2:7.3.10'],
  );
});

test('the HTML section charts measured points only, one circle each with its version, and escapes the data', () => {
  const html = renderHistorySection(points);
  assert.match(html, /<h2>Across releases<\/h2>/);
  assert.equal((html.match(/<svg /g) ?? []).length, 1);
  assert.equal((html.match(/<circle /g) ?? []).length, 3);
  assert.ok(html.indexOf('>9.1.0</text>') < html.indexOf('>10.0.0</text>'));
  assert.match(html, /failed: prepare: &lt;TypeError&gt;/);
  assert.doesNotMatch(html, /<TypeError>/);
  assert.equal(renderHistorySection([]), '');
});

test('the across-releases chart has one line per runtime, x in version order, never joining versions or runtimes in run order', () => {
  const on = (p: HistoryPoint, target: string, targetVersion: string): HistoryPoint => ({
    ...p,
    target,
    targetVersion,
  });
  // run order: 7.3.10 (node), 6.4.0 (node), 7.3.10 (chromium), 6.4.0 again later (node, the point drawn)
  const html = renderHistorySection([
    point(1, '2025-01-01T00:00:00.000Z', '7.3.10', 400),
    point(2, '2025-02-01T00:00:00.000Z', '6.4.0', 500),
    on(point(3, '2025-03-01T00:00:00.000Z', '7.3.10', 900), 'chromium', '131.0'),
    on(point(4, '2025-03-02T00:00:00.000Z', '6.4.0', 1200), 'chromium', '131.0'),
    point(5, '2025-04-01T00:00:00.000Z', '6.4.0', 450),
  ]);
  const lines = [...html.matchAll(/<polyline[^>]*points="([^"]+)"/g)].map((m) =>
    m[1].split(' ').map((xy) => Number(xy.split(',')[0])),
  );
  assert.equal(lines.length, 2, 'one line per runtime');
  for (const xs of lines) assert.ok(xs[0] < xs[1], 'left to right in version order');
  assert.ok(html.indexOf('>6.4.0</text>') < html.indexOf('>7.3.10</text>'), '6.4.0 first on the axis');
  assert.match(html, />node 20\.20\.2<\/text>/);
  assert.match(html, />chromium 131\.0<\/text>/);
  assert.equal(
    (html.match(/<circle /g) ?? []).length,
    4,
    'the latest run per version and runtime (run 2 is in the table only)',
  );
  assert.match(html, /<td>2<\/td>/);
});

test('the Markdown history has one table per case with the version, runtime and mean', () => {
  const md = renderHistoryMarkdown(points);
  assert.match(md, /^## weather-station · 1 · single · serialize · fast-json-stringify\n/);
  assert.match(
    md,
    /\| 2 \| 2025-02-01 00:00 \| fast-json-stringify@7\.3\.10 \| 7\.3\.10 \| node 20\.20\.2 \| 0\.1\.0 \| — \| 470 ns \| ±23\.5 ns \|/,
  );
});

test('a series whose policy or schema changes marks the run where it did, says what changed under its table, and the HTML chart never joins the two (nu7: one line from 2.44 to 0.95 across two policies and schemas)', () => {
  const at = (runId: number, policy: string, schema: HistoryPoint['schema'], meanNs: number): HistoryPoint => ({
    ...point(runId, `2026-12-06T11:1${runId}:00.000Z`, '7.3.10', meanNs),
    policy,
    schema,
  });
  const inferred = { source: 'inferred', sha256: 'a'.repeat(64) };
  const flat = { source: 'json-schema', file: 'orders.flat.schema.json', sha256: 'b'.repeat(64) };
  const ps = [
    at(1, 'quick', inferred, 524_000),
    at(2, 'quick', inferred, 571_000),
    at(5, 'default', inferred, 361_000),
    at(6, 'quick', flat, 144_000),
    at(7, 'quick', { ...flat, sha256: 'c'.repeat(64) }, 150_000),
  ];
  const [s] = historySeries(ps);
  assert.deepEqual(s.changes, [
    { runId: 5, text: 'policy quick → default' },
    { runId: 6, text: 'policy default → quick; schema inferred → json-schema orders.flat.schema.json' },
    { runId: 7, text: 'schema json-schema orders.flat.schema.json (sha256 bbbbbbbbbbbb… → cccccccccccc…)' },
  ]);
  const text = renderHistoryTerminal(ps, false, 120);
  assert.deepEqual(
    text
      .split('\n')
      .filter((l) => /^│ \d/.test(l))
      .map((l) => l.split('│')[1].trim()),
    ['1', '2', '5 ◆', '6 ◆', '7 ◆'],
  );
  assert.match(text, /\n◆ run 6: policy default → quick; schema inferred → json-schema orders\.flat\.schema\.json\n/);
  assert.match(text, /◆: that run measured the case with another policy, schema or payload than the run before it/);
  assert.match(renderHistoryMarkdown(ps), /◆ run 5: policy quick → default/);
  // the chart: a line (and a legend entry) per runtime × policy and schema
  const html = renderHistorySection(ps);
  assert.match(html, />node 20\.20\.2 · quick · inferred aaaaaaaa</);
  assert.match(html, />node 20\.20\.2 · default · inferred aaaaaaaa</);
  assert.match(html, /◆ run 6: policy default → quick/);
  // nothing changed: no mark, no line, no legend
  const same = [at(1, 'quick', inferred, 1000), at(2, 'quick', { ...inferred }, 1100)];
  assert.deepEqual(historySeries(same)[0].changes, []);
  assert.doesNotMatch(renderHistoryTerminal(same, false, 120), /◆/);
  // points not read (older callers) never count as a change
  assert.deepEqual(historySeries(points)[0].changes, []);
  // two payload files of one name: the same case id on other bytes (hx30 hist-samename: typia 0.67 → 1.58, unmarked)
  const bytes = [
    { ...at(1, 'quick', inferred, 639), payloadSha256: 'd776d310065c'.padEnd(64, '0') },
    { ...at(2, 'quick', inferred, 123_000), payloadSha256: 'bd5afd0d54c2'.padEnd(64, '0') },
  ];
  assert.deepEqual(historySeries(bytes)[0].changes, [
    { runId: 2, text: 'payload sha256 d776d310065c… → bd5afd0d54c2… (other bytes)' },
  ]);
  assert.match(renderHistorySection(bytes), />node 20\.20\.2 · quick · inferred aaaaaaaa · payload bd5afd0d</);
});
