import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inputCacheCost, inputCacheRatios } from '../../src/measure/cache-checks.js';
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
