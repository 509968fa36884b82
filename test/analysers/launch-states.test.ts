import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LaunchRecord } from '../../src/results/types.js';
import { assembleGroup, groupSpreads, processKey, type CaseRecord } from '../../src/run/assemble.js';
import { analysers } from '../../src/analysers/index.js';
import { launchStatesAnalyser } from '../../src/analysers/launch-states.js';
import { policies } from '../../src/config/policies.js';
import { wilsonInterval } from '../../src/stats/intervals.js';
import { payload, planned } from '../run/fake-launch.js';
import { runColumns, savesText } from '../../src/report/rows.js';
import { formatTime } from '../../src/report/units.js';

const policy = policies.default.measure;

/** A launch of 8 rounds, 4 samples a side: the serializer near `ns`, the baseline near `baseNs` (±0.2% within the launch). */
function launch(n: number, ns: number, baseNs: number): LaunchRecord {
  const wobble = (x: number, i: number) => x * (1 + 0.002 * Math.sin(n * 7 + i));
  return {
    launch: n,
    opsPerSample: { serializer: 1000, baseline: 1000 },
    warmup: { serializerOps: 200, serializerMs: 20, baselineOps: 200, baselineMs: 20 },
    emptyNsPerOp: 1,
    rounds: Array.from({ length: 8 }, (_, r) => ({
      serializerNs: [0, 1, 2, 3].map((i) => wobble(ns, r * 4 + i)),
      baselineNs: [0, 1, 2, 3].map((i) => wobble(baseNs, r * 4 + i + 1)),
    })),
    noisy: false,
    elapsedMs: 500,
    clock: 'cpu',
  };
}

function rec(serializer: string, launches: LaunchRecord[]): CaseRecord {
  return {
    planned: planned(serializer),
    payload,
    launches,
    relaunches: 0,
    end: { status: 'measured' },
    paired: serializer !== 'json',
  };
}

test('launch-states is registered: every assembled case runs it', () => {
  assert.ok(analysers.includes(launchStatesAnalyser));
});

/**
 * A group launched together (one process per launch: the records carry no `grouped` and share
 * each launch's elapsed time, as a group launch's do): json the baseline, `cases` paired, each with
 * its launch ratios (× 1000 ns); the others' launches spread about 1% around their ratios.
 */
function groupOf(cases: Record<string, number[]>): CaseRecord[] {
  const k = Math.max(3, ...Object.values(cases).map((r) => r.length));
  const wobble = [1, 1.011, 0.99, 1.004, 0.993, 1.008, 0.997, 1.012, 0.989, 1.002];
  const ordinary: Record<string, number[]> = {
    p1: Array.from({ length: k }, (_, i) => 0.667 * wobble[i % 10]),
    p2: Array.from({ length: k }, (_, i) => 0.8 * wobble[(i + 3) % 10]),
    p3: Array.from({ length: k }, (_, i) => 1.2 * wobble[(i + 6) % 10]),
  };
  return [
    rec(
      'json',
      Array.from({ length: k }, (_, i) => launch(i + 1, 1000, 1000)),
    ),
    ...Object.entries({ ...cases, ...ordinary }).map(([s, ratios]) =>
      rec(
        s,
        ratios.map((r, i) => launch(i + 1, 1000 * r, 1000)),
      ),
    ),
  ];
}

test('launches in two states (ratio 3.49 in one, 4.44 in two) against a group spreading ~1%: the interval covers both and a finding names each state', () => {
  // issue 23's worst case: a launch pair read 3.49 and 4.44, a third 4.44
  const [json, slow] = assembleGroup(groupOf({ slow: [3.49, 4.44, 4.44] }), policy);
  assert.equal(json.status, 'measured');
  assert.equal(slow.status, 'measured');
  const [low, high] = slow.ratioInterval!;
  assert.ok(low <= 3.49 && high >= 4.44, `interval ${low}–${high} covers both states`);
  // the centre is the geometric mean of the launch ratios, not the median's pick of one state
  assert.ok(Math.abs(slow.ratio! - Math.cbrt(3.49 * 4.44 * 4.44)) < 0.01, `ratio ${slow.ratio}`);
  const f = slow.findings.find((x) => x.code === 'launch-states');
  assert.ok(f, JSON.stringify(slow.findings));
  // each state with its launches and its share of them
  assert.match(f.message, /fell into 2 distinct states.*ratio 3\.490 \(1 launch, 33%\), 4\.440 \(2 launches, 67%\)/);
  // its own spread is far beyond the group's: its own variance, t(2), is already wider than the mixture's interval
  assert.match(
    f.message,
    /is the mean over all the launches, each state by its share; its interval counts how uncertain the shares are and was already wide enough \(not widened\)/,
  );
  assert.equal(slow.findings.filter((x) => x.code === 'launch-states').length, 1);
  assert.doesNotMatch(
    runColumns()
      .find((c) => c.id === 'notes')
      ?.cell(slow) ?? '',
    /interval widened/,
  );
});

