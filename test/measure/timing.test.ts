import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  measureGroupRounds,
  measureRounds,
  measuringClock,
  pilot,
  runSample,
  timeSample,
  useClock,
  warmup,
  type Round,
} from '../../src/measure/timing.js';
import { cpuNowNs } from '../../src/measure/clock.js';
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
  const clock = measuringClock();
  fakeMs = 1000;
  performance.now = () => fakeMs;
  useClock('wall');
  try {
    return body();
  } finally {
    performance.now = real;
    useClock(clock);
  }
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
  for (const i of calls)
    if (i === 0) sizes.push(1);
    else sizes[sizes.length - 1]++;
  return sizes;
}

/** Collapses a log into runs: ['gc', 'S', 'S', 'gc'] → ['gc', 'S×2', 'gc']. */
function runs(log: string[]): string[] {
  const out: string[] = [];
  let n = 0;
  for (let k = 0; k < log.length; k++) {
    n++;
    if (log[k + 1] !== log[k]) {
      out.push(n > 1 ? `${log[k]}×${n}` : log[k]);
      n = 0;
    }
  }
  return out;
}

const base: MeasurePolicy = { ...policies.default.measure };

test('runSample returns ns per op of one timed loop', () => {
  withFakeClock(() => assert.equal(runSample(fakeOp(0.25), 8), 250_000));
});

test('the pilot doubles ops per sample, then jumps near the target, and stops once a sample ≥ sampleTargetMs is confirmed by two more', () => {
  const op = fakeOp(0.3);
  const ops = withFakeClock(() => pilot(op, { ...base, sampleTargetMs: 10 }));
  // 1 op = 0.3 ms, 2 ops = 0.6 ms (> 0.5 ms, long enough to read) → ⌈2 · 10 · 1.1 / 0.6⌉ = 37 ops = 11.1 ms, three times
  assert.deepEqual(sampleSizes(op.calls), [1, 2, 37, 37, 37]);
  assert.equal(ops, 37);
});

test('the pilot is not fooled by one sample lengthened by a one-off (a GC, a compile): its second sample falls short and it goes on', () => {
  // 0.001 ms per op, but the 8th call stalls for 20 ms: the sample of 8 ops reads 20 ms, over the 10 ms target
  const op = fakeOp((call) => (call === 7 + 7 ? 20 : 0.001));
  const ops = withFakeClock(() => pilot(op, { ...base, sampleTargetMs: 10 }));
  const sizes = sampleSizes(op.calls);
  assert.deepEqual(sizes.slice(0, 5), [1, 2, 4, 8, 8], 'the stalled sample of 8 is taken again');
  assert.ok(ops * 0.001 >= 5, `ops per sample ${ops}: a sample of ${ops * 0.001} ms, not the stalled sample's 8 ops`);
  assert.equal(ops, sizes[sizes.length - 1]);
});

test('the pilot is not fooled by two samples in a row lengthened by one-offs (scavenges landing in short samples): the third falls short and it goes on', () => {
  // 0.001 ms per op; samples of 1, 2, 4 take calls 0–6, the sample of 8 calls 7–14 and its confirmations 15–22 and 23–30:
  // calls 14 and 22 stall for 20 ms, so the first two samples of 8 both read 20 ms and only the third shows the op's speed
  const op = fakeOp((call) => (call === 14 || call === 22 ? 20 : 0.001));
  const ops = withFakeClock(() => pilot(op, { ...base, sampleTargetMs: 10 }));
  const sizes = sampleSizes(op.calls);
  assert.deepEqual(sizes.slice(0, 6), [1, 2, 4, 8, 8, 8], 'the stalled sample of 8 is taken twice more');
  assert.ok(ops * 0.001 >= 5, `ops per sample ${ops}: a sample of ${ops * 0.001} ms, not the stalled samples' 8 ops`);
  assert.deepEqual(sizes.slice(-3), [ops, ops, ops], 'the last sample size reached the target and was confirmed twice');
});

