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

test('the counter grows its total for a relaunch, shrinks it for a case that ended early, and never lets a launch number pass it', () => {
  const c = new ProgressCounter(8, 2);
  assert.equal(c.start(), 1); c.end();
  c.add();                     // a relaunch is coming
  assert.equal(c.counts().launchesTotal, 9);
  c.drop(3);                   // a case ended after its first launch: 2 timing + 1 allocation launch gone
  assert.equal(c.counts().launchesTotal, 6);
  c.drop(100);                 // never below what has begun
  assert.equal(c.counts().launchesTotal, 1);
  assert.equal(c.start(), 2);
  assert.ok(c.counts().launchesDone <= c.counts().launchesTotal);
  c.caseDone(); c.caseDone(); c.caseDone();
  assert.deepEqual(c.counts(), { launchesDone: 2, launchesFinished: 1, launchesTotal: 2, casesDone: 2, casesTotal: 2 });
});

test('the progress line reads cases, launches and the ETA', () => {
  assert.equal(describeProgress({ launchesDone: 3, launchesFinished: 2, launchesTotal: 12, casesDone: 1, casesTotal: 3 }, 20_000), 'cases 1/3 · launches 3/12 · ETA 1m40s');
  assert.equal(describeProgress({ launchesDone: 1, launchesFinished: 0, launchesTotal: 12, casesDone: 0, casesTotal: 3 }, 500), 'cases 0/3 · launches 1/12 · ETA ?');
});
