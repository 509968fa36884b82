import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notesOf } from '../../src/report/rows.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { fixture } from './support.js';

test('a case whose baseline gave no ratio says "no ratio:" once, in the notes cell and in every table (attack session: "no ratio: no ratio: …")', () => {
  const r = structuredClone(fixture('single'));
  const i = r.cases.findIndex((c) => c.status === 'measured' && c.serializer !== c.baseline);
  assert.ok(i >= 0, 'the fixture has a measured non-baseline case');
  // the analyser's message, as src/analysers/baseline-unavailable.ts writes it
  r.cases[i] = {
    ...r.cases[i],
    findings: [{ code: 'baseline-unavailable', message: 'no ratio: baseline json was failed' }],
  };
  assert.equal(notesOf(r.cases[i]), 'no ratio: baseline json was failed');
  for (const text of [renderMarkdown(r), renderTerminal(r, false, { width: 400 })]) {
    assert.match(text, /no ratio: baseline json was failed/);
    assert.doesNotMatch(text, /no ratio: no ratio/);
  }
});