test('a bimodal case whose own interval is narrower than the two-state mixture’s is widened to it, and the finding says so (branch stats7: the shares’ Wilson interval, not the launches’ range)', () => {
  // one launch at 3.49, nine at 4.44: the t-interval of ten launches is about 3.9–4.8. The mean over the
  // mixture is 3.49·(4.44/3.49)^p; the share p of the high state, 9 of 10, has the 99.9% Wilson interval
  // 0.39–0.99, so the mean lies between 3.49·1.272^0.39 = 3.83 and 4.43 (plus the within-state noise)
  const [, slow] = assembleGroup(groupOf({ slow: [3.49, ...Array<number>(9).fill(4.44)] }), policy);
  const [low, high] = slow.ratioInterval!;
  const [pl] = wilsonInterval(9, 10, 0.999);
  const mixLow = 3.49 * Math.exp(pl * Math.log(4.44 / 3.49));
  assert.ok(Math.abs(low / mixLow - 1) < 0.01, `interval ${low}–${high}, the mixture's lower end ${mixLow}`);
  assert.ok(low > 3.49, 'the mean over the states, not a range holding every launch: it shrinks with the launches');
  assert.ok(high >= 4.44, `interval ${low}–${high}`);
  // the centre: the geometric mean of the ten launches, each state by its share
  assert.ok(
    Math.abs(slow.ratio! - Math.exp(0.1 * Math.log(3.49) + 0.9 * Math.log(4.44))) < 1e-3,
    `ratio ${slow.ratio}`,
  );
  const f = slow.findings.find((x) => x.code === 'launch-states');
  assert.ok(f, JSON.stringify(slow.findings));
  assert.match(
    f.message,
    /ratio 3\.490 \(1 launch, 10%\), 4\.440 \(9 launches, 90%\).*its interval counts how uncertain the shares are and is widened for them/,
  );
  assert.match(
    runColumns()
      .find((c) => c.id === 'notes')
      ?.cell(slow) ?? '',
    /⇉ launches in distinct states: interval widened/,
  );
});

test('launches 5% apart in a group whose launches spread 2.5%: ordinary spread, no finding, the interval not widened', () => {
  const wide = [1, 1.03, 0.975];
  const recs = groupOf({ ord: [1.0, 1.05, 0.98] });
  // the others spread 2.5% here
  for (const r of recs.slice(2))
    r.launches = r.launches.map((l, i) =>
      launch(l.launch, (l.rounds[0].serializerNs[0] / 1000) * 1000 * wide[i], 1000),
    );
  const [, ord] = assembleGroup(recs, policy);
  assert.deepEqual(
    ord.findings.filter((x) => x.code === 'launch-states'),
    [],
  );
  assert.equal(ord.ratioBasis, 'moderated');
});

test('launches in one state get no finding, and their interval is the launch means’ t-interval, not widened', () => {
  const [, fast] = assembleGroup(
    [
      rec('json', [launch(1, 1000, 1000), launch(2, 1010, 1000), launch(3, 995, 1000)]),
      rec('fast', [launch(1, 667, 1000), launch(2, 668, 1000), launch(3, 666, 1000)]),
    ],
    policy,
  );
  assert.deepEqual(
    fast.findings.filter((x) => x.code === 'launch-states'),
    [],
  );
  assert.equal(fast.time!.basis, 'moderated');
  assert.equal(fast.time!.launches, 3);
  assert.ok(Math.abs(fast.time!.mean - 667) < 1, `mean ${fast.time!.mean}`);
  assert.ok(fast.ratioInterval![0] < 0.667 && fast.ratioInterval![1] > 0.667);
  assert.ok(fast.ratioInterval![1] / fast.ratioInterval![0] < 1.1, `${fast.ratioInterval}`);
});

