import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioOf } from '../../src/run/assemble.js';
import { medianRoundsInterval } from '../../src/stats/intervals.js';
import type { LaunchRecord } from '../../src/results/types.js';

/**
 * A paired case measured in one launch (policy quick): its ratio is that launch's, the median of
 * its rounds' ratios, with the interval of the median's MAD-based error, so one slow round neither
 * moves the centre nor spreads the interval over two orders of magnitude. The rounds are the
 * README's quick run of 2026-12-06 (class-transformer ÷ JSON.stringify, serialize), where the
 * geometric mean of the rounds with their log t-interval read "7.60 [0.28–204]".
 */

/** One launch whose rounds' ratios are `ratios` (baseline 10,000 ns/op, three samples a side). */
function oneLaunch(ratios: readonly number[]): LaunchRecord {
  return {
    launch: 1,
    opsPerSample: { serializer: 100, baseline: 100 },
    warmup: { serializerOps: 1, serializerMs: 1, baselineOps: 1, baselineMs: 1 },
    emptyNsPerOp: 0,
    rounds: ratios.map((r) => ({ serializerNs: [r * 1e4, r * 1e4, r * 1e4], baselineNs: [1e4, 1e4, 1e4] })),
    noisy: true,
    elapsedMs: 10,
  };
}

test('one launch: the ratio is the median of its rounds, the interval not blown up by a slow round', () => {
  const r = ratioOf([oneLaunch([4.91, 5.27, 34.96, 5.08, 5.53])], 0.999)!;
  assert.equal(r.basis, 'rounds');
  assert.equal(r.df, 4);
  assert.ok(Math.abs(r.ratio - 5.27) < 1e-9, `ratio ${r.ratio}`);
  const [low, high] = r.interval!;
  assert.ok(low < 4.91 && low > 3, `low ${low}`);
  assert.ok(high > 5.53 && high < 9, `high ${high}`);
  // symmetric on the log scale about the centre
  assert.ok(Math.abs(Math.log(high / r.ratio) - Math.log(r.ratio / low)) < 1e-9);
});

test('one launch: rounds that agree give a narrow interval; a wider spread a wider one', () => {
  const tight = ratioOf([oneLaunch([1.0, 1.01, 0.99, 1.02, 0.98, 1.0])], 0.999)!;
  const loose = ratioOf([oneLaunch([1.0, 1.1, 0.9, 1.2, 0.8, 1.0])], 0.999)!;
  const width = (x: typeof tight) => Math.log(x.interval![1] / x.interval![0]);
  assert.ok(width(tight) < Math.log(1.15), `tight ${tight.interval}`);
  assert.ok(width(loose) > width(tight) * 5, `loose ${loose.interval} vs tight ${tight.interval}`);
});

test('medianRoundsInterval: t with rounds − 1 df times the relative error, on the log scale', () => {
  const [lo, hi] = medianRoundsInterval(2, 0.1, 5, 0.999)!;
  // t(0.9995, 4) = 8.610
  assert.ok(Math.abs(Math.log(hi / 2) - 0.861) < 0.001, `hi ${hi}`);
  assert.ok(Math.abs(Math.log(2 / lo) - 0.861) < 0.001, `lo ${lo}`);
  assert.equal(medianRoundsInterval(2, Infinity, 5, 0.999), null);
  assert.equal(medianRoundsInterval(2, 0, 5, 0.999), null);
  assert.equal(medianRoundsInterval(2, 0.1, 1, 0.999), null);
  assert.equal(medianRoundsInterval(0, 0.1, 5, 0.999), null);
});
