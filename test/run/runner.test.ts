import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGroups, type ProgressEvent } from '../../src/run/runner.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import type { CaseGroup } from '../../src/plan/plan.js';
import type { CaseResult } from '../../src/results/types.js';
import { tCritical } from '../../src/stats/estimate.js';
import { readPartial } from '../../src/results/io.js';
import type { CaseJob, WorkerJob, WorkerMessage } from '../../src/worker/protocol.js';
import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import {
  allocated,
  crashed,
  failed,
  fakeLaunch,
  incorrect,
  payload,
  planned,
  timed,
  timedOut,
  type Script,
} from './fake-launch.js';

/**
 * The runner, driven by a fake launch function (no processes): launch order, relaunches, the
 * ratio, and what each outcome leaves in the result. Every expected number is worked out by hand
 * from the fake samples.
 */

/** Three launches (no more: adaptive launches are test/run/stop-rule.test.ts's), up to two relaunches per case, relaunch above 1.25× the best baseline. */
const policy: RunPolicy = {
  ...policies.default,
  launches: 3,
  maxLaunches: 3,
  maxRelaunches: 2,
  relaunchFactor: 1.25,
  caseTimeoutMs: 4321,
};

/** Two rounds of two samples, every sample `ns`. */
const flat = (ns: number): number[][] => [
  [ns, ns],
  [ns, ns],
];

