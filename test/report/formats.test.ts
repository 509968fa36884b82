import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderCsv, CSV_COLUMNS, csvField } from '../../src/report/csv.js';
import { renderBmf, type Bmf } from '../../src/report/bmf.js';
import { renderGithubActionBenchmark, type GabEntry } from '../../src/report/github-action-benchmark.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderJson } from '../../src/report/json.js';
import { main } from '../../src/cli/main.js';
import { writeReports } from '../../src/report/write.js';
import { exporters } from '../../src/report/index.js';
import { SOURCE_DIR, fixture } from './support.js';
import { Ajv } from 'ajv';
import { ratioIntervalOf } from '../../src/results/ratio.js';
import type { ResultsFile } from '../../src/results/types.js';
import { NO_SIDECAR } from '../../src/results/integrity.js';

/** Minimal RFC 4180 reader for the test. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') q = false;
      else field += ch;
      continue;
    }
    if (ch === '"') q = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r') {
      /* CRLF */
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  return rows;
}

test('the CSV has one row per case with every statistic and the status', () => {
  const r = fixture('single');
  const rows = parseCsv(renderCsv(r));
  assert.deepEqual(
    rows[0],
    CSV_COLUMNS.map((c) => c.name),
  );
  assert.equal(rows.length, r.cases.length + 1);
  const col = (name: string) => rows[0].indexOf(name);
  const json = rows.find((x) => x[col('id')] === 'weather-station/1/single/serialize/json')!;
  const src = r.cases.find((c) => c.id === 'weather-station/1/single/serialize/json')!;
  assert.equal(Number(json[col('mean_ns')]), src.time!.mean);
  assert.equal(Number(json[col('allocated_bytes')]), src.allocated!.mean);
  const incorrect = rows.find((x) => x[col('status')] === 'incorrect')!;
  assert.deepEqual(
    [
      incorrect[col('mismatch_path')],
      incorrect[col('mismatch_expected')],
      incorrect[col('mismatch_actual')],
      incorrect[col('mean_ns')],
    ],
    ['$.current.temperature', '"21.5"', '21.5', ''],
  );
  assert.deepEqual(
    rows
      .slice(1)
      .map((x) => x[col('status')])
      .sort(),
    r.cases.map((c) => c.status).sort(),
  );
});

test('CSV fields are quoted when they hold commas, quotes or newlines, and formulas stay text', () => {
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"\nnow'), '"say ""hi""␊now"');
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvField(-1.5), '-1.5');
  assert.equal(csvField(null), '');
});

test('BMF carries latency with its confidence bounds and allocated bytes for measured cases only', () => {
  const r = fixture('single');
  const bmf = JSON.parse(renderBmf(r)) as Bmf;
  const measured = r.cases.filter((c) => c.status === 'measured');
  assert.deepEqual(Object.keys(bmf).sort(), measured.map((c) => c.id).sort());
  const c = measured[0];
  assert.deepEqual(bmf[c.id].latency, {
    value: c.time!.mean,
    lower_value: Math.max(0, c.time!.mean - c.time!.error),
    upper_value: c.time!.mean + c.time!.error,
  });
  assert.deepEqual(bmf[c.id]['allocated-bytes'], { value: c.allocated!.mean });
});

