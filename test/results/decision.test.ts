import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BORDER_BAND,
  BORDER_CAP,
  decisionBounds,
  groupCall,
  ratioCall,
  ratioVerdict,
  SAME_WITHIN,
  TIE_WITHIN,
  UNRESOLVED_FACTOR,
  unresolved,
} from '../../src/results/decision.js';

/** The one decision about a paired ratio (results/decision.ts), on its edges. */
test('faster, slower, same, borderline and unknown', () => {
  assert.equal(ratioVerdict(0.6, [0.55, 0.65]), 'faster');
  assert.equal(ratioVerdict(1.6, [1.5, 1.7]), 'slower');
  // the border band: 1 within one half-width of the interval's end (studies/border-band)
  assert.equal(ratioVerdict(0.83, [0.69, 1.0]), 'borderline');
  assert.equal(ratioVerdict(0.85, [0.74, 0.97]), 'borderline');
  assert.equal(ratioVerdict(1.11, [1.001, 1.24]), 'borderline');
  // clear of 1 by less than its half-width (0.95 is 0.46 half-widths from 1): borderline; by more: faster
  assert.equal(ratioVerdict(0.85, [0.75, 0.95]), 'borderline');
  assert.equal(ratioVerdict(0.7, [0.6, 0.8]), 'faster');
  // the cap: an end more than 10% from 1 is never borderline (0.90 is 0.89 half-widths from 1, 1.70 is 0.9)
  assert.equal(ratioVerdict(0.8, [0.7, 0.9]), 'faster');
  assert.equal(ratioVerdict(3.93, [1.7, 9.1]), 'slower');
  assert.equal(ratioVerdict(0.32, [0.16, 0.65]), 'faster');
  assert.equal(ratioVerdict(1.3, [1.2, 1.4]), 'slower');
  // holds 1 with an end within 10% of it: borderline wherever the ratio lies in it; both ends further: the same;
  // lies within 2% of 1 on both sides: the same
  assert.equal(ratioVerdict(0.97, [0.9, 1.05]), 'borderline');
  // a ratio within 2% of 1 whose interval holds 1 and lies within 4% of 1 is a tie, not borderline (nu6: ajv-jtd
  // 0.99 [0.97–1.01] on orders-log was said "borderline: looks 0.99× the time")
  assert.equal(ratioVerdict(0.99, [0.97, 1.01]), 'same');
  assert.equal(ratioVerdict(1.01, [0.965, 1.039]), 'same');
  assert.equal(ratioVerdict(1.01, [0.96, 1.039]), 'borderline', '0.96 is more than 4% below 1');
  // …a wider one stays borderline: the pair may be 4–10% apart (studies/border-band NOTE.md "Narrowing the tie":
  // a tie on the ratio alone made three reruns of a near-line pair disagree on one in three)
  assert.equal(ratioVerdict(0.99, [0.9, 1.09]), 'borderline');
  assert.equal(ratioVerdict(1.003, [0.91, 1.1]), 'borderline');
  assert.equal(ratioVerdict(0.99, [0.95, 1.04]), 'borderline');
  assert.equal(groupCall([{ ratio: 0.99, call: ratioCall(0.99, [0.97, 1.01]) }]), 'no-clear-winner');
  // …but not when the interval clears 1, nor when it is too wide to resolve 25%
  assert.equal(ratioVerdict(0.99, [0.985, 0.995]), 'same');
  assert.equal(ratioCall(0.99, [0.7, 1.4]), 'uncertain');
  assert.equal(ratioVerdict(0.99, [0.88, 1.12]), 'same');
  assert.equal(ratioVerdict(1.01, [0.985, 1.019]), 'same');
  assert.equal(ratioVerdict(0.995, [0.99, 1.0]), 'same');
  assert.equal(ratioVerdict(1, [1, 1]), 'same');
  assert.equal(ratioVerdict(null, null), 'unknown');
  assert.equal(ratioVerdict(0.9, null), 'unknown');
  assert.equal(ratioVerdict(0.9, [0, 1.2]), 'unknown');
});

test('an interval that holds 1 and reaches beyond 0.8–1.25 is unresolved', () => {
  assert.equal(unresolved([0.7, 1.1]), true);
  assert.equal(unresolved([0.9, 1.3]), true);
  assert.equal(unresolved([0.85, 1.2]), false);
  assert.equal(unresolved([0.5, 0.9]), false);
  assert.equal(unresolved(null), false);
});

