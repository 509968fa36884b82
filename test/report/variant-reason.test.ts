import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkResults } from '../../src/results/validate.js';
import type { ResultsFile } from '../../src/results/types.js';
import { renderRunEnd, renderTerminal } from '../../src/report/terminal.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html/page.js';
import { renderCsv } from '../../src/report/csv.js';
import { caseReason, VARIANT_LEAD } from '../../src/report/reason.js';
import { SOURCE_DIR } from './support.js';

/**
 * A gate failure found on the gate's variant payload is a field of the results (`mismatch.on:
 * 'variant'`, set by the worker), and every report leads the reason with it from the field (nu8: the
 * worker's note at the end of the reason was cut off at the run's end, and the failure read as the
 * user's own payload's). The reason itself no longer carries the note.
 */

const REASON =
  'output is not well-formed Unicode: a lone surrogate U+D800 at index 297 (a UTF-8 encoder writes U+FFFD there; escape it as \\ud800)';
/** The note the worker appended to the reason before `mismatch.on` (files written then still carry it). */
const OLD_NOTE = "(gate's variant payload: another seed, hostile strings in its plain-string fields)";

/** single.json with its one incorrect case (superjson deserialize) given `reason` and `on`, read through the checker. */
function withIncorrect(reason: string, on?: string): ResultsFile {
  const raw = JSON.parse(readFileSync(join(SOURCE_DIR, 'fixtures', 'single.json'), 'utf8')) as {
    cases: { status: string; reason?: string; mismatch?: Record<string, unknown> }[];
  };
  const incorrect = raw.cases.filter((c) => c.status === 'incorrect');
  assert.equal(incorrect.length, 1, 'the fixture has one incorrect case');
  incorrect[0].reason = reason;
  if (on) incorrect[0].mismatch = { ...incorrect[0].mismatch, on };
  return checkResults(raw, 'single.json (edited)');
}

/** The lead as a pattern that allows a line break at any space (the terminal wraps). */
const LEAD = new RegExp(VARIANT_LEAD.replace(/[()]/g, '\\$&').replace(/ /g, '\\s+'));

test('the results keep `mismatch.on: variant`; any other value is refused with the values allowed', () => {
  const r = withIncorrect(REASON, 'variant');
  assert.equal(r.cases.find((c) => c.status === 'incorrect')?.mismatch?.on, 'variant');
  assert.throws(() => withIncorrect(REASON, 'main'), /\/mismatch\/on.*variant/s);
});

test('every report leads a variant failure with "on jsonbench\'s hostile-string variant", from the field', () => {
  const r = withIncorrect(REASON, 'variant');
  const c = r.cases.find((x) => x.status === 'incorrect')!;
  assert.equal(caseReason(c), `${VARIANT_LEAD} ${REASON}`);
  // the run's end cuts each line to the width: the lead is what stays (at 80 columns, even the failure itself is cut)
  assert.match(
    renderRunEnd(r, false, { width: 80 }),
    /superjson · incorrect in [^\n]*: on\s+jsonbench's\s+hostile-string\s+variant/,
  );
  assert.match(
    renderRunEnd(r, false, { width: 200 }),
    new RegExp(`superjson · incorrect in [^\\n]*: ${LEAD.source} output is not well-formed`),
  );
  // the table's Notes cell (report/rows.ts notesOf), where the width leaves room for it whole
  assert.match(renderTerminal(r, false, { width: 400 }), new RegExp(`✗ incorrect: ${LEAD.source} output is not`));
  const md = renderMarkdown(r);
  assert.match(
    md,
    new RegExp(`\\*\\*superjson\\*\\* incorrect at .*: ${LEAD.source} output is not well-formed Unicode`),
  );
  const html = renderHtml(r);
  assert.match(
    html,
    /<div class="reason">on jsonbench&#39;s hostile-string variant, not the payload itself: output is not/,
  );
  const csv = renderCsv(r).split('\n');
  const row = csv.find((l) => l.includes('/superjson') && l.includes(',incorrect,'));
  assert.ok(row, csv.join('\n'));
  // quoted: the reason holds commas
  assert.ok(row.includes(`,"${VARIANT_LEAD} output is not well-formed Unicode`), row);
});

test('a failure on the payload itself, and a file written before the field, are printed as their reason says', () => {
  const own = withIncorrect(REASON);
  assert.equal(caseReason(own.cases.find((x) => x.status === 'incorrect')!), REASON);
  for (const text of [renderRunEnd(own, false, { width: 200 }), renderMarkdown(own), renderHtml(own), renderCsv(own)])
    assert.doesNotMatch(text, /on jsonbench's variant|on jsonbench&#39;s variant/);
  // before the field: the worker's note ends the reason, and stays where it is (no text is matched)
  const old = withIncorrect(`${REASON} ${OLD_NOTE}`);
  assert.equal(caseReason(old.cases.find((x) => x.status === 'incorrect')!), `${REASON} ${OLD_NOTE}`);
  assert.ok(renderMarkdown(old).includes('hostile strings in its plain-string fields)'));
});
