import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderHtml } from '../../src/report/html/page.js';
import { sentenceMark } from '../../src/report/rows.js';
import { readResults } from '../../src/results/io.js';
import { FINDING_CODES } from '../../src/results/types.js';
import { compareResults, DEFAULT_ALPHA, DEFAULT_THRESHOLDS, METRICS } from '../../src/compare/compare.js';
import { renderCompareMarkdown } from '../../src/compare/render.js';
import { makeResults } from '../ledger/fixture.js';

/**
 * A results file of a newer jsonbench (hostile tester: report and compare refused the whole file): a
 * finding code and a case status this version does not know, with markup in them.
 */
function newerFile(dir: string): string {
  const r = makeResults([{ serializer: 'json' }, { serializer: 'typia' }]) as unknown as {
    cases: Record<string, unknown>[];
  };
  (r.cases[0].findings as unknown[]).push({ code: '<b>gc-pressure</b>', message: 'the GC ran <i>40%</i> of the time' });
  const {
    time: _t,
    ratio: _r,
    ratioError: _e,
    ratioInterval: _i,
    allocated: _a,
    allocRatio: _ar,
    ...header
  } = r.cases[1];
  r.cases[1] = { ...header, status: 'paused<script>', reason: 'paused by the user' };
  const file = join(dir, 'results.json');
  writeFileSync(file, JSON.stringify(r, null, 2));
  return file;
}

test('a newer jsonbench\'s file renders in every report: its unknown finding by code, "written by a newer jsonbench", its unknown-status case named as not read; markup escaped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-newer-'));
  try {
    const r = readResults(newerFile(dir));
    const md = renderMarkdown(r);
    assert.match(md, /\? &lt;b&gt;gc-pressure&lt;\/b&gt; \(written by a newer jsonbench; see below\)/);
    assert.match(
      md,
      /- \*\*json\*\*: &lt;b&gt;gc-pressure&lt;\/b&gt; \(a finding written by a newer jsonbench\): the GC ran &lt;i&gt;40%&lt;\/i&gt; of the time\./,
    );
    assert.match(
      md,
      /> ⚠ Not read: case "weather-station\/1\/single\/serialize\/typia" \(\/cases\/1\) has status "paused&lt;script&gt;", which this jsonbench does not know \(a newer jsonbench wrote it\): left out; update jsonbench to read it/,
    );
    const text = renderTerminal(r, false, { width: 1000, verbose: true });
    assert.match(
      text,
      /\? json: <b>gc-pressure<\/b> \(a finding written by a newer jsonbench\): the GC ran <i>40%<\/i> of the time/,
    );
    assert.match(text, /⚠ Not read: case "weather-station\/1\/single\/serialize\/typia"/);
    const html = renderHtml(r);
    assert.match(
      html,
      /1 case not read \(written by a newer jsonbench\)<\/summary><ul class="problems"><li>Not read: case &quot;weather-station\/1\/single\/serialize\/typia&quot; \(\/cases\/1\) has status &quot;paused&lt;script&gt;&quot;/,
    );
    assert.doesNotMatch(html, /<b>gc-pressure|paused<script>/);
    const options = { alpha: DEFAULT_ALPHA, thresholds: { ...DEFAULT_THRESHOLDS }, metrics: METRICS };
    const cmp = renderCompareMarkdown(
      compareResults(makeResults([{ serializer: 'json' }, { serializer: 'typia' }]), r, options),
      'a',
      'b',
    );
    assert.match(
      cmp,
      /- Not read in head: case "weather-station\/1\/single\/serialize\/typia" \(\/cases\/1\) has status "paused&lt;script&gt;"/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the report's list of known finding codes (shipped inside the HTML report) is the results schema's", () => {
  for (const code of FINDING_CODES) assert.notEqual(sentenceMark(code), '?', code);
  assert.equal(sentenceMark('a-code-of-a-newer-jsonbench'), '?');
});
