import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult, PayloadRecord, ResultsFile } from '../../src/results/types.js';
import { checkResults } from '../../src/results/validate.js';
import { compactVerdicts } from '../../src/results/verdict-groups.js';
import {
  bindingFacts,
  clearlyFaster,
  costLines,
  recommend,
  renderRecommendations,
  takeawayRowOf,
  type CostSource,
} from '../../src/report/recommend.js';
import { quickCaveat, takeawayText } from '../../src/report/takeaway.js';
import { isMeasured } from '../../src/results/types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html/page.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { fixture } from './support.js';

/**
 * The recommendation is a pure function of a results file: these results are written by hand so
 * each rule is tested on its edge (intervals touching, a noisy pick, a too-fast case, a baseline
 * without a number, translation notes and a probe cost source as behaviour costs).
 */

const PAYLOAD: PayloadRecord = {
  workload: 'payload:api',
  file: 'api.json',
  kind: 'document',
  bytes: 51_200,
  sha256: 'ab'.repeat(32),
  units: 1,
  payloads: [{ size: 1, bytes: 51_200, sha256: 'ab'.repeat(32), generated: false }],
  schema: { source: 'inferred', unconverted: [] },
  findings: [
    {
      kind: 'integer beyond 2^53',
      path: '$.id',
      count: 3,
      text: '3 integers beyond 2^53 at $.id: JSON.parse rounds them',
    },
  ],
};

interface Spec {
  serializer: string;
  direction?: 'serialize' | 'deserialize';
  cls?: 'serialize' | 'parse' | 'validate' | 'transform';
  baseline?: string;
  family?: CaseResult['family'];
  mean?: number;
  error?: number;
  ratio?: number | null;
  ratioError?: number | null;
  ratioInterval?: [number, number] | null;
  /** the results' difference (ns/op, negative: saved), as run/assemble.ts records it */
  difference?: { value: number; low: number; high: number };
  alloc?: number;
  allocRatio?: number | null;
  status?: 'measured' | 'incorrect' | 'failed' | 'unsupported';
  reason?: string;
  findings?: CaseResult['findings'];
  notes?: string[];
}

function caseOf(s: Spec): CaseResult {
  const direction = s.direction ?? 'serialize';
  const cls = s.cls ?? (direction === 'serialize' ? 'serialize' : 'parse');
  const header = {
    id: `payload:api/1/single/${direction}/${s.serializer}`,
    target: { id: 'node', runtime: 'node', version: '20.20.2' },
    workload: 'payload:api',
    size: 1,
    shape: 'single' as const,
    serializer: s.serializer,
    serializerVersion: '1.2.3',
    family: s.family ?? (s.serializer === 'json' ? ('builtin' as const) : ('schema-compiled' as const)),
    direction,
    class: cls,
    baseline: s.baseline ?? 'json',
    payload: { bytes: 51_200, sha256: 'ab'.repeat(32) },
    findings: s.findings ?? [],
    samples: { launches: [], relaunches: 0 },
    ...(s.notes ? { notes: s.notes } : {}),
  };
  const status = s.status ?? 'measured';
  if (status === 'incorrect')
    return {
      ...header,
      status,
      reason: s.reason ?? 'output differs at $.a',
      mismatch: { side: 'serializer', path: '$.a', expected: '1', actual: '2' },
    };
  if (status !== 'measured') return { ...header, status, reason: s.reason ?? 'it broke' };
  const mean = s.mean ?? 100_000;
  return {
    ...header,
    status,
    time: {
      mean,
      median: mean,
      error: s.error ?? mean * 0.02,
      stddev: 1,
      min: mean * 0.9,
      max: mean * 1.1,
      unit: 'ns/op',
      n: 20,
      outliers: { low: 0, high: 0 },
      launchSpread: 0,
    },
    ratio: s.ratio === undefined ? (s.serializer === (s.baseline ?? 'json') ? 1 : mean / 100_000) : s.ratio,
    ratioError: s.ratioError === undefined ? (s.serializer === (s.baseline ?? 'json') ? 0 : 0.02) : s.ratioError,
    ...(s.ratioInterval !== undefined ? { ratioInterval: s.ratioInterval } : {}),
    ...(s.difference ? { difference: s.difference } : {}),
    ...(s.alloc !== undefined
      ? {
          allocated: {
            method: 'exact' as const,
            mean: s.alloc,
            unit: 'bytes/op' as const,
            gcPerOp: 0,
            windows: [s.alloc],
          },
        }
      : {}),
    allocRatio: s.allocRatio ?? null,
  } as CaseResult;
}

function results(cases: Spec[], payloads: PayloadRecord[] | null = [PAYLOAD]): ResultsFile {
  const r = structuredClone(fixture('single'));
  r.cases = cases.map(caseOf);
  if (payloads) r.payloads = payloads;
  else delete r.payloads;
  checkResults(r, 'hand-written results');
  return r;
}

test("the fastest serializer whose interval lies below the baseline's is recommended, with its ratio interval, the time it saves, allocation and its costs", () => {
  const r = results([
    { serializer: 'json', mean: 100_000, error: 2_000, alloc: 40_000 },
    {
      serializer: 'fast-json-stringify',
      mean: 55_000,
      error: 1_500,
      ratio: 0.55,
      ratioError: 0.03,
      alloc: 30_000,
      allocRatio: 0.75,
    },
    {
      serializer: 'typia',
      mean: 40_000,
      error: 1_000,
      ratio: 0.41,
      ratioError: 0.02,
      // (ratio − 1) × the baseline's mean beside it (100 µs), the ratio's interval carried over
      difference: { value: -59_000, low: -60_900, high: -57_000 },
      alloc: 36_000,
      allocRatio: 0.9,
      notes: [
        "typia (a TypeScript index signature) also admits the declared keys' types for the other keys at $.meta.*",
      ],
    },
    { serializer: 'superjson', mean: 300_000, ratio: 3.0 },
  ]);
  const [rec] = recommend(r);
  assert.equal(rec.pick?.serializer, 'typia');
  assert.equal(rec.compared, 3);
  assert.deepEqual(
    rec.pick?.costs.map((c) => c.source),
    ['schema', 'translation'],
  );
  assert.equal(rec.state, 'use');
  assert.equal(
    rec.sentence,
    "For serializing api.json (50.0 KiB document) on node 20.20.2, use typia 1.2.3 (faster by 2.44×): 0.41× (99.9% CI 0.39–0.43×) the time of the built-in JSON.stringify, 59.0 µs less per op (99.9% CI 57.0 µs–60.9 µs) than its 100 µs; 35.2 KiB allocated per op (0.90× json's); " +
      'it passed the correctness gate on this payload and on a generated one of the same schema.',
  );
  // what it costs: the lines under the sentence, from one function
  assert.deepEqual(costLines(rec, false), [
    "schema: it needs the payload's schema (here inferred from your payload: review it with --print-schema, pass it back with --schema); a payload that drifts from it fails or loses data",
    "looser check: typia (a TypeScript index signature) also admits the declared keys' types for the other keys at $.meta.*",
  ]);
});

test('"clearly faster" (the takeaway\'s rule) is the paired ratio\'s interval lying below 1, whatever the per-op time intervals do; a ratio interval reaching 1 is not, and the recommendation calls it borderline', () => {
  // the finding: time intervals overlap (90 ± 5 against 100 ± 5 µs) while the paired ratio 0.85 [0.82–0.88] lies below 1,
  // clear of it by more than the border band (0.90 [0.85–0.95], the finding's own, is borderline at a band of one half-width)
  const overlappingTimes = caseOf({ serializer: 'a', mean: 90_000, error: 5_000, ratio: 0.85, ratioError: 0.03 });
  const ratioReachesOne = caseOf({ serializer: 'c', mean: 80_000, error: 1_000, ratio: 0.9, ratioError: 0.1 });
  const unpaired = caseOf({ serializer: 'u', mean: 50_000, error: 1_000, ratio: null, ratioError: null });
  assert.equal(clearlyFaster(overlappingTimes as never), true);
  assert.equal(clearlyFaster(ratioReachesOne as never), false);
  assert.equal(
    clearlyFaster(unpaired as never),
    false,
    'no paired ratio: nothing is claimed (the takeaway does not rank it either)',
  );
  // the recorded log-scale interval decides, not ratio ± error: an upper end at 1 is not below 1
  const recordedAtOne = caseOf({
    serializer: 'd',
    mean: 80_000,
    error: 1_000,
    ratio: 0.9,
    ratioError: 0.01,
    ratioInterval: [0.81, 1],
  });
  const recordedBelow = caseOf({
    serializer: 'e',
    mean: 80_000,
    error: 1_000,
    ratio: 0.85,
    ratioError: 0.2,
    ratioInterval: [0.81, 0.89],
  });
  // below 1 but within the border band of it (results/decision.ts): borderline, not clearly faster
  const recordedNearOne = caseOf({
    serializer: 'f',
    mean: 80_000,
    error: 1_000,
    ratio: 0.9,
    ratioError: 0.2,
    ratioInterval: [0.81, 0.999],
  });
  assert.equal(clearlyFaster(recordedAtOne as never), false);
  assert.equal(clearlyFaster(recordedBelow as never), true);
  assert.equal(clearlyFaster(recordedNearOne as never), false);
  const [rec] = recommend(
    results([
      { serializer: 'json', mean: 100_000, error: 5_000 },
      { serializer: 'c', mean: 80_000, error: 1_000, ratio: 0.9, ratioError: 0.1 },
      { serializer: 'd', mean: 95_000, error: 5_000, ratio: 0.95, ratioError: 0.06 },
    ]),
  );
  assert.equal(rec.pick, null);
  assert.equal(rec.noisy, 0);
  assert.equal(rec.state, 'borderline');
  assert.equal(
    rec.sentence,
    'For serializing api.json (50.0 KiB document) on node 20.20.2, keep the built-in JSON.stringify: borderline, c looks 0.90× (99.9% CI 0.81–1.01×) its time, but the interval reaches 1.01, so it may be no faster at all; rerun before switching.',
  );
});

