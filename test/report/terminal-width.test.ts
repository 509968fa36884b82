import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noteForms, renderRunEnd, renderTerminal, terminalLayout } from '../../src/report/terminal.js';
import { fixture } from './support.js';

/**
 * The run tables at a narrow width (issue 22, the new user's 80- and 100-column terminals): the
 * Notes column never shows a cut word ("bas… → report.md", "✗ incorrec… → report.md"), only the
 * full note, its short words or its marks with a legend line; the columns are chosen once for
 * every table of a run. The fixture: one run of weather-station, with failed, incorrect, crashed
 * and timed-out cases, noisy ones and baselines.
 */

/** The Notes cells of a rendered text's table rows (the last cell of each row). */
function notesCells(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => /^│ [^│]+│/.test(l) && !/^│ Serializer /.test(l) && l.split('│').length > 3)
    .map((l) => l.split('│').at(-2)!.trim());
}

for (const width of [60, 80, 100]) {
  test(`at ${width} columns every Notes cell is whole: baseline never cut, a status readable, marks explained`, () => {
    const r = fixture('single');
    const text = renderTerminal(r, false, { width });
    const cells = notesCells(text);
    assert.ok(cells.length >= 10, `the fixture's rows: ${cells.length}`);
    for (const cell of cells) assert.doesNotMatch(cell, /…/, `${width}: a cut note: ${cell}`);
    for (const c of r.cases.filter((x) => x.status === 'measured' && x.serializer === x.baseline)) {
      const row = text.split('\n').find((l) => l.startsWith(`│ ${c.serializer} `) && l.includes('baseline'));
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

test('the columns are chosen once for every table of a run: at 80 all tables leave Mean out, the end says so once', () => {
  const r = fixture('single');
  const layout = terminalLayout({ width: 80, serializers: r.cases.map((c) => c.serializer) });
  assert.deepEqual(layout.dropped, ['Mean']);
  assert.deepEqual(layout.keep, ['serializer', 'ratio', 'allocated', 'notes']);
  const tables = [...new Set(r.cases.map((c) => c.direction))].map((d) =>
    renderTerminal({ ...r, cases: r.cases.filter((c) => c.direction === d) }, false, {
      width: 80,
      tablesOnly: true,
      layout,
    }),
  );
  for (const t of tables) {
    assert.match(t, /│ Serializer +│ Ratio +│ Allocated +│ Notes +│/);
    assert.doesNotMatch(t, /left out/, 'the tables never say it themselves');
  }
  const end = renderRunEnd(r, false, { width: 80, dropped: layout.dropped });
  assert.equal(end.split('left out').length, 2);
  assert.match(end, /columns left out of every table to fit 80 characters: Mean/);
  // at 120 every default column stays
  assert.deepEqual(terminalLayout({ width: 120, serializers: r.cases.map((c) => c.serializer) }).dropped, []);
});
