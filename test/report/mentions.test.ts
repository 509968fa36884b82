import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeCell } from '../../src/report/table/escape.js';

/**
 * Markdown cells never carry a GitHub mention or issue reference from the data (hx3, issue 25: a
 * serializer id `@github/security` reached `compare --format md`, which the Action posts as a PR
 * comment, and pinged the team): a zero-width space follows the sign. Emails and words keep theirs.
 */

test('@name and #123 in a Markdown cell get a zero-width space after the sign; an email, a word#1 and the terminal do not', () => {
  assert.equal(escapeCell('@github/security', 'markdown'), '@\u200bgithub/security');
  assert.equal(escapeCell('see #123 and (@octocat)', 'markdown'), 'see #\u200b123 and (@\u200boctocat)');
  assert.equal(escapeCell('a@b.example x#1 #tag', 'markdown'), 'a@b.example x#1 #tag');
  assert.equal(escapeCell('@github/security #12', 'terminal'), '@github/security #12');
});