test('the recommendation and the group\'s takeaway say the same thing (the finding: arktype 0.78 [0.71–0.85] was "fastest" in the takeaway, "within the noise" in the recommendation)', () => {
  // per-op time intervals overlap widely (noisy rounds), the paired ratio does not reach 1
  const r = results([
    {
      serializer: 'zod',
      direction: 'deserialize',
      cls: 'transform',
      baseline: 'zod',
      mean: 100_000,
      error: 30_000,
      family: 'validator',
    },
    {
      serializer: 'arktype',
      direction: 'deserialize',
      cls: 'transform',
      baseline: 'zod',
      mean: 80_000,
      error: 25_000,
      ratio: 0.78,
      ratioError: 0.07,
      ratioInterval: [0.71, 0.85],
      family: 'validator',
    },
    {
      serializer: 'valibot',
      direction: 'deserialize',
      cls: 'transform',
      baseline: 'zod',
      mean: 130_000,
      error: 25_000,
      ratio: 1.3,
      ratioError: 0.05,
      ratioInterval: [1.25, 1.36],
      family: 'validator',
    },
  ]);
  const [rec] = recommend(r);
  assert.equal(rec.pick?.serializer, 'arktype');
  assert.match(
    rec.sentence,
    /use arktype 1\.2\.3 \(faster by 1\.28×\): 0\.78× \(99\.9% CI 0\.71–0\.85×\) the time of zod/,
  );
  const md = renderMarkdown(r);
  assert.match(md, /arktype is fastest, 1\.28× \(99\.9% CI 1\.18–1\.41×\) faster than zod/);
  // and the other way round: both say "borderline", never "faster", for a ratio whose interval reaches 1
  const reaching = results([
    { serializer: 'json', mean: 100_000, error: 1_000 },
    { serializer: 'x', mean: 90_000, error: 1_000, ratio: 0.9, ratioError: 0.2, ratioInterval: [0.8, 1.02] },
  ]);
  const [none] = recommend(reaching);
  assert.equal(none.pick, null);
  assert.equal(none.state, 'borderline');
  assert.match(
    none.sentence,
    /, keep the built-in JSON\.stringify: borderline, x looks 0\.90× \(99\.9% CI 0\.80–1\.02×\) its time, but the interval reaches 1\.02, so it may be no faster at all; rerun before switching/,
  );
  assert.match(
    renderMarkdown(reaching),
    /None is measurably faster than json; x looks 0\.90× \(99\.9% CI 0\.80–1\.02×\) json's time but is borderline: the interval reaches 1\.02, so it may be no faster at all\./,
  );
});

test('a case too fast to be real is never picked and is listed as not ranked with its reason; a noisy pick says so; incorrect and failed cases are listed, never candidates', () => {
  const r = results([
    { serializer: 'json', mean: 100_000, error: 1_000 },
    {
      serializer: 'fast',
      mean: 10,
      error: 1,
      ratio: 0.0001,
      ratioError: 0.00001,
      findings: [{ code: 'too-fast', message: 'below the empty op' }],
    },
    {
      serializer: 'noisy',
      mean: 50_000,
      error: 2_000,
      ratio: 0.5,
      ratioError: 0.1,
      findings: [{ code: 'noisy', message: 'error target not met' }],
    },
    { serializer: 'wrong', status: 'incorrect', reason: 'output differs at $.a' },
    { serializer: 'broken', status: 'failed', reason: 'prepare: TypeError: x' },
    { serializer: 'one-way', status: 'unsupported', reason: 'parses only' },
  ]);
  const [rec] = recommend(r);
  assert.equal(rec.pick?.serializer, 'noisy');
  // the timing's noise is said in the sentence; what to rerun with, once per run (settleLine)
  assert.match(rec.sentence, /; its timing was noisy\.$/);
  assert.doesNotMatch(rec.sentence, /--policy/);
  assert.match(
    renderRecommendations(r, 'terminal'),
    /\nTo settle the noisy calls above: rerun with --policy default on a quieter machine\.\n$/,
  );
  assert.deepEqual(
    rec.excluded.map((e) => `${e.serializer} ${e.status}: ${e.reason}`),
    [
      'wrong incorrect: output differs at $.a',
      'broken failed: prepare: TypeError: x',
      'fast not ranked: below the empty op',
    ],
  );
});

test('per direction and class: validate and transform classes compare with their own baseline; a baseline without a number gives no pick', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'json', direction: 'deserialize', cls: 'parse' },
    {
      serializer: 'typebox',
      direction: 'deserialize',
      cls: 'validate',
      baseline: 'typebox',
      mean: 200_000,
      error: 4_000,
      family: 'validator',
    },
    {
      serializer: 'ajv-jtd',
      direction: 'deserialize',
      cls: 'validate',
      baseline: 'typebox',
      mean: 120_000,
      error: 3_000,
      ratio: 0.6,
      ratioError: 0.02,
    },
    {
      serializer: 'zod',
      direction: 'deserialize',
      cls: 'transform',
      baseline: 'zod',
      status: 'failed',
      reason: 'crashed',
    },
    {
      serializer: 'valibot',
      direction: 'deserialize',
      cls: 'transform',
      baseline: 'zod',
      mean: 50_000,
      ratio: null,
      ratioError: null,
      family: 'validator',
    },
  ]);
  const recs = recommend(r);
  assert.deepEqual(
    recs.map((x) => `${x.direction}/${x.caseClass}`),
    ['serialize/serialize', 'deserialize/parse', 'deserialize/validate', 'deserialize/transform'],
  );
  assert.equal(
    recs[0].sentence,
    'For serializing api.json (50.0 KiB document) on node 20.20.2, only the built-in JSON.stringify ran: use it.',
  );
  assert.equal(recs[2].pick?.serializer, 'ajv-jtd');
  assert.match(
    recs[2].sentence,
    /^For parsing with type validation api\.json .* use ajv-jtd 1\.2\.3 \(faster by 1\.67×\): 0\.60× \(99\.9% CI 0\.58–0\.62×\) the time of typebox;/,
  );
  assert.equal(recs[3].pick, null);
  assert.equal(
    recs[3].sentence,
    'For parsing into typed values (validate and transform) api.json (50.0 KiB document) on node 20.20.2, the baseline zod has no number (failed): nothing can be called faster.',
  );
});

test('the probe hook: another cost source (issue 11) adds its costs to the pick', () => {
  const probes: CostSource = (c) =>
    c.serializer === 'fast-json-stringify' ? [{ source: 'probe', text: 'drops properties not in the schema' }] : [];
  const r = results([
    { serializer: 'json' },
    { serializer: 'fast-json-stringify', mean: 40_000, error: 1_000, ratio: 0.4, ratioError: 0.02 },
  ]);
  const [rec] = recommend(r, [probes]);
  assert.deepEqual(rec.pick?.costs, [{ source: 'probe', text: 'drops properties not in the schema' }]);
  assert.deepEqual(costLines(rec, false), ['probe: drops properties not in the schema']);
  const text = renderRecommendations(r, 'terminal', { costSources: [probes] });
  assert.match(text, /\n {4}probe: drops properties not in the schema\n/);
});

test('every looser check is a line under the sentence (terminal and report.md), none inside it', () => {
  const notes = [
    'ajv JTD has no null type: $.a (always null) accepts any value',
    'ajv JTD has no null type: $.b (always null) accepts any value',
    'ajv JTD has no integer type wider than 32 bits (RFC 8927): $.id is checked as float64',
  ];
  const r = results([
    { serializer: 'json' },
    { serializer: 'ajv-jtd', mean: 40_000, error: 1_000, ratio: 0.4, ratioError: 0.02, notes },
  ]);
  const [rec] = recommend(r);
  assert.doesNotMatch(rec.sentence, /looser|ajv JTD/);
  // one line per kind of looser check: the two "no null type" notes are one, with their count and an example
  assert.deepEqual(
    costLines(rec, false).filter((l) => l.startsWith('looser check: ')),
    [
      'looser check: ajv JTD has no null type: 2 places, e.g. $.a (always null) accepts any value',
      `looser check: ${notes[2]}`,
    ],
  );
  // report.md keeps every one, under its kind's line
  const md = renderRecommendations(r, 'markdown');
  assert.ok(
    md.includes('  - looser check: ajv JTD has no null type: 2 places, e.g. $.a (always null) accepts any value\n'),
  );
  for (const n of notes.slice(0, 2)) assert.ok(md.includes(`\n    - ${n}\n`), n);
  assert.ok(md.includes(`  - looser check: ${notes[2]}\n`));
});

