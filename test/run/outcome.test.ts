import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caseEndOf, stepOf } from '../../src/run/outcome.js';
import type { Verdict } from '../../src/run/verdict.js';
import type { LaunchRecord } from '../../src/results/types.js';

/** The verdict → outcome mapping alone (no worker). */

const rec = (rounds: number) =>
  ({
    launch: 1,
    rounds: Array.from({ length: rounds }, () => ({ serializerNs: [1], baselineNs: [] })),
  }) as unknown as LaunchRecord;
const mismatch = { path: '$.a', expected: '1', actual: '2' };

test('a failed verdict of the serializer ends the case with its status and reason', () => {
  assert.deepEqual(caseEndOf({ kind: 'unsupported', reason: 'no bigint' }), {
    status: 'unsupported',
    reason: 'no bigint',
  });
  assert.deepEqual(caseEndOf({ kind: 'incorrect', side: 'serializer', reason: 'differs', mismatch }), {
    status: 'incorrect',
    reason: 'differs',
    mismatch: { side: 'serializer', ...mismatch },
  });
  assert.deepEqual(caseEndOf({ kind: 'bad', status: 'timeout', reason: 'no result' }), {
    status: 'timeout',
    reason: 'no result',
  });
});

test("another pass prefixes an incorrect or bad reason, never an unsupported one (the serializer's own words)", () => {
  assert.equal(
    caseEndOf({ kind: 'bad', status: 'crashed', reason: 'SIGSEGV' }, 'allocation pass').reason,
    'allocation pass: SIGSEGV',
  );
  assert.equal(
    caseEndOf({ kind: 'incorrect', side: 'serializer', reason: 'differs', mismatch }, 'allocation pass').reason,
    'allocation pass: differs',
  );
  assert.equal(caseEndOf({ kind: 'unsupported', reason: 'no bigint' }, 'allocation pass').reason, 'no bigint');
});

test('a measured launch is kept', () => {
  const v: Verdict = { kind: 'ok', record: rec(2) };
  assert.deepEqual(stepOf(v), { kind: 'keep', verdict: v });
});

test('a failure on the baseline side unpairs, keeping the rounds streamed before it', () => {
  assert.deepEqual(stepOf({ kind: 'unsupported', side: 'baseline', reason: 'no Map' }), {
    kind: 'unpair',
    why: 'is unsupported here: no Map',
  });
  const partial = rec(3);
  assert.deepEqual(stepOf({ kind: 'bad', side: 'baseline', status: 'failed', reason: 'prepare: boom', partial }), {
    kind: 'unpair',
    why: "failed in this case's worker: prepare: boom",
    partial,
  });
});

test("a failure of the case's own serializer ends it; a bad launch keeps its rounds only when it has some", () => {
  const partial = rec(2);
  assert.deepEqual(stepOf({ kind: 'bad', status: 'crashed', reason: 'SIGSEGV', partial }), {
    kind: 'end',
    end: { status: 'crashed', reason: 'SIGSEGV' },
    baselineWhy: 'was crashed',
    partial,
  });
  const empty = stepOf({ kind: 'bad', status: 'timeout', reason: 'late', partial: rec(0) });
  assert.equal('partial' in empty, false, 'a launch without rounds leaves nothing to keep');
  assert.deepEqual(stepOf({ kind: 'unsupported', reason: 'no bigint' }), {
    kind: 'end',
    end: { status: 'unsupported', reason: 'no bigint' },
    baselineWhy: 'is unsupported here: no bigint',
  });
  const inc = stepOf({ kind: 'incorrect', side: 'serializer', reason: 'differs', mismatch });
  assert.equal(inc.kind === 'end' && inc.baselineWhy, 'was incorrect');
});

test('in a group launch, a failure the launch names for the case ends it, with the rounds it streamed', () => {
  const partial = rec(2);
  assert.deepEqual(stepOf({ kind: 'bad', status: 'failed', reason: 'serialize: boom', partial }, { named: true }), {
    kind: 'end',
    end: { status: 'failed', reason: 'serialize: boom' },
    baselineWhy: 'was failed',
    partial,
  });
  assert.deepEqual(stepOf({ kind: 'unsupported', reason: 'no bigint' }, { named: true }), {
    kind: 'end',
    end: { status: 'unsupported', reason: 'no bigint' },
    baselineWhy: 'is unsupported here: no bigint',
  });
  const inc = stepOf({ kind: 'incorrect', side: 'serializer', reason: 'differs', mismatch }, { named: true });
  assert.equal(inc.kind === 'end' && inc.end.status, 'incorrect');
  // the group launch reads its baseline's failure first: a case of it never unpairs
  assert.equal(stepOf({ kind: 'unsupported', side: 'baseline', reason: 'no Map' }, { named: true }).kind, 'end');
});

test('in a group launch, a failure the launch does not name, or a timeout or crash, retakes the case alone', () => {
  assert.deepEqual(stepOf({ kind: 'bad', status: 'failed', reason: 'exit 1' }, { named: false }), { kind: 'retake' });
  assert.deepEqual(stepOf({ kind: 'bad', status: 'crashed', reason: 'SIGKILL' }, { named: true }), {
    kind: 'retake',
  });
  assert.deepEqual(stepOf({ kind: 'bad', status: 'timeout', reason: 'late' }, { named: true }), { kind: 'retake' });
  const v: Verdict = { kind: 'ok', record: rec(1) };
  assert.deepEqual(stepOf(v, { named: false }), { kind: 'keep', verdict: v });
});
