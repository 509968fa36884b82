import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runColdStartPass } from '../../src/run/cold-start.js';
import type { CaseResult } from '../../src/results/types.js';
import { results as fixtureResults } from '../hostile/support.js';
import { cold, crashed, fakeLaunch } from './fake-launch.js';

/** The cold-start pass (issue 13 item 5), driven by a fake launch: what it keeps, what it skips, what a failed process leaves. */

/** The fixture's cases, one per serializer (the fake serves launches by serializer, in order). */
function cases(): CaseResult[] {
  const seen = new Set<string>();
  return fixtureResults().cases.filter((c) => !seen.has(c.serializer) && seen.add(c.serializer));
}

test('each measured case gets one entry per fresh process, wall and CPU; cases without numbers get no cold figures and no launch', async () => {
  const cs = cases();
  const measured = cs.filter((c) => c.status === 'measured');
  assert.ok(measured.length >= 2 && cs.length > measured.length, 'the fixture has measured and other cases');
  const fake = fakeLaunch(
    Object.fromEntries(
      cs.map((c) => [
        `${c.serializer}/cold`,
        [
          cold(1e6, 2e6, 3e5, { loadNs: 1e6, prepareNs: 1.5e6, firstCallNs: 2e5 }),
          cold(1.1e6, 2.2e6, 3.3e5, { loadNs: 1e6, prepareNs: 2e6, firstCallNs: 3e5 }),
        ],
      ]),
    ),
  );
  await runColdStartPass({
    cases: cs,
    processes: 2,
    payloadOf: () => ({ path: '/nonexistent.json' }),
    launchFor: () => fake.launch,
    measure: fixtureResults().policy.measure,
    timeoutMs: 1000,
  });
  assert.equal(fake.calls.length, measured.length * 2);
  assert.ok(
    fake.calls.every((c) => c.job.mode === 'cold' && c.job.baseline === undefined),
    'cold jobs are unpaired',
  );
  for (const c of cs) {
    if (c.status !== 'measured') {
      assert.equal(c.coldStart, undefined, c.id);
      continue;
    }
    assert.deepEqual(c.coldStart, {
      processes: 2,
      loadNs: [1e6, 1.1e6],
      prepareNs: [2e6, 2.2e6],
      firstCallNs: [3e5, 3.3e5],
      cpu: { loadNs: [1e6, 1e6], prepareNs: [1.5e6, 2e6], firstCallNs: [2e5, 3e5] },
    });
  }
});

test('a cold process that crashes is named in failures; the case keeps its warm figures and the figures of the processes that ran', async () => {
  const cs = cases();
  const fake = fakeLaunch(
    Object.fromEntries(
      cs.map((c) => [`${c.serializer}/cold`, [crashed({ exitCode: 1, stderrTail: 'Error: boom' }), cold(1, 2, 3)]]),
    ),
  );
  await runColdStartPass({
    cases: cs,
    processes: 2,
    payloadOf: () => ({ path: '/nonexistent.json' }),
    launchFor: () => fake.launch,
    measure: fixtureResults().policy.measure,
    timeoutMs: 1000,
  });
  const c = cs.find((x) => x.status === 'measured')!;
  assert.equal(c.status, 'measured');
  assert.ok(c.time && c.time.mean > 0);
  assert.equal(c.coldStart?.processes, 1);
  assert.deepEqual(c.coldStart?.prepareNs, [2]);
  assert.equal(c.coldStart?.cpu, undefined, 'no CPU figures when a process had none');
  assert.match(c.coldStart?.failures?.[0] ?? '', /^process 1: crashed: .*boom/);
});
