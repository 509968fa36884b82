import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesLine, noteForms, renderRunEnd, renderTerminal } from '../../src/report/terminal.js';
import { fixture } from './support.js';

/**
 * The run tables at a narrow width (issue 22, the new user's 80- and 100-column terminals): the
 * Notes column never shows a cut word ("bas… → report.md", "✗ incorrec… → report.md"), only the
 * full note, its short words or its marks with a legend line; the columns are chosen once for
 * every table of a run. The fixture: one run of weather-station, with failed, incorrect, crashed
 * and timed-out cases, noisy ones and baselines. The tables are open (no rules): a row is a line
 * starting with two spaces and a serializer's id; its Notes cell starts under the header's "Notes".
 */

/** The Notes cells of a rendered text's table rows, read under each table's header (`serializers`: the row names). */
function notesCells(text: string, serializers: readonly string[]): string[] {
  const cells: string[] = [];
  let at = -1;
  for (const l of text.split('\n')) {
    if (/^ {2}Serializer /.test(l)) at = l.indexOf('Notes');
    else if (at >= 0 && serializers.some((s) => l.startsWith(`  ${s} `))) cells.push(l.slice(at).trim());
  }
  return cells;
}

for (const width of [60, 80, 100]) {
  test(`at ${width} columns every Notes cell is whole: baseline never cut, a status readable, marks explained`, () => {
    const r = fixture('single');
    const text = renderTerminal(r, false, { width });
    const cells = notesCells(text, [...new Set(r.cases.map((c) => c.serializer))]);
    assert.ok(cells.length >= 10, `the fixture's rows: ${cells.length}`);
    for (const cell of cells) assert.doesNotMatch(cell, /…/, `${width}: a cut note: ${cell}`);
    for (const c of r.cases.filter((x) => x.status === 'measured' && x.serializer === x.baseline)) {
      const row = text.split('\n').find((l) => l.startsWith(`  ${c.serializer} `) && l.includes('baseline'));
      assert.ok(row, `${width}: ${c.serializer}'s baseline row says "baseline" whole`);
    }
    for (const status of ['failed', 'incorrect', 'crashed', 'timeout'])
      if (r.cases.some((x) => x.status === status))
        assert.ok(
          cells.some((cell) => cell === '✗' || cell.startsWith(`✗ ${status}`)),
          `${width}: ✗ ${status} (or its mark)`,
        );
    // a table whose notes are marks says what they mean, under it
    if (cells.some((cell) => /^[⚠✗⇉≈]( [⚠✗⇉≈])*$/.test(cell))) assert.match(text, /^Notes: /m);
  });
}

test('the notes of a case in short words and marks: baseline first and never shortened, the status, then the findings', () => {
  const r = fixture('single');
  const baseline = r.cases.find((x) => x.status === 'measured' && x.serializer === x.baseline)!;
  assert.deepEqual(noteForms(baseline)[0], { short: 'baseline', mark: 'baseline' });
  const failed = r.cases.find((x) => x.status === 'failed')!;
  assert.equal(noteForms(failed)[0].short, '✗ failed');
  assert.equal(noteForms(failed)[0].mark, '✗');
});

test('each table keeps the columns its own cells leave room for (not typical widths); the end says once what was left out', () => {
  const r = fixture('single');
  // at 80 the fixture's cells fit every default column: Mean stays (a layout from typical widths left it out)
  const dropped: string[] = [];
  const at80 = renderTerminal(r, false, { width: 80, tablesOnly: true, onDropped: (h) => dropped.push(...h) });
  assert.deepEqual(dropped, []);
  assert.equal(at80.match(/^ {2}Serializer +Ratio +Allocated +Mean +Notes$/gm)?.length, 2);
  for (const line of at80.split('\n')) assert.ok(line.length <= 80, `over 80: ${line}`);
  // at 60 they do not: Allocated and Mean go, told to the caller per table, never said by the table itself
  const at60: string[] = [];
  const tables = renderTerminal(r, false, { width: 60, tablesOnly: true, onDropped: (h) => at60.push(...h) });
  assert.deepEqual([...new Set(at60)], ['Allocated', 'Mean']);
  assert.doesNotMatch(tables, /left out/, 'the tables never say it themselves');
  const end = renderRunEnd(r, false, { width: 60, dropped: [...new Set(at60)] });
  assert.equal(end.split('left out').length, 2);
  assert.match(end.replace(/\s+/g, ' '), /left out where a table did not fit 60 characters: Allocated, Mean/);
});

test('a title longer than the width (a long payload name) wraps whole: no word cut, none repeated, every line fits', () => {
  const r = fixture('single');
  const long = `payload:${'a'.repeat(70)}`;
  for (const c of r.cases) c.workload = long;
  for (const width of [60, 100]) {
    const text = renderTerminal(r, false, { width, tablesOnly: true });
    for (const line of text.split('\n')) assert.ok([...line].length <= width, `over ${width}: ${line}`);
    assert.doesNotMatch(text, /serializeze|serializealize|serializea\b/, `${width}: a repeated word`);
    // the title reads whole, in order, once the wrap's breaks and spaces are taken out
    assert.ok(
      text.replace(/\s+/g, '').includes(`${long}·1·single·serialize(againstjson)`),
      `${width}: the title whole`,
    );
  }
});

test('a gate failure on the variant payload says so first, where a cut line keeps it (nu8)', () => {
  const reason =
    'output is not well-formed Unicode: a lone surrogate U+D800 at index 297 (a UTF-8 encoder writes U+FFFD there; escape it as \\ud800)';
  const r = fixture('single');
  const c = r.cases.find((x) => x.status === 'measured')!;
  Object.assign(c, {
    status: 'incorrect',
    reason,
    mismatch: { side: 'serializer', path: '$', expected: '', actual: '', on: 'variant' },
  });
  const end = renderRunEnd(r, false, { width: 80 });
  assert.match(end, /incorrect in [^\n]*: on jsonbench's\s+hostile-string\s+variant/);
});

test('a names line never ends "and 1 more": the one name costs about what the words do (nu16)', () => {
  const names = ['typebox', 'zod', 'valibot', 'arktype', 'secure-json-parse'];
  const prefix = '– 5 other pairs unsupported (reasons in report.md): ';
  const all = `${prefix}${names.join(', ')}`;
  assert.equal(namesLine(prefix, names, all.length), all);
  const cut = namesLine(prefix, names, all.length - 1);
  assert.equal(cut, `${prefix}typebox, zod, valibot, and 2 more`);
  for (let w = 40; w < all.length; w++) assert.doesNotMatch(namesLine(prefix, names, w), /and 1 more/, `width ${w}`);
});
