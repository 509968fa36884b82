import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { drainSink, makeEmptyOp, makeOp, sinkChecksum } from '../../src/measure/sink.js';
import { pilot, runSample } from '../../src/measure/timing.js';
import { TOO_FAST_FACTOR } from '../../src/analysers/too-fast.js';
import { policies } from '../../src/config/policies.js';

/** Checksum step of one drain, as sink.ts defines it: a string adds its length, null/undefined 1, anything else 2. */
const MOD = 1_000_000_007;

test('makeOp feeds copy A on even iterations and copy B on odd ones (one unit)', () => {
  const a = { copy: 'A' };
  const b = { copy: 'B' };
  const seen: unknown[] = [];
  const op = makeOp(
    (x) => {
      seen.push(x);
      return x;
    },
    [a],
    [b],
  );
  for (let i = 0; i < 6; i++) op(i);
  assert.deepEqual(
    seen.map((x) => (x as { copy: string }).copy),
    ['A', 'B', 'A', 'B', 'A', 'B'],
  );
  // distinct objects, not merely equal ones
  assert.equal(seen[0], a);
  assert.equal(seen[1], b);
  drainSink();
});

test('makeOp over several units runs the whole copy per op, in order, alternating copies by parity', () => {
  const seen: string[] = [];
  const op = makeOp(
    (x) => {
      seen.push(x as string);
      return x;
    },
    ['a1', 'a2', 'a3'],
    ['b1', 'b2', 'b3'],
  );
  op(0);
  op(1);
  op(2);
  assert.deepEqual(seen, ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'a1', 'a2', 'a3']);
  drainSink();
});

test('the sink keeps the last result and each drain folds it into the checksum, then empties it', () => {
  drainSink(); // start from an empty slot
  const before = sinkChecksum();
  const op = makeOp((x) => 'y'.repeat(x as number), [7], [11]);
  op(0);
  drainSink(); // '…' × 7
  assert.equal(sinkChecksum(), (before + 7) % MOD);
  op(1);
  drainSink(); // '…' × 11
  assert.equal(sinkChecksum(), (before + 18) % MOD);
  drainSink(); // the slot was emptied: undefined adds 1
  assert.equal(sinkChecksum(), (before + 19) % MOD);
  makeOp(() => ({ parsed: true }), [0], [0])(0);
  drainSink(); // an object adds 2
  assert.equal(sinkChecksum(), (before + 21) % MOD);
});

test('runSample drains the sink after its loop, so every sample changes the checksum', () => {
  const op = makeOp((x) => x, ['abc'], ['abcd']);
  const before = sinkChecksum();
  runSample(op, 2); // last op is i = 1: 'abcd'
  assert.equal(sinkChecksum(), (before + 4) % MOD);
  runSample(op, 3); // last op is i = 2: 'abc'
  assert.equal(sinkChecksum(), (before + 7) % MOD);
});

test('the empty op writes the alternating copy into the sink and is measured like any op', () => {
  const a = [{}];
  const b = [{}];
  const empty = makeEmptyOp(a, b);
  const before = sinkChecksum();
  const ns = runSample(empty, pilot(empty, { ...policies.quick.measure, sampleTargetMs: 2 }));
  assert.ok(Number.isFinite(ns) && ns > 0, `empty op: ${ns} ns/op`);
  // pilot's samples and the last one each drained an array (an object: +2)
  assert.notEqual(sinkChecksum(), before);
});

test(`a pure function over constant input, run through makeOp, is not folded away: it costs over ${TOO_FAST_FACTOR}× the empty op`, (t) => {
  // Sum of 10 000 numbers: V8 would hoist or fold this if it saw the same constant array on every
  // call and the result unused. The op alternates two copies and keeps the result in the sink.
  const xs = Array.from({ length: 10_000 }, (_, i) => i % 7);
  const sum = (input: unknown) => {
    const v = input as number[];
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i];
    return s;
  };
  assert.equal(sum(xs), 29_994); // 1428 × (0+…+6) + (0+1+2+3)
  const op = makeOp(sum, [xs], [[...xs]]);
  const empty = makeEmptyOp([xs], [[...xs]]);
  const policy = { ...policies.quick.measure, sampleTargetMs: 5 };
  const emptyNs = Math.min(...[0, 1, 2].map(() => runSample(empty, pilot(empty, policy))));
  const opNs = Math.min(...[0, 1, 2].map(() => runSample(op, pilot(op, policy))));
  t.diagnostic(
    `empty op ${emptyNs.toFixed(2)} ns/op; 10 000-element sum ${opNs.toFixed(0)} ns/op (${(opNs / emptyNs).toFixed(0)}×)`,
  );
  // 10 000 additions take microseconds; an empty op takes nanoseconds: the margin is ~1000×, so
  // this fails only if the loop was eliminated, not because the machine is slow
  assert.ok(opNs > TOO_FAST_FACTOR * emptyNs, `sum ${opNs} ns/op vs empty ${emptyNs} ns/op`);
});

test('the sink lets go of the previous result before the next call: a big result is not kept alive while the next is built', () => {
  // a collector for this process (node --test passes no --expose-gc to test files)
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const BIG = 8 * 1024 * 1024;
  const heapDuringCall: number[] = [];
  const call = () => {
    gc();
    heapDuringCall.push(v8.getHeapStatistics().used_heap_size);
    const s = 'x'.repeat(BIG);
    s.charCodeAt(0); // flat: one 8 MiB object
    return s;
  };
  const op = makeOp(call, [0], [1]);
  op(0);
  op(1);
  op(2);
  drainSink();
  // with the previous 8 MiB result still in the slot, the heap seen in calls 2 and 3 would be 8 MiB higher
  for (const h of heapDuringCall.slice(1))
    assert.ok(h - heapDuringCall[0] < BIG / 2, `heap during a later call grew by ${h - heapDuringCall[0]} bytes`);
});
