import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGroups } from '../../src/run/runner.js';
import { budgetStop, resolutionText, runQuotaMs } from '../../src/run/stop-rule.js';
import { resolution } from '../../src/stats/intervals.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import type { CaseGroup } from '../../src/plan/plan.js';
import { isMeasured, type CaseResult } from '../../src/results/types.js';
import { readResults } from '../../src/results/io.js';
import { unresolvedLines } from '../../src/cli/run.js';
import { assembleGroup, groupRatios, type CaseRecord } from '../../src/run/assemble.js';
import { fileURLToPath } from 'node:url';
import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import { allocated, fakeLaunch, payload, planned, timed, type Script } from './fake-launch.js';

const RECORDED = fileURLToPath(new URL('../../../test/analysers/fixtures/recorded-launches.json', import.meta.url));

/**
 * Adaptive launches: the stop rule alone, then the runner on recorded launches with a fake clock
 * (every launch takes 1 s of it), so the budgets are exact.
 */

test('an interval clear of the ±resolve band differs, one inside it is within, one across an edge is unresolved', () => {
  assert.equal(resolution([1.03, 1.1], 0.02), 'differs');
  assert.equal(resolution([0.5, 0.97], 0.02), 'differs');
  assert.equal(resolution([0.99, 1.015], 0.02), 'within');
  assert.equal(resolution([0.98, 1.02], 0.02), 'within', 'the band edges are inside');
  assert.equal(resolution([1.01, 1.03], 0.02), 'unresolved', 'above 1 but not known to be 2% above');
  assert.equal(resolution([0.97, 1.04], 0.02), 'unresolved');
  assert.equal(resolution([1.01, 1.03], 0.005), 'differs', 'a narrower band resolves it');
  assert.equal(resolution(null, 0.02), 'unresolved');
});

test('a budget stops the next launch when the mean launch so far would carry it past; the cap stops it at maxLaunches', () => {
  const b = { launch: 3, maxLaunches: 10, spentMs: [1000, 1000], maxCaseMs: 3000, runElapsedMs: 0, runQuotaMs: 1e9 };
  assert.equal(budgetStop(b), null, '2 s spent + 1 s predicted = the 3 s budget');
  assert.equal(budgetStop({ ...b, maxCaseMs: 2999 }), 'case budget');
  assert.equal(budgetStop({ ...b, spentMs: [500, 1500, 1000] }), 'case budget', '3 s spent');
  assert.equal(
    budgetStop({ ...b, spentMs: [500, 1500], maxCaseMs: 3499 }),
    'case budget',
    'the longest launch (1.5 s) predicts the next, not the mean (1 s)',
  );
  assert.equal(budgetStop({ ...b, runElapsedMs: 9001, runQuotaMs: 10_000 }), 'run budget');
  assert.equal(budgetStop({ ...b, launch: 11 }), 'launch cap');
  assert.equal(budgetStop({ ...b, spentMs: [] }), null, 'no launch yet: nothing predicted');
});

test('the run budget is paced by the cases planned up to each group', () => {
  assert.equal(runQuotaMs(60_000, 10, 40), 15_000);
  assert.equal(runQuotaMs(60_000, 40, 40), 60_000);
  assert.equal(runQuotaMs(60_000, 0, 0), 60_000);
});

test('the resolution line names the interval, the band and what stopped an unresolved case', () => {
  assert.equal(
    resolutionText('unresolved', [0.97, 1.04], 0.02, { by: 'case budget', spentMs: 20_000 }),
    'unresolved: interval [0.970–1.040] straddles ±2% (case budget: 20.0 s spent)',
  );
  assert.equal(
    resolutionText('unresolved', [0.97, 1.04], 0.02, { by: 'case budget', spentMs: 149_000, budgetMs: 20_000 }),
    'unresolved: interval [0.970–1.040] straddles ±2% (case budget 20 s: 149.0 s spent by the first launches; no extra launch)',
    'the budget bounds extra launches only: a case over it by its first launches says so',
  );
  assert.equal(
    resolutionText('unresolved', [0.97, 1.04], 0.02, { by: 'run budget', spentMs: 12_000, budgetMs: 210_000 }),
    "unresolved: interval [0.970–1.040] straddles ±2% (run budget 210 s used up by the run's launches; this case 12.0 s)",
  );
  assert.equal(resolutionText('differs', [1.1, 1.15], 0.005), 'differs: interval [1.100–1.150] clear of ±0.5%');
  assert.equal(resolutionText('within', [0.99, 1.01], 0.01), 'within ±1%: interval [0.990–1.010]');
});

