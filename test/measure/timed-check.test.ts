import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sideChecks, TimedCheckFailure } from '../../src/measure/timed-check.js';
import { measureRounds, pilot, warmup } from '../../src/measure/timing.js';
import { makeOp } from '../../src/measure/sink.js';
import { policies } from '../../src/config/policies.js';
import type { Workload } from '../../src/workloads/types.js';

/**
 * Checks while timing: a result that changes after the gate, or an input a serializer changed,
 * fails the case; a correct serializer whose text varies does not.
 */

const workload = { id: 'w' } as unknown as Workload;
const value = () => ({ a: 1, b: [1, 2] });
/** A short measurement that never stops early (error target 0) so every fixture below runs ≥ 40 rounds: well over 200 calls. */
const policy = {
  ...policies.quick.measure,
  warmupMinOps: 5,
  warmupMinMs: 0,
  warmupMaxMs: 50,
  sampleTargetMs: 0.05,
  samplesPerRound: 2,
  minRounds: 3,
  maxRounds: 40,
  targetRelativeError: 0,
  timeCapMs: 60_000,
};

function setup(serialize: (v: unknown) => string) {
  const a = [value()];
  const b = [value()];
  const checks = sideChecks('serializer', workload, 'serialize', {
    expected: value,
    gated: JSON.stringify(value()),
    units: 1,
    copies: [a, b],
    snapshot: () => [value()],
  });
  return { a, b, checks, op: makeOp(serialize, a, b) };
}

const failure = (fn: () => unknown): TimedCheckFailure => {
  try {
    fn();
  } catch (e) {
    if (e instanceof TimedCheckFailure) return e;
    throw e;
  }
  assert.fail('no TimedCheckFailure');
};

test('the same text as the gate accepted passes; a different but equal text passes too', () => {
  const { checks } = setup(JSON.stringify);
  checks.full('{"a":1,"b":[1,2]}', 'round 1, sample 1');
  checks.full('{"b":[1,2],"a":1}', 'round 1, sample 2');
  checks.inputs(0, 'after round 1');
  checks.inputs(-1, 'after warmup');
});

test("a result that differs from the gate's fails, naming the sample and the path", () => {
  const { checks } = setup(JSON.stringify);
  const e = failure(() => checks.full('{"a":2,"b":[1,2]}', 'round 3, sample 2'));
  assert.equal(e.side, 'serializer');
  assert.deepEqual(e.failure, {
    path: '$.a',
    expected: '1',
    actual: '2',
    reason: 'result changed after the gate (round 3, sample 2): output differs at $.a',
  });
});

test('the quick check lets a text of an accepted length through and sends any other to the full check', () => {
  const { checks } = setup(JSON.stringify);
  checks.quick('{"a":2,"b":[1,2]}', 'round 1, sample 1');
  assert.equal(
    failure(() => checks.quick('{"a":1,"b":[1,2,3]}', 'round 1, sample 2')).failure.reason,
    'result changed after the gate (round 1, sample 2): output differs at $.b.length',
  );
  checks.quick('{"b":[1,2],"a":1}', 'round 1, sample 3');
  assert.equal(
    failure(() => checks.quick(undefined, 'round 1, sample 4')).failure.reason,
    'result changed after the gate (round 1, sample 4): serialize returned undefined, not a string',
  );
});

test('an input changed by the serializer fails after the round, naming the path', () => {
  const { b, checks } = setup(JSON.stringify);
  checks.inputs(0, 'after round 1');
  (b[0] as { b: number[] }).b.push(3);
  const e = failure(() => checks.inputs(1, 'after round 2'));
  assert.equal(e.failure.reason, 'input changed (after round 2): differs from the payload at $.b.length');
  assert.equal(
    failure(() => checks.inputs(-1, 'after warmup')).failure.path,
    '$.b.length',
    'after warmup both copies are checked',
  );
});

test('reordered input keys are a change too (the baseline would then write another text)', () => {
  const { a, checks } = setup(JSON.stringify);
  const first = a[0] as Record<string, unknown>;
  const v = first.a;
  delete first.a;
  first.a = v;
  assert.equal(
    failure(() => checks.inputs(0, 'after round 1')).failure.reason,
    'input changed (after round 1): its keys were reordered',
  );
});

test("a deserialize result is compared by value with the gate's expected value", () => {
  const checks = sideChecks('baseline', workload, 'deserialize', {
    expected: value,
    gated: value(),
    units: 1,
    copies: [['{}'], ['{}']],
    snapshot: () => ['{}'],
  });
  checks.full(value(), 'pilot');
  const e = failure(() => checks.full({ a: 1, b: [1] }, 'pilot'));
  assert.equal(e.side, 'baseline');
  assert.equal(e.failure.reason, 'result changed after the gate (pilot): result differs at $.b.length');
  checks.inputs(0, 'after round 1');
});

test('a serializer correct for its first calls and wrong afterwards is stopped by warmup, pilot or rounds', () => {
  for (const correctCalls of [3, 40, 200]) {
    let calls = 0;
    const { checks, op } = setup((v) => (++calls <= correctCalls ? JSON.stringify(v) : '{"a":1,"b":[1,2,3]}'));
    const e = failure(() => {
      warmup(op, policy, checks);
      const ops = pilot(op, policy, checks);
      measureRounds(
        { op, opsPerSample: ops, checks },
        undefined,
        policy,
        () => {},
        () => {},
      );
    });
    assert.match(
      e.failure.reason,
      /^result changed after the gate \((end of warmup|pilot|round \d+, sample \d+)\): output differs at \$\.b\.length$/,
      `${correctCalls}`,
    );
  }
});

test("measureRounds checks the inputs after each side's samples", () => {
  let calls = 0;
  const { a, checks, op } = setup((v) => {
    if (++calls === 50) (a[0] as { a: number }).a = 9;
    return JSON.stringify(value());
  });
  const e = failure(() =>
    measureRounds(
      { op, opsPerSample: 30, checks },
      undefined,
      policy,
      () => {},
      () => {},
    ),
  );
  assert.match(e.failure.reason, /^input changed \(after round [12]\): differs from the payload at \$\.a$/);
});
