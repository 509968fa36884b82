import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseCase } from '../../src/analysers/index.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderHtml } from '../../src/report/html/page.js';
import type { CaseResult } from '../../src/results/types.js';
import { measuredCase, results } from '../hostile/support.js';

/** Two launches of 6 rounds: baseline ns per op and ratio per launch (serializer = ratio × baseline). */
function launches(c: CaseResult, states: readonly { baselineNs: number; ratio: number }[]): void {
  const template = c.samples.launches[0]!;
  c.samples.launches = states.map((s, i) => ({
    ...template,
    launch: i + 1,
    discarded: undefined,
    rounds: Array.from({ length: 6 }, (_, k) => ({
      baselineNs: [s.baselineNs * (1 + k / 1000)],
      serializerNs: [s.baselineNs * s.ratio * (1 + k / 1000)],
    })),
  }));
}

test('a pair whose baseline ran 1.7× slower in one launch and whose ratio moved with it gets a machine-drift finding, said in every report', () => {
  const r = results();
  const c = measuredCase(r);
  // the shape measured on this host: json 1.45 µs with ratio 0.70, then 2.45 µs with ratio 0.80
  launches(c, [
    { baselineNs: 1450, ratio: 0.7 },
    { baselineNs: 2450, ratio: 0.8 },
  ]);
  c.findings = analyseCase(c, { policy: r.policy.measure });
  const f = c.findings.find((x) => x.code === 'machine-drift');
  assert.ok(f, 'a machine-drift finding');
  assert.match(
    f.message,
    /^the machine changed speed between launches: the baseline json's own time per op \(same code, same input\) was 1\.45 µs in one launch and 2\.46 µs in another \(1\.69×\), and the ratio read 0\.700 in the first and 0\.800 in the second \(13\.3% of the launches' median\)/,
  );
  assert.match(
    renderMarkdown(r),
    new RegExp(`\\*\\*${c.serializer}\\*\\*: the machine changed speed between launches`),
  );
  assert.match(renderTerminal(r, false, { width: 400 }), new RegExp(`⇅ ${c.serializer}: the machine changed speed`));
  assert.match(renderTerminal(r, false, { width: 400 }), /⇅ the machine changed speed between/);
  // the HTML says it under the table too, not only in the notes cell's tooltip (hostile tester)
  const html = renderHtml(r, { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' });
  assert.match(
    html,
    new RegExp(
      `<li><b>⇅ ${c.serializer}</b>: the machine changed speed between launches: the baseline json&#39;s own time per op`,
    ),
  );
});

test('no machine-drift finding when the baseline kept its speed, when the ratio did not move, or with one launch', () => {
  const r = results();
  const c = measuredCase(r);
  const drift = () => analyseCase(c, { policy: r.policy.measure }).filter((x) => x.code === 'machine-drift');
  launches(c, [
    { baselineNs: 1450, ratio: 0.7 },
    { baselineNs: 1500, ratio: 0.8 },
  ]);
  assert.deepEqual(
    drift(),
    [],
    "baseline within the relaunch factor (1.03×): the ratio spread is the pair's own noise",
  );
  launches(c, [
    { baselineNs: 1450, ratio: 0.75 },
    { baselineNs: 2450, ratio: 0.755 },
  ]);
  assert.deepEqual(drift(), [], 'baseline 1.69× but ratios 0.7% apart: nothing moved that the reader reads');
  launches(c, [{ baselineNs: 1450, ratio: 0.7 }]);
  assert.deepEqual(drift(), [], 'one launch');
  // the hostile tester's three launches: the spread comes from a launch at the fast speed, the slow one reads as the fast one
  launches(c, [
    { baselineNs: 1760, ratio: 0.792 },
    { baselineNs: 2640, ratio: 0.792 },
    { baselineNs: 1761, ratio: 0.831 },
  ]);
  assert.deepEqual(drift(), [], 'the ratio did not move with the machine');
  launches(c, [
    { baselineNs: 1450, ratio: 0.7 },
    { baselineNs: 2450, ratio: 0.8 },
  ]);
  for (const l of c.samples.launches) l.rounds = l.rounds.slice(0, 1);
  assert.deepEqual(drift(), [], 'one round per launch: a sample, not a state');
  launches(c, [
    { baselineNs: 1450, ratio: 0.7 },
    { baselineNs: 2450, ratio: 0.8 },
  ]);
  c.baseline = c.serializer;
  assert.deepEqual(drift(), [], "the baseline's own case");
});