async function run(groups: CaseGroup[], script: Script, p: RunPolicy = policy) {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-runner-'));
  const partialPath = join(dir, 'results.partial.jsonl');
  const fake = fakeLaunch(script);
  const progress: ProgressEvent[] = [];
  try {
    const results = await runGroups({
      groups,
      payloads: new Map([[payload.key, payload]]),
      policy: p,
      partialPath,
      launchFor: () => fake.launch,
      onProgress: (e) => progress.push(e),
      groupLaunches: false,
    });
    const partial = readPartial(partialPath);
    const byId = (s: string): CaseResult => results.find((r) => r.serializer === s)!;
    return { results, byId, calls: fake.calls, progress, partial };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const group = (...serializers: string[]): CaseGroup => serializers.map((s) => planned(s));

test('launch 1 of every case runs before launch 2 of any, baseline first; the first launch of each case also takes its allocation', async () => {
  const { calls, progress, results } = await run([group('json', 'a', 'b')], {
    'json/time': [timed(flat(100))],
    'a/time': [timed(flat(200), flat(100))],
    'b/time': [timed(flat(50), flat(100))],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([1280])],
    'b/alloc': [allocated([320])],
  });
  assert.deepEqual(
    calls.map((c) => `${c.job.serializer}/${c.job.mode}`),
    ['json/time', 'a/time', 'b/time', 'json/time', 'a/time', 'b/time', 'json/time', 'a/time', 'b/time'],
  );
  assert.ok(
    calls.every((c) => c.timeoutMs === 4321),
    "every launch gets the policy's case timeout",
  );
  assert.deepEqual(
    calls.map((c) => c.job.baseline ?? '-'),
    ['-', 'json', 'json', '-', 'json', 'json', '-', 'json', 'json'],
    "timing launches of a and b are paired with json; the baseline's own are not",
  );
  assert.deepEqual(
    calls.map((c) => Boolean(c.job.alloc)),
    [true, true, true, false, false, false, false, false, false],
    "allocation is asked of each case's first launch only",
  );
  const launches = progress.filter((e) => e.type === 'launch');
  assert.deepEqual(
    launches.map((e) => e.type === 'launch' && `${e.index}/${e.total}`),
    ['1/9', '2/9', '3/9', '4/9', '5/9', '6/9', '7/9', '8/9', '9/9'],
  );
  assert.deepEqual(
    results.map((r) => [r.serializer, r.status, r.ratio, r.allocRatio]),
    [
      ['json', 'measured', 1, 1],
      ['a', 'measured', 2, 2],
      ['b', 'measured', 0.5, 0.5],
    ],
  );
});

test("the ratio is the geometric mean across launches of each launch's median per-round ratio, its interval from the launch ratios", async () => {
  // per-round ratios (serializer mean / baseline mean, baseline always 100):
  //   launch 1: 2.0, 3.0, 2.2 → median 2.2 (mean 2.4)
  //   launch 2: 1.5, 1.6, 4.0 → median 1.6 (mean 2.37)
  //   launch 3: 2.5, 2.4, 2.6 → median 2.5
  // ratio = geometric mean(2.2, 1.6, 2.5) = 2.065 (issue 23: the centre and the interval of one statistic, the launches').
  const base = [
    [100, 100],
    [100, 100],
    [100, 100],
  ];
  const { byId } = await run([group('json', 'a')], {
    'json/time': [timed(base)],
    'a/time': [
      timed(
        [
          [200, 200],
          [300, 300],
          [220, 220],
        ],
        base,
      ),
      timed(
        [
          [150, 150],
          [160, 160],
          [400, 400],
        ],
        base,
      ),
      timed(
        [
          [250, 250],
          [240, 240],
          [260, 260],
        ],
        base,
      ),
    ],
    'json/alloc': [allocated([640, 650, 600])],
    'a/alloc': [allocated([1300, 1290, 1280])],
  });
  const a = byId('a');
  assert.ok(Math.abs(a.ratio! - Math.cbrt(2.2 * 1.6 * 2.5)) < 1e-9, `ratio ${a.ratio}`);
  // the t-interval of the three launch ratios' logs (2 degrees of freedom): no other paired case lends a prior
  const logs = [2.2, 1.6, 2.5].map(Math.log);
  const m = logs.reduce((x, y) => x + y, 0) / 3;
  const sd = Math.sqrt(logs.reduce((x, y) => x + (y - m) ** 2, 0) / 2);
  const h = (tCritical(policy.measure.confidence, 2) * sd) / Math.sqrt(3);
  const [low, high] = a.ratioInterval!;
  assert.ok(Math.abs(low - Math.exp(m - h)) < 1e-9 && Math.abs(high - Math.exp(m + h)) < 1e-9, `${low}–${high}`);
  assert.equal(a.ratioBasis, 'launches');
  assert.ok(Math.abs(a.ratioError! - Math.max(a.ratio! - low, high - a.ratio!)) < 1e-12);
  // launch means 240, 236.67, 250 → their geometric mean (the time interval is on the log scale
  // since branch stats5) 242.1; launch medians 220, 160, 250 → median 220
  assert.ok(Math.abs(a.time!.mean - Math.cbrt(240 * (710 / 3) * 250)) < 1e-9, `time.mean ${a.time!.mean}`);
  assert.equal(a.time!.launches, 3);
  assert.equal(a.time!.median, 220);
  assert.equal(a.time!.n, 18);
  assert.equal(a.time!.min, 150);
  assert.equal(a.time!.max, 400);
  // allocation: median of the windows, then / the baseline's median: 1290 / 640
  assert.equal(a.allocated!.mean, 1290);
  assert.equal(a.allocRatio, 1290 / 640);
  assert.equal(byId('json').ratio, 1);
  assert.equal(byId('json').ratioError, 0);
});

test("the ratio interval covers every launch's own ratio: tight rounds in launches that disagree do not make a tight interval", async () => {
  // the new-user tryout's shape: each launch's rounds agree closely (0.48–0.49 and 0.76–0.78), the launches do not;
  // the pooled per-round interval alone is about 0.51–0.72 and leaves both launches out
  const base = Array.from({ length: 12 }, () => [100, 100]);
  const lo = [48, 49, 48.5, 48, 49, 48.5, 48, 49, 48.5, 48, 49, 48.5].map((x) => [x, x]);
  const hi = [77, 76, 78, 77, 76, 78, 77, 76, 78, 77, 76, 78].map((x) => [x, x]);
  const { byId } = await run([group('json', 'a')], {
    'json/time': [timed(base)],
    // the two disagree beyond their intervals, so the default policy takes a third launch
    'a/time': [timed(lo, base), timed(hi, base), timed(hi, base)],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([640])],
  });
  const a = byId('a');
  assert.equal(a.samples.launches.length, 3);
  assert.ok(
    Math.abs(a.ratio! - Math.cbrt(0.485 * 0.77 * 0.77)) < 1e-9,
    "the geometric mean of the launches' 0.485, 0.77 and 0.77",
  );
  const [l, h] = a.ratioInterval!;
  assert.ok(l <= 0.485 && h >= 0.77, `interval ${l}–${h} covers both launch states`);
  // a lone pair has no group to tell ordinary launch-to-launch spread from distinct states (the
  // baseline's launches agree to the digit: no spread to lend): no launch-states finding; its own
  // t-interval of 3 launches covers both readings all the same
  assert.ok(!a.findings.some((f) => f.code === 'launch-states'));
  // two launches that agree to the digit: the interval is not 0 wide (floored at the launches' own errors)
  const same = await run([group('json', 'a')], {
    'json/time': [timed(base)],
    'a/time': [timed(lo, base), timed(lo, base)],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([640])],
  });
  const [l2, h2] = same.byId('a').ratioInterval!;
  assert.ok(l2 < 0.485 && h2 > 0.485, `interval ${l2}–${h2}`);
});