test('the block opens report.md and report.html of a payload run, with the payload facts and the load average; built-in runs get a short one, the same text in the terminal, report.md and report.html (nu6: only the terminal had it)', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'fast-json-stringify', mean: 40_000, error: 1_000, ratio: 0.4, ratioError: 0.02 },
  ]);
  const md = renderMarkdown(r);
  const at = md.indexOf('## Recommendation');
  assert.ok(at > 0 && at < md.indexOf('## payload:api'), 'the recommendation comes before the tables');
  assert.match(
    md,
    /Measured on 2 cores, load average 9\.36\/6\.81\/3\.79 at the start \(1\/5\/15 min\), policy quick\./,
  );
  assert.match(
    md,
    /- api\.json: one document, 50\.0 KiB, sha256 abab.*; schema inferred from the payload\n- found: 3 integers beyond 2\^53 at \$\.id: JSON\.parse rounds them\n/,
  );
  const html = renderHtml(r, { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' });
  assert.ok(html.indexOf('<section class="recommendation">') < html.indexOf('<main id="jb-body">'));
  assert.match(
    html,
    /<span class="sentence">For serializing api\.json \(50\.0 KiB document\) on node 20\.20\.2, use fast-json-stringify 1\.2\.3 \(faster by 2\.50×\): 0\.40× \(99\.9% CI 0\.38–0\.42×\)/,
  );
  const builtin = results([{ serializer: 'json' }], null);
  assert.equal(
    renderRecommendations(builtin, 'terminal'),
    'Recommendation per class across the workloads (for your own data: jsonbench run --payload FILE)\nserialize: JSON.stringify on payload:api · 1 · single\n',
  );
  assert.equal(
    renderRecommendations(builtin, 'markdown'),
    '## Recommendation\n\nPer class across the workloads (for your own data: jsonbench run --payload FILE)\n\n- **serialize:** JSON.stringify on payload:api · 1 · single\n',
  );
  assert.ok(renderMarkdown(builtin).includes('## Recommendation'));
  // hx19 WL3: a baseline that failed its gate is never the line's answer ("JSON.stringify on wl-rigged · 1 · single")
  const failed = results(
    [
      { serializer: 'json', status: 'incorrect', reason: 'must end with a space' },
      { serializer: 'fast-json-stringify', mean: 40_000, error: 1_000, ratio: 0.4, ratioError: 0.02 },
    ] as never,
    null,
  );
  assert.equal(
    renderRecommendations(failed, 'terminal'),
    'Recommendation per class across the workloads (for your own data: jsonbench run --payload FILE)\nserialize: no call on payload:api · 1 · single (its baseline JSON.stringify is incorrect: nothing was compared with it)\n',
  );
  assert.match(
    renderHtml(builtin),
    /<h2>Recommendation<\/h2><p class="dim">Per class across the workloads \(for your own data: jsonbench run --payload FILE\)<\/p><ul class="recommend"><li class="none"><b>serialize:<\/b> <span class="sentence">JSON\.stringify on payload:api · 1 · single<\/span><\/li><\/ul>/,
  );
});

test('probe records in the results file (issue 11) become costs of the pick: ✗, ⚠ and ✘ of its serializer, direction, target and workload', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'fast-json-stringify', mean: 40_000, error: 1_000, ratio: 0.4, ratioError: 0.02 },
  ]);
  const v = (probe: string, verdict: Record<string, string>, over: Record<string, string> = {}) => ({
    probe,
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    serializerVersion: '1.2.3',
    target: 'node',
    verdict,
    ...over,
  });
  (r as unknown as { probes: unknown }).probes = {
    selection: 'relevant',
    families: ['feature', 'safety'],
    timeoutMs: 5000,
    elapsedMs: 100,
    launches: 1,
    probes: [
      { id: 'feature.additional.kept', family: 'feature', title: 'additional properties kept' },
      { id: 'safety.proto.serialize', family: 'safety', title: 'a key named __proto__ is written' },
    ],
    verdicts: [
      v('feature.additional.kept', {
        mark: '✗',
        fault: 'silent-loss',
        path: '$.extra',
        expected: '1',
        actual: '(absent)',
      }),
      v('safety.proto.serialize', { mark: '⚠', message: 'Cannot convert', stage: 'call' }),
      v('feature.additional.kept', { mark: '✔' }, { serializer: 'json' }),
      v(
        'feature.additional.kept',
        { mark: '✗', fault: 'wrong-value', path: '$', expected: '1', actual: '2' },
        { direction: 'deserialize' },
      ),
      v('other.probe', { mark: '✗', fault: 'wrong-value', path: '$', expected: '1', actual: '2' }),
    ],
    relevantTo: {
      'feature.additional.kept': ['payload:api'],
      'safety.proto.serialize': ['payload:api'],
      'other.probe': ['payload:other'],
    },
  };
  // the probe section words its time limit as a timeout, not as a time each probe took
  const probesHtml = renderHtml(r, {
    chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' },
    script: '',
  });
  assert.match(
    probesHtml,
    /1 worker launch in 0\.1 s, timeout 5 s per probe side \(one that has not answered by then is stopped and marked ✗ hang\)\./,
  );
  assert.doesNotMatch(probesHtml, /\d s per probe\./);
  const [rec] = recommend(r);
  assert.deepEqual(
    rec.pick?.costs.filter((c) => c.source === 'probe').map((c) => c.text),
    [
      'additional properties kept: silent-loss at $.extra (expected 1, got (absent))',
      'a key named __proto__ is written: throws (Cannot convert)',
    ],
  );
  const [plain] = recommend(
    results([
      { serializer: 'json' },
      { serializer: 'fast-json-stringify', mean: 40_000, error: 1_000, ratio: 0.4, ratioError: 0.02 },
    ]),
    [],
  );
  assert.deepEqual(costLines(plain, false), [
    'costs: the gate found no behaviour cost (capability probes: not in this run)',
  ]);
  assert.deepEqual(costLines(plain, true), ['costs: the gate found no behaviour cost and no probe failed']);
});

test('nothing clearly faster on a noisy run: the sentence says how many timings were noisy; what to rerun with is said once', () => {
  const noisy = [{ code: 'noisy' as const, message: 'error target not met' }];
  const r = results([
    { serializer: 'json', mean: 100_000, error: 30_000, findings: noisy },
    {
      serializer: 'fast-json-stringify',
      mean: 95_000,
      error: 40_000,
      // holds 1 with both ends more than 10% from it: the same as the baseline (0.95 [0.85–1.06] is borderline)
      ratio: 0.97,
      ratioInterval: [0.86, 1.12],
      findings: noisy,
    },
    { serializer: 'superjson', mean: 300_000, error: 9_000, ratio: 3, ratioError: 0.1 },
  ]);
  const [rec] = recommend(r);
  assert.equal(rec.pick, null);
  assert.deepEqual([rec.closest?.serializer, rec.noisy], ['fast-json-stringify', 2]);
  assert.equal(rec.state, 'no-clear-winner');
  // a verb, one pair of parentheses, the ratio as the table writes it
  assert.match(
    rec.sentence,
    /, keep the built-in JSON\.stringify: no clear winner, none of the 2 others is clearly faster; the closest, fast-json-stringify, takes 0\.97× \(99\.9% CI 0\.86–1\.12×\) its time; 2 of the 3 timings were noisy, so a difference may be hidden\.$/,
  );
  const text = renderRecommendations(r, 'terminal');
  assert.equal(text.split('--policy').length - 1, 1, 'the rerun advice once per run');
  assert.match(text, /To settle the noisy calls above: rerun with --policy default on a quieter machine\./);
});

test('a noisy default-policy run is told to confirm with the long policy, never with the policy it ran (new-user tryout)', () => {
  const noisy = [{ code: 'noisy' as const, message: 'error target not met' }];
  const r = results([
    { serializer: 'json', mean: 100_000, error: 30_000, findings: noisy },
    { serializer: 'fast-json-stringify', mean: 80_000, error: 40_000, ratio: 0.8, ratioError: 0.5, findings: noisy },
  ]);
  r.policy.name = 'default';
  const text = renderRecommendations(r, 'terminal');
  assert.match(text, /To settle the uncertain and noisy calls above: rerun with --policy long on a quieter machine\./);
  assert.doesNotMatch(text, /--policy default/);
});