test('the pilot on a fast op doubles while a sample is too short to read, and every sample but the last is under the target', () => {
  const op = fakeOp(0.001);
  const ops = withFakeClock(() => pilot(op, { ...base, sampleTargetMs: 10 }));
  const sizes = sampleSizes(op.calls);
  assert.deepEqual(sizes.slice(0, 10), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  assert.equal(ops, sizes[sizes.length - 1]);
  assert.deepEqual(sizes.slice(-3), [ops, ops, ops], 'the sample that reached the target was confirmed by two more');
  assert.ok(ops * 0.001 >= 10, `last sample ${ops * 0.001} ms`);
  for (const n of sizes.slice(0, -3)) assert.ok(n * 0.001 < 10);
});

test('the pilot of an op slower than the target takes one op per sample', () => {
  withFakeClock(() => assert.equal(pilot(fakeOp(25), { ...base, sampleTargetMs: 10 }), 1));
});

test('warmup runs until both warmupMinOps and warmupMinMs are reached', () => {
  // 1/128 ms per op: binary-exact, so the fake clock adds up without rounding
  const fast = withFakeClock(() =>
    warmup(fakeOp(1 / 128), { ...base, warmupMinOps: 200, warmupMinMs: 5, warmupMaxMs: 100 }),
  );
  assert.deepEqual(fast, { ops: 640, ms: 5 }); // 5 ms / (1/128 ms): the time bound binds
  const slow = withFakeClock(() => warmup(fakeOp(1), { ...base, warmupMinOps: 20, warmupMinMs: 5, warmupMaxMs: 100 }));
  assert.deepEqual(slow, { ops: 20, ms: 20 }); // the op-count bound binds
});

test('warmup stops at warmupMaxMs, overshooting by less than one op, even before warmupMinOps', () => {
  const r = withFakeClock(() => warmup(fakeOp(2), { ...base, warmupMinOps: 200, warmupMinMs: 5, warmupMaxMs: 30 }));
  assert.deepEqual(r, { ops: 15, ms: 30 });
  const huge = withFakeClock(() =>
    warmup(fakeOp(700), { ...base, warmupMinOps: 200, warmupMinMs: 500, warmupMaxMs: 3000 }),
  );
  assert.deepEqual(huge, { ops: 5, ms: 3500 });
});

test('warmup runs at least one op even with warmupMaxMs 0', () => {
  assert.deepEqual(
    withFakeClock(() => warmup(fakeOp(1), { ...base, warmupMaxMs: 0 })),
    { ops: 1, ms: 1 },
  );
});

/** measureRounds with S and B fake ops and a counting gc; returns the log and the outcome. */
function paired(
  policy: MeasurePolicy,
  sMs: number | ((c: number) => number),
  bMs: number | ((c: number) => number),
  unpaired = false,
) {
  const log: string[] = [];
  const rounds: Round[] = [];
  let gcs = 0;
  const result = withFakeClock(() =>
    measureRounds(
      { op: fakeOp(sMs, log, 'S'), opsPerSample: 3 },
      unpaired ? undefined : { op: fakeOp(bMs, log, 'B'), opsPerSample: 2 },
      policy,
      () => {
        gcs++;
        log.push('gc');
      },
      (round, index) => {
        assert.equal(index, rounds.length);
        rounds.push(round);
      },
    ),
  );
  return { log, rounds, gcs, result };
}

test('paired rounds alternate which side goes first (S B, B S, …) and run a GC right before each side', () => {
  const { log, gcs, rounds, result } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 4 }, 0.5, 0.25);
  assert.deepEqual(runs(log), [
    'gc',
    'S×6',
    'gc',
    'B×4',
    'gc',
    'B×4',
    'gc',
    'S×6',
    'gc',
    'S×6',
    'gc',
    'B×4',
    'gc',
    'B×4',
    'gc',
    'S×6',
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
  assert.deepEqual(
    rounds.map((r) => r.baselineNs),
    [[], []],
  );
});

test('precise sides stop at exactly minRounds', () => {
  const { result } = paired({ ...base, minRounds: 6, maxRounds: 200 }, 0.5, 0.25);
  assert.deepEqual(result, { noisy: false, rounds: 6 });
});

test('a ratio that varies from round to round runs past minRounds and is flagged noisy at the time cap', () => {
  // S costs 1, 2, 1.5, 3 ms per call by round (2 samples × 3 ops = 6 calls a round), B 1 ms
  // (2 × 2 = 4 calls): per-round ratios 1, 2, 1.5, 3, … (relative error far above 2%); rounds
  // last 10, 16, 13, 22 ms: 10 26 39 61 71 87 100 122 132 148 161 183 193 209 ms after each
  const sByRound = (c: number) => [1, 2, 1.5, 3][Math.floor(c / 6) % 4];
  const { result } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 200, timeCapMs: 200 }, sByRound, 1);
  assert.deepEqual(result, { noisy: true, rounds: 14 });
});

test('the stop rule is on the ratio: both sides slowing down together (a busy phase of the machine) still stops at minRounds', () => {
  // every round is k times slower than the one before for both sides: each side's own error is
  // huge, the ratio (1 ÷ 0.75) never moves
  const slow = (ms: number, perRound: number) => (c: number) => ms * 1.5 ** Math.floor(c / perRound);
  const { result } = paired(
    { ...base, samplesPerRound: 2, minRounds: 5, maxRounds: 200, timeCapMs: 1e9 },
    slow(1, 6),
    slow(0.75, 4),
  );
  assert.deepEqual(result, { noisy: false, rounds: 5 });
});

test('a baseline whose time varies from round to round (a noisy ratio) also keeps the rounds going until the cap', () => {
  // B costs 1, 3, 2, 5 ms per call by round (4 calls a round), S 1 ms (6 calls): ratios 1, 1/3, 1/2, 1/5, …;
  // rounds last 10, 18, 14, 26 ms: 10 28 42 68 78 96 110 136 146 164 178 204 ms after each
  const bByRound = (c: number) => [1, 3, 2, 5][Math.floor(c / 4) % 4];
  const { result } = paired({ ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 200, timeCapMs: 200 }, 1, bByRound);
  assert.deepEqual(result, { noisy: true, rounds: 12 });
});

