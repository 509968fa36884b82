import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawn, pickPositions, picksFor, PICKS_PER_SAMPLE, randomBelow } from '../../src/measure/check-schedule.js';
import { sideChecks, type TimedCheckFailure, type SideChecks } from '../../src/measure/timed-check.js';
import { makeOp } from '../../src/measure/sink.js';
import { policies } from '../../src/config/policies.js';
import type { Workload } from '../../src/workloads/types.js';
import { roundsFailure } from './rounds-failure.js';

/**
 * The calls drawn at random in every timed sample (src/measure/check-schedule.ts, timed-check.ts `picked`): hx8
 * section 5 (hx7 F3: JSON.stringify wrong on every 97th call was measured and ranked "within noise" beside typia,
 * since only the last op of each round was compared in full).
 */

const workload = { id: 'w' } as unknown as Workload;
const value = (n = 1) => ({ a: n, b: [1, 2] });
/** Rounds that never stop early (error target 0), no pauses: every sample's ops are the serializer's consecutive calls. */
const policy = {
  ...policies.quick.measure,
  sampleTargetMs: 0.05,
  samplesPerRound: 3,
  minRounds: 40,
  maxRounds: 40,
  targetRelativeError: 0,
  timeCapMs: 60_000,
};

/** A serialize side of one unit (or `units` units) whose checks compare with JSON.stringify's text. */
function side(serialize: (v: unknown) => string, units = 1) {
  const a = Array.from({ length: units }, (_, i) => value(i));
  const b = Array.from({ length: units }, (_, i) => value(i));
  const checks: SideChecks = sideChecks('serializer', workload, 'serialize', {
    expected: () => value(units - 1),
    gated: JSON.stringify(value(units - 1)),
    gatedUnits: a.map((x) => JSON.stringify(x)),
    expectedUnits: () => a.map((_, i) => value(i)),
    units,
    copies: [a, b],
    snapshot: () => a.map((_, i) => value(i)),
  });
  return { checks, op: makeOp(serialize, a, b) };
}

/** Runs 40 rounds of `opsPerSample` ops; the TimedCheckFailure thrown, or undefined. */
function rounds(serialize: (v: unknown) => string, opsPerSample: number, units = 1): TimedCheckFailure | undefined {
  const { checks, op } = side(serialize, units);
  return roundsFailure({ op, opsPerSample, checks }, policy);
}

/** JSON.stringify's text with its first digit changed (same length: the quick check's length comparison passes it). */
const wrong = (v: unknown) => JSON.stringify(v).replace(/[0-9]/, (d) => String((+d + 1) % 10));

test('pickPositions: picksFor(ops) distinct positions in [0, ops), in order; one per 2 ops, at least 1, at most 16', () => {
  assert.deepEqual([0, 1, 2, 3, 5, 16, 32, 1000].map(picksFor), [0, 1, 1, 1, 2, 8, 16, PICKS_PER_SAMPLE]);
  for (const ops of [1, 2, 9, 64, 1000]) {
    for (let k = 0; k < 50; k++) {
      const at = pickPositions(ops);
      assert.equal(at.length, picksFor(ops));
      assert.equal(new Set(at).size, at.length, 'distinct');
      assert.deepEqual(
        at,
        [...at].sort((x, y) => x - y),
        'increasing',
      );
      assert.ok(at.every((i) => Number.isInteger(i) && i >= 0 && i < ops));
    }
  }
  // uniform enough: over 4,000 single draws in [0, 4) each value comes up about 1,000 times
  const counts = [0, 0, 0, 0];
  for (let k = 0; k < 4000; k++) counts[randomBelow(4)]++;
  assert.ok(
    counts.every((c) => c > 850 && c < 1150),
    `${counts}`,
  );
  assert.deepEqual(drawn([1, 2, 3], 5), [1, 2, 3]);
  const d = drawn([...Array(100).keys()], 10);
  assert.equal(new Set(d).size, 10);
  assert.deepEqual(
    d,
    [...d].sort((x, y) => x - y),
  );
});

test('a serializer right only on the last op of each sample is caught on a call drawn at random', () => {
  // 64 ops per sample and no other call: call 64k is each sample's last op (the old full check's only position)
  let calls = 0;
  const e = rounds((v) => (++calls % 64 === 0 ? JSON.stringify(v) : wrong(v)), 64);
  assert.ok(e, 'caught');
  assert.match(
    e.failure.reason,
    /^result changed after the gate \(round 1, sample 1, a timed call drawn at random\): output differs at \$\.a$/,
  );
});

test('hx7 F3: wrong on every 97th call, 100 ops per sample, is caught (never by the last op of a round: 300r mod 97 ≠ 0)', () => {
  // 40 rounds × 3 samples × 12 checked calls: P(miss) = (96/97)^1440 < 1e-6
  for (let trial = 0; trial < 3; trial++) {
    let calls = 0;
    const e = rounds((v) => (++calls % 97 === 0 ? wrong(v) : JSON.stringify(v)), 100);
    assert.ok(e, `caught (trial ${trial + 1})`);
    assert.match(e.failure.reason, /a timed call drawn at random\): output differs at \$\.a$/);
  }
});

test('over several units per op, a unit drawn at random is checked against its own gated text', () => {
  // wrong on every record but the last of each op: the last unit is the only one the old checks compared
  let calls = 0;
  const e = rounds((v) => (++calls % 5 === 0 ? JSON.stringify(v) : wrong(v)), 16, 5);
  assert.ok(e, 'caught');
  assert.match(e.failure.reason, /a timed call drawn at random\): output differs at \$\.a \(record [0-3]\)$/);
});

test('an honest serializer, and one whose text varies but stays equal, pass every call drawn at random', () => {
  assert.equal(
    rounds((v) => JSON.stringify(v), 64, 3),
    undefined,
  );
  let calls = 0;
  const reordered = (v: unknown) => {
    const { a, b } = v as { a: number; b: number[] };
    return ++calls % 2 ? JSON.stringify({ b, a }) : JSON.stringify(v);
  };
  assert.equal(rounds(reordered, 64), undefined);
});
