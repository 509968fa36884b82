import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BaselineBests, baselineKey, baselineSamplesOf } from '../../src/run/relaunch-rule.js';
import type { LaunchRecord } from '../../src/results/types.js';
import { planned } from './fake-launch.js';

/** The relaunch rule alone (no worker): best baseline means per payload, the 1.25× factor, the relaunch budget. */

const rule = { relaunchFactor: 1.25, maxRelaunches: 1 };

test('the first baseline mean of a payload is its best: kept', () => {
  const bests = new BaselineBests();
  assert.equal(bests.judge('k', [100, 100], 1, [0], rule), undefined);
});

test('a baseline more than 1.25× the best seen is discarded with its ratio in the note; at 1.25× it is kept', () => {
  const bests = new BaselineBests();
  bests.judge('k', [100], 1, [0], rule);
  assert.equal(bests.judge('k', [125], 2, [0], rule), undefined, 'exactly 1.25× is not slower than the factor');
  assert.equal(
    bests.judge('k', [140, 140], 3, [0], rule),
    'launch 3: baseline 1.40× slower than the best seen for this payload',
  );
});

test('the best is the lowest mean seen, a faster launch lowers it; keys are separate', () => {
  const bests = new BaselineBests();
  bests.judge('k', [200], 1, [0], rule);
  bests.judge('k', [100], 2, [0], rule);
  assert.match(bests.judge('k', [130], 3, [0], rule) ?? '', /1\.30×/, 'judged against 100, not 200');
  assert.equal(bests.judge('other', [130], 1, [0], rule), undefined, "another payload's best is its own");
});

test('no relaunch once any case the launch carried has used its relaunches; none without baseline samples', () => {
  const bests = new BaselineBests();
  bests.judge('k', [100], 1, [0], rule);
  assert.equal(bests.judge('k', [200], 2, [0, 1], rule), undefined, 'one of the two cases has no relaunch left');
  assert.match(bests.judge('k', [200], 3, [0, 0], rule) ?? '', /2\.00×/);
  assert.equal(bests.judge('k', [], 4, [0], rule), undefined);
});

test("the baseline's samples: the baseline side of a paired case, the serializer's own of the baseline's case, else none", () => {
  const record = {
    rounds: [
      { serializerNs: [1, 2], baselineNs: [3] },
      { serializerNs: [4], baselineNs: [5, 6] },
    ],
  } as unknown as LaunchRecord;
  assert.deepEqual(baselineSamplesOf(record, true, false), [3, 5, 6]);
  assert.deepEqual(baselineSamplesOf(record, false, true), [1, 2, 4]);
  assert.deepEqual(baselineSamplesOf(record, false, false), []);
});

test("the key names payload, shape, direction, baseline and target: a case and its baseline's case share it", () => {
  assert.equal(baselineKey(planned('a')), 'weather-station-1/single/serialize/json@node');
  assert.equal(baselineKey(planned('a')), baselineKey(planned('json')));
});