/** Two rounds of two samples, every sample `ns`. */
const flat = (ns: number): number[][] => [
  [ns, ns],
  [ns, ns],
];

/** Serialize cases of `workload` (json the baseline). */
const group = (workload: string, ...serializers: string[]): CaseGroup =>
  serializers.map((s) => planned(s, { id: `${workload}/1/single/serialize/${s}`, workload }));

/** The runner on `script`, one case per process, with a fake clock every launch advances by 1 s. */
async function run(groups: CaseGroup[], script: Script, p: RunPolicy) {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-stop-'));
  const fake = fakeLaunch(script);
  let clock = 0;
  const launch: typeof fake.launch = async (job, timeoutMs, place) => {
    const o: LaunchOutcome = await fake.launch(job, timeoutMs, place);
    clock += 1000;
    return o;
  };
  try {
    const results = await runGroups({
      groups,
      payloads: new Map([[payload.key, payload]]),
      policy: p,
      partialPath: join(dir, 'partial.jsonl'),
      launchFor: () => launch,
      groupLaunches: false,
      now: () => clock,
    });
    const of = (workload: string, s: string): CaseResult =>
      results.find((r) => r.workload === workload && r.serializer === s)!;
    const timeCalls = (s: string) => fake.calls.filter((c) => c.job.serializer === s && c.job.mode === 'time').length;
    return { results, of, timeCalls, elapsedMs: clock };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const adaptive = (a: Partial<RunPolicy['adaptive']>, rest: Partial<RunPolicy> = {}): RunPolicy => ({
  ...policies.default,
  launches: 2,
  maxLaunches: 10,
  maxRelaunches: 0,
  ...rest,
  adaptive: { resolve: 0.02, maxCaseMs: 1e9, maxRunMs: 1e9, ...a },
});

/** json the baseline; `a` twice as slow (differs); `c` as fast (within); `b` reading 0.99 then 1.03 (straddles +2%). */
const script: Script = {
  'json/time': [timed(flat(100))],
  'a/time': [timed(flat(200), flat(100))],
  'b/time': [timed(flat(99), flat(100)), timed(flat(103), flat(100))],
  'c/time': [timed(flat(100), flat(100))],
  'json/alloc': [allocated([640])],
  'a/alloc': [allocated([640])],
  'b/alloc': [allocated([640])],
  'c/alloc': [allocated([640])],
};

test('a straddling case keeps launching until its case budget; resolved ones stop at the policy launches; the unresolved one is named', async () => {
  const { of, timeCalls } = await run([group('w', 'json', 'a', 'b', 'c')], script, adaptive({ maxCaseMs: 5000 }));
  assert.equal(timeCalls('a'), 2);
  // c reads exactly 1.00 in every launch, but the interval it reports borrows the group's launch-to-launch
  // variance (b's spread; separate processes: a one-way prior), which straddles ±2% at 2 launches: the stop
  // rule judges that interval, so c keeps launching too (before, it judged c's own zero-width interval)
  assert.equal(timeCalls('c'), 5);
  assert.equal(timeCalls('json'), 2, "the baseline's own case has no ratio: its agreeing launches stop at 2");
  assert.equal(timeCalls('b'), 5, '1 s each: 5 s spent, a sixth would pass the 5 s budget');
  const a = of('w', 'a');
  const b = of('w', 'b');
  const c = of('w', 'c');
  assert.ok(a.status === 'measured' && b.status === 'measured' && c.status === 'measured');
  assert.equal(a.resolution?.state, 'differs');
  // judged on the interval results.json gives, and stopped by what really stopped it
  assert.deepEqual(c.resolution?.interval, c.ratioInterval);
  assert.equal(c.resolution?.state, resolution(c.ratioInterval!, 0.02, c.ratioBasis));
  assert.equal(c.resolution?.state, 'unresolved');
  assert.equal(c.resolution?.stoppedBy, 'case budget');
  assert.equal(b.resolution?.state, 'unresolved');
  assert.equal(b.resolution?.stoppedBy, 'case budget');
  assert.equal(b.resolution?.launches, 5);
  assert.equal(b.resolution?.spentMs, 5000, 'the budget is honoured');
  assert.deepEqual(b.resolution?.interval, b.ratioInterval, 'judged on the interval results.json reports');
  assert.match(
    b.resolution?.text ?? '',
    /^unresolved: interval \[0\.\d{3}–1\.\d{3}\] straddles ±2% \(case budget 5 s: 5\.0 s spent\)$/,
  );
  assert.equal(of('w', 'json').status === 'measured' && of('w', 'json').resolution, undefined);
});

test('the run budget is shared by the groups in proportion to their cases, and never passed', async () => {
  // the fake serves launches by serializer: group 2's straddling case is `b2`, read as `b`
  const groups = [group('w1', 'json', 'b'), group('w2', 'json', 'b2')];
  const withB2 = { ...script, 'b2/time': script['b/time'], 'b2/alloc': script['b/alloc'] };
  const { of, elapsedMs } = await run(groups, withB2, adaptive({ maxRunMs: 12_000 }));
  const b1 = of('w1', 'b');
  const b2 = of('w2', 'b2');
  assert.ok(b1.status === 'measured' && b2.status === 'measured');
  // group 1 may use 6 s (2 of 4 cases): 4 launches of 1 s, then b twice more; group 2 the rest up to 12 s
  assert.equal(b1.resolution?.launches, 4);
  assert.equal(b2.resolution?.launches, 4);
  assert.equal(b1.resolution?.stoppedBy, 'run budget');
  assert.equal(b2.resolution?.stoppedBy, 'run budget');
  assert.equal(elapsedMs, 12_000);
});

test('without a budget the launch cap stops a straddling case; with resolve off the disagreement rule alone decides', async () => {
  const capped = await run([group('w', 'json', 'b')], script, adaptive({}, { maxLaunches: 3 }));
  const b = capped.of('w', 'b');
  assert.ok(b.status === 'measured');
  assert.equal(capped.timeCalls('b'), 3);
  assert.equal(b.resolution?.stoppedBy, 'launch cap');
  // 0.99 and 1.03 with no spread inside either launch disagree: one more launch each time, up to the cap
  const off = await run([group('w', 'json', 'c')], script, adaptive({ resolve: null }));
  assert.equal(off.timeCalls('c'), 2, 'agreeing launches: no third');
  const offC = off.of('w', 'c');
  assert.ok(offC.status === 'measured' && offC.resolution === undefined, 'no band, no resolution recorded');
});

/** Three rounds of two samples around `ns` (about ±1% apart): launches with an error of their own. */
const noisy = (ns: number): number[][] => [
  [ns, ns * 1.01],
  [ns * 0.99, ns],
  [ns * 1.005, ns * 0.995],
];

test("one launch's rounds never resolve: with --resolve on the quick policy every paired case gets a second launch", async () => {
  // before: a 2× case stopped after its one launch, `differs` on its rounds' interval, and was recorded as stopped by the launch cap
  const quick: Script = {
    'json/time': [timed(noisy(100))],
    'a/time': [timed(noisy(200), noisy(100)), timed(noisy(202), noisy(100))],
    'b/time': [timed(noisy(50), noisy(100)), timed(noisy(50.5), noisy(100))],
    'c/time': [timed(noisy(150), noisy(100)), timed(noisy(148), noisy(100))],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([640])],
    'b/alloc': [allocated([640])],
    'c/alloc': [allocated([640])],
  };
  const { of, timeCalls } = await run([group('q', 'json', 'a', 'b', 'c')], quick, adaptive({}, { launches: 1 }));
  for (const s of ['a', 'b', 'c']) {
    assert.equal(timeCalls(s), 2, `${s}: a second launch, then resolved on the others' launch spread`);
    const c = of('q', s);
    assert.ok(c.status === 'measured');
    assert.notEqual(c.ratioBasis, 'rounds');
    assert.equal(c.resolution?.state, 'differs');
    assert.equal(c.resolution?.launches, 2);
    assert.equal(c.resolution?.stoppedBy, undefined);
  }
  assert.equal(timeCalls('json'), 1, "the baseline's own case has no ratio to resolve");
});

test('the stop rule judges exactly the interval results.json carries: groupRatios against assembleGroup, launch by launch, on recorded launches', () => {
  const r = readResults(RECORDED);
  const groups = new Map<string, CaseRecord[]>();
  for (const c of r.cases.filter(isMeasured)) {
    const key = `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.class}`;
    const recs = groups.get(key) ?? [];
    recs.push({
      planned: planned(c.serializer, { id: c.id, baseline: c.baseline }),
      payload,
      launches: c.samples.launches,
      relaunches: c.samples.relaunches,
      end: { status: 'measured' },
      paired: c.ratio !== null && c.serializer !== c.baseline,
    });
    groups.set(key, recs);
  }
  let compared = 0;
  for (const recs of groups.values())
    for (let k = 1; k <= 3; k++) {
      const sub = recs.map((x) => ({ ...x, launches: x.launches.filter((l) => l.launch <= k) }));
      const judged = groupRatios(sub, policies.default.measure);
      assembleGroup(sub, policies.default.measure).forEach((c, i) => {
        if (!sub[i].paired || c.status !== 'measured') return;
        assert.deepEqual(judged[i]?.interval, c.ratioInterval, `${c.id} after ${k} launches`);
        assert.equal(judged[i]?.basis, c.ratioBasis);
        compared++;
      });
    }
  assert.ok(compared >= 20, `${compared} intervals compared`);
});

test('a group judged on a partial prior is judged again with the prior it is assembled with: the stop rule and results.json agree', async () => {
  // w1's a reads 2.000 then 2.002 (quiet), w2's b 1.30 then 1.31, w3's c 1.0 then 1.6 (noisy). While w2 launches, only
  // w1 is done: its quiet prior makes b's 2-launch interval clear of ±2%, and the stop rule releases it. w2 is
  // assembled once w3 is done too (the class then has 4 launch contrasts of time), with w3's spread in its prior:
  // the interval results.json carries straddles the band. Before, b stayed at 2 launches, `unresolved`, and was
  // recorded as stopped by the launch cap, which it never reached; now it is judged again and takes launch 3.
  const groups = [group('w1', 'json', 'a'), group('w2', 'json', 'b'), group('w3', 'json', 'c')];
  const s: Script = {
    'json/time': [timed(flat(100))],
    'a/time': [timed(flat(200), flat(100)), timed(flat(200.2), flat(100))],
    'b/time': [timed(flat(130), flat(100)), timed(flat(131), flat(100))],
    'c/time': [timed(flat(100), flat(100)), timed(flat(160), flat(100))],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([640])],
    'b/alloc': [allocated([640])],
    'c/alloc': [allocated([640])],
  };
  const { of, timeCalls } = await run(groups, s, adaptive({}, { maxLaunches: 3 }));
  const b = of('w2', 'b');
  assert.ok(b.status === 'measured');
  assert.equal(timeCalls('b'), 3);
  assert.equal(b.resolution?.launches, 3);
  assert.deepEqual(b.resolution?.interval, b.ratioInterval);
  assert.equal(b.resolution?.state, resolution(b.ratioInterval!, 0.02, b.ratioBasis));
  if (b.resolution?.state === 'unresolved') assert.equal(b.resolution.stoppedBy, 'launch cap');
});

