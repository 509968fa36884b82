import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clocksDisagree, CLOCKS_FACTOR } from '../../src/analysers/clocks-disagree.js';
import { waits } from '../../src/analysers/waits.js';
import { analyseCase } from '../../src/analysers/index.js';
import { unrankedReason } from '../../src/report/takeaway.js';
import { fixture } from '../report/support.js';
import { withWall as stretched } from './support.js';
import type { CaseResult } from '../../src/results/types.js';

/**
 * `clocks-disagree` (nu14, 2026-12-07: typia 0.26 [0.21–0.32] against typebox on the CPU clock, 0.95 by wall time,
 * recommended "faster by 3.85×"; the next run read 0.99): the same rounds' ratio by wall time lies more than
 * CLOCKS_FACTOR× outside the ratio's interval; not ranked. `waits` reads a baseline whose CPU outran its wall time as 1.
 */
function withWall(
  serializerStretch: number,
  baselineStretch: number,
  rounds = 5,
  clock: 'cpu' | 'wall' = 'cpu',
): CaseResult {
  const c = stretched(serializerStretch, baselineStretch, rounds);
  if (c.status !== 'measured') throw new Error('fixture');
  c.time = { ...c.time, clock };
  c.ratioInterval = [c.ratio! * 0.95, c.ratio! * 1.05];
  return c;
}

const policy = fixture('single').policy.measure;

test('clocks-disagree fires when the wall ratio lies more than CLOCKS_FACTOR× outside the interval, and makes the case unranked', () => {
  // the baseline's samples counted other threads' CPU: its CPU time 3× its wall time, the serializer's as its wall
  const c = withWall(1, 1 / 3);
  assert.deepEqual(waits.analyse(c, { policy }), [], 'not waits: the baseline counted CPU beyond its wall time');
  const [f] = clocksDisagree.analyse(c, { policy });
  assert.equal(f?.code, 'clocks-disagree');
  assert.match(
    f.message,
    /^its clocks disagree: its ratio is \d\.\d\d \[\d\.\d\d–\d\.\d\d\] on the CPU clock and \d\.\d\d by wall time in the same rounds \(median of 5\), \d\.\d× outside that interval: other threads' CPU/,
  );
  assert.equal(unrankedReason([f]), 'its clocks disagree');
  assert.ok(analyseCase(c, { policy }).some((x) => x.code === 'clocks-disagree'));
});

test('clocks-disagree stays silent within the factor, with too few rounds, on the wall clock, and where waits says it', () => {
  assert.deepEqual(clocksDisagree.analyse(withWall(1, 1 / (CLOCKS_FACTOR * 0.85)), { policy }), []);
  assert.deepEqual(clocksDisagree.analyse(withWall(1, 1 / 3, 4), { policy }), []);
  assert.deepEqual(clocksDisagree.analyse(withWall(1, 1 / 3, 5, 'wall'), { policy }), []);
  // a serializer that waits (10× its CPU time by wall): the waits finding alone
  const waiting = withWall(10, 1.1);
  assert.equal(waits.analyse(waiting, { policy })[0]?.code, 'waits');
  assert.deepEqual(clocksDisagree.analyse(waiting, { policy }), []);
});

test("waits reads a baseline whose CPU time outran its wall time as 1 (nu14: typia 'waits' at 2.5× against 0.6×)", () => {
  assert.deepEqual(waits.analyse(withWall(2.5, 0.6), { policy }), []);
  assert.equal(waits.analyse(withWall(4.5, 0.6), { policy })[0]?.code, 'waits');
});