test('a launch whose baseline ran more than 1.25× the best seen is relaunched; the discarded launch is kept with its reason', async () => {
  const { byId, calls } = await run([group('json', 'a')], {
    // json's own launches: 100, 100, then 124 (1.24×: kept)
    'json/time': [timed(flat(100)), timed(flat(100)), timed(flat(124))],
    // a's launch 2 first sees its baseline at 130 (1.30×: relaunched), then 100; launch 3 sees 125 (exactly 1.25×: kept)
    'a/time': [
      timed(flat(200), flat(100)),
      timed(flat(999), flat(130)),
      timed(flat(220), flat(100)),
      timed(flat(240), flat(125)),
    ],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([640])],
  });
  assert.deepEqual(
    calls.filter((c) => c.job.mode === 'time').map((c) => c.job.serializer),
    ['json', 'a', 'json', 'a', 'a', 'json', 'a'],
  );
  const a = byId('a');
  assert.equal(a.status, 'measured');
  assert.equal(a.samples.relaunches, 1);
  assert.deepEqual(
    a.samples.launches.map((l) => [l.launch, l.discarded ?? null]),
    [
      [1, null],
      [2, 'launch 2: baseline 1.30× slower than the best seen for this payload'],
      [2, null],
      [3, null],
    ],
  );
  assert.equal(a.samples.launches[1].rounds[0].serializerNs[0], 999, 'the discarded launch keeps its samples');
  assert.deepEqual(
    a.findings.filter((f) => f.code === 'relaunched').map((f) => f.message),
    [
      '1 launch(es) repeated because the baseline ran over the relaunch threshold: launch 2: baseline 1.30× slower than the best seen for this payload',
    ],
  );
  // the discarded launch (999 ns) is in no statistic: launch means 200, 220, 240 → geometric mean 219.4
  assert.ok(Math.abs(a.time!.mean - Math.cbrt(200 * 220 * 240)) < 1e-9, `time.mean ${a.time!.mean}`);
  assert.equal(a.time!.max, 240);
  assert.deepEqual([byId('json').samples.relaunches, byId('json').samples.launches.length], [0, 3]);
});

test('the baseline case itself is relaunched when its own launch ran slow', async () => {
  const { byId } = await run([group('json')], {
    'json/time': [timed(flat(100)), timed(flat(200)), timed(flat(110)), timed(flat(105))],
    'json/alloc': [allocated([640])],
  });
  const json = byId('json');
  assert.equal(json.samples.relaunches, 1);
  assert.deepEqual(
    json.samples.launches.map((l) => [l.launch, l.discarded ?? null]),
    [
      [1, null],
      [2, 'launch 2: baseline 2.00× slower than the best seen for this payload'],
      [2, null],
      [3, null],
    ],
  );
  // kept launch means 100, 110, 105 → their geometric mean (log-scale time since branch stats5)
  assert.ok(Math.abs(json.time!.mean - Math.cbrt(100 * 110 * 105)) < 1e-9, `time.mean ${json.time!.mean}`);
});

test('a case is relaunched at most maxRelaunches times in all, however often its baseline runs slow', async () => {
  const slow = timed(flat(200), flat(300));
  const { byId, calls } = await run([group('json', 'a')], {
    'json/time': [timed(flat(100))],
    'a/time': [timed(flat(200), flat(100)), slow],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([640])],
  });
  const a = byId('a');
  assert.equal(policy.maxRelaunches, 2);
  assert.equal(a.samples.relaunches, 2);
  assert.equal(calls.filter((c) => c.job.serializer === 'a' && c.job.mode === 'time').length, 3 + 2);
  assert.deepEqual(
    a.samples.launches.map((l) => [l.launch, Boolean(l.discarded)]),
    [
      [1, false],
      [2, true],
      [2, true],
      [2, false],
      [3, false],
    ],
  );
});

test('with maxRelaunches 0 a slow launch is kept as it is', async () => {
  const { byId } = await run(
    [group('json', 'a')],
    {
      'json/time': [timed(flat(100))],
      'a/time': [timed(flat(200), flat(100)), timed(flat(200), flat(300))],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([640])],
    },
    { ...policy, maxRelaunches: 0 },
  );
  assert.equal(byId('a').samples.relaunches, 0);
  assert.deepEqual(
    byId('a').samples.launches.map((l) => l.discarded ?? null),
    [null, null, null],
  );
  assert.equal(
    byId('a').findings.some((f) => f.code === 'relaunched'),
    false,
  );
});

test('an incorrect case never carries time, ratio or allocation, even after a measured launch', async () => {
  const { byId, calls } = await run([group('json', 'flaky', 'wrong')], {
    'json/time': [timed(flat(100))],
    'flaky/time': [timed(flat(150), flat(100)), incorrect()],
    'wrong/time': [incorrect()],
    'json/alloc': [allocated([640])],
  });
  for (const id of ['flaky', 'wrong']) {
    const c = byId(id);
    assert.equal(c.status, 'incorrect', id);
    assert.equal(c.reason, 'output differs at $.station_id');
    assert.deepEqual(c.mismatch, { side: 'serializer', path: '$.station_id', expected: '220051', actual: '220052' });
    assert.equal(c.time, undefined, `${id} has no time`);
    assert.equal(c.ratio ?? null, null, `${id} has no ratio`);
    assert.equal(c.ratioError ?? null, null, `${id} has no ratio error`);
    assert.equal(c.allocated, undefined, `${id} has no allocation`);
    assert.equal(c.allocRatio ?? null, null, `${id} has no allocation ratio`);
  }
  const launched = (s: string) => calls.filter((c) => c.job.serializer === s).map((c) => c.job.mode);
  assert.deepEqual(launched('wrong'), ['time'], 'an incorrect case is not launched again');
  assert.deepEqual(launched('flaky'), ['time', 'time']);
  assert.equal(byId('json').status, 'measured');
});