test("a quick run says once per report that it is a first look and points to --policy default, never per sentence or takeaway; a default-policy one does not say it (new-user tryout: quick times were 2–10× the default's)", () => {
  const quick = results([
    { serializer: 'json' },
    { serializer: 'fjs', mean: 40_000, ratio: 0.4, ratioInterval: [0.38, 0.42] },
  ]);
  assert.doesNotMatch(recommend(quick)[0].sentence, /first look|Policy quick/);
  const settled = structuredClone(quick);
  settled.policy.name = 'default';
  const caveat = quickCaveat();
  const count = (text: string) => text.split('Policy quick: a first look').length - 1;
  // report.md: once, as a quote above the recommendation block; neither the block nor a takeaway repeats it
  const md = renderMarkdown(quick);
  assert.equal(count(md), 1, 'once in report.md');
  assert.ok(md.indexOf(`> ${caveat}`) >= 0 && md.indexOf(`> ${caveat}`) < md.indexOf('## Recommendation'));
  assert.equal(count(renderRecommendations(quick, 'markdown')), 0, 'not inside the block');
  assert.match(md, /^\*\*serialize\*\* \(against json\): .*\.$/m);
  assert.doesNotMatch(md, /^\*\*serialize\*\*.*first look/m);
  assert.doesNotMatch(renderMarkdown(settled), /first look|Policy quick/);
  // report.html: once, under the provenance; the takeaways (built here and in the page's script) never carry it
  const html = renderHtml(quick);
  assert.equal(count(html.replace(/<script[\s\S]*?<\/script>/g, '')), 1, 'once in the page');
  assert.match(html, /<p class="first-look">\(Policy quick: a first look/);
  assert.doesNotMatch(html, /<p class="takeaway">[^<]*Policy quick/);
  assert.doesNotMatch(renderHtml(settled), /class="first-look"/);
});

test('a pick whose allocation windows disagree is quoted with their range, never one figure', () => {
  const r = results([
    { serializer: 'json', alloc: 1000 },
    { serializer: 'fjs', mean: 40_000, ratio: 0.4, ratioInterval: [0.38, 0.42], alloc: 3663.625, allocRatio: 3.663625 },
  ]);
  const fjs = r.cases.find((c) => c.serializer === 'fjs')!;
  if (fjs.status === 'measured' && fjs.allocated && fjs.allocated.method !== 'n/a')
    fjs.allocated.windows = [3662.9375, 2662.1875, 3663.625];
  assert.match(
    recommend(r)[0].sentence,
    /; 2\.60 KiB–3\.58 KiB allocated per op \(2\.66–3\.66× json's: its allocation measurements differ\);/,
  );
});

test('three states: "use X (faster by …)", "borderline: X looks … but the interval reaches …; rerun with …", "no clear winner: … within …"', () => {
  const run = (ratio: number, interval: [number, number]) =>
    recommend(
      results([
        { serializer: 'json' },
        { serializer: 'fast-json-stringify', mean: ratio * 100_000, ratio, ratioInterval: interval },
      ]),
    )[0];
  const clear = run(0.6, [0.55, 0.65]);
  assert.equal(clear.state, 'use');
  assert.match(
    clear.sentence,
    /, use fast-json-stringify 1\.2\.3 \(faster by 1\.67×\): 0\.60× \(99\.9% CI 0\.55–0\.65×\)/,
  );
  // the issue's run: 0.83× (0.69–1.00×) was "use fast-json-stringify"; its interval touches the line
  const touching = run(0.83, [0.69, 1.0]);
  assert.equal(touching.state, 'borderline');
  assert.equal(touching.pick, null);
  assert.match(
    touching.sentence,
    /, keep the built-in JSON\.stringify: borderline, fast-json-stringify looks 0\.83× \(99\.9% CI 0\.69–1\.00×\) its time, but the interval reaches 1\.00, so it may be no faster at all; rerun before switching\.$/,
  );
  // an interval ending just below 1 is as close to the line: borderline too, said so
  const justBelow = run(0.85, [0.74, 0.97]);
  assert.equal(justBelow.state, 'borderline');
  assert.match(
    justBelow.sentence,
    /but the interval ends at 0\.97, so close to 1 that a rerun could find it no faster; rerun before switching/,
  );
  assert.doesNotMatch(justBelow.sentence, /spread/);
  // too wide to resolve (holds 1, reaches beyond 0.8–1.25): too uncertain to call, never "borderline" (new-user tryout: 0.28–1.44)
  const wide = run(0.63, [0.28, 1.44]);
  assert.equal(wide.state, 'uncertain');
  assert.match(
    wide.sentence,
    /, keep the built-in JSON\.stringify: too uncertain to call, fast-json-stringify takes 0\.28–1\.44× its time \(99\.9% CI\), too wide a range to say whether it is faster or slower; rerun before switching\.$/,
  );
  assert.equal(run(0.67, [0.25, 1.81]).state, 'uncertain', 'the same label for similar evidence');
  // no clear winner: an interval that holds 1 with both ends beyond the border band's cap (10%) of it;
  // one with an end nearer (0.96 [0.90–1.03]) is borderline: a rerun could clear 1; a ratio within 2% of 1
  // whose interval holds 1 and lies within 4% of it is no clear winner (nu6: ajv-jtd 0.99 [0.97–1.01]
  // was said "borderline: ajv-jtd looks 0.99×"); a wider one around it stays borderline
  assert.equal(run(0.96, [0.9, 1.03]).state, 'borderline');
  assert.equal(run(0.99, [0.9, 1.09]).state, 'borderline');
  assert.equal(run(0.99, [0.97, 1.01]).state, 'no-clear-winner');
  // reruns that move between those states open with the same action (issue 22: "three runs of one pair agree")
  const opening = (r: { sentence: string }) => /, (keep [^:]+|use [^(]+)/.exec(r.sentence)?.[1];
  assert.deepEqual(
    [run(0.96, [0.9, 1.03]), run(0.99, [0.97, 1.01]), run(1.03, [0.99, 1.07]), run(0.9, [0.7, 1.15])].map(opening),
    Array(4).fill('keep the built-in JSON.stringify'),
  );
  const same = run(0.99, [0.88, 1.12]);
  assert.equal(same.state, 'no-clear-winner');
  assert.match(
    same.sentence,
    /, keep the built-in JSON\.stringify: no clear winner, the other serializer is not clearly faster; the closest, fast-json-stringify, takes 0\.99× \(99\.9% CI 0\.88–1\.12×\) its time\.$/,
  );
  // slower-looking with an interval ending near 1: nothing is faster, and it is not called "clearly slower"
  const nearSlower = run(1.1, [1.02, 1.17]);
  assert.equal(nearSlower.state, 'baseline');
  assert.match(
    nearSlower.sentence,
    /, keep the built-in JSON\.stringify: the other serializer is not faster; the closest, fast-json-stringify, takes 1\.10× \(99\.9% CI 1\.02–1\.17×\) as long\.$/,
  );
  const slower = run(2, [1.8, 2.2]);
  assert.equal(slower.state, 'baseline');
  assert.match(
    slower.sentence,
    /, keep the built-in JSON\.stringify: the other serializer is clearly slower; the closest, fast-json-stringify, takes 2\.00× \(99\.9% CI 1\.80–2\.20×\) as long\.$/,
  );
});

test("three runs of one pair at the edge of resolution agree: the issue's 0.80 / 0.83 / 0.87 are all borderline", () => {
  // the same log half-width (0.186, the 0.69–1.00 run's) around each point estimate
  const h = Math.log(1 / 0.69) / 2;
  const states = [0.8, 0.83, 0.87].map(
    (ratio) =>
      recommend(
        results([
          { serializer: 'json' },
          {
            serializer: 'fast-json-stringify',
            mean: ratio * 100_000,
            ratio,
            ratioInterval: [ratio * Math.exp(-h), ratio * Math.exp(h)],
          },
        ]),
      )[0].state,
  );
  assert.deepEqual(states, ['borderline', 'borderline', 'borderline']);
});

test('a clear pick beside a faster-looking borderline one names it', () => {
  const [rec] = recommend(
    results([
      { serializer: 'json' },
      { serializer: 'typia', mean: 90_000, ratio: 0.9, ratioInterval: [0.88, 0.92] },
      { serializer: 'fast-json-stringify', mean: 70_000, ratio: 0.7, ratioInterval: [0.5, 0.98] },
    ]),
  );
  assert.equal(rec.state, 'use');
  assert.equal(rec.pick?.serializer, 'typia');
  assert.match(
    rec.sentence,
    /; fast-json-stringify looks faster still, 0\.70× \(99\.9% CI 0\.50–0\.98×\), but it is borderline: the interval ends at 0\.98, so close to 1 that a rerun could find it no faster\.$/,
  );
});

/** The takeaway of a hand-written group, from the same rows the recommendation reads. */
function takeawayOf(r: ResultsFile): string {
  return takeawayText(r.cases.filter(isMeasured).map(takeawayRowOf), 'json', 'JSON.stringify');
}

test('the takeaway and the recommendation read one call: for each state, the same serializer gets the same word', () => {
  const group = (rows: [string, number, [number, number] | null][]) =>
    results([
      { serializer: 'json' },
      ...rows.map(([serializer, ratio, ratioInterval]) => ({
        serializer,
        mean: ratio * 100_000,
        ratio,
        ratioInterval,
      })),
    ]);
  // use: faster, clear of the border band
  const use = group([
    ['a', 0.6, [0.55, 0.65]],
    ['b', 1.5, [1.4, 1.6]],
  ]);
  assert.equal(recommend(use)[0].state, 'use');
  assert.match(recommend(use)[0].sentence, /, use a 1\.2\.3 \(faster by 1\.67×\)/);
  assert.match(takeawayOf(use), /^a is fastest, 1\.67× \(99\.9% CI 1\.54–1\.82×\) faster than JSON\.stringify/);
  // borderline: the new user's arktype 0.85 [0.74–0.98] was "fastest" above the table and "borderline" below it
  const border = group([
    ['a', 0.85, [0.74, 0.98]],
    ['b', 1.5, [1.4, 1.6]],
  ]);
  assert.equal(recommend(border)[0].state, 'borderline');
  assert.match(recommend(border)[0].sentence, /: borderline, a looks 0\.85× \(99\.9% CI 0\.74–0\.98×\)/);
  assert.match(
    takeawayOf(border),
    /^a looks fastest, 0\.85× \(99\.9% CI 0\.74–0\.98×\) JSON\.stringify's time, but is borderline: the interval ends at 0\.98/,
  );
  assert.doesNotMatch(takeawayOf(border), /faster than JSON\.stringify/);
  // the serialize case of the tryout: 0.88 [0.78–0.99] beside two within noise of it
  const tied = group([
    ['fjs', 0.88, [0.78, 0.99]],
    ['ajv', 0.93, [0.85, 1.02]],
  ]);
  assert.equal(recommend(tied)[0].state, 'borderline');
  assert.equal(recommend(tied)[0].borderline?.serializer, 'fjs');
  assert.match(
    takeawayOf(tied),
    /fjs looks 0\.88× \(99\.9% CI 0\.78–0\.99×\) JSON\.stringify's time but is borderline/,
  );
  assert.doesNotMatch(takeawayOf(tied), /fjs is faster/);
  // uncertain: too wide to resolve, in both
  const vague = group([['a', 0.63, [0.28, 1.44]]]);
  assert.equal(recommend(vague)[0].state, 'uncertain');
  assert.match(recommend(vague)[0].sentence, /: too uncertain to call, a takes 0\.28–1\.44×/);
  assert.equal(
    takeawayOf(vague),
    'a (0.63, 99.9% CI 0.28–1.44) is too uncertain to call against JSON.stringify: its interval is too wide to say whether it is faster or slower.',
  );
  // no clear winner: the same as the baseline, in both
  const same = group([['a', 0.99, [0.88, 1.12]]]);
  assert.equal(recommend(same)[0].state, 'no-clear-winner');
  assert.match(takeawayOf(same), /^None is measurably faster than JSON\.stringify; a is within noise of it\./);
  // baseline: every other slower, in both
  const slower = group([['a', 1.5, [1.4, 1.6]]]);
  assert.equal(recommend(slower)[0].state, 'baseline');
  assert.match(takeawayOf(slower), /^JSON\.stringify \(the baseline\) is fastest/);
});

test('the takeaway and the recommendation agree on every interval of a sweep: "faster" in one is "use" in the other, "borderline" in one is "borderline" in the other', () => {
  for (let lo = 0.5; lo <= 1.1; lo += 0.05)
    for (let width = 1.05; width <= 2.5; width += 0.15) {
      const hi = lo * width;
      const ratio = Math.sqrt(lo * hi);
      const r = results([
        { serializer: 'json' },
        { serializer: 'x', mean: ratio * 100_000, ratio, ratioInterval: [lo, hi] },
        { serializer: 'slow', mean: 300_000, ratio: 3, ratioInterval: [2.8, 3.2] },
      ]);
      const [rec] = recommend(r);
      const text = takeawayOf(r);
      const at = `x ${ratio.toFixed(3)} [${lo.toFixed(3)}–${hi.toFixed(3)}]: ${rec.state} / ${text}`;
      assert.equal(rec.state === 'use', /^x is fastest/.test(text), at);
      assert.equal(rec.state === 'borderline', /x looks (fastest, )?[\d.]+× .* but is borderline/.test(text), at);
      assert.equal(rec.state === 'uncertain', /Too uncertain to call: x /.test(text), at);
    }
});

/** Probe records as a probe pass writes them, for the serializers given, all relevant to payload:api. */
function withProbes(
  r: ResultsFile,
  failing: Record<string, { probe: string; title: string; fault: string; actual: string }[]>,
) {
  const probes = new Map<string, string>();
  const verdicts: unknown[] = [];
  for (const [serializer, fails] of Object.entries(failing))
    for (const f of fails) {
      probes.set(f.probe, f.title);
      verdicts.push({
        probe: f.probe,
        direction: 'serialize',
        serializer,
        serializerVersion: '1.2.3',
        target: 'node',
        verdict: { mark: '✗', fault: f.fault, path: '$', expected: 'valid JSON', actual: f.actual },
      });
    }
  (r as unknown as { probes: unknown }).probes = {
    selection: 'relevant',
    families: ['edge', 'string'],
    timeoutMs: 5000,
    elapsedMs: 100,
    launches: 1,
    probes: [...probes].map(([id, title]) => ({ id, family: id.split('.')[0], title })),
    verdicts,
    relevantTo: Object.fromEntries([...probes.keys()].map((id) => [id, ['payload:api']])),
  };
  return r;
}

/** 21 lone-surrogate probes (7 lengths × plain, date-time and email strings) and NaN, as ajv JTD fails them. */
const LONE = ['plain', 'date-time', 'email'].flatMap((format) =>
  ['L1', 'L40', 'L41', 'L100', 'L4999', 'L5000', 'L100000'].map((len) => ({
    probe: `string.value.${format}.lone-high.${len}`,
    title: `a ${len.slice(1)}-character string holding unpaired high surrogates, as a ${format} string value`,
    fault: 'ill-formed',
    actual: 'a raw lone surrogate U+D800',
  })),
);
const NAN = { probe: 'edge.number.NaN', title: 'NaN', fault: 'invalid-json', actual: '"{\\"n\\":NaN}"' };

test('a tie goes to the serializer with the less severe costs, and the sentence says they tied and why (new-user tryout: ajv-jtd picked at 0.77 [0.70–0.85] beside fast-json-stringify at the same)', () => {
  const r = withProbes(
    results([
      { serializer: 'json' },
      { serializer: 'ajv-jtd', mean: 76_000, ratio: 0.769, ratioInterval: [0.7, 0.85] },
      { serializer: 'fast-json-stringify', mean: 77_000, ratio: 0.771, ratioInterval: [0.7, 0.85] },
      { serializer: 'typia', mean: 60_000, ratio: 0.6, ratioInterval: [0.3, 0.98] },
    ]),
    {
      'ajv-jtd': [...LONE, NAN],
      'fast-json-stringify': [
        { probe: 'edge.date.valid', title: 'a Date', fault: 'wrong-value', actual: '"Thu Feb 29 2024"' },
      ],
    },
  );
  const [rec] = recommend(r);
  assert.equal(
    rec.pick?.serializer,
    'fast-json-stringify',
    'fewer and less severe costs, though its ratio is a hair higher',
  );
  assert.deepEqual(
    rec.tie?.with.map((t) => t.serializer),
    ['ajv-jtd'],
  );
  assert.match(
    rec.sentence,
    /; it tied with ajv-jtd at 0\.77× \(99\.9% CI 0\.70–0\.85×\) \(the intervals overlap\): fast-json-stringify is picked because ajv-jtd's output can be invalid JSON and ill-formed Unicode for values this payload's schema holds, and fast-json-stringify's cannot; typia looks faster still/,
  );
  // with costs alike, the lower ratio wins and the sentence says so
  const alike = recommend(
    results([
      { serializer: 'json' },
      { serializer: 'a', mean: 76_000, ratio: 0.76, ratioInterval: [0.7, 0.83] },
      { serializer: 'b', mean: 78_000, ratio: 0.78, ratioInterval: [0.72, 0.85] },
    ]),
  )[0];
  assert.equal(alike.pick?.serializer, 'a');
  assert.match(
    alike.sentence,
    /: a is picked because b's costs on this payload are alike and a has the lower ratio\.$/,
  );
  // intervals that separate them are no tie: the faster one is picked whatever its costs
  const apart = recommend(
    withProbes(
      results([
        { serializer: 'json' },
        { serializer: 'ajv-jtd', mean: 50_000, ratio: 0.5, ratioInterval: [0.45, 0.55] },
        { serializer: 'fast-json-stringify', mean: 77_000, ratio: 0.77, ratioInterval: [0.7, 0.85] },
      ]),
      { 'ajv-jtd': [NAN] },
    ),
  )[0];
  assert.equal(apart.pick?.serializer, 'ajv-jtd');
  assert.equal(apart.tie, undefined);
  // … and its output defect is said in the sentence, not only in a cost line (issue 24 item 10)
  assert.match(
    apart.sentence,
    /; it passed the correctness gate on this payload and on a generated one of the same schema, but its output can be invalid JSON for values this payload's schema holds \(the output defect lines below\)\.$/,
  );
  assert.equal(
    costLines(apart, true)[0],
    'output defect: NaN: invalid-json at $ (expected valid JSON, got "{\\"n\\":NaN}")',
  );
});

test('cost lines of one kind are one line with a count and an example, the output defects first; report.md keeps every one (new-user tryout: 75 near-identical lines)', () => {
  const r = withProbes(
    results([
      { serializer: 'json' },
      {
        serializer: 'ajv-jtd',
        mean: 50_000,
        ratio: 0.5,
        ratioInterval: [0.45, 0.55],
        notes: ['ajv JTD has no null type: $.a (always null) accepts any value'],
      },
    ]),
    {
      'ajv-jtd': [
        { probe: 'edge.date.valid', title: 'a Date', fault: 'wrong-value', actual: '"Thu Feb 29 2024"' },
        ...LONE,
        NAN,
        { probe: 'edge.number.+Infinity', title: '+Infinity', fault: 'invalid-json', actual: '"{\\"n\\":Infinity}"' },
      ],
    },
  );
  const [rec] = recommend(r);
  assert.equal(rec.pick?.costs.length, 26);
  assert.deepEqual(costLines(rec, true), [
    'output defect: writes a lone surrogate raw (ill-formed Unicode: UTF-8 cannot encode it) in any string field: 21 probes, e.g. a 1-character string holding unpaired high surrogates, as a plain string value: ill-formed at $ (expected valid JSON, got a raw lone surrogate U+D800)',
    'output defect: writes output that is not valid JSON for number values: 2 probes, e.g. NaN: invalid-json at $ (expected valid JSON, got "{\\"n\\":NaN}")',
    "schema: it needs the payload's schema (here inferred from your payload: review it with --print-schema, pass it back with --schema); a payload that drifts from it fails or loses data",
    'probe: a Date: wrong-value at $ (expected valid JSON, got "Thu Feb 29 2024")',
    'looser check: ajv JTD has no null type: $.a (always null) accepts any value',
  ]);
  const terminal = renderRecommendations(r, 'terminal', { width: 100 });
  assert.equal((terminal.match(/lone surrogate/g) ?? []).length, 1, 'one line in the terminal');
  assert.equal(terminal.split('\n').filter((l) => /^ {4}\S/.test(l)).length, 5, 'five cost lines, not 26');
  // each at most two lines, cut at a word, the fault codes in words (new-user tryout: `--print-schema,…`, `wrong-value`)
  for (const l of terminal.split('\n')) assert.ok(l.length <= 100, l);
  assert.match(terminal, /a Date: gives a wrong value at \$/);
  assert.doesNotMatch(terminal, /wrong-value/);
  const md = renderRecommendations(r, 'markdown');
  assert.equal(
    (md.match(/unpaired high surrogates/g) ?? []).length,
    22,
    'the line and every one of the 21 under it in report.md',
  );
  // each titled in words, with its probe id for reference (issue 24: titles read like internal ids)
  assert.equal((md.match(/\(probe `string\.value\.[a-z-]+\.lone-high\.L\d+`\)/g) ?? []).length, 21);
  assert.match(
    md,
    /\n {2}- output defect: writes a lone surrogate raw .*: 21 probes, e\.g\. .*\n {4}- a 1-character string holding unpaired high surrogates, as a plain string value: ill-formed .* \(probe `string\.value\.plain\.lone-high\.L1`\)\n/,
  );
  const html = renderHtml(r, { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' });
  assert.match(html, /<li>output defect: writes a lone surrogate raw[^<]*<details><summary>all 21<\/summary>/);
});

test('every figure a sentence quotes agrees with its ratio: the time saved is (1 − ratio) × the baseline beside it, never two means of another statistic (new-user tryout: "0.83× … (9.11 µs vs 9.08 µs per op)")', () => {
  // the tryout's case: the means (9.11 µs against 9.08 µs, the serializer's pulled by outliers) contradict the paired ratio 0.83
  const tryout = results([
    { serializer: 'json', mean: 9_075, error: 1_235 },
    {
      serializer: 'fast-json-stringify',
      mean: 9_113,
      error: 15_819,
      ratio: 0.8305,
      ratioInterval: [0.7653, 0.9012],
      difference: { value: -1_538.5, low: -2_129.9, high: -896.8 },
    },
  ]);
  const [rec] = recommend(tryout);
  assert.doesNotMatch(rec.sentence, /9\.11 µs|vs/);
  assert.match(
    rec.sentence,
    /the time of the built-in JSON\.stringify, 1\.54 µs less per op \(99\.9% CI 897 ns–2\.13 µs\) than its 9\.08 µs;/,
  );
  const µs = (t: string) => (t.endsWith(' ns') ? parseFloat(t) / 1000 : parseFloat(t));
  for (const [ratio, iv, beside] of [
    [0.8305, [0.7653, 0.9012], 9_075],
    [0.41, [0.39, 0.43], 100_000],
    [0.75, [0.63, 0.9], 183_000],
    [0.2, [0.18, 0.22], 1_500],
  ] as [number, [number, number], number][]) {
    const r = results([
      { serializer: 'json', mean: beside * 1.3 },
      {
        serializer: 'x',
        mean: beside,
        ratio,
        ratioInterval: iv,
        difference: { value: (ratio - 1) * beside, low: (iv[0] - 1) * beside, high: (iv[1] - 1) * beside },
      },
    ]);
    const sentence = recommend(r)[0].sentence;
    const m =
      /: ([\d.]+)× \(99\.9% CI ([\d.]+)–([\d.]+)×\) the time of .*?, ([\d.]+ [nµ]?s) less per op \(99\.9% CI ([\d.]+ [nµ]?s)–([\d.]+ [nµ]?s)\) than its ([\d.]+ [nµ]?s);/.exec(
        sentence,
      );
    assert.ok(m, sentence);
    const [q, lo, hi, saved, savedLo, savedHi, base] = [
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      µs(m[4]),
      µs(m[5]),
      µs(m[6]),
      µs(m[7]),
    ];
    // within the rounding of three significant digits
    const near = (a: number, b: number) => Math.abs(a - b) <= 0.012 * Math.max(Math.abs(a), Math.abs(b)) + 0.006 * base;
    assert.ok(near(saved, (1 - q) * base), `${sentence}: saved ${saved} against (1 − ${q}) × ${base}`);
    assert.ok(near(savedLo, (1 - hi) * base), `${sentence}: the saving's low end against the ratio's high end`);
    assert.ok(near(savedHi, (1 - lo) * base), `${sentence}: the saving's high end against the ratio's low end`);
  }
});

test("one number format for a ratio everywhere (the table's), and a scenario said in words", () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'typia', mean: 83_000, ratio: 0.83, ratioInterval: [0.0033, 208.52] },
    { serializer: 'zz', mean: 1_008_000, ratio: 10.08, ratioInterval: [9.5, 10.7] },
  ]);
  const [rec] = recommend(r);
  assert.match(rec.sentence, /typia takes 0\.003–209× its time/);
  assert.doesNotMatch(rec.sentence, /208\.52|0\.00–/);
  const slow = recommend(
    results([{ serializer: 'json' }, { serializer: 'zz', mean: 1_008_000, ratio: 10.08, ratioInterval: [9.5, 10.7] }]),
  )[0];
  assert.match(slow.sentence, /takes 10\.1× \(99\.9% CI 9\.50–10\.7×\) as long/);
  const many = results([{ serializer: 'json' }]);
  many.cases = many.cases.map((c) => ({
    ...c,
    size: 1000,
    shape: 'many' as const,
    payload: { ...c.payload, bytes: 209_920 },
  }));
  assert.match(
    recommend(many)[0].sentence,
    /^For serializing api\.json \(1000 records, 205 KiB in all, one call per record\) on node/,
  );
});

test('the built-in suite gets a short recommendation: one line per class across its workloads, from the same calls', () => {
  const r = results(
    [
      { serializer: 'json' },
      { serializer: 'fast-json-stringify', mean: 60_000, ratio: 0.6, ratioInterval: [0.55, 0.65] },
      { serializer: 'json', direction: 'deserialize', cls: 'parse' },
      {
        serializer: 'secure-json-parse',
        direction: 'deserialize',
        cls: 'parse',
        mean: 90_000,
        ratio: 0.9,
        ratioInterval: [0.6, 1.3],
      },
      { serializer: 'zod', direction: 'deserialize', cls: 'transform', baseline: 'zod', family: 'validator' },
      {
        serializer: 'arktype',
        direction: 'deserialize',
        cls: 'transform',
        baseline: 'zod',
        family: 'validator',
        mean: 85_000,
        ratio: 0.85,
        ratioInterval: [0.74, 0.98],
      },
    ],
    null,
  );
  r.cases = r.cases.map((c) => ({ ...c, workload: 'users', size: 100, shape: 'list' as const }));
  assert.equal(
    renderRecommendations(r, 'terminal'),
    [
      'Recommendation per class across the workloads (for your own data: jsonbench run --payload FILE)',
      'serialize: fast-json-stringify on users · 100 · list (1.67× faster)',
      'parse: JSON.parse on users · 100 · list (too uncertain to call)',
      'transform: zod on users · 100 · list (arktype looks 1.18× faster, borderline)',
      'To settle the borderline and uncertain calls above: rerun with --policy default on a quieter machine.',
      '',
    ].join('\n'),
  );
});

test('integers beyond 2^53 in the payload are said with the recommendation, where every JavaScript pick is read (new-user tryout: snowflake ids "correct")', () => {
  const r = results([
    { serializer: 'json', ratio: 1 },
    { serializer: 'fast-json-stringify', ratio: 0.5, ratioInterval: [0.45, 0.55] },
  ]);
  const terminal = renderRecommendations(r, 'terminal', { width: 100 });
  const lines = terminal.split('\n');
  assert.equal(lines[0], 'Recommendation');
  assert.match(
    lines.slice(1, 4).join(' '),
    /^⚠ 3 integers beyond 2\^53 at \$\.id: JSON\.parse rounds them: the gate compares/,
  );
  assert.match(terminal.replace(/\n\s*/g, ' '), /BigInt-aware parser \(lossless-json, json-bigint\)/);
  assert.match(renderRecommendations(r, 'markdown'), /^\*\*⚠ 3 integers beyond 2\^53 at \$\.id: .*\*\*$/m);
  // none without the finding, and none for a run on .NET alone (its DTOs read int64 exactly)
  assert.doesNotMatch(
    renderRecommendations(results([{ serializer: 'json', ratio: 1 }], [{ ...PAYLOAD, findings: [] }]), 'terminal'),
    /2\^53/,
  );
  const dotnet = results([{ serializer: 'json', ratio: 1 }]);
  for (const c of dotnet.cases) c.platform = 'dotnet';
  assert.deepEqual(bindingFacts(dotnet), []);
});

test('date-times a Date does not hold whole are said with the recommendation where the transform class ran (hx30 pay-dates2)', () => {
  const lossy = {
    ...PAYLOAD,
    findings: [
      {
        kind: 'date-time precision',
        path: '$[].at',
        count: 2,
        text: '2 date-times at $[].at with parts a Date does not keep (digits beyond milliseconds, an offset other than Z): the transform class reads them as Dates, so 2024-06-01T00:00:00.000001Z reads as 2024-06-01T00:00:00.000Z',
      },
    ],
  };
  const transform = results(
    [
      { serializer: 'zod', cls: 'transform', baseline: 'zod', family: 'validator', ratio: 1 },
      {
        serializer: 'arktype',
        cls: 'transform',
        baseline: 'zod',
        family: 'validator',
        ratio: 0.8,
        ratioInterval: [0.75, 0.85],
      },
    ],
    [lossy],
  );
  const facts = bindingFacts(transform);
  assert.equal(facts.length, 1);
  assert.match(
    facts[0],
    /^⚠ 2 date-times at \$\[\]\.at .*: the gate compares the Dates, so "correct" below for parsing into typed values does not cover those digits and offsets/,
  );
  // a run without the transform class: not said
  assert.deepEqual(bindingFacts(results([{ serializer: 'json', ratio: 1 }], [lossy])), []);
});

test('on .NET the sentence says the pick, or the baseline it keeps, against Newtonsoft.Json (new-user tryout: it never named it)', () => {
  const spec = (serializer: string, mean: number, ratio?: number) => ({
    serializer,
    mean,
    error: mean / 100,
    baseline: 'stj',
    family: 'reflection' as const,
    ...(ratio !== undefined ? { ratio, ratioInterval: [ratio * 0.95, ratio * 1.05] as [number, number] } : {}),
  });
  const picked = recommend(
    results([spec('stj', 100_000), spec('stj-sourcegen', 60_000, 0.6), spec('newtonsoft', 180_000, 1.8)]),
  );
  assert.match(
    picked[0].sentence,
    /use System\.Text\.Json source-generated \(stj-sourcegen\) .*the time of System\.Text\.Json \(stj\); System\.Text\.Json source-generated \(stj-sourcegen\) is 3\.00× faster than Newtonsoft\.Json \(newtonsoft\) \(point estimates\)/,
  );
  const kept = recommend(results([spec('stj', 100_000), spec('newtonsoft', 250_000, 2.5)]));
  assert.equal(kept[0].state, 'baseline');
  assert.match(
    kept[0].sentence,
    /; System\.Text\.Json \(stj\) is 2\.50× faster than Newtonsoft\.Json \(newtonsoft\) \(point estimates\)/,
  );
  // a run without it says nothing of it
  assert.doesNotMatch(
    recommend(results([spec('stj', 100_000), spec('stj-sourcegen', 60_000, 0.6)]))[0].sentence,
    /newtonsoft/,
  );
});

/** Probes of json on an api.json payload: a loss on its records, a correct rejection, a made-up input every serializer fails. */
function keepingProbes(): unknown {
  const verdict = (probe: string, v: object) => ({
    probe,
    direction: 'serialize',
    serializer: 'json',
    serializerVersion: '1.2.3',
    target: 'node',
    verdict: v,
  });
  return {
    selection: 'relevant',
    families: ['feature', 'payload'],
    timeoutMs: 5000,
    elapsedMs: 100,
    launches: 1,
    probes: [
      { id: 'payload.0.extra-key', family: 'payload', title: 'api.json: an extra key at $' },
      {
        id: 'payload.0.missing-required',
        family: 'payload',
        title: 'api.json: a key the samples always held, left out at $.ts',
      },
      { id: 'edge.date.invalid', family: 'edge', title: 'an Invalid Date' },
    ],
    verdicts: [
      verdict('payload.0.extra-key', {
        mark: '✗',
        fault: 'silent-loss',
        path: '$.jsonbench_extra_key',
        expected: '"added"',
        actual: 'undefined (absent)',
      }),
      // a correct rejection and a made-up probe input every serializer fails: neither is a cost of keeping it
      verdict('payload.0.missing-required', {
        mark: '✔',
        label: 'rejects a response without $.ts, which all your samples had',
      }),
      verdict('edge.date.invalid', {
        mark: '✗',
        fault: 'silent-loss',
        path: '$.at',
        expected: 'Date(Invalid)',
        actual: 'null',
      }),
    ],
    relevantTo: {
      'payload.0.extra-key': ['payload:api'],
      'payload.0.missing-required': ['payload:api'],
      'edge.date.invalid': ['payload:api'],
    },
  };
}

test('keeping a baseline that loses data on the user\'s own records is said under the sentence in full, and in report.md (nu6: cut at 120 columns, "→ report.md" where report.md had no such text)', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'fast-json-stringify', mean: 150_000, error: 1_000, ratio: 1.5, ratioInterval: [1.4, 1.6] },
  ]);
  (r as unknown as { probes: unknown }).probes = keepingProbes();
  const [rec] = recommend(r);
  assert.equal(rec.state, 'baseline');
  assert.equal(rec.pick, null);
  assert.deepEqual(
    rec.baselineCosts?.map((c) => c.text),
    [
      'on api.json: an extra key at $: silent-loss at $.jsonbench_extra_key (JSON.stringify writes "added", it gives undefined (absent))',
    ],
  );
  const text = renderRecommendations(r, 'terminal', { width: 120 });
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('    keeping json costs'));
  assert.ok(at > 0, text);
  assert.deepEqual(lines.slice(at, at + 2), [
    '    keeping json costs, on your records with one change: an extra key at $: loses data without an error at',
    '      $.jsonbench_extra_key (JSON.stringify writes "added", it gives undefined (absent))',
  ]);
  assert.ok(!text.includes('→ report.md'), text);
  // the file as written (verdictRows + verdictGroups) and read back with JSON.parse gives the same costs
  const written = JSON.parse(JSON.stringify(compactVerdicts(r))) as ResultsFile;
  assert.equal(Array.isArray((written.probes as { verdicts?: unknown }).verdicts), false);
  assert.deepEqual(
    recommend(written)[0].baselineCosts?.map((c) => c.text),
    rec.baselineCosts?.map((c) => c.text),
  );
  // report.md says the same line
  const md = renderRecommendations(written, 'markdown');
  assert.match(
    md,
    /\n {2}- keeping json costs, on your records with one change: an extra key at \$: silent-loss at \$\.jsonbench\\_extra\\_key \(JSON\.stringify writes "added", it gives undefined \(absent\)\) \(probe `payload\.0\.extra-key`\)\n/,
  );
  // a pick's own costs keep their lines; a baseline without costs adds none
  const clean = renderRecommendations(
    results([
      { serializer: 'json' },
      { serializer: 'fast-json-stringify', mean: 150_000, error: 1_000, ratio: 1.5, ratioInterval: [1.4, 1.6] },
    ]),
    'terminal',
    { width: 100 },
  );
  assert.doesNotMatch(clean, /keeping json costs/);
});

