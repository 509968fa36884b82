import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PUBLISHED,
  allocVerdict,
  cpuRatio,
  dataNotes,
  decimalsFor,
  renderNote,
  timeVerdict,
} from '../../bench/studies-reproduced.js';
import type { ResultsFile } from '../../src/results/types.js';
import type { CaseResult } from '../../src/results/types.js';

test('every published comparison of issue 12 is there, each against stj', () => {
  assert.equal(PUBLISHED.length, 5 + 8 + 8 + 1);
  assert.ok(PUBLISHED.every((p) => p.baseline === 'stj' && p.time[0] > 0 && p.time[1] > 0));
  const users = PUBLISHED.find((p) => p.workload === 'users' && p.shape === 'list' && p.direction === 'serialize')!;
  assert.equal((users.time[0] / users.time[1]).toFixed(2), '1.70');
  const mono = PUBLISHED.find((p) => p.target === 'mono')!;
  assert.deepEqual(
    [mono.workload, mono.direction, (mono.time[0] / mono.time[1]).toFixed(2), mono.alloc],
    ['weather-station', 'deserialize', '1.36', [3816, 1024]],
  );
});

test('time verdict: direction by the side of 1 the interval lies on (unclear when it holds 1), within error when the published ratio is inside it', () => {
  assert.deepEqual(timeVerdict(1.7, { ratio: 1.9, interval: [1.6, 2.2] }), { direction: true, withinError: true });
  assert.deepEqual(timeVerdict(1.7, { ratio: 2.5, interval: [2.2, 2.9] }), { direction: true, withinError: false });
  assert.deepEqual(timeVerdict(1.7, { ratio: 0.8, interval: [0.7, 0.9] }), { direction: false, withinError: false });
  assert.deepEqual(
    timeVerdict(1.03, { ratio: 1.2, interval: [0.9, 1.5] }),
    { direction: true, withinError: true },
    'about equal: the interval holds 1',
  );
  assert.deepEqual(timeVerdict(1.03, { ratio: 1.4, interval: [1.2, 1.6] }), { direction: false, withinError: false });
  assert.deepEqual(
    timeVerdict(0.97, { ratio: 1.18, interval: [0.22, 6.25] }),
    { direction: null, withinError: true },
    'about equal, but an interval wider than 3× holds 1 whatever happens: unclear',
  );
  assert.deepEqual(
    timeVerdict(1.36, { ratio: 1.02, interval: [0.9, 1.15] }),
    { direction: null, withinError: false },
    'unclear: the interval holds 1',
  );
  assert.deepEqual(timeVerdict(1.7, null), { direction: null, withinError: null });
});

test('allocation verdict: side of 1 and within 15%', () => {
  assert.deepEqual(allocVerdict(2.36, 2.01), { direction: true, close: true });
  assert.deepEqual(allocVerdict(1.78, 1.0), { direction: false, close: false });
  assert.deepEqual(allocVerdict(4.71, 7.17), { direction: true, close: false });
});

test('the CPU ratio is the median over launches of the median per-round ratio of medians of thread-CPU samples', () => {
  const round = (s: number[], b: number[]) => ({
    serializerNs: s,
    baselineNs: b,
    serializerCpuNs: s,
    baselineCpuNs: b,
  });
  const c = {
    samples: {
      relaunches: 0,
      launches: [
        { rounds: [round([2, 2, 9], [1, 1, 1]), round([3], [1])] },
        { rounds: [round([2], [1]), round([2], [1]), round([2], [1])] },
        { rounds: [round([4], [2])] },
      ],
    },
  } as unknown as CaseResult;
  const r = cpuRatio(c, 0.999)!;
  assert.equal(r.ratio, 2, 'launch medians 2.5, 2, 2 → 2');
  assert.ok(r.interval && r.interval[0] < 2 && r.interval[1] > 2);
  const discarded = {
    samples: {
      relaunches: 1,
      launches: [{ discarded: 'launch 1: baseline 1.3× slower', rounds: [round([9], [1])] }, ...c.samples.launches],
    },
  } as unknown as CaseResult;
  assert.equal(
    cpuRatio(discarded, 0.999)!.ratio,
    2,
    'a launch the lab discarded (and repeated) is left out, as in the case ratio',
  );
  assert.equal(
    cpuRatio(
      {
        samples: { relaunches: 0, launches: [{ rounds: [{ serializerNs: [1], baselineNs: [1] }] }] },
      } as unknown as CaseResult,
      0.999,
    ),
    null,
  );
});