test('with several targets BMF names carry the target and its major version, and a target without allocation figures has no allocated-bytes', () => {
  const bmf = JSON.parse(renderBmf(fixture('two-targets'))) as Bmf;
  const bun = bmf['weather-station/1/single/serialize/json@bun [bun 1]'];
  assert.ok(bun.latency.value > 0);
  assert.equal(bun['allocated-bytes'], undefined);
  assert.ok(bmf['weather-station/1/single/serialize/json@node [node 20]']['allocated-bytes'].value > 0);
  assert.ok(
    Object.keys(bmf).every((name) => !/\d+\.\d+\.\d+\]$/.test(name)),
    'no patch version in a name: a runtime update keeps the series',
  );
  // a patch update of the runtime: the same names
  const updated = structuredClone(fixture('two-targets'));
  updated.targets = updated.targets.map((t) => ({ ...t, version: t.id === 'bun' ? '1.4.5' : '20.21.0' }));
  updated.cases = updated.cases.map((c) => ({
    ...c,
    target: { ...c.target, version: c.target.id === 'bun' ? '1.4.5' : '20.21.0' },
  }));
  assert.deepEqual(Object.keys(JSON.parse(renderBmf(updated)) as Bmf).sort(), Object.keys(bmf).sort());
  // the same runtime and major in two files on two machines: the full labels, so no two series share a name
  const other = structuredClone(fixture('single'));
  other.environment = { ...other.environment, cpuModel: 'another CPU', runtime: 'node 20.19.0' };
  other.cases = other.cases.map((c) => ({ ...c, target: { ...c.target, version: '20.19.0' } }));
  const names = Object.keys(JSON.parse(renderBmf([fixture('single'), other])) as Bmf);
  assert.equal(new Set(names).size, names.length);
  assert.ok(
    names.some((n) => n.endsWith('[node 20.19.0]')),
    names.join('\n'),
  );
});

test('github-action-benchmark names carry the major version too; extra the exact one', () => {
  const entries = JSON.parse(renderGithubActionBenchmark(fixture('two-targets'))) as GabEntry[];
  const bun = entries.find((e) => e.name === 'weather-station/1/single/serialize/json@bun [bun 1] time')!;
  assert.match(bun.extra!, /· bun 1\.1\.30 ·/);
});

test('github-action-benchmark gets a customSmallerIsBetter array: ns/op with its range and bytes/op', () => {
  const r = fixture('single');
  const entries = JSON.parse(renderGithubActionBenchmark(r)) as GabEntry[];
  const c = r.cases.find((x) => x.id === 'weather-station/1/single/serialize/typia')!;
  const time = entries.find((e) => e.name === `${c.id} time`)!;
  assert.deepEqual(
    [time.unit, time.value, time.range],
    // the mean's interval low–high (the fixture predates stats5: mean ± error, linear)
    [
      'ns/op',
      Number(c.time!.mean.toFixed(3)),
      `${(c.time!.mean - c.time!.error).toFixed(3)}–${(c.time!.mean + c.time!.error).toFixed(3)}`,
    ],
  );
  assert.match(time.extra!, /typia 12\.2\.1 · node 20\.20\.2 · ratio 0\.\d\d \[0\.\d\d–0\.\d\d\] vs json/);
  assert.equal(entries.find((e) => e.name === `${c.id} allocated`)!.unit, 'bytes/op');
  const measured = r.cases.filter((x) => x.status === 'measured');
  const paired = measured.filter((x) => x.ratio !== null && x.ratio !== undefined && x.serializer !== x.baseline);
  assert.ok(
    paired.length > 0 && paired.length < measured.length,
    'the fixture has baselines and cases compared with them',
  );
  assert.equal(entries.length, 2 * measured.length + paired.length);
});

/** Bencher's published JSON Schema of BMF (https://bencher.dev/bmf.json, draft-07), with its documented name limits. */
const BMF_SCHEMA = {
  type: 'object',
  propertyNames: { maxLength: 1024 },
  patternProperties: {
    '.+': {
      type: 'object',
      propertyNames: { maxLength: 64 },
      patternProperties: {
        '.+': {
          type: 'object',
          properties: { value: { type: 'number' }, lower_value: { type: 'number' }, upper_value: { type: 'number' } },
          required: ['value'],
        },
      },
    },
  },
};
/** github-action-benchmark's customSmallerIsBetter input, as its README documents it (name, unit, value; range and extra optional). */
const GAB_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      unit: { type: 'string' },
      value: { type: 'number' },
      range: { type: 'string' },
      extra: { type: 'string' },
    },
    required: ['name', 'unit', 'value'],
    additionalProperties: false,
  },
};