test('a failing baseline case leaves the others measured without a ratio, with a baseline-unavailable finding', async () => {
  const { byId, calls } = await run([group('json', 'a')], {
    'json/time': [failed('prepare', 'Error: no JSON today', 'serializer')],
    'a/time': [timed(flat(200))],
    'a/alloc': [allocated([900])],
  });
  const json = byId('json');
  assert.equal(json.status, 'failed');
  assert.equal(json.reason, 'prepare: Error: no JSON today');
  const a = byId('a');
  assert.equal(a.status, 'measured');
  assert.ok(Math.abs(a.time!.mean - 200) < 1e-9, `time.mean ${a.time!.mean}`);
  assert.equal(a.ratio, null);
  assert.equal(a.allocRatio, null);
  assert.deepEqual(
    a.findings.filter((f) => f.code === 'baseline-unavailable'),
    [{ code: 'baseline-unavailable', message: 'no ratio: baseline json was failed' }],
  );
  assert.ok(
    calls.filter((c) => c.job.serializer === 'a').every((c) => c.job.baseline === undefined),
    'a runs unpaired once its baseline is gone',
  );
});

test('a .NET row of the baseline at another version (stj@10.0.12 on dotnet@8) runs unpaired and says why it has no ratio', async () => {
  const dotnet = { platform: 'dotnet', baseline: 'stj' } as const;
  const { byId, calls } = await run([[planned('stj', dotnet), planned('stj@10.0.12', dotnet)]], {
    'stj/time': [timed(flat(100))],
    'stj/alloc': [allocated([500])],
    'stj@10.0.12/time': [timed(flat(120))],
    'stj@10.0.12/alloc': [allocated([520])],
  });
  const row = byId('stj@10.0.12');
  assert.equal(row.status, 'measured');
  assert.ok(Math.abs(row.time!.mean - 120) < 1e-9, `time.mean ${row.time!.mean}`);
  assert.equal(row.ratio, null);
  assert.deepEqual(
    row.findings.filter((f) => f.code === 'baseline-unavailable').map((f) => f.message),
    [
      "no ratio: stj@10.0.12 is stj's own library at another version, in a worker build of its own (one System.Text.Json per .NET process), so stj cannot run beside it: compare the two means",
    ],
  );
  assert.ok(
    calls.filter((c) => c.job.serializer === 'stj@10.0.12').every((c) => c.job.baseline === undefined),
    'never launched beside stj',
  );
});

test("a baseline that fails inside a case's worker unpairs the case, which is relaunched alone", async () => {
  const { byId, calls } = await run(
    [group('json', 'a')],
    {
      'json/time': [timed(flat(100))],
      'a/time': [failed('verify', 'Error: baseline broke here', 'baseline'), timed(flat(200))],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([900])],
    },
    { ...policy, launches: 1 },
  );
  const a = byId('a');
  assert.equal(a.status, 'measured');
  assert.equal(a.ratio, null);
  assert.deepEqual(
    calls.filter((c) => c.job.serializer === 'a').map((c) => [c.job.mode, c.job.baseline ?? '-']),
    [
      ['time', 'json'],
      ['time', '-'],
    ],
  );
  assert.equal(a.allocated?.mean, 900, 'the relaunch alone took the allocation windows');
  assert.deepEqual(
    a.findings.map((f) => f.message),
    ["no ratio: baseline json failed in this case's worker: verify: Error: baseline broke here"],
  );
});

test('a timed-out launch keeps the rounds streamed before it, and the case carries no numbers', async () => {
  const { byId } = await run([group('json', 'slow')], {
    'json/time': [timed(flat(100))],
    'slow/time': [
      timedOut(
        [
          [300, 310],
          [320, 330],
        ],
        [
          [100, 101],
          [102, 103],
        ],
      ),
    ],
    'json/alloc': [allocated([640])],
  });
  const slow = byId('slow');
  assert.equal(slow.status, 'timeout');
  assert.equal(slow.reason, 'no result after 4 s; worker killed (stage reached: 2 rounds measured)');
  assert.deepEqual(
    slow.samples.launches.map((l) => l.rounds),
    [
      [
        { serializerNs: [300, 310], baselineNs: [100, 101] },
        { serializerNs: [320, 330], baselineNs: [102, 103] },
      ],
    ],
  );
  assert.equal(slow.time, undefined);
  assert.equal(slow.ratio ?? null, null);
});

/** What Node 20 prints when a worker reaches the heap limit (abridged). */
const OOM_STDERR =
  '<--- Last few GCs --->\n\n[9:0x6f]  812 ms: Mark-Compact 47.1 (50.2) -> 46.9 (50.4) MB\n\n' +
  'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb8a1c0 node::Abort() [node]\n 2: 0xa951b6  [node]\n';