test('the keeping line says who else fails the same probe (nu16: "keeping zod costs" read as avoidable, valibot stripped the key too)', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'fast-json-stringify', mean: 150_000, error: 1_000, ratio: 1.5, ratioInterval: [1.4, 1.6] },
    { serializer: 'typia', mean: 160_000, error: 1_000, ratio: 1.6, ratioInterval: [1.5, 1.7] },
  ]);
  const probes = keepingProbes() as { verdicts: { serializer: string; probe: string }[] };
  const fjs = probes.verdicts.find((v) => v.probe === 'payload.0.extra-key')!;
  probes.verdicts.push({ ...fjs, serializer: 'fast-json-stringify' });
  (r as unknown as { probes: unknown }).probes = probes;
  const [rec] = recommend(r);
  assert.deepEqual(rec.baselineCostsShared, ['fast-json-stringify']);
  assert.match(
    renderRecommendations(r, 'markdown'),
    /- keeping json costs, on your records with one change: an extra key at \$: silent-loss at \$\.jsonbench\\_extra\\_key \(JSON\.stringify writes "added", it gives undefined \(absent\)\), as fast-json-stringify does too/,
  );
});

/** Gives `r` a probe pass in which ajv-jtd loses an extra key at $ on the user's records (payload.0.extra-key, serialize). */
/** A probes section of one payload probe (an extra key at $) with `verdicts` (one per serializer), set on `r`. */
function withPayloadProbe(
  r: ReturnType<typeof results>,
  verdicts: { serializer: string; serializerVersion: string; verdict: Record<string, unknown> }[],
): void {
  (r as unknown as { probes: unknown }).probes = {
    selection: 'relevant',
    families: ['payload'],
    timeoutMs: 5000,
    elapsedMs: 100,
    launches: 1,
    probes: [{ id: 'payload.0.extra-key', family: 'payload', title: 'api.json: an extra key at $' }],
    verdicts: verdicts.map((v) => ({ probe: 'payload.0.extra-key', direction: 'serialize', target: 'node', ...v })),
    relevantTo: { 'payload.0.extra-key': ['payload:api'] },
  };
}

