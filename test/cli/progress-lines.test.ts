import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barCases, progressView } from '../../src/cli/progress.js';
import { ProgressCounter } from '../../src/run/progress.js';
import type { CaseResult } from '../../src/results/types.js';

/**
 * What nu7 stumbled on in the progress (issue 22): piped stderr cut a case's reason mid-word ("a
 * lone su…") at one line, and the bar said "cases 16/16" beside the summary's "24 cases" (8
 * unsupported pairs, which the piped line already counted as "(of 24; 8 unsupported, not run)").
 */

test("a case without a number is said on piped stderr wrapped at word boundaries, never cut mid-word (nu7: 'a lone su…')", () => {
  const out: string[] = [];
  const stream = {
    write: (s: string) => {
      out.push(s);
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const view = progressView({
    isTty: false,
    width: 100,
    heartbeatMs: 60_000,
    streams: { stderr: stream, tables: stream },
  });
  try {
    const result = {
      id: 'payload:orders/1/single/serialize/ajv-jtd',
      status: 'incorrect',
      reason:
        "output is not well-formed Unicode: a lone surrogate U+D800 at index 37585 (a UTF-8 encoder writes U+FFFD there; escape it as \\ud800) (gate's variant payload: another seed, hostile strings in its plain-string fields)",
    } as unknown as CaseResult;
    const counts = new ProgressCounter([1], 16, 24).counts();
    view.onEvent({ type: 'case-done', result, counts, elapsedMs: 1000 });
    const lines = out.join('').split('\n').filter(Boolean);
    assert.ok(lines.length >= 2 && lines.length <= 3, lines.join('\n'));
    assert.ok(
      lines.every((l) => l.length <= 100),
      lines.join('\n'),
    );
    assert.match(
      lines[0],
      /^\[incorrect\] payload:orders\/1\/single\/serialize\/ajv-jtd: output is not well-formed Unicode: a lone/,
    );
    assert.match(lines[1], /^ {2}surrogate U\+D800 at index 37585/);
    // whatever is left out ends at a word, pointing at report.md
    const words = lines
      .join(' ')
      .replace(/… → report\.md$/, '')
      .split(/\s+/);
    for (const w of words.slice(-3)) assert.ok(result.reason!.includes(w) || result.id.includes(w), w);
  } finally {
    view.stop();
  }
});

test("the bar's cases agree with the summary's count: the plan's total and the unsupported beside the cases to measure (nu7: 'cases 16/16' vs '24 cases')", () => {
  const c = new ProgressCounter([1, 1], 16, 24);
  assert.equal(barCases(c.counts()), '0/16 (of 24; 8 unsupported)');
  assert.equal(barCases(new ProgressCounter([1], 16, 16).counts()), '0/16');
});
