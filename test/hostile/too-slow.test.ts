import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainAllTimedOut } from '../../src/run/too-slow.js';
import { policies } from '../../src/config/policies.js';
import type { CaseResult } from '../../src/results/types.js';

/**
 * A payload one op of which is too slow for the policy (issue 25, hostile tester hx1, "unclear": a
 * 1,000,000-key document ran 875 s and every case, the baselines too, said only "no result after
 * 60 s; worker killed (stage reached: warmup)"). The cases are those of the attacker's results.
 */

const timedOut = (serializer: string, direction: 'serialize' | 'deserialize', stage: string) =>
  ({
    id: `payload:big/1/single/${direction}/${serializer}`,
    workload: 'payload:big',
    size: 1,
    shape: 'single',
    direction,
    serializer,
    status: 'timeout',
    reason: `no result after 60 s; worker killed (stage reached: ${stage})`,
  }) as unknown as CaseResult;

test('every case of a payload timed out in its warmup: each reason and one note say one op is too slow for the policy, with the way out', () => {
  const cases = [
    timedOut('json', 'serialize', 'warmup'),
    timedOut('typia', 'serialize', '0 rounds measured'),
    timedOut('json', 'deserialize', 'warmup'),
    {
      ...timedOut('fast-json-stringify', 'deserialize', ''),
      status: 'unsupported',
      reason: 'serializes only',
    } as CaseResult,
  ];
  const notes = explainAllTimedOut(cases, policies.quick, new Map([['payload:big-1', { bytes: 18_777_780 }]]));
  assert.equal(notes.length, 1);
  assert.match(
    notes[0],
    /^payload:big \(size 1\): one op of this payload \(17\.9 MiB\) is too slow for policy quick: every case of it timed out, the baselines too, before its warmup ended \(a case has 60 s .*--size N/,
  );
  for (const c of cases.slice(0, 3))
    assert.match(c.reason ?? '', /stage reached: .*\); one op of this payload .* too slow/);
  assert.equal(cases[3].reason, 'serializes only');
});

test('a payload where one case got past its warmup, or only one case timed out, gets no such sentence', () => {
  const cases = [timedOut('json', 'serialize', 'warmup'), timedOut('typia', 'serialize', '3 rounds measured')];
  assert.deepEqual(explainAllTimedOut(cases, policies.quick, new Map()), []);
  assert.doesNotMatch(cases[0].reason ?? '', /too slow/);
  assert.deepEqual(explainAllTimedOut([timedOut('json', 'serialize', 'warmup')], policies.quick, new Map()), []);
});