function withExtraKeyLoss(r: ReturnType<typeof results>): void {
  withPayloadProbe(r, [
    {
      serializer: 'ajv-jtd',
      serializerVersion: '8.0.0',
      verdict: { mark: '✗', fault: 'silent-loss', path: '$.k', expected: '"added"', actual: '(absent)' },
    },
  ]);
}

test('a borderline serializer the probes show losing data on the user’s records is never suggested without saying so in the same sentence (nu6: ajv-jtd "borderline … rerun before switching")', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'ajv-jtd', mean: 95_000, error: 1_000, ratio: 0.95, ratioInterval: [0.9, 1.03] },
  ]);
  withExtraKeyLoss(r);
  const [rec] = recommend(r);
  assert.equal(rec.state, 'borderline');
  assert.match(
    rec.sentence,
    /, keep the built-in JSON\.stringify: ajv-jtd looks 0\.95× \(99\.9% CI 0\.90–1\.03×\) its time, borderline \(the interval reaches 1\.03, so it may be no faster at all\), and its probes show it losing data: 1 failing probe that the baseline passes, 1 on your records with one change \(an extra key at \$ \(silent-loss at \$\.k\)\)\.$/,
  );
  assert.doesNotMatch(rec.sentence, /rerun before switching/);
  // the takeaway under its table says so too, in report.md, report.html and the terminal (nu6: "ajv-jtd looks faster … borderline")
  const losing =
    /the probes show ajv-jtd losing data on your records with one change \(the Behaviour lines below say what\)\./;
  assert.match(renderMarkdown(r), new RegExp(`ajv-jtd looks .*borderline.*; ${losing.source}`));
  assert.match(renderHtml(r), losing);
  // the terminal's tables have no Behaviour lines: it points to report.md
  assert.match(
    renderTerminal(r, false, { width: 1000 }),
    /the probes show ajv-jtd losing data on your records with one change \(report\.md says what\)\./,
  );
  // without the failing probe: the borderline sentence as before
  (r as unknown as { probes: { verdicts: unknown[] } }).probes.verdicts = [];
  assert.match(
    recommend(r)[0].sentence,
    /, keep the built-in JSON\.stringify: borderline, ajv-jtd looks 0\.95× .*; rerun before switching\.$/,
  );
  assert.doesNotMatch(renderMarkdown(r), losing);
});

