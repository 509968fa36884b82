import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderHtml } from '../../src/report/html/page.js';
import { escapeHtml } from '../../src/report/html/escape.js';
import { renderCsv, csvField } from '../../src/report/csv.js';
import { renderHistoryMarkdown } from '../../src/report/history.js';
import type { HistoryPoint } from '../../src/results/history.js';
import type { ResultsFile } from '../../src/results/types.js';
import { analyseCase } from '../../src/analysers/index.js';
import { recommend } from '../../src/report/recommend.js';
import { failWith, measuredCase, results } from './support.js';

/**
 * Hostile data in reports (issue 9, "Injection and bad files" and "Misleading displays"): names,
 * versions and messages carrying markup, control characters and terminal escapes; messages too
 * long to lay out; intervals and tables that mislead. Every renderer reads only the results file,
 * so each test puts the hostile value into a results file and renders it.
 */
const MARKUP = '<img src=x onerror=alert(1)><script>alert(2)</script>';
const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';

/** Runs a renderer over `r` in a worker thread; `timeout` when it takes longer than `ms` (a renderer can loop for minutes). */
function renderInThread(
  format: 'terminal' | 'md',
  r: ResultsFile,
  ms: number,
): Promise<{ text: string; ms: number } | 'timeout'> {
  const module = new URL(`../../src/report/${format === 'md' ? 'markdown' : 'terminal'}.js`, import.meta.url).href;
  const code = `const { parentPort, workerData } = require('node:worker_threads');
    import(${JSON.stringify(module)}).then((m) => { const t0 = performance.now(); const text = ${format === 'md' ? 'm.renderMarkdown(workerData)' : 'm.renderTerminal(workerData, false)'}; parentPort.postMessage({ text, ms: performance.now() - t0 }); });`;
  return new Promise((resolve) => {
    const w = new Worker(code, { eval: true, workerData: r });
    const timer = setTimeout(() => {
      void w.terminate();
      resolve('timeout');
    }, ms);
    w.on('message', (m: { text: string; ms: number }) => {
      clearTimeout(timer);
      void w.terminate();
      resolve(m);
    });
    w.on('error', () => {
      clearTimeout(timer);
      resolve('timeout');
    });
  });
}

test('report.md escapes markup in its provenance header (CPU model, OS, runtime come from the results file)', () => {
  const r = results();
  r.environment.cpuModel = MARKUP;
  r.environment.os = `Linux ${MARKUP}`;
  const md = renderMarkdown(r);
  assert.equal(md.includes('<img'), false, 'raw <img> in report.md');
  assert.equal(md.includes('<script'), false, 'raw <script> in report.md');
});

test('history --format md escapes markup from the ledger (versions, reasons)', () => {
  const point: HistoryPoint = {
    runId: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    toolVersion: '0.1.0',
    gitCommit: null,
    caseId: 'w/1/single/serialize/x',
    workload: 'w',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    serializer: 'x',
    adapter: 'x',
    serializerVersion: MARKUP,
    target: 'node',
    targetVersion: '20',
    status: 'failed',
    reason: `boom ${MARKUP}`,
    meanNs: null,
    errorNs: null,
    ratio: null,
    bytesPerOp: null,
    instructionsPerOp: null,
  };
  const md = renderHistoryMarkdown([point]);
  assert.equal(/<img|<script/.test(md), false, md);
});

test('a lone carriage return in a message cannot break a Markdown table row', () => {
  const r = results();
  failWith(measuredCase(r), 'first part\rsecond part | with a pipe');
  const md = renderMarkdown(r);
  assert.equal(md.includes('\r'), false);
});

test('a Markdown image in an error message is shown as text, never rendered', () => {
  const r = results();
  failWith(measuredCase(r), 'see ![pixel](https://tracker.example/p.png) and [link](https://evil.example)');
  const md = renderMarkdown(r);
  assert.equal(md.includes('![pixel](https://tracker.example/p.png)'), false, 'a live Markdown image');
  assert.equal(md.includes('[link](https://evil.example)'), false, 'a live Markdown link');
});

