import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRatios, compareSamples, percentChangeInterval, verdictOf } from '../../src/compare/change.js';
import {
  compareResults,
  DEFAULT_ALPHA,
  DEFAULT_THRESHOLDS,
  gateFailures,
  gateHeadline,
  gateReasons,
  METRICS,
  type CompareOptions,
} from '../../src/compare/compare.js';
import { pValue, renderCompareMarkdown, renderCompareTerminal } from '../../src/compare/render.js';
import { makeCase, makeResults, normalSamples, prng, roundsOf } from '../ledger/fixture.js';
import type { ResultsFile } from '../../src/results/types.js';

const rule = { alpha: DEFAULT_ALPHA, thresholdPercent: 5 };
const options: CompareOptions = { alpha: DEFAULT_ALPHA, thresholds: { ...DEFAULT_THRESHOLDS }, metrics: METRICS };

test('a known +20% shift on quiet samples is detected as slower, with a CI around +20%', () => {
  const rand = prng(1);
  const ch = compareSamples(normalSamples(rand, 60, 1000, 20), normalSamples(rand, 60, 1200, 24), rule);
  assert.equal(ch.verdict, 'slower');
  assert.ok(ch.p! < 1e-10, `p = ${ch.p}`);
  assert.ok(Math.abs(ch.percent - 20) < 1.5, `change ${ch.percent}`);
  assert.ok(
    ch.ci!.low > 17 && ch.ci!.high < 23 && ch.ci!.low < ch.percent && ch.percent < ch.ci!.high,
    JSON.stringify(ch.ci),
  );
});

test('a known −15% shift is detected as faster', () => {
  const rand = prng(2);
  assert.equal(
    compareSamples(normalSamples(rand, 40, 1000, 20), normalSamples(rand, 40, 850, 20), rule).verdict,
    'faster',
  );
});

test('no shift reads as same', () => {
  const rand = prng(3);
  const ch = compareSamples(normalSamples(rand, 60, 1000, 20), normalSamples(rand, 60, 1000, 20), rule);
  assert.equal(ch.verdict, 'same');
  assert.ok(Math.abs(ch.percent) < 2);
});

test('a noisy case whose mean rose 20% through a few outliers is not called slower', () => {
  const rand = prng(4);
  const base = normalSamples(rand, 30, 1000, 150);
  const head = normalSamples(rand, 30, 1000, 150);
  head[3] = 4000;
  head[17] = 4500; // two descheduled samples
  const ch = compareSamples(base, head, rule);
  assert.ok(ch.percent > 15, `the mean did rise: ${ch.percent}`);
  assert.equal(ch.verdict, 'same');
});

test("a noisy case with a real but small shift stays same: the change is within the runs' noise", () => {
  const rand = prng(5);
  const ch = compareSamples(
    normalSamples(rand, 400, 1000, 400).map(Math.abs),
    normalSamples(rand, 400, 1080, 430).map(Math.abs),
    rule,
  );
  assert.ok(ch.p! < 0.05, `significant: p = ${ch.p}`);
  assert.ok(ch.percent > 5, `over the threshold: ${ch.percent}`);
  assert.equal(ch.verdict, 'same');
  assert.equal(ch.sameBecause, 'within-noise');
});

test('a busier machine (extra time on most samples, the fastest untouched) is not called slower', () => {
  const rand = prng(12);
  const base = normalSamples(rand, 60, 1000, 15);
  const head = normalSamples(rand, 60, 1000, 15).map((x) => (rand() < 0.7 ? x + 300 + 400 * rand() : x));
  const ch = compareSamples(base, head, rule, { fastDecile: true });
  assert.ok(ch.p! < 1e-6 && ch.percent > 25, `significant and large: p ${ch.p}, ${ch.percent}%`);
  assert.ok(Math.abs(ch.fastPercent!) < 3, `fastest decile unchanged: ${ch.fastPercent}`);
  assert.deepEqual([ch.verdict, ch.sameBecause], ['same', 'slow-samples-only']);
  const slowerCode = compareSamples(
    base,
    base.map((x) => x * 1.3),
    rule,
    { fastDecile: true },
  );
  assert.equal(slowerCode.verdict, 'slower');
});

test('when both runs have several launches, their launch-to-launch spread raises the noise floor', () => {
  const rand = prng(13);
  const base = normalSamples(rand, 60, 1000, 10);
  const head = normalSamples(rand, 60, 1100, 10);
  assert.equal(compareSamples(base, head, rule).verdict, 'slower');
  const spread = compareSamples(base, head, rule, {
    launchMeans: { base: [900, 1000, 1150], head: [1000, 1100, 1250] },
  });
  assert.ok(Math.abs(spread.noiseFloor! - 100 * Math.hypot(0.25, 250 / 1100)) < 1e-9, `floor ${spread.noiseFloor}`);
  assert.deepEqual([spread.verdict, spread.sameBecause], ['same', 'within-noise']);
});

test('a significant shift under the threshold is same (below-threshold)', () => {
  const rand = prng(6);
  const ch = compareSamples(normalSamples(rand, 200, 1000, 5), normalSamples(rand, 200, 1020, 5), rule);
  assert.ok(ch.p! < 1e-10);
  assert.deepEqual([ch.verdict, ch.sameBecause], ['same', 'below-threshold']);
});

test('the verdict needs p < alpha, the same direction as the means, and the threshold', () => {
  assert.deepEqual(verdictOf(30, { p: 0.2, z: 1 }, 1, rule), { verdict: 'same', sameBecause: 'not-significant' });
  assert.deepEqual(verdictOf(30, { p: 0.001, z: -3 }, 1, rule), { verdict: 'same', sameBecause: 'mixed-signals' });
  assert.deepEqual(verdictOf(30, { p: 0.001, z: 3 }, 1, rule), { verdict: 'slower' });
  assert.deepEqual(verdictOf(0.6, null, null, { alpha: 0.05, thresholdPercent: 0.5 }), { verdict: 'slower' });
  assert.deepEqual(verdictOf(0.4, null, null, { alpha: 0.05, thresholdPercent: 0.5 }), {
    verdict: 'same',
    sameBecause: 'below-threshold',
  });
});

