import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateSecondsLeft, formatEta, ProgressCounter } from '../../src/run/progress.js';
import { describeProgress } from '../../src/cli/progress.js';

/** The progress bookkeeping (issue 13 item 7): counts that never pass their totals, an ETA that is a number or "?". */

test('formatEta rounds to whole seconds before choosing the unit: 59.6 s is 1m00s, 719.6 s is 12m00s, hours as 1h05m', () => {
  assert.deepEqual([0, 5, 59.4, 59.6, 61, 719.6, 3599.4, 3600, 3900].map(formatEta), ['0s', '5s', '59s', '1m00s', '1m01s', '12m00s', '59m59s', '1h00m', '1h05m']);
});

test('formatEta of an unknown, infinite or negative time is "?", never NaN, Infinity or a minus sign', () => {
  for (const s of [undefined, Infinity, -Infinity, NaN, -1]) assert.equal(formatEta(s), '?', String(s));
});

test('the ETA is elapsed ÷ finished × remaining, unknown before the first launch ends, 0 at the end', () => {
  assert.equal(estimateSecondsLeft(10_000, 0, 10), undefined);
  assert.equal(estimateSecondsLeft(10_000, 2, 10), 40);
  assert.equal(estimateSecondsLeft(10_000, 10, 10), 0);
  assert.equal(estimateSecondsLeft(10_000, 12, 10), 0, 'more finished than the total (a stale total) gives 0, not a negative time');
  assert.equal(estimateSecondsLeft(NaN, 2, 10), undefined);
});

test('the counter: a running group counts as the more of its plan and what it began, a finished group as what it took; never a launch past the total', () => {
  const c = new ProgressCounter([3, 3], 4);
  for (let i = 0; i < 4; i++) { assert.ok(c.start(0) <= c.counts().launchesTotal); c.end(); }   // group 0 took a relaunch
  assert.equal(c.counts().launchesTotal, 7);
  c.groupDone(0);
  assert.equal(c.counts().launchesTotal, 7);
  c.start(1); c.end(); c.groupDone(1);                                                          // group 1 ended after one launch
  assert.deepEqual(c.counts(), { launchesDone: 5, launchesFinished: 5, launchesTotal: 5, casesDone: 0, casesTotal: 4, casesPlanned: 4 });
  for (let i = 0; i < 6; i++) c.caseDone();
  assert.equal(c.counts().casesDone, 4, 'never more cases than the total');
});

test('the progress line reads cases, launches and the ETA', () => {
  assert.equal(describeProgress({ launchesDone: 3, launchesFinished: 2, launchesTotal: 12, casesDone: 1, casesTotal: 3, casesPlanned: 3 }, 20_000), 'cases 1/3 · launches 3/12 · ETA 1m40s');
  assert.equal(describeProgress({ launchesDone: 1, launchesFinished: 0, launchesTotal: 12, casesDone: 0, casesTotal: 3, casesPlanned: 3 }, 500), 'cases 0/3 · launches 1/12 · ETA ?');
});

test('the progress counts the cases to measure and says the plan\'s total beside them, as the summary counts it (hostile tester: 130 in the counter, 192 in the summary)', () => {
  const c = new ProgressCounter([1, 1], 130, 192);
  c.caseDone();
  assert.equal(describeProgress(c.counts(), 0), 'cases 1/130 (of 192; 62 never launched) · launches 0/2 · ETA ?');
});
