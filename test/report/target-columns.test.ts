import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTargetTables, renderTargetTables, targetSummaryLines } from '../../src/report/target-columns.js';
import type { CaseResult, ResultsFile, TargetRecord } from '../../src/results/types.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { fixture } from './support.js';

/** The side-by-side view of a --target run, from a hand-made results file. */

const target = (id: string, runtime: string, version: string, extra: Partial<TargetRecord> = {}): TargetRecord => ({
  id,
  kind: id,
  runtime,
  version,
  engine: 'V8',
  engineVersion: '12.4',
  flags: [],
  probe: {},
  timing: { prepareMs: 1500, launchMs: 12_000, launches: 4 },
  ...extra,
});

const kase = (
  serializer: string,
  t: TargetRecord,
  meanNs: number | null,
  alloc?: CaseResult['allocated'],
  status: CaseResult['status'] = 'measured',
  reason?: string,
): CaseResult =>
  ({
    id: `weather-station/1/single/serialize/${serializer}@${t.id}`,
    target: { id: t.id, runtime: t.runtime, version: t.version },
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    serializer,
    serializerVersion: '1',
    family: 'builtin',
    direction: 'serialize',
    class: 'serialize',
    baseline: 'json',
    status,
    ...(reason ? { reason } : {}),
    payload: { bytes: 409, sha256: 'ab' },
    ...(meanNs !== null
      ? {
          time: {
            mean: meanNs,
            median: meanNs,
            error: 1,
            stddev: 1,
            min: meanNs,
            max: meanNs,
            unit: 'ns/op' as const,
            n: 10,
            outliers: { low: 0, high: 0 },
            launchSpread: 0,
          },
        }
      : {}),
    ...(alloc ? { allocated: alloc } : {}),
    ...(status === 'measured' ? { ratio: null, ratioError: null, allocRatio: null } : {}),
    findings: [],
    samples: { launches: [], relaunches: 0 },
  }) as CaseResult;

const node = target('node', 'node', '20.20.2');
const qjs = target('quickjs', 'quickjs', '0.12.1', { engine: 'QuickJS-ng', engineVersion: '0.12.1' });
const bun = target('bun', 'bun', 'unavailable', {
  fault: 'bun is not installed: run `jsonbench runtimes install bun`',
  timing: undefined,
});
const exact = { mean: 640, unit: 'bytes/op' as const, gcPerOp: 0, windows: [640], method: 'exact' as const };
const na = { unit: 'bytes/op' as const, method: 'n/a' as const, note: 'no counter' };
const results = {
  schemaVersion: 2,
  tool: 'jsonbench',
  startedAt: '2026-11-29T00:00:00Z',
  targets: [node, qjs, bun],
  cases: [
    kase('json', node, 1000, exact),
    kase('typia', node, 500, exact),
    kase('json', qjs, 20_000, na),
    kase('typia', qjs, 10_000, na),
    kase('json', bun, null, undefined, 'failed', bun.fault),
    kase('typia', bun, null, undefined, 'failed', bun.fault),
  ],
} as unknown as ResultsFile;

test('each target gets Mean [interval], Ratio and Allocated columns, and every target after the first a Δ in percent against it', () => {
  const [t] = buildTargetTables(results);
  assert.deepEqual(t.head, [
    'Class',
    'Serializer',
    'node Mean [interval]',
    'node Ratio',
    'node Allocated',
    'quickjs Mean [interval]',
    'quickjs Δ',
    'quickjs Ratio',
    'quickjs Allocated',
    'bun Mean [interval]',
    'bun Δ',
    'bun Ratio',
    'bun Allocated',
    'Notes',
  ]);
  const bunNote = 'bun: failed (bun is not installed: run `jsonbench runtimes install bun`)';
  assert.deepEqual(t.rows, [
    [
      'serialize',
      'json',
      '1.00 µs [999 ns–1.00 µs]',
      'baseline',
      '640 B',
      '20.0 µs [19.999–20.001 µs]',
      '+1900%',
      'baseline',
      'n/a',
      'failed',
      '—',
      '—',
      '—',
      bunNote,
    ],
    [
      'serialize',
      'typia',
      '500 ns [499–501 ns]',
      '—',
      '640 B',
      '10.0 µs [9.999–10.00 µs]',
      '+1900%',
      '—',
      'n/a',
      'failed',
      '—',
      '—',
      '—',
      bunNote,
    ],
  ]);
});

test("Δ is marked ≈ when the two means' intervals overlap; the ratio is against the own target's baseline", () => {
  const close = {
    ...results,
    targets: [node, qjs],
    cases: results.cases
      .filter((c) => c.target.id !== 'bun')
      .map((c) =>
        c.serializer === 'typia'
          ? {
              ...c,
              time: { ...c.time!, mean: c.target.id === 'node' ? 1000 : 1030, error: 20 },
              ratio: c.target.id === 'node' ? 0.5 : 0.4,
              ratioInterval: c.target.id === 'node' ? [0.45, 0.55] : [0.38, 0.42],
            }
          : c,
      ),
  } as ResultsFile;
  const [t] = buildTargetTables(close);
  assert.deepEqual(t.rows[1].slice(1, 8), [
    'typia',
    '1.00 µs [980 ns–1.02 µs]',
    '0.50 [0.45–0.55]',
    '640 B',
    '1.03 µs [1.01–1.05 µs]',
    '≈ +3.0%',
    '0.40 [0.38–0.42]',
  ]);
});