test('the CI of the change of two equal constant sets is exactly zero wide', () => {
  assert.deepEqual(percentChangeInterval([10, 10, 10], [10, 10, 10], 0.95), { low: 0, high: 0, confidence: 0.95 });
  assert.equal(percentChangeInterval([10], [10, 11], 0.95), null);
});

const rand = prng(9);
const base = makeResults([
  { serializer: 'json', rounds: roundsOf(rand, 8, 5, 2000, 30) },
  { serializer: 'fast-json-stringify', rounds: roundsOf(rand, 8, 5, 600, 10), instructions: 12000 },
  { serializer: 'typia', rounds: roundsOf(rand, 8, 5, 500, 10) },
  { serializer: 'superjson', status: 'failed', reason: 'prepare: TypeError' },
  { serializer: 'old-only', rounds: [[1, 2, 3]] },
]);
const head = makeResults(
  [
    { serializer: 'json', rounds: roundsOf(rand, 8, 5, 2000, 30), allocWindows: [780.5, 780.25, 780.5, 781, 780.5] },
    { serializer: 'fast-json-stringify', rounds: roundsOf(rand, 8, 5, 690, 10), instructions: 12100 },
    { serializer: 'typia', status: 'incorrect', reason: 'output differs at $.temperature' },
    { serializer: 'superjson', rounds: roundsOf(rand, 8, 5, 3000, 30) },
    { serializer: 'new-only', rounds: [[1, 2, 3]] },
  ],
  '2025-01-03T00:00:00.000Z',
);

test('compare matches cases by id: verdicts per metric, status changes called out, unmatched cases listed', () => {
  const c = compareResults(base, head, options);
  const verdicts = c.cases.map((k) => [k.serializer, ...k.metrics.map((m) => `${m.metric}:${m.change.verdict}`)]);
  assert.deepEqual(verdicts, [
    ['json', 'time:same', 'alloc:slower'],
    // the fixture's ratio is 1.25 on both sides: the same
    ['fast-json-stringify', 'ratio:same', 'time:slower', 'alloc:same', 'instructions:slower'],
  ]);
  assert.deepEqual(
    c.statusChanges.map((s) => [s.id.split('/').pop(), s.kind, s.base, s.head]),
    [
      ['typia', 'broken', 'measured', 'incorrect'],
      ['superjson', 'fixed', 'failed', 'measured'],
    ],
  );
  assert.deepEqual(
    [c.onlyInBase.map((i) => i.split('/').pop()), c.onlyInHead.map((i) => i.split('/').pop())],
    [['old-only'], ['new-only']],
  );
  const fjsInstr = c.cases[1].metrics[3].change;
  assert.ok(Math.abs(fjsInstr.percent - 100 * (12100 / 12000 - 1)) < 1e-9);
});

test('--fail-on slower fails on any slower metric; --fail-on broken on a case that stopped measuring', () => {
  const c = compareResults(base, head, { ...options, metrics: ['time'] });
  assert.deepEqual(
    gateFailures(c, ['slower']).map((r) => r.replace(/ .*/, '')),
    ['weather-station/1/single/serialize/fast-json-stringify:'],
  );
  // a case measured in base that the head run does not hold is broken too (hx35 g3: "Only in base", exit 0)
  assert.deepEqual(gateFailures(c, ['broken']), [
    'weather-station/1/single/serialize/typia: measured → incorrect',
    'weather-station/1/single/serialize/old-only: measured → not in the head run',
  ]);
  assert.deepEqual(gateFailures(compareResults(base, base, options), ['slower', 'broken']), []);
});

test('the Markdown table has one row per case × metric, verdicts in bold when not same, and the status changes', () => {
  const md = renderCompareMarkdown(compareResults(base, head, options), 'run 1', 'run 2');
  assert.match(
    md,
    /^### jsonbench compare: run 1 → run 2\n\n\| Case \| Serializer \| Metric \| Base \| Head \| Change \| CI \| p \| Noise \| Verdict \|/,
  );
  assert.equal(md.split('\n').filter((l) => l.startsWith('| weather-station')).length, 6);
  assert.match(
    md,
    /\| fast-json-stringify \| time \| 60\d ns \| 69\d ns \| \+1\d% \| .* \| &lt; 0\.001 \| ±\d\.\d% \| \*\*slower\*\* \|/,
  );
  assert.match(
    md,
    /- ✗ now incorrect: weather-station\/1\/single\/serialize\/typia — output differs at \$\.temperature/,
  );
});

test('files written before launch intervals: two one-launch runs (policy quick) get no verdict however far apart, and --fail-on slower does not fail on them', () => {
  const r = prng(21);
  const quiet = normalSamples(r, 60, 1000, 10);
  // identical code, the head run on a machine that was busy the whole launch: +1065%, p < 0.001, tight within the launch
  const a = makeResults([{ serializer: 'json', rounds: [quiet] }]);
  const b = makeResults([{ serializer: 'json', rounds: [quiet.map((x) => x * 11.65)] }], '2025-01-03T00:00:00.000Z');
  const c = compareResults(a, b, options);
  const time = c.cases[0].metrics[0].change;
  assert.ok(time.percent > 1000 && time.p! < 0.001, `a large, significant change: ${time.percent}%, p ${time.p}`);
  assert.deepEqual([time.verdict, time.noVerdictBecause], ['no-verdict', 'one-launch']);
  assert.deepEqual(
    c.cases[0].metrics.map((m) => m.change.verdict),
    ['no-verdict', 'no-verdict'],
  );
  assert.deepEqual(gateFailures(c, ['slower']), []);
  const md = renderCompareMarkdown(c, 'a', 'b');
  assert.match(md, /\| no verdict \(one launch\) \|/);
  assert.match(
    md,
    /- 1 case in both runs — time: 1 without a verdict \(one launch\); allocated: 1 without a verdict \(one launch\)\./,
  );
});

