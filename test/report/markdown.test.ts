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

test('an unsupported reason the Notes cell cuts is said in full below the table, once per serializer (new-user tryout: class-transformer\'s was cut at "so its deserializer is not …")', () => {
  const r = structuredClone(fixture('single'));
  const reason =
    'class-transformer converts but does not validate (a wrong type is passed through): the transform class checks types, so its deserializer is not a transform here; its serializer is measured under serialize';
  const victim = r.cases.find((c) => c.serializer !== c.baseline && c.status === 'measured')!;
  Object.assign(victim, { status: 'unsupported', reason });
  const md = renderMarkdown(r);
  const row = md.split('\n').find((l) => l.startsWith('|') && l.includes('– unsupported: class-transformer converts'))!;
  assert.ok(row, 'the row is in the table');
  assert.match(row, /…/, 'the cell is cut');
  assert.equal(md.split(`- **${victim.serializer}**: ${reason.replace(/_/g, '\\_')}`).length - 1, 1, md.slice(0, 3000));
  assert.ok(md.includes('\nUnsupported, in full:\n'));
  // a short reason the cell shows whole is not repeated
  assert.doesNotMatch(renderMarkdown(fixture('single')), /Unsupported, in full/);
});

test('a results file whose probe pass did not finish says so in report.md, the HTML and the recommendation (hx27 k03: it read like a run with --no-probes)', async () => {
  const r = structuredClone(fixture('single'));
  delete r.probes;
  r.probePending = true;
  const md = renderMarkdown(r);
  assert.match(
    md,
    /## Probes relevant to the payloads\n\nthe run's probe pass did not finish \(the run was stopped during it/,
  );
  assert.doesNotMatch(md, /not in this run/);
  const { renderHtml } = await import('../../src/report/html/page.js');
  assert.match(renderHtml([r]), /the run&#39;s probe pass did not finish|the run's probe pass did not finish/);
  delete r.probePending;
  assert.doesNotMatch(renderMarkdown(r), /probe pass did not finish/);
});