test('each target ranks its own measured cases by the paired ratio, fastest first; a target without numbers is not ranked', () => {
  assert.deepEqual(buildTargetTables(results)[0].rankings, [
    'node · serialize: 1. json 1.00 (baseline, 1.00 µs), 2. typia (no paired ratio; 500 ns)',
    'quickjs · serialize: 1. json 1.00 (baseline, 20.0 µs), 2. typia (no paired ratio; 10.0 µs)',
  ]);
  // typia's own mean (500 ns) says it is twice as fast, but beside the baseline it ran 1.3× slower (≠ on a busy machine): the ratio ranks
  const paired = {
    ...results,
    cases: results.cases.map((c) =>
      c.serializer === 'typia' && c.status === 'measured' ? { ...c, ratio: 1.3, ratioInterval: [1.2, 1.4] } : c,
    ),
  } as ResultsFile;
  assert.deepEqual(buildTargetTables(paired)[0].rankings, [
    'node · serialize: 1. json 1.00 (baseline, 1.00 µs), 2. typia 1.30 [1.20–1.40]',
    'quickjs · serialize: 1. json 1.00 (baseline, 20.0 µs), 2. typia 1.30 [1.20–1.40]',
  ]);
  const fast = {
    ...results,
    cases: results.cases.map((c) =>
      c.serializer === 'typia' && c.status === 'measured' ? { ...c, ratio: 0.5, ratioInterval: [0.45, 0.55] } : c,
    ),
  } as ResultsFile;
  assert.match(
    buildTargetTables(fast)[0].rankings[0],
    /^node · serialize: 1\. typia 0\.50 \[0\.45–0\.55\], 2\. json 1\.00 \(baseline/,
  );
});

test('the target list names runtime, engine, allocation method and time spent, or the fault', () => {
  assert.deepEqual(targetSummaryLines(results), [
    'node: node 20.20.2 (V8 12.4) · allocation exact · setup 1.5 s, 4 launches 12.0 s',
    'quickjs: quickjs 0.12.1 (QuickJS-ng 0.12.1) · allocation n/a · setup 1.5 s, 4 launches 12.0 s',
    'bun: bun is not installed: run `jsonbench runtimes install bun`',
  ]);
  const md = renderTargetTables(results, 'markdown');
  assert.ok(
    md.includes(
      '| serialize | json | 1.00 µs [999 ns–1.00 µs] | baseline | 640 B | 20.0 µs [19.999–20.001 µs] | +1900% | baseline | n/a | failed | — | — | — |',
    ),
    md,
  );
});

test('a group printed during a run on several targets names its target in the table title', () => {
  const run = fixture('two-targets');
  const first = run.targets[0].id;
  const group = { ...run, cases: run.cases.filter((c) => c.target.id === first) };
  const titled = renderTerminal(group, false, { tablesOnly: true, titleTarget: first });
  assert.match(titled.split('\n')[0], new RegExp(` · on ${first}[ :]`));
  assert.doesNotMatch(renderTerminal(group, false, { tablesOnly: true }).split('\n')[0], / · on /);
});

test('a run on several targets fits the terminal at 80 and 120 columns: the side-by-side tables (--verbose) leave out allocation, mean and Δ before anything is cut (new-user tryout: 245 columns at 80)', () => {
  const r = fixture('two-targets');
  for (const verbose of [false, true])
    for (const width of [80, 120]) {
      const lines = renderTerminal(r, false, { width, verbose }).split('\n');
      const over = lines.filter((l) => [...l].length > width);
      assert.deepEqual(over, [], `${width} columns`);
    }
  const narrow = renderTerminal(r, false, { width: 80, verbose: true });
  assert.match(narrow, /│ Serializer +│ node Ratio +│ bun Ratio +│/);
  assert.match(renderTerminal(r, false, { width: 400, verbose: true }), /node Allocated/);
  // the per-target summary and ranking lines wrap too (a real dotnet@8,dotnet@10 run had them at 121–134)
  const long = structuredClone(r);
  for (const t of long.targets) t.version = `${t.version} ${'(a long runtime description) '.repeat(4)}`;
  for (const verbose of [false, true])
    for (const width of [80, 120])
      assert.deepEqual(
        renderTerminal(long, false, { width, verbose })
          .split('\n')
          .filter((l) => [...l].length > width),
        [],
      );
});

test('a run on several targets says each number once on the terminal: the group tables, then only each mean against the first target (new-user tryout: four times)', () => {
  const r = fixture('two-targets');
  const text = renderTerminal(r, false, { width: 120 });
  assert.doesNotMatch(text, /by target|Ranking per target|Across platforms/);
  // fast-json-stringify's ratio on bun is in its group table's row, and nowhere else
  assert.equal(text.split('0.25 [0.10–0.62]').length, 2);
  assert.match(text, /^Across targets: each mean against the same serializer's on the first target/m);
  assert.match(
    text,
    /^ {2}weather-station · 1 · single · serialize · bun: json ≈ −10%, fast-json-stringify ≈ −30%, typia ≈ \+10%$/m,
  );
});
