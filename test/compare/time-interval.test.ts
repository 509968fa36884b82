import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareIntervals } from '../../src/compare/change.js';

/** Since branch `stats5` a time interval is on the log scale and asymmetric (results.json `time.interval`). */

test('compare’s time verdict reads each side’s interval facing the other, not the larger side both ways', () => {
  const rule = { alpha: 0.05, thresholdPercent: 5 };
  // base 1.00 µs [250 ns–1.01 µs] (a long lower tail: error = mean × ln 4), head 1.20 µs [1.19–1.21 µs]:
  // head lies above base's upper end, so the change's interval starts at +18.5%; read as ± ln 4 both
  // ways (before branch stats6) it reached −70%, "within noise"
  const base = { mean: 1000, error: 1000 * Math.log(4), interval: [250, 1010] as [number, number] };
  const head = { mean: 1200, error: 1200 * Math.log(1210 / 1200), interval: [1190, 1210] as [number, number] };
  const c = compareIntervals(base, head, [], [], rule);
  assert.equal(c.verdict, 'slower');
  assert.ok(
    c.ci && Math.abs(c.ci.low - 100 * (1.2 * Math.exp(-Math.hypot(Math.log(1200 / 1190), Math.log(1.01))) - 1)) < 1e-9,
    JSON.stringify(c.ci),
  );
  assert.equal(compareIntervals(head, base, [], [], rule).verdict, 'faster', 'the tail faces away either way');
  // a long upper tail facing the change: within noise
  const tail = { mean: 1000, error: 1000 * Math.log(4), interval: [990, 4000] as [number, number] };
  const same = compareIntervals(tail, head, [], [], rule);
  assert.deepEqual([same.verdict, same.sameBecause], ['same', 'within-noise']);
  // a file without `interval` (before stats5) is read as error ÷ mean both ways, as before
  const old = compareIntervals({ mean: 1000, error: 10 }, { mean: 1200, error: 12 }, [], [], rule);
  assert.ok(Math.abs(old.ci!.low - 100 * (1.2 * Math.exp(-Math.hypot(0.01, 0.01)) - 1)) < 1e-9);
});