test('a crash is reported with its exit code or signal and the telling line of stderr', async () => {
  const { byId } = await run([group('json', 'exits', 'killed', 'garbled')], {
    'json/time': [timed(flat(100))],
    'exits/time': [
      crashed({ exitCode: 7, stderrTail: 'starting\n\nstep 1\nlast words\n' }, [[300, 300]], [[100, 100]]),
    ],
    'killed/time': [crashed({ signal: 'SIGABRT', stderrTail: OOM_STDERR })],
    'garbled/time': [crashed({ exitCode: 0, protocolError: 'protocol: version 2, expected 1' })],
    'json/alloc': [allocated([640])],
  });
  assert.deepEqual(
    ['exits', 'killed', 'garbled'].map((s) => [byId(s).status, byId(s).reason]),
    [
      ['crashed', 'worker exited with code 7 before finishing: last words'],
      [
        'crashed',
        'worker killed by SIGABRT before finishing: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      ],
      ['crashed', 'protocol: version 2, expected 1'],
    ],
  );
  assert.deepEqual(
    byId('exits').samples.launches.map((l) => l.rounds.length),
    [1],
    'the round streamed before the crash is kept',
  );
  assert.equal(byId('exits').time, undefined);
  assert.equal(byId('json').status, 'measured');
});

test('an unsupported case is never launched and keeps its reason', async () => {
  const { byId, calls } = await run(
    [group('json'), [planned('nope', { status: 'unsupported', reason: 'nope cannot serialize weather-station' })]],
    {
      'json/time': [timed(flat(100))],
      'json/alloc': [allocated([640])],
    },
    { ...policy, launches: 1 },
  );
  assert.ok(calls.every((c) => c.job.serializer === 'json'));
  assert.deepEqual(
    [byId('nope').status, byId('nope').reason],
    ['unsupported', 'nope cannot serialize weather-station'],
  );
});

test('every finished case is appended to the partial file as one JSON line, in result order', async () => {
  const { results, partial } = await run(
    [
      group('json', 'a', 'wrong'),
      group('json').map((c) => ({
        ...c,
        id: c.id.replace('serialize', 'deserialize'),
        direction: 'deserialize' as const,
        caseClass: 'parse' as const,
      })),
    ],
    {
      'json/time': [timed(flat(100))],
      'a/time': [timed(flat(200), flat(100))],
      'wrong/time': [incorrect()],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([640])],
    },
    { ...policy, launches: 1 },
  );
  assert.equal(results.length, 4);
  assert.deepEqual(partial, results);
});

test("a per-round ratio uses each side's median, so one preempted sample does not move it", async () => {
  // round 1: serializer [100, 100, 900] (one sample preempted) vs baseline [200, 200, 200] → 100/200 = 0.5
  // round 2: serializer [100, 100, 100] vs baseline [200, 1000, 200] → 100/200 = 0.5
  const { byId } = await run(
    [group('json', 'a')],
    {
      'json/time': [
        timed([
          [200, 200, 200],
          [200, 200, 200],
        ]),
      ],
      'a/time': [
        timed(
          [
            [100, 100, 900],
            [100, 100, 100],
          ],
          [
            [200, 200, 200],
            [200, 1000, 200],
          ],
        ),
      ],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([320])],
    },
    { ...policy, launches: 1 },
  );
  assert.equal(byId('a').ratio, 0.5);
});