test('a case of one launch gets its interval from its rounds (basis rounds)', () => {
  const [json, one] = assembleGroup([rec('json', [launch(1, 1000, 1000)]), rec('one', [launch(1, 500, 1000)])], policy);
  assert.equal(json.time!.basis, 'rounds');
  assert.equal(one.ratioBasis, 'rounds');
  assert.ok(one.ratioInterval![0] < 0.5 && one.ratioInterval![1] > 0.5);
  assert.ok(one.time!.error > 0 && one.time!.error < 5, `error ${one.time!.error}`);
  assert.equal(one.time!.df, 7, '8 round means');
});

test('a launch whose value is not finite is dropped, not the case turned into a pooled-rounds interval', () => {
  const bad = launch(2, 1000, 1000);
  // a baseline median of 0 makes that launch's ratio infinite
  bad.rounds = bad.rounds.map((r) => ({
    ...r,
    serializerNs: r.serializerNs.map((x) => x * 0.7),
    baselineNs: r.baselineNs.map(() => 0),
  }));
  const [, c] = assembleGroup(
    [
      rec('json', [launch(1, 1000, 1000), launch(2, 1000, 1000), launch(3, 1000, 1000)]),
      rec('c', [launch(1, 700, 1000), bad, launch(3, 707, 1000)]),
    ],
    policy,
  );
  assert.notEqual(c.ratioBasis, 'rounds');
  assert.ok(Math.abs(c.ratio! - Math.sqrt(0.7 * 0.707)) < 1e-3, `ratio ${c.ratio}`);
});

test('a single launch of a single round: time error, basis and df describe one interval (its samples)', () => {
  const one = launch(1, 500, 1000);
  one.rounds = one.rounds.slice(0, 1);
  const [, c] = assembleGroup([rec('json', [launch(1, 1000, 1000)]), rec('c', [one])], policy);
  assert.equal(c.time!.basis, 'rounds');
  assert.equal(c.time!.df, 3, '4 samples of the one round');
  assert.ok(c.time!.error > 0 && Number.isFinite(c.time!.error));
});

test('which process a launch ran in: grouped true shares its launch number, false is its own, older files by elapsed time and empty-loop cost', () => {
  const a = launch(1, 1, 1);
  const b = launch(1, 2, 1);
  assert.equal(processKey(a), processKey(b), 'a group launch’s records share elapsed time and empty-loop cost');
  assert.notEqual(processKey(a), processKey({ ...b, elapsedMs: 501 }));
  assert.equal(processKey({ ...a, grouped: true }), processKey({ ...b, grouped: true }));
  assert.notEqual(processKey({ ...a, grouped: false }), processKey({ ...b, grouped: false }));
  // separate processes lend a one-way prior; shared ones the two-way estimate
  const sep = (r: CaseRecord) => ({ ...r, launches: r.launches.map((l) => ({ ...l, grouped: false })) });
  const recs = groupOf({});
  assert.equal(groupSpreads(recs)[1].ratio?.kind, 'shared');
  assert.equal(groupSpreads(recs.map(sep))[1].ratio?.kind, 'prior');
});

test('a paired case records what it saves per op against its baseline, and report.md says so beside the ratio', () => {
  const [json, fast] = assembleGroup(
    [
      rec('json', [launch(1, 1000, 1000), launch(2, 1010, 1000), launch(3, 995, 1000)]),
      rec('fast', [launch(1, 667, 1000), launch(2, 668, 1000), launch(3, 666, 1000)]),
    ],
    policy,
  );
  assert.equal(json.difference, undefined, "the baseline's own case has none");
  const d = fast.difference!;
  // (ratio − 1) × the baseline's mean beside it (1000 ns): about −333 ns, its interval the ratio's carried over
  assert.ok(Math.abs(d.value - (fast.ratio! - 1) * 1000) < 1, `difference ${d.value}`);
  assert.ok(d.low < d.value && d.value < d.high && d.high < 0);
  assert.equal(savesText(fast), `saves ${formatTime(-d.value)}/op`);
  assert.match(
    runColumns({ saves: true })
      .find((c) => c.id === 'ratio')!
      .cell(fast),
    /^0\.67 \[.*\]; saves 33\d ns\/op$/,
  );
  assert.doesNotMatch(
    runColumns()
      .find((c) => c.id === 'ratio')!
      .cell(fast),
    /saves/,
  );
});
