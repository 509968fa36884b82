import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  inputCacheCost,
  inputCacheRatios,
  slowerThanTimed,
  SLOWER_THAN_TIMED,
  SLOWER_THAN_TIMED_FLOOR_NS,
} from '../../src/measure/cache-checks.js';
import { workloads } from '../../src/workloads/index.js';
import { unitView } from '../../src/workloads/unit.js';

/**
 * hx10 FZ: a cache that froze the thread clock's file after 20 unseen inputs made every block of the input cache cost
 * check read 0 ns; 0/0 is NaN, and `!(NaN > T)` passed ("leaffreeze … 3.58× faster"). A clock that reads no time
 * over the blocks on the repeated input now fails the check, however the standstill came about.
 */
test('a cost check whose clock stands still fails, never passes on 0/0', async () => {
  const view = unitView(await workloads.load('users'), 'list');
  const wire = view.build(20, 42) as unknown;
  const c = {
    view,
    wire,
    inputOf: (x: unknown) => x,
    input: JSON.parse(JSON.stringify(wire)) as unknown,
    call: (x: unknown) => JSON.stringify(x),
    check: () => null,
  };
  const still = () => 0;
  assert.deepEqual(inputCacheRatios(c, still, 0)?.ratios, [Infinity, Infinity]);
  const f = inputCacheCost(c, still);
  assert.ok(f, 'a failure');
  assert.match(f.reason, /^the clock read no time over the cost check's blocks of calls \(it stood still\)/);
  // a clock that moves by the same step at every read reads 1×: no failure
  let t = 0;
  assert.equal(
    inputCacheCost(c, () => (t += 1000)),
    null,
  );
});

test('a call on the timed input over 3× its time in the rounds fails; under the floor, or within 3×, it does not', () => {
  assert.deepEqual([SLOWER_THAN_TIMED, SLOWER_THAN_TIMED_FLOOR_NS], [3, 20_000]);
  // hx10's leafoff on users · 1000 · list: 121 µs per op in the rounds, 410 µs per call in the check's second pass
  const f = slowerThanTimed(410_000, 121_000);
  assert.match(
    f?.reason ?? '',
    /^on the very input its rounds were timed on, a call cost 3\.4× its time in the rounds/,
  );
  assert.equal(slowerThanTimed(350_000, 121_000), null, '2.9×');
  // weather-station: class-transformer honest at 2.56× on 5.7 µs per op, under the floor
  assert.equal(slowerThanTimed(5_739 * 4, 5_739), null);
  assert.equal(slowerThanTimed(undefined, 121_000), null);
  assert.equal(slowerThanTimed(410_000, undefined), null);
});

test('new inputs over 3× the rounds fail (a cache whose hits are padded), whatever the repeated input costs', () => {
  // hx11's leafpad: hits padded to sit under 1.7× new versus repeated; new inputs cost the work, 4× a padded hit
  const f = slowerThanTimed(120_000, 121_000, 490_000);
  assert.match(
    f?.reason ?? '',
    /^an input it had never seen \(every value changed, same schema\) cost 4\.0× its time per op/,
  );
  assert.equal(slowerThanTimed(120_000, 121_000, 300_000), null, '2.5×');
  // the greater of the two says why: the repeated input slower than the new ones is the switched-off cache
  assert.match(slowerThanTimed(500_000, 121_000, 450_000)?.reason ?? '', /^on the very input its rounds were timed on/);
  assert.equal(slowerThanTimed(120_000, 5_000, 490_000), null, 'under the floor');
});

test("the floor reads the baseline's time too: a cache that takes its own time under the floor is still compared (hx22 C2)", () => {
  // hx22: leafpad at ~15 µs per op on users · 100 · list beside JSON.stringify's 55.4 µs, "4.27× faster"; new
  // inputs cost the work (~60 µs per call)
  assert.equal(slowerThanTimed(15_000, 15_000, 60_000), null, 'alone, under the floor');
  assert.match(
    slowerThanTimed(15_000, 15_000, 60_000, 55_400)?.reason ?? '',
    /^an input it had never seen \(every value changed, same schema\) cost 4\.0× its time per op/,
  );
  assert.equal(slowerThanTimed(15_000, 15_000, 40_000, 55_400), null, '2.7×: within the bound');
  // both under the floor (weather-station: 0.9–5.7 µs per call), as before
  assert.equal(slowerThanTimed(5_739 * 4, 5_739, 5_739 * 4, 2_500), null);
});