test('maxRounds ends a noisy measurement before the time cap, flagged noisy', () => {
  const { result, rounds } = paired(
    { ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 5, timeCapMs: 1e9 },
    (c) => [1, 2, 1.5, 3][Math.floor(c / 6) % 4],
    1,
  );
  assert.deepEqual(result, { noisy: true, rounds: 5 });
  assert.equal(rounds.length, 5);
});

test(
  'the CPU clock counts work, not waiting: a sample that sleeps 200 ms reads ≥ 200 ms by wall time and under half that by CPU time',
  { skip: cpuNowNs ? false : 'this runtime has no process CPU clock' },
  () => {
    const was = measuringClock();
    try {
      assert.equal(useClock('cpu'), 'cpu');
      const cell = new Int32Array(new SharedArrayBuffer(4));
      // (V8's helper threads may still be finishing earlier work while the main thread sleeps: the process clock counts them)
      const t = timeSample(() => {
        Atomics.wait(cell, 0, 0, 200);
      }, 1);
      assert.ok(t.wallNs >= 199e6, `wall ${t.wallNs} ns`);
      assert.ok(t.ns < 100e6, `CPU ${t.ns} ns while sleeping`);
      let x = 0;
      const busy = timeSample(() => {
        const end = performance.now() + 100;
        while (performance.now() < end) x++;
      }, 1);
      assert.ok(busy.ns > 1e6 && x > 0, `a busy loop of 100 ms wall reads ${busy.ns} ns of CPU`);
    } finally {
      useClock(was);
    }
  },
);

test('a side at one op per sample whose op outlasts the sample target cuts its round at samplesPerRound × sampleTargetMs; a side with more ops per sample never does', () => {
  const log: string[] = [];
  const rounds: Round[] = [];
  withFakeClock(() =>
    measureRounds(
      { op: fakeOp(30, log, 'S'), opsPerSample: 1 },
      { op: fakeOp(30, log, 'B'), opsPerSample: 2 },
      { ...base, samplesPerRound: 5, sampleTargetMs: 10, minRounds: 2, maxRounds: 2 },
      () => log.push('gc'),
      (round) => rounds.push(round),
    ),
  );
  // S: 30 ms, 60 ms ≥ 5 × 10 ms → 2 samples; B: 5 samples of 2 ops whatever their length
  assert.deepEqual(
    rounds.map((r) => [r.serializerNs.length, r.baselineNs.length]),
    [
      [2, 5],
      [2, 5],
    ],
  );
  assert.deepEqual(runs(log), ['gc', 'S×2', 'gc', 'B×10', 'gc', 'B×10', 'gc', 'S×2']);
});

test('group rounds: a GC before each side, the baseline first then each serializer, the order reversed every other round; each serializer paired with the baseline of its round', () => {
  const log: string[] = [];
  const rounds: { b: number[]; s: number[][] }[] = [];
  const result = withFakeClock(() =>
    measureGroupRounds(
      { op: fakeOp(0.25, log, 'B'), opsPerSample: 2 },
      [
        { op: fakeOp(0.5, log, 'S1'), opsPerSample: 2 },
        { op: fakeOp(1, log, 'S2'), opsPerSample: 1 },
      ],
      { ...base, samplesPerRound: 2, minRounds: 3, maxRounds: 3 },
      () => log.push('gc'),
      (round) => rounds.push({ b: round.baseline.ns, s: round.sides.map((x) => x.ns) }),
    ),
  );
  assert.deepEqual(runs(log), [
    'gc',
    'B×4',
    'gc',
    'S1×4',
    'gc',
    'S2×2',
    'gc',
    'S2×2',
    'gc',
    'S1×4',
    'gc',
    'B×4',
    'gc',
    'B×4',
    'gc',
    'S1×4',
    'gc',
    'S2×2',
  ]);
  assert.deepEqual(rounds[1], {
    b: [250_000, 250_000],
    s: [
      [500_000, 500_000],
      [1e6, 1e6],
    ],
  });
  assert.deepEqual(result, { noisy: false, rounds: 3, precise: [true, true], baselinePrecise: true });
});

test("group rounds run until every serializer's ratio is precise: one noisy ratio keeps the group going to the cap, and says which", () => {
  // S2 costs 1, 2, 1.5, 3 ms by round (2 calls a round): its ratio varies; S1 and B are steady.
  // Rounds last 4·0.25 + 4·0.5 + 2·{1, 2, 1.5, 3} = 5, 7, 6, 9 ms: 5 12 18 27 32 39 45 54 ms after each
  const { result } = withFakeClock(() => ({
    result: measureGroupRounds(
      { op: fakeOp(0.25), opsPerSample: 2 },
      [
        { op: fakeOp(0.5), opsPerSample: 2 },
        { op: fakeOp((c) => [1, 2, 1.5, 3][Math.floor(c / 2) % 4]), opsPerSample: 1 },
      ],
      { ...base, samplesPerRound: 2, minRounds: 4, maxRounds: 200, timeCapMs: 50 },
      () => {},
      () => {},
    ),
  }));
  assert.deepEqual(result, { noisy: true, rounds: 8, precise: [true, false], baselinePrecise: true });
});
