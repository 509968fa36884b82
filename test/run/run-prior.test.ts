import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  assembleGroup,
  groupLaunchSpread,
  runPriorsFor,
  runPriorsInOrder,
  type CaseRecord,
  type GroupLaunchSpread,
} from '../../src/run/assemble.js';
import { PRIOR_DF_MAX } from '../../src/stats/intervals.js';
import { readResults } from '../../src/results/io.js';
import { isMeasured, type MeasuredCase, type ResultsFile } from '../../src/results/types.js';
import { LAUNCHES_DISAGREE } from '../../src/results/decision.js';
import { noisy } from '../../src/analysers/noisy.js';
import { payload, planned } from './fake-launch.js';

const RECORDED = fileURLToPath(new URL('../../../test/analysers/fixtures/recorded-launches.json', import.meta.url));

/** A group's spread as assemble.ts makes it, by hand: one time estimate of `variance` worth `weight` launch contrasts. */
const spread = (target: string, caseClass: string, variance: number, weight = 1): GroupLaunchSpread => ({
  target,
  caseClass,
  time: { variance, df: weight, weight },
  ratio: { variance: variance / 2, df: weight, weight },
});

test('a group borrows from the run’s other groups of its target, never from itself (leave-the-group-out)', () => {
  const groups = [
    spread('node', 'serialize', 0.001),
    spread('node', 'serialize', 0.003),
    spread('node', 'parse', 0.005),
    spread('dotnet', 'serialize', 0.5),
  ];
  const priors = runPriorsInOrder(groups);
  // group 0: the other node groups (1 and 2; its class alone gives 1 contrast, under PRIOR_DF_MAX), not .NET's
  assert.ok(Math.abs(priors[0].time!.variance - 0.004) < 1e-12, String(priors[0].time!.variance));
  assert.equal(priors[0].time!.df, 2);
  // its own variance never enters: a group 100× noisier gets the same prior
  const noisier = runPriorsInOrder([spread('node', 'serialize', 0.1), ...groups.slice(1)]);
  assert.deepEqual(noisier[0], priors[0]);
  // the .NET group has no other group of its target: nothing to borrow
  assert.deepEqual(priors[3], {});
  // runPriorsFor, as the scheduler calls it, agrees
  assert.deepEqual(runPriorsFor(groups[1], [groups[0], groups[2], groups[3]]), priors[1]);
});

test('a group is lent its prior once the groups done of its class give PRIOR_DF_MAX launch contrasts, else at the run’s end', () => {
  const ser = (v: number) => spread('node', 'serialize', v, 2);
  const groups = [ser(0.001), spread('node', 'parse', 0.009, 2), ser(0.001), ser(0.003), ser(0.002)];
  const priors = runPriorsInOrder(groups);
  // group 0 is assembled once groups 2 and 3 (2 + 2 = 4 contrasts of its class) are done: their pool, not the parse group's
  assert.ok(Math.abs(priors[0].time!.variance - 0.002) < 1e-12, String(priors[0].time!.variance));
  assert.equal(priors[0].time!.df, PRIOR_DF_MAX);
  // the parse group: no other of its class, so it waits for the run's end and pools every node group, d₀ capped
  assert.ok(Math.abs(priors[1].time!.variance - 0.00175) < 1e-12, String(priors[1].time!.variance));
  assert.equal(priors[1].time!.df, PRIOR_DF_MAX);
  // the last group: the other serialize groups (6 contrasts)
  assert.ok(Math.abs(priors[4].time!.variance - 0.005 / 3) < 1e-12, String(priors[4].time!.variance));
  // a run of one group: nothing to borrow
  assert.deepEqual(runPriorsInOrder([ser(0.001)]), [{}]);
});

/** The recorded fixture's measured cases as the runner's records, one array per group. */
function groupsOf(r: ResultsFile): CaseRecord[][] {
  const groups = new Map<string, CaseRecord[]>();
  for (const c of r.cases.filter(isMeasured)) {
    const key = `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.class}`;
    groups.set(key, [
      ...(groups.get(key) ?? []),
      {
        planned: planned(c.serializer, {
          id: c.id,
          baseline: c.baseline,
          workload: c.workload,
          size: c.size,
          shape: c.shape,
          direction: c.direction,
          caseClass: c.class,
        }),
        payload,
        launches: c.samples.launches,
        relaunches: c.samples.relaunches,
        end: { status: 'measured' },
        paired: c.ratio !== null && c.serializer !== c.baseline,
      },
    ]);
  }
  return [...groups.values()];
}

test('on recorded launches (load 20.3), judged against the run’s spread model, ⚠ noisy is on 1 case of 16, and no launches disagree', () => {
  const r = readResults(RECORDED);
  const groups = groupsOf(r);
  assert.equal(groups.length, 4);
  const priors = runPriorsInOrder(groups.map(groupLaunchSpread));
  const out = groups.flatMap((recs, g) => assembleGroup(recs, r.policy.measure, priors[g])).filter(isMeasured);
  assert.equal(out.length, 16);
  const flagged = out.filter((c) => c.findings.some((f) => f.code === 'noisy'));
  assert.ok(flagged.length <= out.length / 3, `${flagged.length} of ${out.length} flagged`);
  assert.deepEqual(
    flagged.map((c) => `${c.serializer} ${c.class}`),
    ['typia serialize'],
  );
  assert.ok(!out.some((c) => c.findings.some((f) => f.message.startsWith(LAUNCHES_DISAGREE))));
  // against their own errors alone (no spread model) the same launches disagree on 2 cases
  const alone = out.filter((c) =>
    noisy.analyse(c, { policy: r.policy.measure }).some((f) => f.message.startsWith(LAUNCHES_DISAGREE)),
  ) as MeasuredCase[];
  assert.equal(alone.length, 2);
});
