import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureRounds, pilot, runSample, warmup, type Round } from '../../src/measure/timing.js';
import { policies } from '../../src/config/policies.js';
import type { MeasurePolicy } from '../../src/case/policy.js';
import type { Op } from '../../src/measure/sink.js';

/**
 * Wiring of the timing stages, on a fake clock: `performance.now()` (what the lab's clock reads)
 * is replaced for the length of each test body by a counter that only the fake ops advance, so
 * every duration below is exact and no test depends on the machine's speed.
 */
let fakeMs = 0;
function withFakeClock<T>(body: () => T): T {
  const real = performance.now;
  fakeMs = 1000;
  performance.now = () => fakeMs;
  try { return body(); } finally { performance.now = real; }
}

/** An op that costs `ms` of fake time per call (or `ms(i, call)`) and logs `tag` for each call. */
function fakeOp(ms: number | ((call: number) => number), log?: string[], tag = 'op'): Op & { calls: number[] } {
  const calls: number[] = [];
  const op = ((i: number) => {
    calls.push(i);
    log?.push(tag);
    fakeMs += typeof ms === 'number' ? ms : ms(calls.length - 1);
  }) as Op & { calls: number[] };
  op.calls = calls;
  return op;
}

/** Sample sizes from an op's call log: every sample runs i = 0, 1, …, ops − 1. */
function sampleSizes(calls: number[]): number[] {
  const sizes: number[] = [];
  for (const i of calls) if (i === 0) sizes.push(1); else sizes[sizes.length - 1]++;
  return sizes;
}

/** Collapses a log into runs: ['gc', 'S', 'S', 'gc'] → ['gc', 'S×2', 'gc']. */
function runs(log: string[]): string[] {
  const out: string[] = [];
  let n = 0;
  for (let k = 0; k < log.length; k++) {
    n++;
    if (log[k + 1] !== log[k]) { out.push(n > 1 ? `${log[k]}×${n}` : log[k]); n = 0; }
  }
  return out;
}

const base: MeasurePolicy = { ...policies.default.measure };

test('runSample returns ns per op of one timed loop', () => {
  withFakeClock(() => assert.equal(runSample(fakeOp(0.25), 8), 250_000));
});

test('the pilot doubles ops per sample, then jumps near the target, and stops at the first sample ≥ sampleTargetMs', () => {
  const op = fakeOp(0.3);
  const ops = withFakeClock(() => pilot(op, { ...base, sampleTargetMs: 10 }));
  // 1 op = 0.3 ms, 2 ops = 0.6 ms (> 0.5 ms, long enough to read) → ⌈2 · 10 · 1.1 / 0.6⌉ = 37 ops = 11.1 ms
  assert.deepEqual(sampleSizes(op.calls), [1, 2, 37]);
  assert.equal(ops, 37);
});

test('the pilot on a fast op doubles while a sample is too short to read, and every sample but the last is under the target', () => {
  const op = fakeOp(0.001);
  const ops = withFakeClock(() => pilot(op, { ...base, sampleTargetMs: 10 }));
  const sizes = sampleSizes(op.calls);
  assert.deepEqual(sizes.slice(0, 10), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  assert.equal(ops, sizes[sizes.length - 1]);
  assert.ok(ops * 0.001 >= 10, `last sample ${ops * 0.001} ms`);
  for (const n of sizes.slice(0, -1)) assert.ok(n * 0.001 < 10);
});

test('the pilot of an op slower than the target takes one op per sample', () => {
  withFakeClock(() => assert.equal(pilot(fakeOp(25), { ...base, sampleTargetMs: 10 }), 1));
});

test('warmup runs until both warmupMinOps and warmupMinMs are reached', () => {
  // 1/128 ms per op: binary-exact, so the fake clock adds up without rounding
  const fast = withFakeClock(() => warmup(fakeOp(1 / 128), { ...base, warmupMinOps: 200, warmupMinMs: 5, warmupMaxMs: 100 }));
  assert.deepEqual(fast, { ops: 640, ms: 5 }); // 5 ms / (1/128 ms): the time bound binds
  const slow = withFakeClock(() => warmup(fakeOp(1), { ...base, warmupMinOps: 20, warmupMinMs: 5, warmupMaxMs: 100 }));
  assert.deepEqual(slow, { ops: 20, ms: 20 }); // the op-count bound binds
});

test('warmup stops at warmupMaxMs, overshooting by less than one op, even before warmupMinOps', () => {
  const r = withFakeClock(() => warmup(fakeOp(2), { ...base, warmupMinOps: 200, warmupMinMs: 5, warmupMaxMs: 30 }));
  assert.deepEqual(r, { ops: 15, ms: 30 });
  const huge = withFakeClock(() => warmup(fakeOp(700), { ...base, warmupMinOps: 200, warmupMinMs: 500, warmupMaxMs: 3000 }));
  assert.deepEqual(huge, { ops: 5, ms: 3500 });
});

test('warmup runs at least one op even with warmupMaxMs 0', () => {
  assert.deepEqual(withFakeClock(() => warmup(fakeOp(1), { ...base, warmupMaxMs: 0 })), { ops: 1, ms: 1 });
});

/** measureRounds with S and B fake ops and a counting gc; returns the log and the outcome. */
function paired(policy: MeasurePolicy, sMs: number | ((c: number) => number), bMs: number | ((c: number) => number), unpaired = false) {
  const log: string[] = [];
  const rounds: Round[] = [];
  let gcs = 0;
  const result = withFakeClock(() => measureRounds(
    { op: fakeOp(sMs, log, 'S'), opsPerSample: 3 },
    unpaired ? undefined : { op: fakeOp(bMs, log, 'B'), opsPerSample: 2 },
    policy,
    () => { gcs++; log.push('gc'); },
    (round, index) => { assert.equal(index, rounds.length); rounds.push(round); },
  ));
  return { log, rounds, gcs, result };
}

test('paired rounds alternate which side goes first (S B, B S, …) and run a GC right before each side', () => {
  const { log, gcs, rounds, result } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 4 }, 0.5, 0.25);
  assert.deepEqual(runs(log), [
    'gc', 'S×6', 'gc', 'B×4',
    'gc', 'B×4', 'gc', 'S×6',
    'gc', 'S×6', 'gc', 'B×4',
    'gc', 'B×4', 'gc', 'S×6',
  ]);
  assert.equal(gcs, 8);
  assert.deepEqual(result, { noisy: false, rounds: 4 });
  // each round reports its own samples in ns/op, serializer and baseline apart
  assert.equal(rounds.length, 4);
  for (const r of rounds) assert.deepEqual(r, { serializerNs: [500_000, 500_000], baselineNs: [250_000, 250_000] });
});

