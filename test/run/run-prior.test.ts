import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runPriorsFor, runPriorsInOrder, type GroupLaunchSpread } from '../../src/run/assemble.js';
import { CLASS_AGREEMENT_LEVEL, PRIOR_DF_MAX_BY_MEASURE } from '../../src/stats/intervals.js';
import jstatModule from 'jstat';
import { readResults } from '../../src/results/io.js';
import { isMeasured, type MeasuredCase } from '../../src/results/types.js';
import { LAUNCHES_DISAGREE } from '../../src/results/decision.js';
import { noisy } from '../../src/analysers/noisy.js';
import { reassembleGroups, recordedGroups } from '../../src/run/recorded.js';

/** The time prior's d₀ cap (stats/intervals.ts PRIOR_DF_MAX_BY_MEASURE: 2.5 since branch stats5, from recorded runs). */
const TIME_CAP = PRIOR_DF_MAX_BY_MEASURE.time;

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

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
  // group 0: the other node groups (1 and 2; its class alone gives 1 contrast, under PRIOR_DF_MAX), not .NET's;
  // the parse group at weight ρ = q/F: F = 0.005/0.003 beyond q, the median of F(1, 1) = 1 (the classes differ)
  const rho = 1 / (0.005 / 0.003);
  assert.ok(Math.abs(priors[0].time!.variance - (0.003 + rho * 0.005) / (1 + rho)) < 1e-9);
  assert.ok(Math.abs(priors[0].time!.df - (1 + rho)) < 1e-6, String(priors[0].time!.df));
  // its own variance never enters: a group 100× noisier gets the same prior
  const noisier = runPriorsInOrder([spread('node', 'serialize', 0.1), ...groups.slice(1)]);
  assert.deepEqual(noisier[0], priors[0]);
  // the .NET group has no other group of its target: nothing to borrow
  assert.deepEqual(priors[3], {});
  // runPriorsFor, as the scheduler calls it, agrees
  assert.deepEqual(runPriorsFor(groups[1], [groups[0], groups[2], groups[3]]), priors[1]);
});

test('a class whose groups spread twice as far as the rest borrows mostly from its own class, not from the pool of every class', () => {
  // the default suite's shape: 3 groups of a class, 1 launch contrast each (2 left out of its own), beside 6 quieter groups
  const groups = [
    spread('node', 'serialize', 0.004),
    spread('node', 'serialize', 0.004),
    spread('node', 'serialize', 0.004),
    ...Array.from({ length: 6 }, () => spread('node', 'parse', 0.001)),
  ];
  const prior = runPriorsFor(groups[0], groups.slice(1)).time!;
  // pooling every class at full weight read (2·0.004 + 6·0.001)/8 = 0.00175, under half the class's 0.004
  const q = jStat.centralF.inv(CLASS_AGREEMENT_LEVEL, 2, 6);
  const rho = q / 4;
  assert.ok(Math.abs(prior.variance - (2 * 0.004 + rho * 6 * 0.001) / (2 + 6 * rho)) < 1e-12, String(prior.variance));
  assert.ok(prior.variance > 0.0025, String(prior.variance));
  assert.ok(Math.abs(prior.df - Math.min(TIME_CAP, 2 + 6 * rho)) < 1e-12, String(prior.df));
  // classes that agree pool at full weight
  const same = [...groups.slice(0, 3), ...Array.from({ length: 6 }, () => spread('node', 'parse', 0.004))];
  const agree = runPriorsFor(same[0], same.slice(1)).time!;
  assert.ok(Math.abs(agree.variance - 0.004) < 1e-12 && agree.df === TIME_CAP, JSON.stringify(agree));
  // a parse group has 5 contrasts of its class: theirs alone
  assert.deepEqual(runPriorsFor(groups[3], [...groups.slice(0, 3), ...groups.slice(4)]).time, {
    variance: 0.001,
    df: TIME_CAP,
  });
});

test('a group is lent its prior once the groups done of its class give PRIOR_DF_MAX launch contrasts, else at the run’s end', () => {
  const ser = (v: number) => spread('node', 'serialize', v, 2);
  const groups = [ser(0.001), spread('node', 'parse', 0.009, 2), ser(0.001), ser(0.003), ser(0.002)];
  const priors = runPriorsInOrder(groups);
  // group 0 is assembled once groups 2 and 3 (2 + 2 = 4 contrasts of its class) are done: their pool, not the parse group's
  assert.ok(Math.abs(priors[0].time!.variance - 0.002) < 1e-12, String(priors[0].time!.variance));
  assert.equal(priors[0].time!.df, TIME_CAP);
  // the parse group: no other of its class, so it waits for the run's end and pools every node group, d₀ capped
  assert.ok(Math.abs(priors[1].time!.variance - 0.00175) < 1e-12, String(priors[1].time!.variance));
  assert.equal(priors[1].time!.df, TIME_CAP);
  // the last group: the other serialize groups (6 contrasts)
  assert.ok(Math.abs(priors[4].time!.variance - 0.005 / 3) < 1e-12, String(priors[4].time!.variance));
  // a run of one group: nothing to borrow
  assert.deepEqual(runPriorsInOrder([ser(0.001)]), [{}]);
});

test('on recorded launches (load 20.3), judged against the run’s spread model, ⚠ noisy is on 4 cases of 16, and no launches disagree', () => {
  const r = readResults(RECORDED);
  const groups = recordedGroups(r.cases);
  assert.equal(groups.length, 4);
  const out = reassembleGroups(groups, r.policy.measure).flat().filter(isMeasured);
  assert.equal(out.length, 16);
  const flagged = out.filter((c) => c.findings.some((f) => f.code === 'noisy'));
  assert.ok(flagged.length <= out.length / 3, `${flagged.length} of ${out.length} flagged`);
  // the border band of results/decision.ts (1.0 half-width, capped at 10%) with the tie rule (a ratio
  // within 2% of 1 whose interval holds 1 and lies within 4% of it is "no clear winner"): arktype
  // transform 0.977 [0.88–1.09], fast-json-stringify serialize 0.969 [0.88–1.07], typia serialize
  // 1.057 [0.96–1.16] and typia validate 1.003 [0.91–1.10] end within 10% of 1, so a rerun could fall
  // on the other side (borderline, flagged); typia validate's interval reaches 9% below 1, too wide
  // for a resolved tie (out24's tie on the ratio alone left it unflagged: studies/border-band NOTE.md)
  assert.deepEqual(flagged.map((c) => `${c.serializer} ${c.class}`).sort(), [
    'arktype transform',
    'fast-json-stringify serialize',
    'typia serialize',
    'typia validate',
  ]);
  assert.ok(!out.some((c) => c.findings.some((f) => f.message.startsWith(LAUNCHES_DISAGREE))));
  // against their own errors alone (no spread model) the same launches disagree on 2 cases
  const alone = out.filter((c) =>
    noisy.analyse(c, { policy: r.policy.measure }).some((f) => f.message.startsWith(LAUNCHES_DISAGREE)),
  ) as MeasuredCase[];
  assert.equal(alone.length, 2);
});