test('the call: too wide to resolve is "uncertain", borderline only when otherwise narrow enough (new-user tryout: 0.28–1.44 was borderline, 0.25–1.81 no clear winner)', () => {
  // the tryout's two: both too uncertain to call
  assert.equal(ratioVerdict(0.63, [0.28, 1.44]), 'same', 'the verdict alone: both ends beyond the cap');
  assert.equal(ratioCall(0.63, [0.28, 1.44]), 'uncertain');
  assert.equal(ratioCall(0.67, [0.25, 1.81]), 'uncertain');
  // holds 1 and reaches below 0.8, wider than 0.8–1.25: uncertain, never "within noise"; as wide as 0.8–1.25: borderline
  assert.equal(ratioVerdict(0.96, [0.78, 1.17]), 'same');
  assert.equal(ratioCall(0.96, [0.78, 1.17]), 'uncertain');
  assert.equal(ratioCall(0.96, [0.82, 1.08]), 'borderline');
  assert.equal(ratioCall(0.99, [0.88, 1.12]), 'same');
  // one width (high ÷ low 1.45, narrower than 0.8–1.25), three positions: borderline each time (issue 22's three reruns)
  const h = Math.log(1 / 0.69) / 2;
  assert.deepEqual(
    [0.8, 0.83, 0.87].map((r) => ratioCall(r, [r * Math.exp(-h), r * Math.exp(h)])),
    ['borderline', 'borderline', 'borderline'],
  );
  // the issue's own run touches 1 and reaches 0.69 (unresolved), yet is narrow enough: borderline
  assert.equal(unresolved([0.69, 1.0]), true);
  assert.equal(ratioCall(0.83, [0.69, 1.0]), 'borderline');
  // a borderline interval wider than 0.8–1.25 is too uncertain; one that does not hold 1 stays borderline however wide
  assert.equal(ratioCall(0.7, [0.5, 1.02]), 'uncertain');
  assert.equal(ratioCall(0.76, [0.6, 0.98]), 'borderline');
  // the others pass through
  assert.equal(ratioCall(0.6, [0.55, 0.65]), 'faster');
  assert.equal(ratioCall(1.6, [1.5, 1.7]), 'slower');
  assert.equal(ratioCall(0.97, [0.93, 1.02]), 'borderline');
  assert.equal(ratioCall(0.99, [0.97, 1.03]), 'same', 'within 2% of 1, holding 1, ends within 4%: a tie');
  assert.equal(ratioCall(0.99, [0.95, 1.04]), 'borderline', 'an end more than 4% from 1: not a resolved tie');
  assert.equal(ratioCall(0.995, [0.99, 1.0]), 'same');
  assert.equal(ratioCall(1, [1, 1]), 'same');
  assert.equal(ratioCall(0.5, null), 'unknown');
  // one set of constants, read by the shipped functions and exported for the rest
  assert.deepEqual(decisionBounds(), {
    borderBand: BORDER_BAND,
    borderCap: BORDER_CAP,
    sameWithin: SAME_WITHIN,
    tieWithin: TIE_WITHIN,
    unresolvedFactor: UNRESOLVED_FACTOR,
  });
});

test('the group call, in order: use, borderline (below 1), uncertain, baseline, no clear winner', () => {
  const g = (...rows: [number, ReturnType<typeof ratioCall>][]) =>
    groupCall(rows.map(([ratio, call]) => ({ ratio, call })));
  assert.equal(g([0.5, 'faster'], [0.9, 'borderline'], [0.8, 'uncertain']), 'use');
  assert.equal(g([0.9, 'borderline'], [0.8, 'uncertain'], [1, 'same']), 'borderline');
  assert.equal(g([1.1, 'borderline'], [0.8, 'uncertain']), 'uncertain', 'borderline above 1 is not a reason to switch');
  assert.equal(g([0.8, 'unknown'], [2, 'slower']), 'uncertain');
  assert.equal(g([1.1, 'borderline'], [2, 'slower']), 'baseline');
  assert.equal(g([1, 'same'], [2, 'slower']), 'no-clear-winner');
  assert.equal(g(), 'none');
});

test('three default runs of one pair near the line give one call (issue 22: typia ÷ JSON.stringify, users · 100 · many serialize, load 2.7)', () => {
  // measured: 0.96 [0.88–1.05], then 0.92 [0.87–0.97] twice; at a band of 0.5 the first said "no clear
  // winner" and the others "use typia": the recommendation flipped. At the band studies/border-band chose, all three are borderline.
  const runs: [number, [number, number]][] = [
    [0.96, [0.88, 1.05]],
    [0.92, [0.87, 0.97]],
    [0.92, [0.87, 0.97]],
  ];
  const calls = runs.map(([r, iv]) => groupCall([{ ratio: r, call: ratioCall(r, iv) }]));
  assert.deepEqual(calls, ['borderline', 'borderline', 'borderline']);
  // new-user tryout: arktype 0.92 [0.86–0.98] was borderline while 0.94 [0.89–0.98] was "fastest"; one call now
  assert.equal(ratioCall(0.92, [0.86, 0.98]), 'borderline');
  assert.equal(ratioCall(0.94, [0.89, 0.98]), 'borderline');
  assert.equal(BORDER_BAND, 1);
});
