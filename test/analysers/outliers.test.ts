import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outliers } from '../../src/analysers/outliers.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { fixture } from '../report/support.js';

/**
 * `outliers` stays in results.json (it counts the samples outside Tukey's fences, kept in every
 * statistic) but is never shown on the terminal (issue 22: it fired on 95% of cases).
 */
test('the outliers finding counts the samples outside the fences, and is absent when there are none', () => {
  const r = fixture('single');
  const c = structuredClone(r.cases.find((x) => x.status === 'measured')!);
  if (c.status !== 'measured') throw new Error('fixture');
  c.time.outliers = { low: 1, high: 2 };
  const [f] = outliers.analyse(c, { policy: r.policy.measure });
  assert.equal(f?.code, 'outliers');
  assert.equal(f.message, `3 of ${c.time.n} samples outside Tukey's fences (1 low, 2 high); kept in every statistic`);
  c.time.outliers = { low: 0, high: 0 };
  assert.deepEqual(outliers.analyse(c, { policy: r.policy.measure }), []);
});

test('the terminal never shows the outliers finding, compact or verbose', () => {
  const r = fixture('single');
  const withOutliers = r.cases.filter((c) => c.findings.some((f) => f.code === 'outliers'));
  assert.ok(withOutliers.length > 0, 'the fixture carries outliers findings');
  for (const verbose of [false, true])
    assert.doesNotMatch(renderTerminal(r, false, { width: 120, verbose }), /outlier|Tukey/i);
});