test('the data notes name the versions the cases ran and state the equal list-deserialize allocation only when the data show it', () => {
  const users = PUBLISHED.find((p) => p.workload === 'users' && p.shape === 'list' && p.direction === 'deserialize')!;
  const kase = (serializer: string, version: string, bytes: number) => ({
    target: { id: 'dotnet', runtime: 'dotnet', version: '10.0.12' },
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'deserialize',
    serializer,
    serializerVersion: version,
    status: 'measured',
    allocated: { mean: bytes, method: 'exact' },
  });
  const file = (n: number, s: number) =>
    ({
      targets: [{ id: 'dotnet', kind: 'dotnet' }],
      cases: [kase('newtonsoft', '13.0.4', n), kase('stj', '10.0.12', s)],
    }) as unknown as ResultsFile;
  const same = dataNotes([file(4.25 * 2 ** 20, 4.25 * 2 ** 20)], users.study);
  assert.match(same, /dotnet 10\.0\.12; newtonsoft 13\.0\.4, stj 10\.0\.12/);
  assert.match(same, /about the same bytes here \(4\.25 MiB and 4\.25 MiB\).*1\.78× is not the method's doing/);
  assert.doesNotMatch(
    same,
    /comes from \.NET 8/,
    'no run here tests .NET 8 or the library versions: the note must not name them as the cause',
  );
  assert.doesNotMatch(
    dataNotes([file(6 * 2 ** 20, 4.25 * 2 ** 20)], users.study),
    /same bytes/,
    'Newtonsoft 1.41× STJ: the claim is not made',
  );
  assert.equal(dataNotes([], users.study), '');
});

test('a study without a measured case says "not measured", never "0 of 0 comparisons"', () => {
  const note = renderNote([], 'npm run studies');
  assert.doesNotMatch(note, /0 of 0/);
  assert.doesNotMatch(note, /To make these runs again/, 'no runs, nothing to make again');
  const studies = [...new Set(PUBLISHED.map((p) => p.study))];
  for (const study of studies) {
    const rows = PUBLISHED.filter((p) => p.study === study).length;
    assert.ok(
      note.includes(
        `${study}: not measured (no run of its cases in the results given: ${rows} comparison${rows === 1 ? '' : 's'} without a measured case).`,
      ),
      study,
    );
  }
});

test('the note says how to make its runs again: the policy and company sizes its results files hold', () => {
  const file = (policy: string, sizes: number[]) =>
    ({
      startedAt: 't',
      targets: [],
      environment: { cpuModel: 'x', cores: 2, loadAverage: { start: [1, 1, 1] } },
      policy: { name: policy, launches: 2, measure: { confidence: 0.999 } },
      cases: sizes.map((size) => ({ workload: 'company', size, target: { id: 'dotnet' }, status: 'measured' })),
    }) as unknown as ResultsFile;
  const note = renderNote(
    [file('default', [1000, 100000]), file('default', [50000, 10000])],
    'npm run studies -- --results <2 results files: the runs below>',
  );
  assert.match(note, /`npm run studies -- --policy default --company-sizes 1000,10000,50000,100000`/);
});

test("a serialize row whose output string is over its run's LOH threshold is marked and explained; under it, not", () => {
  const kase = (serializer: string, size: number, bytes: number) => ({
    id: `${serializer}-${size}`,
    target: { id: 'dotnet', runtime: 'dotnet', version: '10.0.12' },
    workload: 'company',
    size,
    shape: 'single',
    direction: 'serialize',
    serializer,
    status: 'measured',
    payload: { bytes },
    ratio: 2,
    ratioInterval: [1.8, 2.2],
    allocRatio: 2.4,
    allocated: { mean: 1, method: 'exact' },
    samples: { relaunches: 0, launches: [] },
  });
  const file = (gcMode: string) =>
    ({
      startedAt: 'x',
      environment: { cpuModel: 'cpu', cores: 2, loadAverage: { start: [1, 1, 1] } },
      policy: { name: 'default', launches: 2, measure: { confidence: 0.999 } },
      targets: [{ id: 'dotnet', kind: 'dotnet', version: '10.0.12', probe: { gcMode } }],
      cases: [
        kase('newtonsoft', 10000, 796238),
        kase('stj', 10000, 796238),
        kase('newtonsoft', 100000, 7969214),
        kase('stj', 100000, 7969214),
      ],
    }) as unknown as ResultsFile;
  const before = renderNote([file('workstation, Interactive, LOH threshold 4194216 B')], 'npm run studies');
  assert.match(before, /\| serialize 100,000 † \| newtonsoft \|/);
  assert.match(before, /\| serialize 10,000 \| newtonsoft \|/, '1.6 MiB output: under 4 MiB');
  assert.match(
    before,
    /† serialize 100,000: the output string is larger than the run's large-object-heap threshold \(e\.g\. 15\.2 MiB over 4\.0 MiB\)/,
  );
  const after = renderNote(
    [file('workstation, Interactive, LOH threshold 33554344 B, region 33554432 B, gen0 budget 268435456 B')],
    'npm run studies',
  );
  assert.doesNotMatch(after, /†/);
  assert.doesNotMatch(
    renderNote([file('workstation, Interactive')], 'npm run studies'),
    /†/,
    'no threshold stated: no claim',
  );
});

test('a row whose verdict hangs on a third decimal prints three (0.66 against [0.63–0.66] read "inside" while the verdict said outside)', () => {
  assert.equal(decimalsFor(10.1 / 15.2, { ratio: 0.65, interval: [0.63, 0.6627] }), 3);
  assert.equal(decimalsFor(10.1 / 15.2, { ratio: 0.64, interval: [0.58, 0.71] }, null), 2);
  assert.equal(decimalsFor(1.7, { ratio: 1.69, interval: [1.41, 2.04] }), 2);
});
