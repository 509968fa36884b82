import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exporters } from '../../src/report/index.js';
import { checkResults } from '../../src/results/validate.js';
import type { CaseResult, ResultsFile } from '../../src/results/types.js';
import { results } from './support.js';

/**
 * A report of many cases (hostile tester hx2, hang: `report` of a 40,000-case file was killed after
 * 565 s, 4,000 cases took 6 s): the Markdown and HTML renderers looked up each row's baseline and
 * each group's cases with a scan of every case. This test renders 4,000 and 40,000 cases (2 per
 * group, each group its own workload, as hx2's file) and holds the CPU-time ratio to a generous
 * bound: linear work gives about 10×, the quadratic scans gave over 50×. A ratio, not a time, so a
 * loaded machine does not fail it.
 */

/** A results file of `n` cases: the fixture's baseline case and one measured case, copied into n/2 workloads. */
function manyCases(n: number): ResultsFile {
  const r = results();
  const base = r.cases.find((c) => c.status === 'measured' && c.serializer === c.baseline)!;
  const other = r.cases.find(
    (c) => c.status === 'measured' && c.serializer !== c.baseline && c.baseline === base.serializer,
  )!;
  const cases: CaseResult[] = [];
  for (let k = 0; k < n / 2; k++)
    for (const c of [base, other]) {
      const workload = `ws${k}`;
      cases.push({ ...c, workload, id: `${workload}/${c.size}/${c.shape}/${c.direction}/${c.serializer}` });
    }
  return checkResults(JSON.parse(JSON.stringify({ ...r, cases })), 'many-cases.json');
}

/** CPU ms to render `file` as Markdown and HTML. */
function renderMs(file: ResultsFile): number {
  const t0 = process.cpuUsage();
  const md = exporters.md.render([file], {});
  const html = exporters.html.render([file], {});
  const t = process.cpuUsage(t0);
  assert.ok(md.includes('ws0') && html.includes('ws0'), 'rendered');
  return (t.user + t.system) / 1000;
}

test('rendering 40,000 cases costs about 10× rendering 4,000 (under 30×): no step scans every case per row or group', () => {
  const small = manyCases(4_000);
  const big = manyCases(40_000);
  renderMs(manyCases(400)); // warm the renderers' code
  const ratio = renderMs(big) / renderMs(small);
  assert.ok(ratio < 30, `40,000 cases took ${ratio.toFixed(1)}× the time of 4,000`);
});
