import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LaunchRecord } from '../../src/results/types.js';
import { assembleGroup, type CaseRecord } from '../../src/run/assemble.js';
import { analysers } from '../../src/analysers/index.js';
import { launchStatesAnalyser } from '../../src/analysers/launch-states.js';
import { policies } from '../../src/config/policies.js';
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

test('launches in two states (ratio 3.49 in one, 4.44 in two): the interval covers both and a finding names each state', () => {
  // issue 23's worst case: a launch pair read 3.49 and 4.44, a third 4.44
  const [json, slow] = assembleGroup(
    [
      rec('json', [launch(1, 1000, 1000), launch(2, 1000, 1000), launch(3, 1000, 1000)]),
      rec('slow', [launch(1, 3490, 1000), launch(2, 4440, 1000), launch(3, 4440, 1000)]),
    ],
    policy,
  );
  assert.equal(json.status, 'measured');
  assert.equal(slow.status, 'measured');
  const [low, high] = slow.ratioInterval!;
  assert.ok(low <= 3.49 && high >= 4.44, `interval ${low}–${high} covers both states`);
  // the centre is the geometric mean of the launch ratios, not the median's pick of one state
  assert.ok(Math.abs(slow.ratio! - Math.cbrt(3.49 * 4.44 * 4.44)) < 0.01, `ratio ${slow.ratio}`);
  const f = slow.findings.find((x) => x.code === 'launch-states');
  assert.ok(f, JSON.stringify(slow.findings));
  assert.match(f.message, /fell into 2 distinct states.*ratio 3\.490 \(1 launch\), 4\.440 \(2 launches\)/);
  // its time fell into the same two states; the ratio's finding is the one said
  assert.equal(slow.findings.filter((x) => x.code === 'launch-states').length, 1);
  assert.ok(slow.time!.mean - slow.time!.error <= 3490 && slow.time!.mean + slow.time!.error >= 4440);
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
