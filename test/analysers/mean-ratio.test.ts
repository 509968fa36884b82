import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult } from '../../src/results/types.js';
import { meanRatio } from '../../src/analysers/mean-ratio.js';
import { meansQuotientInterval } from '../../src/results/ratio.js';
import { fixture } from '../report/support.js';

/**
 * The ≠ mark (mean-ratio) fires when the Mean column and the Ratio disagree beyond their own
 * errors, not beyond a fixed 2× (new-user tryout: a 1.4× disagreement went unflagged).
 */
function pair(
  mean: number,
  error: number,
  baseMean: number,
  baseError: number,
  ratio: number,
  interval: [number, number],
): { c: CaseResult; base: CaseResult; policy: ReturnType<typeof fixture>['policy']['measure'] } {
  const r = fixture('single');
  const measured = r.cases.filter((x) => x.status === 'measured' && x.direction === 'serialize');
  const base = structuredClone(measured.find((x) => x.serializer === x.baseline)!);
  const c = structuredClone(measured.find((x) => x.serializer !== x.baseline)!);
  Object.assign(base.time!, { mean: baseMean, median: baseMean, error: baseError });
  Object.assign(c.time!, { mean, median: mean, error });
  c.ratio = ratio;
  c.ratioInterval = interval;
  c.samples = { launches: [], relaunches: 0 };
  return { c, base, policy: r.policy.measure };
}

test("the means' quotient interval is the delta method's: ln(q) ± √((e_c/m_c)² + (e_b/m_b)²)", () => {
  const [lo, hi] = meansQuotientInterval(140, 2.8, 100, 2)!;
  const h = Math.hypot(0.02, 0.02);
  assert.ok(Math.abs(lo - 1.4 * Math.exp(-h)) < 1e-12 && Math.abs(hi - 1.4 * Math.exp(h)) < 1e-12);
  assert.equal(meansQuotientInterval(0, 1, 100, 1), null);
});

test('a 1.4× disagreement between tight figures is flagged ≠; it says what its threshold is', () => {
  // means 140 ± 2.8 and 100 ± 2 (2% each): quotient 1.36–1.44; the ratio 1.00 [0.97–1.03]
  const { c, base, policy } = pair(140, 2.8, 100, 2, 1, [0.97, 1.03]);
  const [f] = meanRatio.analyse(c, { policy, baseline: base });
  assert.ok(f, 'a mean-ratio finding');
  assert.match(
    f.message,
    /is 1\.40× .* yet the ratio is 1\.00 \[0\.97–1\.03\]: the mean and the ratio disagree beyond their errors \(the means' quotient, 99\.9% CI 1\.36–1\.44 from the two Error columns, does not reach the ratio's interval\)/,
  );
});

test('a 2.5× gap between means whose errors are ±60% is not flagged: the means cannot tell it', () => {
  const { c, base, policy } = pair(250, 150, 100, 60, 1, [0.9, 1.1]);
  assert.deepEqual(meanRatio.analyse(c, { policy, baseline: base }), []);
});

test("a mean quotient inside the ratio's interval, or whose interval reaches it, is not flagged", () => {
  const agree = pair(100, 2, 100, 2, 1.02, [0.98, 1.06]);
  assert.deepEqual(meanRatio.analyse(agree.c, { policy: agree.policy, baseline: agree.base }), []);
  // quotient 1.10 (errors 6% and 2%): its interval 1.03–1.17 reaches the ratio's 0.95–1.05
  const touch = pair(110, 6.6, 100, 2, 1, [0.95, 1.05]);
  assert.deepEqual(meanRatio.analyse(touch.c, { policy: touch.policy, baseline: touch.base }), []);
});