test('every launch is logged the moment it ends, before its case finishes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-launchlog-'));
  try {
    const launchLogPath = join(dir, 'launches.partial.jsonl');
    writeFileSync(launchLogPath, '');
    const fake = fakeLaunch({
      'json/time': [timed(flat(100)), timed(flat(100))],
      'a/time': [timed(flat(200), flat(100)), timed(flat(200), flat(100))],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([1280])],
    });
    const seen: number[] = [];
    await runGroups({
      groups: [group('json', 'a')],
      payloads: new Map([[payload.key, payload]]),
      // a's launches agree to the digit: no interval from them (no spread, no within-launch error), so a
      // resolve band would take it to the cap; the cap here is the policy's 2
      policy: { ...policy, launches: 2, maxLaunches: 2 },
      partialPath: join(dir, 'results.partial.jsonl'),
      launchLogPath,
      groupLaunches: false,
      launchFor: () => (job, t) => {
        // finished launches (a `launching` line, written as each begins, names the case being measured: hx5)
        seen.push(
          readFileSync(launchLogPath, 'utf8')
            .split('\n')
            .filter((l) => l.includes('"record"')).length,
        );
        return fake.launch(job, t);
      },
    });
    // before each of the 4 timing launches (the first two also take allocation): 0, 1, 2, 3 launches logged
    assert.deepEqual(seen, [0, 1, 2, 3]);
    const all = readFileSync(launchLogPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (l) => JSON.parse(l) as { caseId: string; launching?: number; record?: { launch: number; grouped?: boolean } },
      );
    // each launch's case is named as the launch begins, then its record when it ends
    assert.deepEqual(
      all.filter((l) => l.launching !== undefined).map((l) => `${l.caseId.split('/').pop()}#${l.launching}`),
      ['json#1', 'a#1', 'json#2', 'a#2'],
    );
    const lines = all.filter((l) => l.record) as { caseId: string; record: { launch: number; grouped?: boolean } }[];
    assert.deepEqual(
      lines.map((l) => `${l.caseId.split('/').pop()}#${l.record.launch}`),
      ['json#1', 'a#1', 'json#2', 'a#2'],
    );
    // each record says it ran in a process of its own (groupLaunches: false): the assembly's group spreads read it
    assert.deepEqual(
      lines.map((l) => l.record.grouped),
      [false, false, false, false],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('each group is announced with its cases the moment it is finished, and every launch carries case and launch counts within their totals', async () => {
  const { progress } = await run(
    [
      group('json', 'a'),
      [planned('json', { id: 'w/2/json', payloadKey: payload.key, size: 2 }), planned('b', { id: 'w/2/b', size: 2 })],
    ],
    {
      'json/time': [timed(flat(100))],
      'a/time': [timed(flat(200), flat(100))],
      'b/time': [timed(flat(50), flat(100))],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([1280])],
      'b/alloc': [allocated([320])],
    },
  );
  const kinds = progress.map((e) =>
    e.type === 'group-done' ? `group ${e.done}/${e.groups}: ${e.cases.map((c) => c.serializer).join(',')}` : e.type,
  );
  assert.deepEqual(
    kinds.filter((k) => k.startsWith('group')),
    ['group 1/2: json,a', 'group 2/2: json,b'],
  );
  // two groups of a class, 2 launch contrasts each: the first waits for the run's end to borrow the second's launch
  // spread (run/assemble.ts priorsComplete), so what it prints is what results.json carries; plan order is kept
  assert.ok(
    kinds.indexOf('group 1/2: json,a') > kinds.lastIndexOf('launch'),
    'the first group is announced once every launch is done',
  );
  for (const e of progress) {
    if (e.type === 'launch')
      assert.ok(
        e.counts.launchesDone <= e.counts.launchesTotal &&
          e.counts.casesDone <= e.counts.casesTotal &&
          e.counts.casesTotal === 4,
        JSON.stringify(e.counts),
      );
  }
  const last = progress.filter((e) => e.type === 'case-done').at(-1)!;
  assert.ok(last.type === 'case-done');
  const { workFinished, workExpected, etaIsFloor, ...launchCounts } = last.counts;
  assert.deepEqual(launchCounts, {
    launchesDone: 12,
    launchesFinished: 12,
    launchesTotal: 12,
    casesDone: 4,
    casesTotal: 4,
    casesPlanned: 4,
  });
  // the ETA's work ends on what was done: nothing left, no floor
  assert.equal(workFinished, workExpected);
  assert.equal(etaIsFloor, false);
});

test('groups stream once the groups done lend a full prior: the first of four is announced before the last one launches', async () => {
  const ids = ['a', 'b', 'c', 'd'];
  const { progress } = await run(
    ids.map((s, i) => [
      planned('json', { id: `w/${i}/json`, size: i + 1 }),
      planned(s, { id: `w/${i}/${s}`, size: i + 1 }),
    ]),
    {
      'json/time': [timed(flat(100)), timed(flat(110))],
      ...Object.fromEntries(
        ids.map((s, i) => [`${s}/time`, [timed(flat(200 + i), flat(100)), timed(flat(180 + i), flat(110))]]),
      ),
      'json/alloc': [allocated([640])],
      ...Object.fromEntries(ids.map((s) => [`${s}/alloc`, [allocated([320])]])),
    },
  );
  const order = progress.map((e) => (e.type === 'group-done' ? `group ${e.cases[1].serializer}` : e.type));
  // each group of the class gives 2 launch contrasts of time (2 cases of 2 launches in processes of their own):
  // groups 1 and 2 are ready once group 3 is done, before group 4's launches
  const firstD = progress.findIndex((e) => e.type === 'launch' && e.counts.launchesDone > 12);
  assert.ok(firstD > 0, 'group 4 launched');
  assert.ok(order.indexOf('group a') < firstD && order.indexOf('group b') < firstD, order.join(' '));
  assert.ok(order.indexOf('group d') > firstD);
  assert.deepEqual(
    order.filter((k) => k.startsWith('group')),
    ['group a', 'group b', 'group c', 'group d'],
  );
});

test('a case that ends early takes its remaining launches out of the total: the counter still ends on it', async () => {
  const { progress } = await run([group('json', 'a')], {
    'json/time': [timed(flat(100))],
    'a/time': [incorrect()],
    'json/alloc': [allocated([640])],
  });
  const launches = progress.filter((e) => e.type === 'launch');
  const endOf = launches.at(-1)!;
  assert.ok(endOf.type === 'launch');
  assert.equal(endOf.index, endOf.total, `${endOf.index}/${endOf.total}`);
  assert.equal(endOf.total, 4, 'json: 3 launches; a: 1 launch, then incorrect');
});

