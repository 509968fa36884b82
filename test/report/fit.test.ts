import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outputWidth, wrap } from '../../src/report/fit.js';

/**
 * Prose wrapped for the terminal keeps a number on the line of its unit (nu7 at 120 columns:
 * "… left no room for another launch after 4.3" then "    s" on a line of its own).
 */
test("a number is never wrapped away from its unit (nu7: '…after 4.3' / '    s' at 120 columns)", () => {
  const text =
    '  ~ weather-station/1/single/deserialize/typia: 0.79–1.24 when the run budget left no room for another launch after 4.3 s';
  // the recorded line: 121 characters at 120 columns; the break fell between 4.3 and s
  assert.equal(text.length, 121);
  const lines = wrap(text, 120, '  ').split('\n');
  assert.equal(lines.length, 2);
  assert.ok(lines.every((l) => l.length <= 120));
  assert.equal(lines[1].trim(), '4.3 s');
  // units of time, bytes and percentages; a plain space comes back (no U+00A0 in the output)
  for (const [t, w, unit] of [
    ['mean 74.2 µs is faster', 10, '74.2 µs'],
    ['allocated 503 KiB each op', 14, '503 KiB'],
    ['ready in 12 ms now', 10, '12 ms'],
    ['moved by 5 % between runs', 11, '5 %'],
  ] as const) {
    const out = wrap(t, w, '');
    assert.ok(out.split('\n').includes(unit) || out.split('\n').some((l) => l.includes(unit)), `${t}: ${out}`);
    assert.doesNotMatch(out, /\u00a0/);
  }
  // a word that merely starts like a unit is not held: "3 sizes" may break
  assert.deepEqual(wrap('measured at 3 sizes', 13, '').split('\n'), ['measured at 3', 'sizes']);
  // text that fits is unchanged
  assert.equal(wrap('after 4.3 s', 20), 'after 4.3 s');
});

test('a width below 20 (COLUMNS=1, a terminal that narrow) is read as 20; 0, negative or no number falls back to 100 (hx10 COL-1)', () => {
  assert.equal(outputWidth({}, { COLUMNS: '1' }), 20);
  assert.equal(outputWidth({}, { COLUMNS: '19' }), 20);
  assert.equal(outputWidth({}, { COLUMNS: '20' }), 20);
  assert.equal(outputWidth({}, { COLUMNS: '37' }), 37);
  assert.equal(outputWidth({ isTTY: true, columns: 3 }, {}), 20);
  assert.equal(outputWidth({ isTTY: true, columns: 132 }, { COLUMNS: '1' }), 132);
  for (const c of ['0', '-5', 'wide', '']) assert.equal(outputWidth({}, { COLUMNS: c }), 100, c);
});