test('with no clear winner, the closest the probes show losing data on the user’s records says so beside it (nu9: the takeaway pointed to a recommendation that did not)', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'ajv-jtd', mean: 100_000, error: 1_000, ratio: 1.0, ratioInterval: [0.97, 1.03] },
  ]);
  withExtraKeyLoss(r);
  const [rec] = recommend(r);
  assert.ok(rec.state === 'no-clear-winner' || rec.state === 'baseline', rec.state);
  assert.match(
    rec.sentence,
    /keep the built-in JSON\.stringify: .*the closest, ajv-jtd, takes 1\.00× .*, and its probes show it losing data: 1 failing probe that the baseline passes, 1 on your records with one change \(an extra key at \$ \(silent-loss at \$\.k\)\)\.$/,
  );
  (r as unknown as { probes: { verdicts: unknown[] } }).probes.verdicts = [];
  assert.doesNotMatch(recommend(r)[0].sentence, /losing data/);
});

test('on a terminal narrower than a label the recommendation wraps whole: no word repeated (hx6: "serializeiz" at COLUMNS=5)', () => {
  const r = results([
    { serializer: 'json', mean: 100_000, error: 1_000 },
    { serializer: 'x', mean: 50_000, error: 500, ratio: 0.5, ratioError: 0.01 },
  ]);
  for (const width of [1, 5, 9]) {
    const text = renderRecommendations(r, 'terminal', { width });
    assert.doesNotMatch(text, /serializeiz|serializeialize|serializee/, `${width}: ${text.slice(0, 80)}`);
    assert.ok(text.replace(/\s+/g, '').includes('serialize:'), `${width}: the label once, whole`);
  }
});