/** A copy of a fixture's first paired case with callgrind's instruction count added. */
function withInstructions(r: ResultsFile): { file: ResultsFile; id: string; perOp: number } {
  const file = structuredClone(r);
  const c = file.cases.find(
    (x) => x.status === 'measured' && x.ratio !== null && x.ratio !== undefined && x.serializer !== x.baseline,
  )!;
  const perOp = 123456.7;
  (c as { instructions?: unknown }).instructions = {
    perOp,
    iterations: [10, 110],
    totals: [1000, 12346670],
    method: 'callgrind',
    tool: 'valgrind-3.19.0',
    flags: [],
  };
  return { file, id: c.id, perOp };
}

test('BMF and github-action-benchmark files carry the ratio with its interval and instruction counts, valid against their schemas', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const { file, id, perOp } = withInstructions(fixture('single'));
  const c = file.cases.find((x) => x.id === id)!;
  const interval = ratioIntervalOf(c)!;
  assert.ok(interval, 'the fixture case has a ratio interval');

  const bmf = JSON.parse(renderBmf(file)) as Bmf;
  assert.ok(ajv.validate(BMF_SCHEMA, bmf), ajv.errorsText());
  assert.deepEqual(bmf[id].ratio, { value: c.ratio, lower_value: interval[0], upper_value: interval[1] });
  assert.deepEqual(bmf[id].instructions, { value: perOp });
  const baseline = file.cases.find((x) => x.status === 'measured' && x.serializer === x.baseline)!;
  assert.equal(bmf[baseline.id].ratio, undefined, "a baseline's ratio to itself is not exported");
  assert.equal(bmf[baseline.id].instructions, undefined);

  const gab = JSON.parse(renderGithubActionBenchmark(file)) as GabEntry[];
  assert.ok(ajv.validate(GAB_SCHEMA, gab), ajv.errorsText());
  const ratio = gab.find((e) => e.name === `${id} ratio`)!;
  assert.deepEqual(
    [ratio.unit, ratio.value, ratio.range],
    [`× ${c.baseline}`, Number(c.ratio!.toFixed(4)), `${interval[0].toFixed(4)}–${interval[1].toFixed(4)}`],
  );
  assert.deepEqual(
    gab.filter((e) => e.name === `${id} instructions`).map((e) => [e.unit, e.value]),
    [['instructions/op', Math.round(perOp)]],
  );
  assert.equal(gab.filter((e) => e.name.endsWith(' instructions')).length, 1, 'only the case callgrind counted');
});

test('Markdown gives the takeaway, lists cases without numbers with their reason and JSON path, and adds a Target column for several targets', () => {
  const md = renderMarkdown(fixture('single'));
  assert.match(
    md,
    /\*\*serialize\*\* \(against json\): fast-json-stringify and typia are fastest and within noise of each other/,
  );
  assert.match(md, /- \*\*superjson\*\* incorrect at `\$\.current\.temperature`: expected `"21\.5"`, got `21\.5`/);
  assert.match(md, /- \*\*valibot\*\* timeout: no result within 60000 ms/);
  assert.match(md, /<summary>The code being measured<\/summary>/);
  const two = renderMarkdown(fixture('two-targets'));
  assert.match(two, /\| Class \| Serializer \| Target \| Version \|/);
  assert.match(two, /\| serialize \| json \| bun 1\.1\.30 \|/);
  // the header names the runtimes the cases ran on, not only the host's Node
  assert.match(
    two,
    /targets bun: bun 1\.1\.30 \(JavaScriptCore unknown\) · host node 20\.20\.2 \(V8 11\.3\.244\.8-node\.38\)/,
  );
  assert.doesNotMatch(md, /targets /, 'a host-only run names the host alone');
  assert.match(md, / · node 20\.20\.2 \(V8 /);
});

test('the JSON report keeps every source and drops raw samples', () => {
  const doc = JSON.parse(renderJson([fixture('single'), fixture('scaling')]));
  assert.equal(doc.sources.length, 2);
  assert.equal(doc.cases.length, fixture('single').cases.length + fixture('scaling').cases.length);
  assert.equal(doc.cases[0].samples, undefined);
  assert.equal(doc.cases[0].target, 'node 20.20.2');
});

test('`jsonbench report` renders saved results to --out without running anything, and rejects an unknown format or file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-report-'));
  const file = join(SOURCE_DIR, 'fixtures', 'single.json');
  const out = join(dir, 'r.csv');
  const writes: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const errWrite = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string) => {
    writes.push(String(s));
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => {
    writes.push(String(s));
    return true;
  }) as typeof process.stderr.write;
  let codes: number[];
  try {
    codes = [
      await main(['report', file, '--format', 'csv', '--out', out]),
      await main(['report', file, '--format', 'nope']),
      await main(['report', join(dir, 'missing.json')]),
      await main([
        'report',
        file,
        join(SOURCE_DIR, 'fixtures', 'scaling.json'),
        '--format',
        'html',
        '--out',
        join(dir, 'r.html'),
      ]),
    ];
  } finally {
    process.stdout.write = write;
    process.stderr.write = errWrite;
  }
  assert.deepEqual(codes, [0, 2, 2, 0]);
  // the fixture has no sidecar: read unchecked, which report.csv says in its integrity column (hx20 a34)
  assert.equal(readFileSync(out, 'utf8'), renderCsv({ ...fixture('single'), unchecked: NO_SIDECAR }));
  assert.ok(writes.includes(`${out}\n`), 'prints the path it wrote');
  assert.ok(writes.some((w) => /missing\.json: cannot read/.test(w)));
  assert.match(readFileSync(join(dir, 'r.html'), 'utf8'), /Results file #2/);
});