test('--jobs 2: two groups run at once, each in its own slot (one CPU each), a case and its baseline in one slot; results come back in plan order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-runner-jobs-'));
  const fake = fakeLaunch({
    'json/time': [timed(flat(100))],
    'a/time': [timed(flat(200), flat(100))],
    'b/time': [timed(flat(50), flat(100))],
    'json/alloc': [allocated([640])],
    'a/alloc': [allocated([1280])],
    'b/alloc': [allocated([320])],
  });
  const g2 = [planned('json', { id: 'w/2/json', size: 2 }), planned('b', { id: 'w/2/b', size: 2 })];
  try {
    const results = await runGroups({
      groups: [group('json', 'a'), g2, group('json', 'b')],
      payloads: new Map([[payload.key, payload]]),
      policy,
      partialPath: join(dir, 'p.jsonl'),
      launchFor: () => fake.launch,
      jobs: 2,
      cpus: [1, 0],
    });
    assert.deepEqual(
      results.map((r) => r.id),
      [planned('json').id, planned('a').id, 'w/2/json', 'w/2/b', planned('json').id, planned('b').id],
    );
    const firstTwo = fake.calls.slice(0, 2).map((c) => c.place?.cpu);
    assert.deepEqual(firstTwo, [1, 0], 'the first launches of the two slots alternate: the groups run at once');
    const cpuOf = new Map<string, Set<number | undefined>>();
    for (const c of fake.calls) {
      const k = `${c.job.size}`;
      if (!cpuOf.has(k)) cpuOf.set(k, new Set());
      cpuOf.get(k)!.add(c.place?.cpu);
    }
    assert.deepEqual(
      [...cpuOf.get('2')!],
      [0],
      "every launch of the second group, baseline included, ran on its slot's CPU",
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(6).fill('measured'),
    );
    assert.equal(results.find((r) => r.id === 'w/2/b')!.ratio, 0.5, 'the ratio is still drawn inside one launch');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('after two launches a case whose launches disagree beyond their intervals gets a third (up to maxLaunches); one whose launches agree does not', async () => {
  const three = (ns: number): number[][] => [
    [ns, ns],
    [ns, ns],
    [ns, ns],
  ];
  const { calls, byId } = await run(
    [group('json', 'a', 'b')],
    {
      'json/time': [timed(three(100))],
      'a/time': [timed(three(200), three(100))],
      // b's per-round ratios: 1.0 in launch 1, 1.5 in launch 2 (no spread within either: they disagree), 1.1 in launch 3
      'b/time': [timed(three(100), three(100)), timed(three(150), three(100)), timed(three(110), three(100))],
      'json/alloc': [allocated([640])],
      'a/alloc': [allocated([640])],
      'b/alloc': [allocated([640])],
    },
    { ...policy, launches: 2, maxLaunches: 3 },
  );
  // a reads exactly 2 in both launches, but the interval it reports (the one the stop rule judges)
  // borrows b's launch-to-launch spread (1.0 against 1.5; separate processes: a one-way prior of 1 df),
  // which straddles the ±2% band: a gets a third launch too
  assert.deepEqual(
    calls.map((c) => `${c.job.serializer}`),
    ['json', 'a', 'b', 'json', 'a', 'b', 'a', 'b'],
  );
  assert.deepEqual(
    byId('b').samples.launches.map((l) => l.launch),
    [1, 2, 3],
  );
  assert.ok(
    Math.abs(byId('b').ratio! - Math.cbrt(1.0 * 1.5 * 1.1)) < 1e-9,
    'the geometric mean of the three launch ratios 1.0, 1.5, 1.1',
  );
  assert.equal(byId('a').ratio, 2);
});

/** A fake group worker: per serializer id (baseline included) its per-round ns; `fail` names a serializer whose gate fails; `die` ends the launch without `done`. */
function groupWorker(ns: Record<string, number>, opts: { fail?: string; die?: boolean } = {}) {
  const jobs: CaseJob[] = [];
  const launch = async (job: WorkerJob): Promise<LaunchOutcome> => {
    if (job.mode === 'probe') throw new Error('group worker: case jobs only');
    jobs.push(job);
    const m: WorkerMessage[] = [{ protocol: 2, type: 'hello', runtime: 'node', version: '20.19.0', gc: true }];
    if (!job.serializers) {
      // a single case (a retake): the serializer and, if paired, its baseline
      for (let r = 0; r < 3; r++)
        m.push({
          protocol: 2,
          type: 'round',
          round: r,
          serializerNs: [ns[job.serializer], ns[job.serializer]],
          baselineNs: job.baseline ? [ns[job.baseline], ns[job.baseline]] : [],
        });
      m.push({ protocol: 2, type: 'done', noisy: false, elapsedMs: 1, checksum: 1 });
      return { messages: m, exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '', elapsedMs: 10 };
    }
    const base = job.baseline!;
    const sers = job.serializers.filter((s) => s !== opts.fail);
    if (opts.fail)
      m.push({
        protocol: 2,
        type: 'incorrect',
        serializer: opts.fail,
        side: 'serializer',
        path: '$.x',
        expected: '1',
        actual: '2',
        reason: 'output differs at $.x',
      });
    for (const id of [base, ...sers])
      m.push({
        protocol: 2,
        type: 'setup',
        serializer: id,
        opsPerSample: { serializer: 10, baseline: id === base ? 0 : 10 },
        warmup: { serializerOps: 100, serializerMs: 1, baselineOps: 100, baselineMs: 1 },
        emptyNsPerOp: 1,
        clock: 'cpu',
      });
    for (let r = 0; r < 3; r++) {
      m.push({
        protocol: 2,
        type: 'round',
        serializer: base,
        round: r,
        serializerNs: [ns[base], ns[base]],
        baselineNs: [],
        serializerWallNs: [3 * ns[base], 3 * ns[base]],
        baselineWallNs: [],
      });
      for (const id of sers)
        m.push({
          protocol: 2,
          type: 'round',
          serializer: id,
          round: r,
          serializerNs: [ns[id], ns[id]],
          baselineNs: [ns[base], ns[base]],
          serializerWallNs: [3 * ns[id], 3 * ns[id]],
          baselineWallNs: [3 * ns[base], 3 * ns[base]],
        });
    }
    if (job.alloc)
      for (const id of [base, ...sers])
        m.push({
          protocol: 2,
          type: 'alloc',
          serializer: id,
          windowsBytesPerOp: [ns[id] * 10],
          gcPerOp: 0,
          opsPerWindow: 100,
          method: 'exact',
          how: 'test',
        });
    if (!opts.die) m.push({ protocol: 2, type: 'done', noisy: false, elapsedMs: 1, checksum: 1 });
    return {
      messages: m,
      exitCode: opts.die ? null : 0,
      signal: opts.die ? 'SIGSEGV' : null,
      timedOut: false,
      stderrTail: '',
      stdoutTail: '',
      elapsedMs: 10,
    };
  };
  return { jobs, launch };
}

async function runGrouped(groups: CaseGroup[], worker: ReturnType<typeof groupWorker>, p: RunPolicy) {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-group-'));
  try {
    const results = await runGroups({
      groups,
      payloads: new Map([[payload.key, payload]]),
      policy: p,
      partialPath: join(dir, 'partial.jsonl'),
      launchFor: () => worker.launch,
      sharesProcess: (id) => id !== 'mine',
    });
    return { results, byId: (s: string) => results.find((r) => r.serializer === s)! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a group launch times the baseline and every serializer of the group in one process; the baseline's case takes the baseline's samples", async () => {
  const w = groupWorker({ json: 100, a: 200, b: 50 });
  const { byId } = await runGrouped([group('json', 'a', 'b')], w, { ...policy, launches: 2, maxLaunches: 2 });
  assert.deepEqual(
    w.jobs.map((j) => [j.baseline, j.serializers, Boolean(j.alloc)]),
    [
      ['json', ['a', 'b'], true],
      ['json', ['a', 'b'], false],
    ],
    'one process per launch, allocation in the first',
  );
  assert.deepEqual(
    ['json', 'a', 'b'].map((s) => byId(s).ratio),
    [1, 2, 0.5],
  );
  assert.deepEqual(
    byId('json').samples.launches.map((l) => l.rounds[0].serializerNs),
    [
      [100, 100],
      [100, 100],
    ],
  );
  assert.equal(byId('a').time?.clock, 'cpu');
  assert.equal(byId('a').time?.wallMean, 600, 'the wall-time mean is kept beside the CPU one');
  assert.deepEqual(
    ['json', 'a', 'b'].map((s) => byId(s).allocated?.mean),
    [1000, 2000, 500],
  );
  assert.equal(byId('b').allocRatio, 0.5);
});

test("a serializer from a config (not built in) is launched alone, never in the built-ins' process; the others still share one", async () => {
  const w = groupWorker({ json: 100, a: 200, mine: 50 });
  const { byId } = await runGrouped([group('json', 'a', 'mine')], w, { ...policy, launches: 1, maxLaunches: 1 });
  assert.deepEqual(
    w.jobs.map((j) =>
      j.serializers ? `group ${j.baseline}+${j.serializers.join(',')}` : `${j.serializer}~${j.baseline ?? '-'}`,
    ),
    ['mine~json', 'group json+a'],
  );
  assert.deepEqual(
    ['json', 'a', 'mine'].map((s) => byId(s).ratio),
    [1, 2, 0.5],
  );
});

test('in a group launch a serializer that fails its gate ends alone; a launch that dies without naming a case is taken again case by case', async () => {
  const failing = groupWorker({ json: 100, a: 200, b: 50 }, { fail: 'a' });
  const one = await runGrouped([group('json', 'a', 'b')], failing, { ...policy, launches: 1, maxLaunches: 1 });
  assert.deepEqual(
    ['json', 'a', 'b'].map((s) => one.byId(s).status),
    ['measured', 'incorrect', 'measured'],
  );
  assert.equal(one.byId('b').ratio, 0.5);
  assert.equal(failing.jobs.length, 1);
  const dying = groupWorker({ json: 100, a: 200, b: 50 }, { die: true });
  const two = await runGrouped([group('json', 'a', 'b')], dying, { ...policy, launches: 1, maxLaunches: 1 });
  assert.deepEqual(
    dying.jobs.map((j) => (j.serializers ? 'group' : `${j.serializer}~${j.baseline ?? '-'}`)),
    ['group', 'json~-', 'a~json', 'b~json'],
  );
  assert.deepEqual(
    ['json', 'a', 'b'].map((s) => two.byId(s).ratio),
    [1, 2, 0.5],
  );
});