test('the CSV guard keeps every formula-like field as text: "-1+…", and "=" after a leading tab or CR', () => {
  for (const v of ['-1+1|cmd', '+1-1', '\t=1+1', '\r=1+1', '@SUM(A1)', '=HYPERLINK("x")']) {
    const f = csvField(v);
    assert.match(f, /^"?'/, `${JSON.stringify(v)} → ${JSON.stringify(f)}`);
  }
  for (const v of ['-12.5', '-3', '1e5']) assert.equal(csvField(v), v, `${v} is a number and stays as it is`);
  const r = results();
  failWith(measuredCase(r), '\t=cmd|" /C calc"!A0');
  assert.equal(renderCsv(r).includes(',\t=cmd'), false);
});

test('CSV shows control characters from hand-edited names (serializer, workload) as control pictures, never raw', () => {
  const r = results();
  const c = measuredCase(r);
  c.serializer = `evil${CLEAR}`;
  c.workload = `w${TITLE}`;
  const csv = renderCsv(r);
  assert.equal(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(csv), false, JSON.stringify(csv.slice(0, 300)));
  assert.ok(csv.includes('evil␛[2J␛[H'), 'the serializer name with its ESC shown');
  assert.ok(csv.includes('w␛]0;pwned␇'), 'the workload name with its ESC and BEL shown');
  assert.equal(csvField('a\r\nb'), 'a␍␊b', 'a CRLF inside a reason is shown, the field stays on its line (hx10)');
});

test('no CSV field holds a line break, control or bidi character: a version with a newline cannot start a line "::error::" (hx10 EV-ver-csv)', () => {
  const r = results();
  const c = measuredCase(r);
  c.serializerVersion = `1.0.0${TITLE}\u202e<img src=x>|=HYPERLINK("http://x")\n::error::forged\r\n::add-mask::x\u2028y\u0085z\tw`;
  const csv = renderCsv(r);
  const lines = csv.split('\r\n');
  assert.equal(lines.at(-1), '', 'the file ends with CRLF');
  assert.equal(lines.length, r.cases.length + 2, 'one line per case and the header: no field spans two lines');
  assert.equal(
    lines.some((l) => l.startsWith('::')),
    false,
    JSON.stringify(lines.filter((l) => l.startsWith('::'))),
  );
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
  assert.equal(unsafe.test(csv.replace(/\r\n/g, '')), false);
  assert.ok(
    csv.includes(
      '"1.0.0␛]0;pwned␇\\u202E<img src=x>|=HYPERLINK(""http://x"")␊::error::forged␍␊::add-mask::x\\u2028y\ufffdz␉w"',
    ),
    csv.split('\r\n')[1],
  );
});

test('terminal escape sequences from the data (clipboard write, title, clear screen) are never printed raw', () => {
  const r = results();
  const c = measuredCase(r);
  failWith(c, `boom${OSC52}${TITLE}${CLEAR}`);
  c.serializerVersion = `1.0.0${TITLE}`;
  const text = renderTerminal(r, false);
  assert.equal(text.includes('\u001b'), false, JSON.stringify(text.slice(0, 200)));
  assert.equal(text.includes('\u0007'), false);
});

test('report.html never carries a raw ESC or other control character from the data: shown as control pictures, as in Markdown and the terminal', () => {
  const r = results();
  const c = measuredCase(r);
  failWith(c, `boom${OSC52}${TITLE}${CLEAR}\u0085`);
  c.serializerVersion = `1.0.0${TITLE}`;
  const html = renderHtml(r);
  // eslint-disable-next-line no-control-regex
  assert.equal(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(html),
    false,
    'a raw control character in report.html',
  );
  // a line break as a character reference (hx20 a21: no source line of the page starts with a value's text)
  assert.equal(escapeHtml(`a${CLEAR}<b>\tc\n::error::x\r`), 'a\u241b[2J\u241b[H&lt;b&gt;\tc&#10;::error::x&#13;');
});

test(
  'a 178 KB error message renders within seconds in the terminal and in Markdown, capped and wrapped; results.json keeps it whole',
  { timeout: 60_000 },
  async () => {
    const r = results();
    const long = `ValidationError: ${'data/items/0/name must be string; '.repeat(5300)}`;
    failWith(measuredCase(r), long);
    for (const format of ['terminal', 'md'] as const) {
      const out = await renderInThread(format, r, 5000);
      assert.notEqual(out, 'timeout', `${format} did not render within 5 s`);
      if (out === 'timeout') return;
      assert.ok(out.text.length < 50_000, `${format}: ${out.text.length} characters for one message`);
      assert.ok(
        out.text.split('\n').every((l) => l.length <= 400),
        `${format}: a line longer than 400 characters`,
      );
    }
    assert.equal(measuredCase(results()).reason, undefined, 'the fixture is unchanged');
    assert.equal(
      r.cases.find((c) => c.reason === long)?.reason?.length,
      long.length,
      'the results keep the whole message',
    );
  },
);

test('the terminal table of a multi-target run has a Target column', () => {
  const text = renderTerminal(results('two-targets.json'), false);
  assert.match(text, /^ +Serializer +Target +Ratio/m);
});

test('a ratio interval is never negative: wide intervals are shown on the log scale (asymmetric, above 0)', () => {
  const r = results();
  const c = measuredCase(r);
  c.ratio = 0.45;
  c.ratioError = 1.33;
  delete c.ratioInterval; // a file from before ratioInterval: the interval is derived on the log scale
  for (const text of [renderTerminal(r, false), renderMarkdown(r), renderCsv(r)]) {
    assert.equal(/0\.45 ± 1\.33/.test(text), false, 'a symmetric interval reaching below 0');
    const row = text.split('\n').find((l) => l.includes(c.serializer) && l.includes('0.45'));
    assert.ok(row, 'the row with the ratio');
    assert.equal(/[−-]\d/.test(row.replace(c.serializer, '')), false, `a negative bound: ${row}`);
  }
  // h = 1.33 / 0.45 on the log scale: [0.45·e^−h, 0.45·e^h]
  for (const text of [renderTerminal(r, false), renderMarkdown(r)]) assert.match(text, /0\.45 \[0\.02–8\.65\]/);
});

test('a case whose Mean and Ratio tell different stories gets a finding, and every report says so in a sentence', () => {
  const r = results();
  const base = r.cases.find((x) => x.serializer === x.baseline && x.status === 'measured')!;
  const c = measuredCase(r);
  // the issue's ajv-jtd: mean 1.8× json's, yet ratio 0.18; the analyser runs on the assembled group, as a run does
  c.time!.mean = base.time!.mean * 1.8;
  c.ratio = 0.18;
  c.ratioError = 0.02;
  c.ratioInterval = [0.16, 0.2];
  c.findings = analyseCase(c, { policy: r.policy.measure, baseline: base });
  const f = c.findings.find((x) => x.code === 'mean-ratio');
  assert.ok(f, 'a mean-ratio finding');
  // pointing opposite ways (mean 1.8× slower, ratio 0.18 faster): said first, the ratio trusted
  assert.match(
    f.message,
    /ratio 0\.18 \[0\.16–0\.20\] says faster than json, mean .* \(1\.80× json's .*\) says slower/,
  );
  const md = renderMarkdown(r);
  const line = md
    .split('\n')
    .find((l) => l.includes(c.serializer) && /ratio/i.test(l) && /mean/i.test(l) && !l.startsWith('|'));
  assert.ok(line, 'a sentence naming the serializer, its mean and its ratio');
  assert.match(
    renderTerminal(r, false),
    new RegExp(`≠ ${c.serializer}: Mean and ratio point opposite ways; trust the ratio: ratio 0\\.18`),
  );
  // a case whose mean and ratio agree gets none
  const typia = r.cases.find(
    (x) => x.serializer === 'typia' && x.status === 'measured' && x.direction === c.direction,
  )!;
  assert.deepEqual(
    analyseCase(typia, { policy: r.policy.measure, baseline: base }).filter((x) => x.code === 'mean-ratio'),
    [],
  );
});

test('a case whose paired baseline ran over 1.2× slower beside it than in its own case is refused a rank: a finding in every format, no "fastest", no recommendation', () => {
  const r = results();
  const base = r.cases.find(
    (x) => x.serializer === x.baseline && x.status === 'measured' && x.direction === 'serialize',
  )!;
  const c = measuredCase(r);
  assert.equal(c.direction, 'serialize');
  // the finding: a config serializer that slows the baseline in its own pair process gets ratio 0.27
  for (const l of c.samples.launches)
    for (const round of l.rounds) round.baselineNs = round.baselineNs.map(() => base.time!.median * 3.7);
  c.ratio = 0.27;
  c.ratioError = 0.02;
  c.ratioInterval = [0.25, 0.29];
  const other = r.cases.find((x) => x.serializer === 'typia' && x.direction === 'serialize')!;
  other.ratioInterval = [0.4, 0.46];
  // the fixture (quick, load 9.4, the engine of 2026-11-29) has json 1.33× slower beside typia: at its usual speed here
  for (const l of other.samples.launches)
    for (const round of l.rounds) round.baselineNs = round.baselineNs.map(() => base.time!.median);
  for (const x of [c, other]) x.findings = analyseCase(x, { policy: r.policy.measure, baseline: base });
  const f = c.findings.find((x) => x.code === 'baseline-slowed');
  assert.ok(f, 'a baseline-slowed finding');
  assert.match(
    f.message,
    /^its paired baseline json ran 3\.70× slower beside it: median 5\.03 µs per op in its process against 1\.36 µs in json's own case/,
  );
  assert.deepEqual(
    other.findings.filter((x) => x.code === 'baseline-slowed'),
    [],
    'typia beside a baseline at its usual speed',
  );
  const term = renderTerminal(r, false, { width: 1000, verbose: true });
  const md = renderMarkdown(r);
  const html = renderHtml(r, { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' });
  for (const text of [term, md, html]) {
    assert.doesNotMatch(text, /fast-json-stringify is fastest/);
    assert.match(text, /typia is fastest, 2\.34×/);
    assert.match(text, /Not ranked: fast-json-stringify \(its paired baseline json ran 3\.70× slower beside it\)/);
  }
  assert.match(term, /⊘ fast-json-stringify: its paired baseline json ran 3\.70× slower/);
  assert.match(md, /- \*\*fast-json-stringify\*\*: its paired baseline json ran 3\.70× slower/);
  assert.match(html, /⊘ baseline slowed: not ranked/);
  assert.match(renderCsv(r), /baseline-slowed/);
  const [rec] = recommend(r);
  assert.equal(rec.pick?.serializer, 'typia');
  assert.ok(
    rec.excluded.some(
      (e) => e.serializer === 'fast-json-stringify' && e.status === 'not ranked' && /ran 3\.70× slower/.test(e.reason),
    ),
  );
});

test('the terminal fits its width: every line, columns dropped by importance, notes clipped to one line, the dropped ones named', () => {
  const r = results();
  for (const width of [60, 80, 120]) {
    for (const verbose of [false, true]) {
      const text = renderTerminal(r, false, { width, verbose });
      // open tables (out22): a header row, then one indented row per serializer
      const tableLines = text.split('\n').filter((l) => /^ {2}\S+ {2,}(—|\d)/.test(l));
      assert.ok(tableLines.length > 10, `${width}: ${tableLines.length} rows`);
      for (const l of text.split('\n'))
        assert.ok([...l].length <= width, `${width}: ${[...l].length} characters: ${l}`);
      // time ratio and allocation are the headline: kept at 80 and 120
      assert.match(text, /^ +Serializer +.*Ratio/m);
      if (width >= 80) assert.match(text, /^ +Serializer +.*Allocated/m);
    }
  }
  assert.match(
    renderTerminal(r, false, { width: 80, verbose: true }),
    /left out where a table did not fit 80 characters: [^]*Version/,
  );
  assert.doesNotMatch(renderTerminal(r, false, { width: 400, verbose: true }), /left out/, 'room for every column');
  // at 60 the Notes cells shrink to their marks, said once under the table
  assert.match(renderTerminal(r, false, { width: 60 }), /^Notes: ⚠ noisy$/m);
});

test('the terminal hides unsupported rows behind a count, prints the takeaway, and the legend only when verbose', () => {
  const r = results();
  const text = renderTerminal(r, false);
  const serialize = text.slice(
    text.indexOf('weather-station · 1 · single · serialize'),
    text.indexOf('weather-station · 1 · single · deserialize'),
  );
  // the four unsupported pairs are one-direction libraries: never rows (out22), named once by the CLI
  assert.doesNotMatch(serialize, /^ +typebox /m, 'an unsupported row');
  // load 9.36 on 2 cores, but no case's launches disagreed: the load changed no reading, so no banner
  assert.doesNotMatch(text, /Noisy machine|Busy machine/);
  assert.match(text, /serialize \(against json\): /);
  assert.doesNotMatch(text, /Ratio is time ÷ the class baseline's/);
  assert.match(renderTerminal(r, false, { verbose: true }), /Ratio is time ÷ the class baseline's/);
  assert.match(
    renderTerminal(r, false, { showUnsupported: true }).split('· deserialize')[0],
    /^ +typebox .*– unsupported/m,
  );
});

test('Markdown-significant names stay text in report.md, and code cells show < and > as they are', async () => {
  const { escapeCell, markdownCode } = await import('../../src/report/table/escape.js');
  // text: emphasis, strike-through, code, links and entities are escaped; what GitHub renders is the name as written
  assert.equal(
    escapeCell('**bold** ~~x~~ a_b `c` [l](u) | &lt;', 'markdown'),
    '\\*\\*bold\\*\\* \\~\\~x\\~\\~ a\\_b \\`c\\` [l]\\(u) \\| &amp;lt;',
  );
  // code: literal, fenced past any backticks, pipes escaped only in a table cell (GFM splits cells before code spans)
  assert.equal(markdownCode('<T>(x: T) => x'), '`<T>(x: T) => x`');
  assert.equal(markdownCode('a|b', 500, true), '`a\\|b`');
  assert.equal(markdownCode('a|b'), '`a|b`');
  assert.equal(markdownCode('x `y` z'), '``x `y` z``');
  assert.equal(markdownCode('`y`'), '`` `y` ``');
  const r = results();
  const c = measuredCase(r);
  const name = '**bold**|x';
  for (const k of r.cases)
    if (k.serializer === c.serializer) {
      k.serializer = name;
      k.code = 'stringify<T>(value: T)';
    }
  const md = renderMarkdown(r);
  assert.match(md, /\| \\\*\\\*bold\\\*\\\*\\\|x \|/, 'the name escaped in a table row');
  assert.match(md, /\| `stringify<T>\(value: T\)` \|/, 'the code span holds < and > literally');
  assert.doesNotMatch(md, /&lt;T&gt;/);
  assert.doesNotMatch(md, /(^|[^\\])\*\*bold/m, 'no live emphasis');
});
