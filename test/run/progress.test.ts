import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateSecondsLeft, etaText, formatEta, ProgressCounter } from '../../src/run/progress.js';
import { describeProgress } from '../../src/cli/progress.js';

/** The progress bookkeeping (issue 13 item 7): counts that never pass their totals, an ETA that is a number or "?". */

test('formatEta rounds to whole seconds before choosing the unit: 59.6 s is 1m00s, 719.6 s is 12m00s, hours as 1h05m', () => {
  assert.deepEqual([0, 5, 59.4, 59.6, 61, 719.6, 3599.4, 3600, 3900].map(formatEta), [
    '0s',
    '5s',
    '59s',
    '1m00s',
    '1m01s',
    '12m00s',
    '59m59s',
    '1h00m',
    '1h05m',
  ]);
});

test('formatEta of an unknown, infinite or negative time is "?", never NaN, Infinity or a minus sign', () => {
  for (const s of [undefined, Infinity, -Infinity, NaN, -1]) assert.equal(formatEta(s), '?', String(s));
});

test('the ETA is elapsed ÷ finished × remaining, unknown before the first launch ends, 0 at the end', () => {
  assert.equal(estimateSecondsLeft(10_000, 0, 10), undefined);
  assert.equal(estimateSecondsLeft(10_000, 2, 10), 40);
  assert.equal(estimateSecondsLeft(10_000, 10, 10), 0);
  assert.equal(
    estimateSecondsLeft(10_000, 12, 10),
    0,
    'more finished than the total (a stale total) gives 0, not a negative time',
  );
  assert.equal(estimateSecondsLeft(NaN, 2, 10), undefined);
});

test('the counter: a running group counts as the more of its plan and what it began, a finished group as what it took; never a launch past the total', () => {
  const c = new ProgressCounter([3, 3], 4);
  for (let i = 0; i < 4; i++) {
    assert.ok(c.start(0) <= c.counts().launchesTotal);
    c.end();
  } // group 0 took a relaunch
  assert.equal(c.counts().launchesTotal, 7);
  c.groupDone(0);
  assert.equal(c.counts().launchesTotal, 7);
  c.start(1);
  c.end();
  c.groupDone(1); // group 1 ended after one launch
  assert.deepEqual(c.counts(), {
    launchesDone: 5,
    launchesFinished: 5,
    launchesTotal: 5,
    casesDone: 0,
    casesTotal: 4,
    casesPlanned: 4,
    workFinished: 5,
    workExpected: 5,
    etaIsFloor: false,
  });
  for (let i = 0; i < 6; i++) c.caseDone();
  assert.equal(c.counts().casesDone, 4, 'never more cases than the total');
});

test('the progress line reads cases, launches and the ETA', () => {
  assert.equal(
    describeProgress(
      { launchesDone: 3, launchesFinished: 2, launchesTotal: 12, casesDone: 1, casesTotal: 3, casesPlanned: 3 },
      20_000,
    ),
    'cases 1/3 · launches 3/12 · ETA 1m40s',
  );
  assert.equal(
    describeProgress(
      { launchesDone: 1, launchesFinished: 0, launchesTotal: 12, casesDone: 0, casesTotal: 3, casesPlanned: 3 },
      500,
    ),
    'cases 0/3 · launches 1/12 · ETA ?',
  );
});

test("the progress counts the cases to measure and says the plan's total beside them, as the summary counts it (hostile tester: 130 in the counter, 192 in the summary)", () => {
  const c = new ProgressCounter([1, 1], 130, 192);
  c.caseDone();
  assert.equal(describeProgress(c.counts(), 0), 'cases 1/130 (of 192; 62 unsupported, not run) · launches 0/2 · ETA ?');
});

/**
 * A default-policy run on a fake clock, as the runner drives the counter: three groups whose cases
 * share one process per launch (7, 3 and 5 cases), a launch taking 1 s per case it carries plus
 * 0.5 s per case for the allocation pass of the first; two planned launches per group, then a third
 * for the cases whose launches disagreed (4, 2 and 3 of them) and one relaunch in the second group.
 * Returns, as each launch begins (when the bar shows it), the ETA shown and the time really left (s).
 */
function fakeRun(
  eta: (c: ProgressCounter, elapsedMs: number) => number | undefined,
): { shown: number | undefined; left: number }[] {
  const groups = [
    { cases: 7, third: 4, relaunch: false },
    { cases: 3, third: 2, relaunch: true },
    { cases: 5, third: 3, relaunch: false },
  ];
  const c = new ProgressCounter(
    groups.map(() => 2),
    15,
    15,
    groups.map((g) => g.cases * 2),
    true,
  );
  let now = 0;
  const marks: { shown: number | undefined; at: number }[] = [];
  const launch = (g: number, cases: number, first: boolean) => {
    c.start(g, cases);
    marks.push({ shown: eta(c, now), at: now });
    now += cases * (first ? 1.5 : 1) * 1000;
    c.end(cases);
  };
  groups.forEach((g, i) => {
    launch(i, g.cases, true);
    if (g.relaunch) launch(i, g.cases, false);
    launch(i, g.cases, false);
    launch(i, g.third, false);
    c.groupDone(i);
  });
  return marks.map((m) => ({ shown: m.shown, left: (now - m.at) / 1000 }));
}

test('the ETA counts the work a launch carries and the extra launches the finished groups took (new-user tryout: 8m07s shown for 11m56s)', () => {
  const byWork = fakeRun((c, ms) => {
    const k = c.counts();
    return estimateSecondsLeft(ms, k.workFinished!, k.workExpected!);
  });
  const byLaunches = fakeRun((c, ms) => {
    const k = c.counts();
    return estimateSecondsLeft(ms, k.launchesFinished, k.launchesTotal);
  });
  // the old estimate (elapsed ÷ launches × launches left) ran low: it counted a 7-case launch as one of a 3-case group's, and no third launch
  const lowOld = byLaunches.filter((m) => m.left > 0 && m.shown! < 0.75 * m.left).length;
  assert.ok(lowOld >= 2, `the launch-count estimate ran low at ${lowOld} points: ${JSON.stringify(byLaunches)}`);
  // once a group has finished, the work estimate is within 25% of the time really left
  const afterFirstGroup = byWork.slice(3);
  for (const m of afterFirstGroup)
    assert.ok(
      Math.abs(m.shown! - m.left) <= 0.25 * m.left,
      `ETA ${m.shown} s against ${m.left} s left: ${JSON.stringify(byWork)}`,
    );
});

test('before any group has finished, an ETA that extra launches may still lengthen is shown as a floor (≥)', () => {
  const c = new ProgressCounter([2, 2], 10, 10, [14, 6], true);
  c.start(0, 7);
  c.end(7);
  assert.equal(etaText(c.counts(), 7_000), '≥13s');
  c.start(0, 7);
  c.end(7);
  c.start(0, 4);
  c.end(4);
  c.groupDone(0);
  // group 0 took 18 of its 14 planned case-launches: group 1's 6 count as 6 × 18/14
  assert.equal(etaText(c.counts(), 18_000), '8s');
  // a policy without extra launches (quick) is never a floor
  const q = new ProgressCounter([1], 3, 3, [3], false);
  q.start(0, 1);
  q.end(1);
  assert.equal(etaText(q.counts(), 1_000), '2s');
});
