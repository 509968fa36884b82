import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHtml } from '../../src/report/html/page.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildTargetTables } from '../../src/report/target-columns.js';
import { escapeHtml } from '../../src/report/html/escape.js';
import type { ResultsFile } from '../../src/results/types.js';
import { fixture } from './support.js';

const stub = { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' };

/** The HTML row of a table's cells, as report.html lays them out. */
const htmlRow = (cells: readonly string[]) => `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;

/** The two-target fixture with its second target (bun) made a .NET target: the run spans two platforms. */
function twoPlatforms(): ResultsFile {
  const r = structuredClone(fixture('two-targets'));
  r.targets[1] = { ...r.targets[1], platform: 'dotnet' };
  r.cases = r.cases.map((c) => (c.target.id === r.targets[1].id ? { ...c, platform: 'dotnet' } : c));
  return r;
}

test('report.html has the "by target" tables report.md has, row for row, from the same builder (attack session: the HTML lacked them)', () => {
  const r = fixture('two-targets');
  const html = renderHtml(r, stub);
  const md = renderMarkdown(r);
  const tables = buildTargetTables(r);
  assert.ok(
    tables.length > 0 && md.includes('## Side by side, by target'),
    'the fixture has side-by-side tables in Markdown',
  );
  assert.match(html, /<h2>Side by side, by target<\/h2>/);
  for (const t of tables) {
    assert.ok(md.includes(`### ${t.title} — by target`), t.title);
    assert.ok(html.includes(`<h3>${escapeHtml(t.title)} — by target</h3>`), t.title);
    assert.ok(html.includes(`<tr>${t.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`), `${t.title}: head`);
    for (const row of t.rows) assert.ok(html.includes(htmlRow(row)), `${t.title}: ${row.join(' | ')}`);
    for (const ranking of t.rankings) assert.ok(html.includes(`<li>${escapeHtml(ranking)}</li>`), ranking);
    assert.equal(t.across, undefined, 'one platform: no across table');
  }
  assert.doesNotMatch(html, /across platforms<\/h4>/);
  assert.doesNotMatch(renderHtml(fixture('single'), stub), /Side by side, by target/, 'one target: no section');
});

test('a run on JavaScript and .NET targets gets its across-platforms tables in report.html as in report.md', () => {
  const r = twoPlatforms();
  const html = renderHtml(r, stub);
  const md = renderMarkdown(r);
  const tables = buildTargetTables(r);
  assert.ok(
    tables.every((t) => t.across),
    'every table has its across part',
  );
  for (const t of tables) {
    assert.ok(md.includes(`#### ${t.title} — across platforms`), t.title);
    assert.ok(html.includes(`<h4>${escapeHtml(t.title)} — across platforms</h4>`), t.title);
    for (const row of t.across!.rows) assert.ok(html.includes(htmlRow(row)), `${t.title}: ${row.join(' | ')}`);
  }
});

test('the header lists libraries apart from runtimes: a target\'s own JSON is not a library (it read "Libraries: json bun 1.4.5")', () => {
  const r = structuredClone(fixture('two-targets'));
  // as a run writes it: the built-in json's version is its target's runtime and version
  r.cases = r.cases.map((c) =>
    c.serializer === 'json' ? { ...c, serializerVersion: `${c.target.runtime} ${c.target.version}` } : c,
  );
  const html = renderHtml(r, stub);
  const libraries = /<span class="k">Libraries<\/span><span class="v">(.*?)<\/span><\/div>/.exec(html)?.[1] ?? '';
  assert.match(libraries, /<span class="lib">fast-json-stringify <span class="dim">7\.3\.10<\/span><\/span>/);
  assert.match(
    libraries,
    /<span class="lib">json <span class="dim">\(each target's own: see Targets\)<\/span><\/span>/,
  );
  assert.doesNotMatch(libraries, /bun 1\.1\.30|node 20\.20\.2/, 'no runtime among the libraries');
  const targets = /<span class="k">Targets<\/span><span class="v">(.*?)<\/span><\/div>/.exec(html)?.[1] ?? '';
  assert.match(targets, /bun: bun 1\.1\.30/);
  assert.match(targets, /node: node 20\.20\.2/);
});
