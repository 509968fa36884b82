import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../src/report/markdown.js';
import { fixture } from './support.js';

test('report.md prints a long takeaway whole (a new user\'s takeaway was cut at 500 characters: "class-transformer are m…")', () => {
  const r = fixture('single');
  // long serializer names make each takeaway that names them run past 500 characters
  const long = (id: string) => `${id}-${'x'.repeat(120)}`;
  for (const c of r.cases) {
    c.serializer = long(c.serializer);
    if (c.baseline) c.baseline = long(c.baseline);
  }
  const md = renderMarkdown(r);
  const takeaways = md.split('\n').filter((l) => /^\*\*\w+\*\* \(against /.test(l));
  assert.ok(
    takeaways.some((l) => l.length > 600),
    takeaways.map((l) => l.length).join(', '),
  );
  for (const l of takeaways) assert.doesNotMatch(l, /…$/, l.slice(-80));
});