test('a pick no probe ran on, while the others were probed, says so: its empty costs are not "no probe failed" (nu10: team-orders)', () => {
  const r = results([
    { serializer: 'json' },
    { serializer: 'team-orders', mean: 50_000, error: 500, ratio: 0.5, ratioInterval: [0.48, 0.52] },
  ]);
  withPayloadProbe(r, [{ serializer: 'json', serializerVersion: 'node 20', verdict: { mark: '✓' } }]);
  const [rec] = recommend(r);
  assert.equal(rec.pick?.serializer, 'team-orders');
  assert.equal(rec.pick?.unprobed, 'its supports() took no probe workload');
  assert.match(rec.sentence, /; no probe ran on it, so its behaviour beyond the gate is unknown[;.]/);
  assert.equal(
    costLines(rec, true).at(-1),
    'not probed: no probe ran on team-orders (its supports() took no probe workload), so what it does with inputs other than this payload is unknown; let its supports() take the probe:* workloads to have it probed',
  );
  assert.ok(!costLines(rec, true).some((l) => l.includes('no probe failed')));
  // probed like the others: nothing said
  (r as unknown as { probes: { verdicts: unknown[] } }).probes.verdicts.push({
    probe: 'payload.0.extra-key',
    direction: 'serialize',
    serializer: 'team-orders',
    serializerVersion: '1',
    target: 'node',
    verdict: { mark: '✓' },
  });
  const [probed] = recommend(r);
  assert.equal(probed.pick?.unprobed, undefined);
  assert.doesNotMatch(probed.sentence, /no probe ran/);
});

test('a group whose only serializer failed before timing says so, not that the payload has no baseline (hx22 S1i)', () => {
  const r = results([
    { serializer: 'supports-throws', status: 'failed', reason: 'supports() threw: supports exploded' },
  ]);
  // a case that failed at plan time carries no baseline: none ran beside it
  (r.cases[0] as { baseline: string | null }).baseline = null;
  const [rec] = recommend(r);
  assert.equal(rec.baseline, null);
  assert.match(
    rec.sentence,
    /, nothing was measured: supports-throws failed before timing, so no baseline ran beside it; nothing is recommended\.$/,
  );
  assert.doesNotMatch(rec.sentence, /there is no baseline to compare with/);
});

test('a baseline that ran alone is "use it" with where its checks are looser than the schema (hx36 E3: ajv-jtd checks integers as float64)', () => {
  const notes = [
    'ajv JTD has no integer type wider than 32 bits (RFC 8927): $.big is checked as float64',
    'ajv JTD has no integer type wider than 32 bits (RFC 8927): $.id is checked as float64',
  ];
  const [one] = recommend(
    results([
      {
        serializer: 'ajv-jtd',
        direction: 'deserialize',
        cls: 'validate',
        baseline: 'ajv-jtd',
        notes: notes.slice(0, 1),
      },
    ]),
  );
  assert.equal(
    one.sentence,
    'For parsing with type validation api.json (50.0 KiB document) on node 20.20.2, only ajv-jtd ran: use it, knowing its checks are looser than the schema: ajv JTD has no integer type wider than 32 bits (RFC 8927): $.big is checked as float64.',
  );
  const [two] = recommend(
    results([{ serializer: 'ajv-jtd', direction: 'deserialize', cls: 'validate', baseline: 'ajv-jtd', notes }]),
  );
  assert.match(two.sentence, /\$\.big is checked as float64, and 1 more \(each under its table in report\.md\)\.$/);
  const [plain] = recommend(
    results([{ serializer: 'ajv-jtd', direction: 'deserialize', cls: 'validate', baseline: 'ajv-jtd' }]),
  );
  assert.match(plain.sentence, /only ajv-jtd ran: use it\.$/);
});
