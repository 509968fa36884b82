import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderRunEnd, renderTerminal, unsupportedLines } from '../../src/report/terminal.js';
import type { CaseResult } from '../../src/results/types.js';
import { fixture } from './support.js';

/**
 * What a default-suite run prints on stdout (issue 22: at most ~250 lines at 120 columns), re-rendered
 * from a recorded run: `jsonbench run` (built-in workloads, default policy) at load 1.27 on 2 cores,
 * 2026-12-06, its rounds and probe matrix left out of the fixture (the terminal reads neither:
 * the text is the same with them). The run streams each table as its groups end, then
 * renderRunEnd, then five lines of facts and paths (cli/run.ts); here every table at once.
 */
const r = fixture('default-suite');
const width = 120;
const tables = renderTerminal(r, false, { width, tablesOnly: true });
const end = renderRunEnd(r, false, { width });
const lines = `${tables}\n\n${end}`.split('\n');

test('the default suite fits ~250 lines at 120 columns, none wider', () => {
  // 221 when written; the five lines of facts and paths the CLI adds make 226
  assert.ok(lines.length + 5 <= 250, `${lines.length} lines`);
  assert.deepEqual(
    lines.filter((l) => l.length > width),
    [],
  );
});

test('each table once, its rules gone, each class heading said once with its baseline', () => {
  // a `many` table says what its op is: `users · 100 · many (an op: 100 calls) · serialize`
  const titles = lines
    .filter((l) => /^[a-z-]+ · \d+ · (single|list|many \(an op: \d+ calls?\)) · /.test(l))
    .map((l) => l.split(' (against')[0]);
  assert.ok(
    titles.some((t) => /^users · 100 · many \(an op: 100 calls\) · serialize/.test(t)),
    titles.join('\n'),
  );
  assert.equal(titles.length, new Set(titles).size, 'a table printed twice');
  assert.equal(titles.length, 16);
  assert.equal(lines.filter((l) => /^ {2}Serializer +Ratio +Allocated +Mean +Notes$/.test(l)).length, 16);
  assert.doesNotMatch(lines.join('\n'), /[┌└├─│]/, 'an open table has no rules');
  assert.doesNotMatch(lines.join('\n'), /serialize · serialize|class parse — ratios against/);
  assert.equal(lines.filter((l) => l.startsWith('validate (against typebox): ')).length, 8);
});

test('the takeaways under the tables restate no figure the rows show', () => {
  const prose = lines.filter((l) => !/^ {2}\S+ {2,}(\d|—)/.test(l) && !/^ {2}Serializer /.test(l));
  const before = prose.slice(
    0,
    prose.findIndex((l) => l.startsWith('Recommendation')),
  );
  for (const l of before) assert.doesNotMatch(l, /\d\.\d\d×|99\.9% CI|point estimates/, l);
  // the run's end still says them where they are news: the recommendation's speed-ups
  assert.match(end, /fast-json-stringify on weather-station · 1 · single \(1\.56× faster\)/);
});

test('the libraries that do one direction only are named once, never as rows', () => {
  assert.doesNotMatch(tables, /unsupported/);
  const once = lines.filter((l) => /one direction only/.test(l));
  assert.equal(once.length, 1);
  const text = end.replace(/\s+/g, ' ');
  assert.match(
    text,
    /serialize only: fast-json-stringify, class-transformer and safe-stable-stringify; deserialize only: typebox, zod, valibot, arktype and secure-json-parse\./,
  );
  assert.match(
    text,
    /6 other pairs unsupported \(reasons in report\.md\): fast-json-stringify \(2\), ajv-jtd \(2\), typia \(2\)/,
  );
});

test('a library unsupported both ways is no "one direction only" (nu6: class-transformer on a union payload said "deserialize only")', () => {
  const c = (serializer: string, direction: 'serialize' | 'deserialize', status: string) =>
    ({ serializer, direction, status }) as unknown as CaseResult;
  const cases = [
    c('json', 'serialize', 'ok'),
    c('json', 'deserialize', 'ok'),
    c('zod', 'serialize', 'unsupported'),
    c('zod', 'deserialize', 'ok'),
    c('class-transformer', 'serialize', 'unsupported'),
    c('class-transformer', 'deserialize', 'unsupported'),
  ];
  assert.deepEqual(unsupportedLines({ cases }, 120), [
    '– Not in the tables, one direction only (1 pair): deserialize only: zod.',
    '– 2 other pairs unsupported (reasons in report.md): class-transformer (2)',
  ]);
});

test('tables come by workload, then size, shape and direction, whatever order the groups finished in (nu9)', async () => {
  const { buildTables } = await import('../../src/report/rows.js');
  // the cases as groups finishing out of order would leave them: reversed
  const titles = buildTables([...r.cases].reverse()).map((t) => t.title);
  const workloads = [...new Set([...r.cases].reverse().map((c) => c.workload))];
  const key = (t: string) => {
    const [w, size, shape, direction] = t.replace(/ \(an op: \d+ calls?\)/, '').split(' · ');
    return [
      workloads.indexOf(w),
      Number(size),
      ['single', 'list', 'many'].indexOf(shape),
      direction === 'serialize' ? 0 : 1,
    ];
  };
  const sorted = [...titles].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x.map((v, i) => v - y[i]).find((d) => d !== 0) ?? 0;
  });
  assert.deepEqual(titles, sorted);
  assert.ok(titles.length >= 16, `${titles.length} tables`);
  assert.ok(
    titles.findIndex((t) => t.endsWith('deserialize')) > titles.findIndex((t) => t.endsWith(' serialize')),
    'serialize first',
  );
});

test('every table with measured rows has its takeaway, the `many` ones too (nu10: "nothing to rank." on each)', () => {
  // the HTML view keyed its groups by the title, which for `many` adds what an op is; the cases keep the plain key
  const headings = lines.filter((l) => / · \d+ · (single|list|many \(an op: \d+ calls?\)) · .*\(against /.test(l));
  assert.equal(headings.length, 16);
  assert.deepEqual(
    lines.filter((l) => l.endsWith('nothing to rank.')),
    [],
    'every class heading of every table',
  );
  assert.ok(headings.some((l) => / · many \(an op: 100 calls\) · serialize \(against json\): \S/.test(l)));
});