test('unpaired rounds run one GC and one side per round, with an empty baseline', () => {
  const { log, gcs, rounds } = paired({ ...base, samplesPerRound: 2, minRounds: 2, maxRounds: 2 }, 0.5, 0, true);
  assert.deepEqual(runs(log), ['gc', 'S×6', 'gc', 'S×6']);
  assert.equal(gcs, 2);
  assert.deepEqual(rounds.map((r) => r.baselineNs), [[], []]);
});

test('precise sides stop at exactly minRounds', () => {
  const { result } = paired({ ...base, minRounds: 6, maxRounds: 200 }, 0.5, 0.25);
  assert.deepEqual(result, { noisy: false, rounds: 6 });
});

test('a noisy side runs past minRounds and is flagged noisy at the time cap', () => {
  // S costs 1 and 9 ms by turn (3 ops per sample: samples of 11/3, 19/3 … ms/op — far from 2%);
  // each round is 2 samples × 3 ops of S (30 ms) + 2 samples × 2 ops of B at 1 ms (4 ms) = 34 ms
  const { result } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 200, timeCapMs: 200 }, (c) => (c % 2 ? 9 : 1), 1);
  // the cap is checked after each round from minRounds on: 34 · 6 = 204 ≥ 200 after round 6
  assert.deepEqual(result, { noisy: true, rounds: 6 });
});

test('a noisy baseline alone also keeps the rounds going until the cap', () => {
  // B costs 1, 1, 9, 9, … ms (2 ops per sample: samples of 1 and 9 ms/op)
  const { result } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 200, timeCapMs: 200 }, 1, (c) => (c % 4 < 2 ? 1 : 9));
  // per round: S 2 × 3 × 1 ms = 6 ms, B 2 + 18 = 20 ms → 26 ms; 26 · 7 = 182 < 200 ≤ 26 · 8 = 208
  assert.deepEqual(result, { noisy: true, rounds: 8 });
});

test('maxRounds ends a noisy measurement before the time cap, flagged noisy', () => {
  const { result, rounds } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 5, timeCapMs: 1e9 }, (c) => (c % 2 ? 9 : 1), 1);
  assert.deepEqual(result, { noisy: true, rounds: 5 });
  assert.equal(rounds.length, 5);
});

test('a side at one op per sample whose op outlasts the sample target cuts its round at samplesPerRound × sampleTargetMs; a side with more ops per sample never does', () => {
  const log: string[] = [];
  const rounds: Round[] = [];
  withFakeClock(() => measureRounds(
    { op: fakeOp(30, log, 'S'), opsPerSample: 1 },
    { op: fakeOp(30, log, 'B'), opsPerSample: 2 },
    { ...base, samplesPerRound: 5, sampleTargetMs: 10, minRounds: 2, maxRounds: 2 },
    () => log.push('gc'),
    (round) => rounds.push(round),
  ));
  // S: 30 ms, 60 ms ≥ 5 × 10 ms → 2 samples; B: 5 samples of 2 ops whatever their length
  assert.deepEqual(rounds.map((r) => [r.serializerNs.length, r.baselineNs.length]), [[2, 5], [2, 5]]);
  assert.deepEqual(runs(log), ['gc', 'S×2', 'gc', 'B×10', 'gc', 'B×10', 'gc', 'S×2']);
});
