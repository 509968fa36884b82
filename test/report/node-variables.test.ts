import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html/page.js';
import { results } from '../hostile/support.js';

/**
 * hx16 NO-preload: the user's own `NODE_OPTIONS=--require …` (what an APM agent sets) ran in every worker and
 * slowed JSON.stringify; stderr said so, report.md and report.html did not: a reader of the report saw "faster by
 * 1.53×" with nothing naming what the workers loaded. The variables results.json records (environment.variables)
 * are named in the provenance of both.
 */
test('report.md and report.html name the Node variables the workers ran with', () => {
  const r = results();
  r.environment.variables = { NODE_OPTIONS: '--require ./apm<b>.cjs' };
  const md = renderMarkdown(r);
  assert.match(md, / · workers ran with NODE\\_OPTIONS="--require \.\/apm&lt;b&gt;\.cjs" · /);
  assert.ok(!md.includes('<b>'), 'markup escaped in report.md');
  const html = renderHtml(r);
  assert.match(html, /workers ran with <code>NODE_OPTIONS=&quot;--require \.\/apm&lt;b&gt;\.cjs&quot;<\/code>/);
  delete r.environment.variables;
  assert.ok(!renderMarkdown(r).includes('workers ran with'));
  assert.ok(!renderHtml(r).includes('workers ran with'));
});