test('one exporter failing does not stop the others when a run writes its reports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-reports-'));
  const broken = {
    ...exporters,
    html: {
      ...exporters.html,
      render: () => {
        throw new Error('boom');
      },
    },
  };
  const out = writeReports(dir, [fixture('single')], ['html', 'md', 'csv'], {}, broken);
  assert.deepEqual(out.failed, [{ format: 'html', error: 'boom' }]);
  assert.deepEqual(Object.keys(out.written), ['md', 'csv']);
  assert.equal(readFileSync(join(dir, 'report.md'), 'utf8'), renderMarkdown(fixture('single')));
});

test('a count of one is singular in every report (hostile tester: Markdown said "1 cases", the target line "1 launches")', async () => {
  const { renderHtml } = await import('../../src/report/html/page.js');
  const { targetSummaryLines } = await import('../../src/report/target-columns.js');
  const { countOf } = await import('../../src/report/units.js');
  const one = fixture('single');
  one.cases = one.cases.filter((c) => c.id === 'weather-station/1/single/serialize/json');
  one.targets = one.targets.map((t) => ({ ...t, timing: { prepareMs: 100, launchMs: 2000, launches: 1 } }));
  assert.equal(one.cases.length, 1);
  assert.match(renderMarkdown(one), /\*\*1 case:\*\* 1 measured/);
  assert.match(renderHtml(one), /<p>1 case: <span class="badge measured">/);
  assert.match(targetSummaryLines(one)[0], /, 1 launch 2\.0 s$/);
  assert.deepEqual(
    [countOf(0, 'case'), countOf(1, 'case'), countOf(2, 'launch', 'launches')],
    ['0 cases', '1 case', '2 launches'],
  );
});

test('report.json and report.csv say which source was read unchecked (hx20 a34)', () => {
  const unchecked = { ...fixture('single'), unchecked: NO_SIDECAR };
  const doc = JSON.parse(renderJson([unchecked, fixture('scaling')]));
  assert.deepEqual(
    doc.sources.map((s: { integrity: unknown }) => s.integrity),
    [{ unchecked: NO_SIDECAR }, 'checked'],
  );
  assert.equal(doc.cases[0].sourceUnchecked, undefined, 'said once per source, not per case');
  const rows = renderCsv([unchecked, fixture('scaling')])
    .trimEnd()
    .split('\r\n');
  assert.ok(rows[0].endsWith(',integrity'));
  assert.ok(rows[1].endsWith(',unchecked'), rows[1]);
  assert.ok(rows[rows.length - 1].endsWith(',checked'), rows[rows.length - 1]);
});