test('a case flagged noisy on either side gets no time verdict', () => {
  const r = prng(22);
  const a = makeResults([{ serializer: 'json', rounds: roundsOf(r, 8, 5, 1000, 10) }]);
  const b = makeResults([{ serializer: 'json', rounds: roundsOf(r, 8, 5, 1500, 15) }], '2025-01-03T00:00:00.000Z');
  assert.equal(compareResults(a, b, options).cases[0].metrics[0].change.verdict, 'slower');
  b.cases[0].findings.push({ code: 'noisy', message: '1 of 2 launch(es) reached the time cap' });
  const ch = compareResults(a, b, options).cases[0].metrics[0].change;
  assert.deepEqual([ch.verdict, ch.noVerdictBecause], ['no-verdict', 'noisy']);
  assert.deepEqual(gateFailures(compareResults(a, b, options), ['slower']), []);
});

test('a significant change over the noise floor whose two intervals of the mean overlap is same (within noise)', () => {
  const r = prng(23);
  const base = normalSamples(r, 20, 1000, 150);
  const head = normalSamples(r, 20, 1220, 183);
  const ch = compareSamples(base, head, rule);
  assert.ok(
    ch.p! < 0.05 && ch.percent >= ch.noiseFloor! && ch.percent >= 5,
    `significant, over threshold and floor: p ${ch.p}, ${ch.percent}% vs ±${ch.noiseFloor}%`,
  );
  assert.deepEqual(verdictOf(ch.percent, { p: ch.p!, z: 1 }, ch.noiseFloor, rule), { verdict: 'slower' });
  assert.deepEqual([ch.verdict, ch.sameBecause], ['same', 'within-noise']);
});

test('the counts under the table are per metric, as its rows say them (new-user tryout: rows said "same" while the counts said "without a verdict")', () => {
  const c = compareResults(base, head, options);
  assert.equal(c.cases.flatMap((k) => k.metrics).length, 6);
  assert.match(
    renderCompareMarkdown(c, 'run 1', 'run 2'),
    /\n- 2 cases in both runs — ratio: 1 same; time: 1 slower, 1 same; allocated: 1 slower, 1 same; instructions: 1 slower\.\n/,
  );
});