test('a band of 1% asks for precision: a case that differs but whose SE stays over 1% at the launch cap is recorded short of it, and the reports say so', async () => {
  // d reads 2.0 and 2.2 in turn: clear of ±1% from the first launches, its launches ~10% apart (SE ≈ 5% at 4 launches)
  const d = { 'd/time': [timed(flat(200), flat(100)), timed(flat(220), flat(100))], 'd/alloc': [allocated([640])] };
  const { of, timeCalls } = await run(
    [group('w', 'json', 'd')],
    { ...script, ...d },
    adaptive({ resolve: 0.01 }, { maxLaunches: 4 }),
  );
  assert.equal(timeCalls('d'), 4, 'it kept launching for precision up to the cap');
  const c = of('w', 'd');
  assert.ok(c.status === 'measured' && c.resolution);
  assert.equal(c.resolution.state, 'differs');
  assert.equal(c.resolution.shortOfPrecision, true);
  assert.equal(c.resolution.stoppedBy, 'launch cap');
  assert.ok(c.resolution.se! > 0.01, `SE ${c.resolution.se}`);
  assert.match(
    c.resolution.text,
    /^differs: interval \[.*\] clear of ±1%; short of the ±1% precision: SE \d+\.\d\d% \(launch cap\)$/,
  );
  const lines = unresolvedLines({ cases: [c] });
  assert.equal(
    lines[0],
    'jsonbench: 1 ratio short of the ±1% precision (its call stands; a rerun may move it by more than ±1%):',
  );
  assert.match(
    lines[1],
    /^ {2}~ w\/1\/single\/serialize\/d: SE \d+\.\d\d% when the launch cap \(4 launches\) was reached after 4\.0 s$/,
  );
  // a ±2% band asks for no precision: the same launches are `differs`, nothing more
  const coarse = await run(
    [group('w', 'json', 'd')],
    { ...script, ...d },
    adaptive({ resolve: 0.02 }, { maxLaunches: 4 }),
  );
  const e = coarse.of('w', 'd');
  assert.ok(e.status === 'measured' && e.resolution);
  assert.deepEqual(
    [e.resolution.state, e.resolution.shortOfPrecision, e.resolution.se],
    ['differs', undefined, undefined],
  );
});
