import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult, PayloadRecord, ResultsFile } from '../../src/results/types.js';
import { checkResults } from '../../src/results/validate.js';
import {
  clearlyFaster,
  costLines,
  recommend,
  renderRecommendations,
  type CostSource,
} from '../../src/report/recommend.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html/page.js';
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

test("the fastest serializer whose interval lies below the baseline's is recommended, with its ratio interval, allocation and its costs", () => {
  const r = results([
    { serializer: 'json', mean: 100_000, error: 2_000, alloc: 40_000 },
    {
      serializer: 'fast-json-stringify',
      mean: 45_000,
      error: 1_500,
      ratio: 0.45,
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
    "For serializing api.json (50.0 KiB document) on node 20.20.2, use typia 1.2.3 (faster by 2.44×): 0.41× (99.9% CI 0.39–0.43×) the time of the built-in JSON.stringify (40.0 µs vs 100 µs per op), 35.2 KiB allocated per op (0.90× json's); " +
      'it passed the correctness gate on this payload and on a generated one of the same schema.',
  );
  // what it costs: the lines under the sentence, from one function
  assert.deepEqual(costLines(rec, false), [
    "schema: it needs the payload's schema (here inferred from your payload: review it with --print-schema, pass it back with --schema); a payload that drifts from it fails or loses data",
    "looser check: typia (a TypeScript index signature) also admits the declared keys' types for the other keys at $.meta.*",
  ]);
});

test('"clearly faster" (the takeaway\'s rule) is the paired ratio\'s interval lying below 1, whatever the per-op time intervals do; a ratio interval reaching 1 is not, and the recommendation calls it borderline', () => {
  // the finding: time intervals overlap (90 ± 5 against 100 ± 5 µs) while the paired ratio 0.90 [0.85–0.95] lies below 1
  const overlappingTimes = caseOf({ serializer: 'a', mean: 90_000, error: 5_000, ratio: 0.9, ratioError: 0.05 });
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
    ratio: 0.9,
    ratioError: 0.2,
    ratioInterval: [0.81, 0.999],
  });
  assert.equal(clearlyFaster(recordedAtOne as never), false);
  assert.equal(clearlyFaster(recordedBelow as never), true);
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
    'For serializing api.json (50.0 KiB document) on node 20.20.2, borderline: c looks 0.90× (99.9% CI 0.81–1.01×) the time of the built-in JSON.stringify, but the interval reaches 1.01, so a rerun could call it either way; rerun with --policy default on a quieter machine before switching (until then, use the built-in).',
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
  // and the other way round: both say "not faster" for a ratio whose interval reaches 1
  const [none] = recommend(
    results([
      { serializer: 'json', mean: 100_000, error: 1_000 },
      { serializer: 'x', mean: 90_000, error: 1_000, ratio: 0.9, ratioError: 0.2, ratioInterval: [0.8, 1.02] },
    ]),
  );
  assert.equal(none.pick, null);
  assert.match(
    renderMarkdown(
      results([
        { serializer: 'json', mean: 100_000, error: 1_000 },
        { serializer: 'x', mean: 90_000, error: 1_000, ratio: 0.9, ratioError: 0.2, ratioInterval: [0.8, 1.02] },
      ]),
    ),
    /x and json are within noise of each other at the top; none is measurably faster than json\./,
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
  assert.match(rec.sentence, /its timing was noisy, so confirm with --policy default/);
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
    /^For parsing with type validation api\.json .* use ajv-jtd 1\.2\.3 \(faster by 1\.67×\): 0\.60× \(99\.9% CI 0\.58–0\.62×\) the time of typebox \(120 µs vs 200 µs per op\);/,
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
  assert.deepEqual(
    costLines(rec, false).filter((l) => l.startsWith('looser check: ')),
    notes.map((n) => `looser check: ${n}`),
  );
  const md = renderRecommendations(r, 'markdown');
  for (const n of notes)
    assert.ok(md.includes(`  - looser check: ${n.replace(/</g, '&lt;').replace(/>/g, '&gt;')}`), n);
});

test('the block opens report.md and report.html of a payload run, with the payload facts and the load average; built-in runs have none', () => {
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
  assert.equal(renderRecommendations(builtin, 'terminal'), '');
  assert.ok(!renderMarkdown(builtin).includes('## Recommendation'));
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

test('nothing clearly faster on a noisy run: the sentence says how many timings were noisy and how to confirm', () => {
  const noisy = [{ code: 'noisy' as const, message: 'error target not met' }];
  const [rec] = recommend(
    results([
      { serializer: 'json', mean: 100_000, error: 30_000, findings: noisy },
      { serializer: 'fast-json-stringify', mean: 80_000, error: 40_000, ratio: 0.8, ratioError: 0.5, findings: noisy },
      { serializer: 'superjson', mean: 300_000, error: 9_000, ratio: 3, ratioError: 0.1 },
    ]),
  );
  assert.equal(rec.pick, null);
  assert.deepEqual([rec.closest?.serializer, rec.noisy], ['fast-json-stringify', 2]);
  assert.equal(rec.state, 'no-clear-winner');
  assert.match(
    rec.sentence,
    /, no clear winner: the built-in JSON\.stringify and fast-json-stringify within 0\.43–1\.49× of each other \(99\.9% CI; 2 other serializers compared; 2 of the 3 timings were noisy, so a difference may be hidden: confirm with --policy default on a quieter machine\): use the built-in\.$/,
  );
});

test('a noisy default-policy run is told to confirm with the long policy, never with the policy it ran (new-user tryout)', () => {
  const noisy = [{ code: 'noisy' as const, message: 'error target not met' }];
  const r = results([
    { serializer: 'json', mean: 100_000, error: 30_000, findings: noisy },
    { serializer: 'fast-json-stringify', mean: 80_000, error: 40_000, ratio: 0.8, ratioError: 0.5, findings: noisy },
  ]);
  r.policy.name = 'default';
  const [rec] = recommend(r);
  assert.match(rec.sentence, /so a difference may be hidden: confirm with --policy long on a quieter machine\)/);
  assert.doesNotMatch(rec.sentence, /--policy default/);
});

test("a quick run says once that it is a first look and points to --policy default, never inside each sentence; a default-policy one does not say it (new-user tryout: quick times were 2–10× the default's)", () => {
  const quick = results([
    { serializer: 'json' },
    { serializer: 'fjs', mean: 40_000, ratio: 0.4, ratioInterval: [0.38, 0.42] },
  ]);
  assert.doesNotMatch(recommend(quick)[0].sentence, /first look|Policy quick/);
  const md = renderRecommendations(quick, 'markdown');
  assert.equal(md.split('Policy quick: a first look').length - 1, 1, 'once in the block');
  const settled = structuredClone(quick);
  settled.policy.name = 'default';
  assert.doesNotMatch(renderRecommendations(settled, 'markdown'), /first look|Policy quick/);
  // the takeaways too (terminal, Markdown and HTML share sectionTakeaway)
  assert.match(
    renderMarkdown(quick),
    /^\*\*serialize\*\* \(against json\): .* \(Policy quick: a first look, not figures to quote; rerun with --policy default for those\.\)$/m,
  );
  assert.doesNotMatch(renderMarkdown(settled), /Policy quick: a first look/);
  assert.match(renderHtml(quick), /<p class="takeaway">[^<]*\(Policy quick: a first look/);
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
    /, 2\.60 KiB–3\.58 KiB allocated per op \(2\.66–3\.66× json's: the allocation windows disagree\);/,
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
    /, borderline: fast-json-stringify looks 0\.83× \(99\.9% CI 0\.69–1\.00×\) the time of the built-in JSON\.stringify, but the interval reaches 1\.00, so a rerun could call it either way; rerun with --policy default on a quieter machine before switching \(until then, use the built-in\)\.$/,
  );
  // an interval ending just below 1 is as close to the line: borderline too, said so
  const justBelow = run(0.85, [0.74, 0.97]);
  assert.equal(justBelow.state, 'borderline');
  assert.match(justBelow.sentence, /but the interval ends at 0\.97, within a rerun's spread of 1\.00/);
  const same = run(0.99, [0.9, 1.09]);
  assert.equal(same.state, 'no-clear-winner');
  assert.match(
    same.sentence,
    /, no clear winner: the built-in JSON\.stringify and fast-json-stringify within 0\.90–1\.09× of each other \(99\.9% CI; 1 other serializer compared\): use the built-in\.$/,
  );
  // slower-looking with an interval ending near 1: nothing is faster, and it is not called "clearly slower"
  const nearSlower = run(1.1, [1.02, 1.17]);
  assert.equal(nearSlower.state, 'baseline');
  assert.match(
    nearSlower.sentence,
    /, use the built-in JSON\.stringify: no other serializer is faster \(1 compared\) \(the closest, fast-json-stringify, takes 1\.10×/,
  );
  const slower = run(2, [1.8, 2.2]);
  assert.equal(slower.state, 'baseline');
  assert.match(
    slower.sentence,
    /, use the built-in JSON\.stringify: the other serializer is clearly slower \(the closest, fast-json-stringify, takes 2\.00×/,
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
    /; fast-json-stringify looks faster still \(0\.70×\) but its interval reaches the decision line: borderline\.$/,
  );
});