test("compare shows the figures the reports show: allocation as the median of the windows (the Allocated column), time as the case's Mean (new-user tryout)", () => {
  // windows whose mean (2,338 B) is not their median (2,301 B), as fast-json-stringify's were
  const a = makeResults([{ serializer: 'fjs', allocWindows: [2301.49, 2412.91, 2301.32, 2301.5, 2301.4] }]);
  const b = makeResults(
    [{ serializer: 'fjs', allocWindows: [2301.49, 2412.91, 2301.32, 2301.5, 2301.4] }],
    '2025-01-03T00:00:00.000Z',
  );
  a.cases[0].time!.mean = 111;
  b.cases[0].time!.mean = 222; // the reports' Mean (the mean of the launch means), not the pooled samples' mean
  const c = compareResults(a, b, options);
  const md = renderCompareMarkdown(c, 'a', 'b');
  // those windows disagree by 4.8%: the range, as the reports print it (results/alloc.ts), never the windows' mean 2.28 KiB
  assert.match(md, /\| fjs \| allocated \| 2\.25 KiB–2\.36 KiB \| 2\.25 KiB–2\.36 KiB \|/);
  // windows that agree: their median, the Allocated column's figure
  const steady = [1000, 1000, 1000, 1000, 1009];
  const same = renderCompareMarkdown(
    compareResults(
      makeResults([{ serializer: 'fjs', allocWindows: steady }]),
      makeResults([{ serializer: 'fjs', allocWindows: steady.map((x) => x * 1.005) }], '2025-01-03T00:00:00.000Z'),
      options,
    ),
    'a',
    'b',
  );
  assert.match(same, /\| fjs \| allocated \| 1000 B \| 1005 B \|/);
  assert.match(md, /\| fjs \| time \| 111 ns \| 222 ns \|/);
  // the reports' Mean is the mean of the launch means (run/assemble.ts): compare said "the median"
  assert.match(md, /Base and Head as the reports show them \(time: Mean, the mean of the launch means;/);
  assert.doesNotMatch(md, /median of the launch means/);
});

test('"p < 0.001" never stands unqualified beside a CI that spans 0: the rank test and the means\' interval are two tests', () => {
  assert.equal(pValue(0.0004, { low: 2, high: 10, confidence: 0.95 }), '< 0.001');
  assert.equal(pValue(0.0004, { low: -2, high: 10, confidence: 0.95 }), 'ranks < 0.001, means n.s.');
  assert.equal(pValue(0.02, { low: -2, high: 10, confidence: 0.95 }), 'ranks 0.020, means n.s.');
  assert.equal(pValue(0.2, { low: -2, high: 10, confidence: 0.95 }), '0.200');
  assert.equal(pValue(null), 'n/a');
  // how it happens: a few slow samples widen the means' interval past 0 while most samples shifted
  const rand = prng(31);
  const base = normalSamples(rand, 40, 1000, 10);
  const head = normalSamples(rand, 40, 1030, 10);
  for (const i of [1, 7, 13, 19, 25]) base[i] = 1240; // slow samples on the base side pull its mean up to the head's
  const ch = compareSamples(base, head, rule);
  assert.ok(
    ch.p! < 0.001 && ch.ci!.low <= 0 && 0 <= ch.ci!.high,
    `ranks significant, means' CI spanning 0: p ${ch.p}, CI ${JSON.stringify(ch.ci)}`,
  );
  assert.match(pValue(ch.p, ch.ci), /^ranks < 0\.001, means n\.s\.$/);
});

test('a case whose machine changed speed between launches (⇅ machine-drift, on its time rows) or rebuilt from a killed run (⏹) carries the mark beside its verdict, a note under the table, and --fail-on slower says it is not a clean verdict', () => {
  const r = prng(31);
  const a = makeResults([
    { serializer: 'json', rounds: roundsOf(r, 8, 5, 1000, 10) },
    { serializer: 'typia', rounds: roundsOf(r, 8, 5, 600, 10) },
  ]);
  const b = makeResults(
    [
      { serializer: 'json', rounds: roundsOf(r, 8, 5, 1500, 15) },
      { serializer: 'typia', rounds: roundsOf(r, 8, 5, 600, 10) },
    ],
    '2025-01-03T00:00:00.000Z',
  );
  const clean = compareResults(a, b, options);
  assert.deepEqual(
    clean.cases.map((k) => k.caveats),
    [[], []],
  );
  assert.deepEqual(
    gateFailures(clean, ['slower']).map((x) => x.replace(/: time .*/, '')),
    ['weather-station/1/single/serialize/json'],
  );
  assert.doesNotMatch(gateFailures(clean, ['slower'])[0], /not a clean verdict/);
  b.cases[0].findings.push({ code: 'machine-drift', message: 'the machine changed speed between launches: …' });
  a.cases[0].findings.push({
    code: 'interrupted',
    message: 'the run was killed: rebuilt from 2 finished launches (the policy makes 3), without the allocation pass',
  });
  const c = compareResults(a, b, options);
  assert.deepEqual(
    c.cases[0].caveats.map((x) => [x.code, x.side]),
    [
      ['interrupted', 'base'],
      ['machine-drift', 'head'],
    ],
  );
  assert.equal(c.cases[0].metrics[0].change.verdict, 'slower', 'the verdict itself stands');
  const failures = gateFailures(c, ['slower']);
  assert.equal(failures.length, 1, '--fail-on slower still fails on it');
  assert.match(
    failures[0],
    /^weather-station\/1\/single\/serialize\/json: time \+\d+\.\d% \(not a clean verdict: ⏹ base: the run was killed: rebuilt from 2 finished launches \(the policy makes 3\), without the allocation pass; ⇅ machine drift in head: the machine changed speed between its launches of this case, so part of the change may be the machine's\)$/,
  );
  const md = renderCompareMarkdown(c, 'a', 'b');
  assert.match(md, /\| json \| time \| .* \| \*\*slower ⇅ ⏹\*\* \|/);
  assert.match(
    md,
    /\| json \| allocated \| .* \| same \(not significant\) ⏹ \|/,
    'machine drift is about time: the allocation row carries ⏹ alone',
  );
  // each caveat said once under the table, for every case it marks
  assert.match(md, /\n- ⇅ 1 case \(head\): the machine changed speed between that run’s launches/);
  assert.match(md, /\n- ⏹ 1 case \(base\): that run was killed and the case rebuilt from the launches it finished\./);
  assert.equal(md.split('\n').filter((l) => /^- [⇅⏹①] /.test(l)).length, 2);
});

test('a case the head run never reached (killed: not-run) is listed but never counts as broken for --fail-on broken', () => {
  const r = prng(32);
  const a = makeResults([
    { serializer: 'json', rounds: roundsOf(r, 8, 5, 1000, 10) },
    { serializer: 'typia', rounds: roundsOf(r, 8, 5, 600, 10) },
  ]);
  const b = makeResults(
    [
      { serializer: 'json', rounds: roundsOf(r, 8, 5, 1000, 10) },
      { serializer: 'typia', status: 'not-run', reason: 'not measured: the run was killed before this case' },
    ],
    '2025-01-03T00:00:00.000Z',
  );
  const c = compareResults(a, b, options);
  assert.deepEqual(
    c.statusChanges.map((s) => [s.kind, s.head]),
    [['broken', 'not-run']],
  );
  assert.deepEqual(
    gateFailures(c, ['broken']),
    [
      'head run incomplete: 1 case never measured (the run was killed before it: weather-station/1/single/serialize/typia); the gate cannot vouch for it',
    ],
    'not counted as broken, but the gate does not pass on a case never measured',
  );
  b.cases[1] = { ...b.cases[1], status: 'crashed', reason: 'exit 139' } as (typeof b.cases)[1];
  assert.deepEqual(gateFailures(compareResults(a, b, options), ['broken']), [
    'weather-station/1/single/serialize/typia: measured → crashed',
  ]);
  const none = makeResults(
    [
      { serializer: 'json', status: 'not-run', reason: 'not measured: the run was killed before this case' },
      { serializer: 'typia', status: 'not-run', reason: 'not measured' },
    ],
    '2025-01-03T00:00:00.000Z',
  );
  const dead = gateFailures(compareResults(a, none, options), ['broken', 'slower']);
  assert.equal(dead.length, 2, 'a head killed before its first case fails the gate');
  assert.match(dead[0], /^head run incomplete: 2 cases never measured/);
  assert.equal(dead[1], 'no case was measured in both runs: nothing to gate on');
});

test('a slower head still fails the gate when the base ran on the busier machine; when the head did, only beyond what its load explains', () => {
  const atLoad = (r: ResultsFile, load: number): ResultsFile => ({
    ...r,
    environment: {
      ...r.environment,
      cores: 2,
      loadAverage: { ...r.environment.loadAverage, start: [load, load, load] },
    },
  });
  const opts = { ...options, metrics: ['time' as const] };
  const baseBusier = compareResults(atLoad(base, 26.4), atLoad(head, 8.3), opts);
  assert.deepEqual(baseBusier.notComparable, [], 'a load difference alone does not make runs incomparable');
  assert.deepEqual([baseBusier.load?.what, baseBusier.load?.busier], ['load', 'base']);
  assert.deepEqual(
    gateFailures(baseBusier, ['slower']).map((r) => r.replace(/ .*/, '')),
    ['weather-station/1/single/serialize/fast-json-stringify:'],
  );
  assert.match(
    renderCompareMarkdown(baseBusier, 'a', 'b'),
    /> ⚠ Load 26\.4 → 8\.3 on 2 cores \(the base ran busier\): a faster time may be the load's; a slower one is not, and gates; ratios stand\./,
  );
  const headBusier = compareResults(atLoad(base, 8.3), atLoad(head, 26.4), opts);
  assert.deepEqual(gateFailures(headBusier, ['slower']), []);
  assert.match(
    renderCompareMarkdown(headBusier, 'a', 'b'),
    /a slower time gates only beyond \+436% \(twice the \+218% this load can explain\); ratios stand\./,
  );
  // …but not a slowdown far beyond what the head's extra load explains: 3× slower on a machine 7% busier
  const r3 = prng(33);
  const tripled = makeResults(
    [
      { serializer: 'json', rounds: roundsOf(r3, 8, 5, 2000, 30) },
      { serializer: 'fast-json-stringify', rounds: roundsOf(r3, 8, 5, 1800, 20) },
    ],
    '2025-01-03T00:00:00.000Z',
  );
  const slightly = compareResults(atLoad(base, 15.4), atLoad(tripled, 16.5), opts);
  assert.deepEqual(
    [slightly.load].map((x) => [x?.what, x?.busier, x?.loadFactor!.toFixed(3)]),
    [['load', 'head', '1.071']],
  );
  assert.deepEqual(
    gateFailures(slightly, ['slower']).map((r) => r.replace(/ .*/, '')),
    ['weather-station/1/single/serialize/fast-json-stringify:'],
  );
  // the same 3× on a machine 3.18× busier may be the load's: not gated
  assert.deepEqual(gateFailures(compareResults(atLoad(base, 8.3), atLoad(tripled, 26.4), opts), ['slower']), []);
  const md = renderCompareMarkdown(headBusier, 'a', 'b');
  assert.doesNotMatch(md, /not comparable/);
  assert.match(md, /\| fast-json-stringify \| time \| .* \| \*\*slower\*\* \|/, 'the verdict is shown');
});

test('runs at different loads get ratio verdicts (paired in one process): a slower ratio fails --fail-on slower, with one caveat line (issue 22: every verdict was refused at load 13.2 → 15.9)', () => {
  const atLoad = (r: ResultsFile, load: number, ratio: number, interval: [number, number]): ResultsFile => ({
    ...r,
    environment: {
      ...r.environment,
      cores: 2,
      loadAverage: { ...r.environment.loadAverage, start: [load, load, load] },
    },
    cases: r.cases.map((c) =>
      c.serializer === 'fast-json-stringify' && c.status === 'measured' ? { ...c, ratio, ratioInterval: interval } : c,
    ),
  });
  const b = atLoad(base, 13.2, 0.3, [0.29, 0.31]);
  const h = atLoad(head, 15.9, 0.345, [0.335, 0.355]);
  const c = compareResults(b, h, options);
  assert.deepEqual(c.notComparable, []);
  const ratio = c.cases.find((k) => k.serializer === 'fast-json-stringify')!.metrics.find((m) => m.metric === 'ratio')!;
  assert.equal(ratio.change.verdict, 'slower');
  assert.ok(Math.abs(ratio.change.percent - 15) < 1e-9, `${ratio.change.percent}%`);
  // the CI combines the two intervals' log half-widths facing each way
  const low = 100 * (1.15 * Math.exp(-Math.hypot(Math.log(0.345 / 0.335), Math.log(0.31 / 0.3))) - 1);
  assert.ok(Math.abs(ratio.change.ci!.low - low) < 1e-9, `${ratio.change.ci!.low} vs ${low}`);
  // the ratio gates; the slower time of a head measured busier does not; instructions, where both have them, gate instead of either
  const gate = compareResults(b, h, { ...options, metrics: ['ratio', 'time'] });
  assert.deepEqual(
    gateFailures(gate, ['slower']).map((r) => r.replace(/ \+.*/, '')),
    ['weather-station/1/single/serialize/fast-json-stringify: ratio'],
  );
  const text = renderCompareTerminal(c, 'a', 'b', false, 120).replace(/\n  /g, ' ');
  assert.equal(text.split('\n').filter((l) => l.startsWith('⚠ Load')).length, 1);
  assert.match(
    text,
    /⚠ Load 13\.2 → 15\.9 on 2 cores \(the head ran busier\): a slower time gates only beyond \+41% \(twice the \+20\.[0-9]% this load can explain\); ratios stand\./,
  );
  // a genuinely different setup is still refused: another profile
  const other = structuredClone(h);
  other.policy.profile = b.policy.profile === 'default' ? 'steady' : 'default';
  assert.deepEqual(
    compareResults(b, other, options).notComparable.map((x) => x.what),
    ['profile'],
  );
  assert.deepEqual(gateFailures(compareResults(b, other, options), ['slower']), []);
});

/**
 * Two crafted quick-policy results files (one launch a case) as this jsonbench writes them: each
 * case's time carries its interval and its basis (`rounds`: one launch's round means,
 * run/assemble.ts). The gate on time must be able to fail (issue 23: every row read "no verdict").
 */
function quickFile(mean: number, error: number, startedAt?: string, instructions?: number) {
  const r = prng(Math.round(mean));
  const f = makeResults(
    [
      {
        serializer: 'json',
        rounds: [normalSamples(r, 30, mean, mean * 0.01)],
        ...(instructions ? { instructions } : {}),
      },
    ],
    startedAt,
  );
  Object.assign(f.cases[0].time!, { mean, error, basis: 'rounds', df: 29, launches: 1 });
  f.policy.profile = 'default';
  return f;
}

test('quick runs with launch intervals: a 30% slower head is shown slower ①, and never fails --fail-on slower', () => {
  const base = quickFile(1000, 8);
  const head = quickFile(1300, 10, '2025-01-03T00:00:00.000Z');
  const c = compareResults(base, head, options);
  const time = c.cases[0].metrics[0].change;
  assert.equal(time.verdict, 'slower');
  assert.ok(Math.abs(time.percent - 30) < 1e-9, `${time.percent}%`);
  // the quotient's interval from the two errors: 1.3 · e^±√(0.008² + (10/1300)²)
  const h = Math.hypot(8 / 1000, 10 / 1300);
  assert.ok(Math.abs(time.ci!.low - 100 * (1.3 * Math.exp(-h) - 1)) < 1e-9);
  assert.equal(time.p, null, 'no rank test on samples that are not independent');
  // one launch's interval cannot show how far another process lands: shown, never gated on
  assert.deepEqual(gateFailures(c, ['slower']), []);
  assert.deepEqual(gateFailures(c, ['slower', 'broken']), []);
  const md = renderCompareMarkdown(c, 'a', 'b', { gate: { failOn: ['slower'], reasons: gateReasons(c, ['slower']) } });
  assert.match(md, /\| n\/a \| ±1\.1% \| \*\*slower ①\*\* \|/);
  assert.match(md, /^### jsonbench: no regression\n/);
  assert.match(md, /A ① verdict is shown and never fails --fail-on slower/);
});

test("the new user's false regression: unchanged code at policy quick, +13% [2.6–23%] slower ①, passes the gate", () => {
  // docs-only pull request at INPUT_POLICY=quick, load 7.3: json 33.9 µs → 38.2 µs, "+13% | +2.6% … +23% | slower ①"
  const base = quickFile(33_900, 1_500);
  const head = quickFile(38_200, 2_600, '2025-01-03T00:00:00.000Z');
  const c = compareResults(base, head, options);
  const time = c.cases[0].metrics[0].change;
  assert.equal(time.verdict, 'slower');
  assert.ok(time.ci!.low > 2 && time.ci!.low < 4 && time.ci!.high > 20 && time.ci!.high < 26, JSON.stringify(time.ci));
  assert.deepEqual(gateReasons(c, ['slower', 'broken']), []);
  // the same two cases measured in launches (the default policy) do fail it
  for (const f of [base, head]) Object.assign(f.cases[0].time!, { basis: 'launches', df: 2, launches: 3 });
  assert.deepEqual(
    gateReasons(compareResults(base, head, options), ['slower']).map((r) => [r.kind, r.text.replace(/ .*/, '')]),
    [['slower', 'weather-station/1/single/serialize/json:']],
  );
});

test('a comparison of instruction counts carries no time caveat and no load warning', () => {
  const base = quickFile(1000, 8, undefined, 12000);
  const head = quickFile(1300, 10, '2025-01-03T00:00:00.000Z', 12300);
  head.environment = { ...head.environment, loadAverage: { start: [24.3, 20, 18], end: [24, 20, 18] } };
  const counts = compareResults(base, head, { ...options, metrics: ['instructions'] });
  assert.equal(counts.load?.what, 'load', 'the runs differ in load');
  assert.deepEqual(
    gateReasons(counts, ['slower']).map((r) => r.text.replace(/^[^:]+: /, '')),
    ['instructions +2.5%'],
    'instruction counts gate whatever the load',
  );
  const md = renderCompareMarkdown(counts, 'a', 'b', {
    gate: { failOn: ['slower'], reasons: gateReasons(counts, ['slower']) },
  });
  assert.doesNotMatch(md, /load average|busier|①|one launch|⇅|Mann-Whitney/);
  assert.match(md, /^### jsonbench: regression: 1 case slower \(fails on slower\)\n/);
  assert.match(md, /Instructions are callgrind's counts per op/);
  // with time compared too, the load and the one-launch caveat are said
  const both = renderCompareMarkdown(compareResults(base, head, options), 'a', 'b');
  assert.match(both, /⚠ Load 0\.5 → 24\.3 on 2 cores \(the head ran busier\)/);
  assert.match(both, /① 1 case \(base and head\): that run measured the case in one launch/);
});

test('quick runs with launch intervals: a change inside the two intervals, or under the threshold, passes the gate', () => {
  const base = quickFile(1000, 60);
  // +8%: over the 5% threshold, but the intervals (±6% each) combined reach no change
  const wide = compareResults(base, quickFile(1080, 65, '2025-01-03T00:00:00.000Z'), options);
  assert.deepEqual(
    [wide.cases[0].metrics[0].change.verdict, wide.cases[0].metrics[0].change.sameBecause],
    ['same', 'within-noise'],
  );
  assert.deepEqual(gateFailures(wide, ['slower']), []);
  const small = compareResults(quickFile(1000, 2), quickFile(1030, 2, '2025-01-03T00:00:00.000Z'), options);
  assert.deepEqual(small.cases[0].metrics[0].change.sameBecause, 'below-threshold');
  assert.deepEqual(gateFailures(small, ['slower']), []);
});

test('where both runs counted instructions, they gate instead of time: slower time with the same count passes', () => {
  const base = quickFile(1000, 8, undefined, 12000);
  const same = compareResults(base, quickFile(1300, 10, '2025-01-03T00:00:00.000Z', 12001), options);
  assert.equal(same.cases[0].metrics[0].change.verdict, 'slower', 'time is still shown as slower');
  assert.deepEqual(gateFailures(same, ['slower']), []);
  const more = compareResults(base, quickFile(1300, 10, '2025-01-03T00:00:00.000Z', 13000), options);
  assert.deepEqual(
    gateFailures(more, ['slower']).map((r) => r.replace(/^[^:]+: /, '')),
    ['instructions +8.3%'],
  );
});

test('runs of different profiles are not comparable, and --fail-on slower does not fail on their verdicts', () => {
  const base = quickFile(1000, 8);
  const head = quickFile(1300, 10, '2025-01-03T00:00:00.000Z');
  head.policy.profile = 'steady';
  const c = compareResults(base, head, options);
  assert.deepEqual(
    c.notComparable.filter((x) => x.what === 'profile').map((x) => x.message),
    [
      'profile default → steady: the runtimes ran with different GC settings, so every case measured different work (docs/profiles.md)',
    ],
  );
  assert.deepEqual(gateFailures(c, ['slower']), []);
  // a file without a profile was measured with the steady settings
  delete head.policy.profile;
  assert.match(
    compareResults(base, head, options)
      .notComparable.map((x) => x.message)
      .join(),
    /profile default → steady/,
  );
  delete base.policy.profile;
  assert.deepEqual(
    compareResults(base, head, options).notComparable.filter((x) => x.what === 'profile'),
    [],
  );
});

/**
 * Runs on two targets (the new user's action job: `targets: node,node@22`): node@22 is not
 * installed in either run, so its cases fail in both; on node, `ours` fails in both runs. The
 * comparison counts each target's cases, says once that node@22 measured nothing (with why), lists
 * `ours`, and its rows say their target. With node@22 alone, the gate fails for having nothing to
 * compare, and its heading says so.
 */
function twoTargets(startedAt?: string): ResultsFile {
  const r = prng(5);
  const f = makeResults(
    [
      { serializer: 'json', rounds: roundsOf(r, 6, 20, 1000, 10) },
      { serializer: 'ours', status: 'failed', reason: 'prepare: Error: ours is broken' },
    ],
    startedAt,
  );
  const fault = 'node@22 is not installed: run `jsonbench runtimes install node@22`';
  const on22 = f.cases.map((c) => ({
    ...makeCase({ serializer: c.serializer, status: 'failed', reason: `target node@22: ${fault}` }),
    id: `${c.id}@node@22`,
    target: { id: 'node@22', runtime: 'node', version: 'unavailable' },
  }));
  f.cases = [...f.cases.map((c) => ({ ...c, id: `${c.id}@node` })), ...on22];
  f.targets.push({ ...f.targets[0], id: 'node@22', kind: 'node-version', version: 'unavailable', fault });
  return f;
}

test('every target is counted, one that measured nothing is said once with why, a case failed in both runs is listed', () => {
  const c = compareResults(twoTargets(), twoTargets('2025-01-03T00:00:00.000Z'), options);
  assert.deepEqual(
    c.targets.map((t) => [t.id, t.base?.measured, t.base?.failed, t.head?.measured, t.head?.failed]),
    [
      ['node', 1, 1, 1, 1],
      ['node@22', 0, 2, 0, 2],
    ],
  );
  assert.deepEqual(
    c.failedInBoth.map((f) => [f.id, f.base, f.head, f.reason]),
    [['weather-station/1/single/serialize/ours@node', 'failed', 'failed', 'prepare: Error: ours is broken']],
    "node@22's cases are said once, by its target line",
  );
  assert.deepEqual(
    c.cases.map((k) => [k.serializer, k.target]),
    [['json', 'node']],
  );
  const md = renderCompareMarkdown(c, 'main@5c9c1e5703e9', 'pr@0a385e4aa9e3', {
    gate: { failOn: ['slower', 'broken'], reasons: gateReasons(c, ['slower', 'broken']) },
  });
  assert.match(md, /^### jsonbench: no regression\n\nBase main@5c9c1e5703e9 → head pr@0a385e4aa9e3\.\n/);
  assert.match(md, /\| node \| 1 \/ 1 \| 1 \/ 1 \| {2}\|\n\| node@22 \| 0 \/ 2 \| 0 \/ 2 \| node@22 is not installed/);
  assert.match(md, /\| Case \| Serializer \| Target \| Metric \|/);
  assert.match(md, /\| weather-station · 1 · single · serialize \| json \| node \| time \|/);
  assert.match(md, /- ⚠ Target node@22 measured nothing in base nor head: node@22 is not installed/);
  assert.match(
    md,
    /- ✗ failed in both runs: weather-station\/1\/single\/serialize\/ours@node — prepare: Error: ours is broken/,
  );
  assert.match(md, /<details><summary>How a verdict is made<\/summary>[^]*Mann-Whitney[^]*<\/details>\n$/);
  assert.ok(
    md.indexOf('<details>') < 2000,
    `the comment before the collapsed rule is short: ${md.indexOf('<details>')} chars`,
  );

  // node@22 alone: nothing compared, and the heading says so (not "regression")
  const only22 = (f: ResultsFile) => ({
    ...f,
    cases: f.cases.filter((k) => k.target.id === 'node@22'),
    targets: f.targets.slice(1),
  });
  const none = compareResults(only22(twoTargets()), only22(twoTargets('2025-01-03T00:00:00.000Z')), options);
  const reasons = gateReasons(none, ['slower', 'broken']);
  assert.deepEqual(
    reasons.map((r) => r.kind),
    ['nothing-compared'],
  );
  assert.match(
    renderCompareMarkdown(none, 'a', 'b', { gate: { failOn: ['slower', 'broken'], reasons } }),
    /^### jsonbench: gate failed: no case was measured in both runs\n[^]*\| node@22 \| 0 \/ 2 \| 0 \/ 2 \| node@22 is not installed/,
  );
});

test('a small estimate with a wide interval is "within noise", not "under threshold" (nu8: +0.6%, −61% … +137%)', () => {
  const rule = { alpha: 0.05, thresholdPercent: 5 };
  const wide = compareRatios({ ratio: 1, interval: [0.5, 2] }, { ratio: 1.006, interval: [0.8, 1.26] }, rule);
  assert.equal(wide.verdict, 'same');
  assert.equal(wide.sameBecause, 'within-noise');
  assert.ok(wide.ci!.low < -5 && wide.ci!.high > 5, JSON.stringify(wide.ci));
  // the same estimate with an interval inside ±5%: the run shows the change is small
  const narrow = compareRatios({ ratio: 1, interval: [0.99, 1.01] }, { ratio: 1.006, interval: [0.996, 1.016] }, rule);
  assert.equal(narrow.sameBecause, 'below-threshold');
});

test('--metric instructions --fail-on slower fails when neither run counted instructions (hx18 A45: exit 0 on an empty table)', () => {
  const base = quickFile(1000, 8);
  const head = quickFile(1300, 10, '2025-01-03T00:00:00.000Z');
  const c = compareResults(base, head, { ...options, metrics: ['instructions'] });
  assert.equal(c.cases.length, 1);
  assert.deepEqual(c.cases[0].metrics, []);
  assert.deepEqual(gateFailures(c, ['slower']), [
    'no case has instructions in both runs: nothing to gate on (a metric is compared only where both runs measured it: run both with the same --metric)',
  ]);
  assert.equal(gateHeadline(gateReasons(c, ['slower'])), 'gate failed: no case has instructions in both runs');
  // counted in both: compared, and the gate reads them
  const counted = compareResults(
    quickFile(1000, 8, undefined, 5000),
    quickFile(1000, 8, '2025-01-03T00:00:00.000Z', 5000),
    {
      ...options,
      metrics: ['instructions'],
    },
  );
  assert.equal(counted.cases[0].metrics.length, 1);
  assert.deepEqual(gateFailures(counted, ['slower']), []);
});

test('--fail-on slower fails when the runs measured other payload bytes under one id (hx19 F08: exit 0 on "not comparable")', () => {
  const base = quickFile(1000, 8);
  const head = quickFile(1300, 10, '2025-01-03T00:00:00.000Z');
  base.cases[0].payload = { ...base.cases[0].payload, sha256: 'a'.repeat(64) };
  head.cases[0].payload = { ...head.cases[0].payload, sha256: 'b'.repeat(64) };
  const c = compareResults(base, head, options);
  const failures = gateFailures(c, ['slower']);
  assert.equal(failures.length, 1, failures.join('\n'));
  assert.match(
    failures[0],
    /^the runs measured other work \(the payload of 1 case changed \(sha256 aaaaaaaaaaaa… → bbbbbbbbbbbb… for .*\): the same case id times other bytes\): nothing to gate on$/,
  );
  assert.match(gateHeadline(gateReasons(c, ['slower'])), /^gate failed: the runs measured other work/);
});

test('a change past a factor of 1,000 is written "> +99999%", never a float in exponent form (hx19 F09)', () => {
  const c = compareResults(quickFile(1000, 8), quickFile(1e12, 1e10, '2025-01-03T00:00:00.000Z'), options);
  const md = renderCompareMarkdown(c, 'base', 'head');
  assert.match(md, /(?:>|&gt;) \+99999%/);
  assert.doesNotMatch(md, /\de[+-]\d/);
});

test('a ratio or time either run did not rank gets no verdict, its estimates kept (hx37 l02: a refused ratio compared as "same")', () => {
  const refused = structuredClone(head);
  const fjs = refused.cases.find((c) => c.serializer === 'fast-json-stringify')!;
  fjs.findings.push({
    code: 'baseline-slowed',
    severity: 'warning',
    message: 'its paired baseline json was charged CPU other threads burnt beside it: 41.6%',
  } as (typeof fjs.findings)[number]);
  const c = compareResults(base, refused, options);
  const k = c.cases.find((x) => x.serializer === 'fast-json-stringify')!;
  const byMetric = new Map(k.metrics.map((m) => [m.metric, m.change]));
  const ratio = byMetric.get('ratio')!;
  assert.equal(ratio.verdict, 'no-verdict');
  assert.equal(ratio.noVerdictBecause, 'not-ranked');
  assert.ok(Number.isFinite(ratio.percent), 'the estimate is kept');
  assert.match(renderCompareTerminal(c, 'a', 'b', false, 160), /no verdict \(not ranked in its run\)/);
  // its own time stands beside a slowed baseline (+15%: slower, and the gate fails on it); a too-fast one's does not
  assert.equal(byMetric.get('time')?.verdict, 'slower');
  assert.equal(byMetric.get('instructions')?.verdict, 'slower', 'counts are not the ratio (12,000 → 12,100)');
  fjs.findings[fjs.findings.length - 1] = { ...fjs.findings[fjs.findings.length - 1], code: 'too-fast' };
  const fast = compareResults(base, refused, options).cases.find((x) => x.serializer === 'fast-json-stringify')!;
  assert.deepEqual(
    fast.metrics
      .filter((m) => m.metric !== 'instructions' && m.metric !== 'alloc')
      .map((m) => [m.metric, m.change.verdict]),
    [
      ['ratio', 'no-verdict'],
      ['time', 'no-verdict'],
    ],
  );
});
