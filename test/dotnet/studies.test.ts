import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  PUBLISHED,
  STUDIES,
  allocVerdict,
  cpuRatio,
  dataNotes,
  decimalsFor,
  deltaLines,
  findPair,
  publishedAllocRatio,
  renderNote,
  runCommandOf,
  runtimeDistance,
  shapeLines,
  timeVerdict,
} from '../../bench/studies-reproduced.js';
import type { ResultsFile } from '../../src/results/types.js';
import type { CaseResult } from '../../src/results/types.js';

test('every published comparison of issues 12 and 26 is there, each against stj, with its study and runtime', () => {
  assert.equal(PUBLISHED.length, 5 + 8 + 8 + 1);
  assert.ok(PUBLISHED.every((p) => p.baseline === 'stj' && p.time[0] > 0 && p.time[1] > 0));
  const users = PUBLISHED.find((p) => p.study === '001' && p.shape === 'list' && p.direction === 'serialize')!;
  assert.equal((users.time[0] / users.time[1]).toFixed(2), '1.70');
  assert.deepEqual(users.workloads, ['users-record', 'users'], "the study's code shape first");
  const mono = PUBLISHED.find((p) => p.study === '000')!;
  assert.deepEqual(
    [mono.workloads, mono.label, (mono.time[0] / mono.time[1]).toFixed(2), mono.alloc],
    [['weather-station'], 'deserialize', '1.36', [3816, 1024]],
    'the label claims no library version (the data note names the measured ones)',
  );
  assert.deepEqual(
    PUBLISHED.filter((p) => p.study === '004' && p.direction === 'deserialize').map((p) => publishedAllocRatio(p)),
    [1.084, 1.075, 1.076, 1.076],
    "study 004's deserialize allocation ratios",
  );
  assert.deepEqual(
    STUDIES.map((s) => [s.id, s.runtime]),
    [
      ['001', 'dotnet@8'],
      ['002', 'dotnet@10'],
      ['004', 'dotnet'],
      ['000', 'mono'],
    ],
  );
  assert.match(STUDIES.find((s) => s.id === '004')!.known, /Newtonsoft\.Json had written \(PascalCase/);
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

/** A results file of .NET cases: `cases` as [workload, shape, direction, serializer, bytes allocated, ratio]. */
function dotnetFile(
  target: { id: string; kind: string; version: string; description: string },
  cases: [string, 'list' | 'many', 'serialize' | 'deserialize', string, number, number][],
  size = 10000,
): ResultsFile {
  return {
    startedAt: '2026-12-06T00:54:01.000Z',
    environment: { cpuModel: 'AMD EPYC', cores: 2, loadAverage: { start: [15.9, 17.4, 16.8] } },
    policy: { name: 'default', launches: 2, measure: { confidence: 0.999 } },
    targets: [
      {
        id: target.id,
        kind: target.kind,
        runtime: 'dotnet',
        version: target.version,
        probe: { description: target.description },
      },
    ],
    cases: cases.map(([workload, shape, direction, serializer, bytes, ratio]) => ({
      id: `${workload}/${size}/${shape}/${direction}/${serializer}@${target.id}`,
      target: { id: target.id, runtime: 'dotnet', version: target.version },
      workload,
      size,
      shape,
      direction,
      serializer,
      serializerVersion: serializer === 'newtonsoft' ? '13.0.4' : target.version,
      baseline: 'stj',
      status: 'measured',
      payload: { bytes: 1000, sha256: 'x' },
      time: { mean: 1e6 * ratio, error: 1e4 },
      ratio,
      ratioInterval: [ratio * 0.9, ratio * 1.1],
      allocated: { mean: bytes, method: 'exact' },
      allocRatio: null,
      samples: { relaunches: 0, launches: [] },
      findings: [],
    })),
  } as unknown as ResultsFile;
}
const NET8 = { id: 'dotnet@8', kind: 'dotnet-version', version: '8.0.31', description: '.NET 8.0.31' };
const NET9 = { id: 'dotnet@9', kind: 'dotnet-version', version: '9.0.20', description: '.NET 9.0.20' };
const NET10 = { id: 'dotnet@10', kind: 'dotnet-version', version: '10.0.12', description: '.NET 10.0.12' };
const SDK = { id: 'dotnet', kind: 'dotnet', version: '10.0.12', description: '.NET 10.0.12' };
const MiB = 2 ** 20;

test("the data notes name the runtime each study's rows came from, and say when it is not the study's or not its code shape", () => {
  const onSdk = dotnetFile(SDK, [
    ['users', 'list', 'deserialize', 'newtonsoft', 4.25 * MiB, 1.5],
    ['users', 'list', 'deserialize', 'stj', 4.25 * MiB, 1],
  ]);
  const sdk = dataNotes([onSdk], '001');
  assert.match(sdk, /^Measured here on dotnet 10\.0\.12 \(\.NET 10\.0\.12\); newtonsoft 13\.0\.4, stj 10\.0\.12\./);
  assert.match(
    sdk,
    /Not the study's runtime \(\.NET 8\): dotnet 10\.0\.12 \(\.NET 10\.0\.12\) \(dotnet@8 was not in the results given\)/,
  );
  assert.match(sdk, /jsonbench's default DTOs, users \(not users-record\)/);
  const net8 = dotnetFile(NET8, [
    ['users-record', 'list', 'deserialize', 'newtonsoft', 10.66 * MiB, 1.6],
    ['users-record', 'list', 'deserialize', 'stj', 5.97 * MiB, 1],
  ]);
  const own = dataNotes([onSdk, net8], '001');
  assert.match(
    own,
    /^Measured here on dotnet@8 8\.0\.31 \(\.NET 8\.0\.31\); newtonsoft 13\.0\.4, stj 8\.0\.31\.$/,
    "the study's runtime and code shape: nothing to warn about",
  );
  assert.equal(dataNotes([], '001'), '');
  const orders = dotnetFile(
    NET10,
    [
      ['orders', 'list', 'serialize', 'newtonsoft', 248 * 1024, 1.7],
      ['orders', 'list', 'serialize', 'stj', 96.5 * 1024, 1],
    ],
    100,
  );
  assert.match(
    dataNotes([orders], '002'),
    /System\.Text\.Json's own allocation is not the study's on the same case \(serialize 100 96\.5 KiB here, 21\.7 KiB published \(4\.4×\)\): the documents measured here are not the study's/,
  );
  assert.doesNotMatch(own, /own allocation is not the study's/, 'users-record: 5.97 MiB against 5.92 MB');
});

test('findPair reads the case nearest the study runtime first, then its code shape, then a measured one', () => {
  const row = PUBLISHED.find((p) => p.study === '001' && p.shape === 'list' && p.direction === 'deserialize')!;
  const pair = (rows: [string, 'list' | 'many', 'serialize' | 'deserialize', string, number, number][]) => rows;
  const sdkRecord = dotnetFile(
    SDK,
    pair([
      ['users-record', 'list', 'deserialize', 'newtonsoft', 1, 2],
      ['users-record', 'list', 'deserialize', 'stj', 1, 1],
    ]),
  );
  const net8Class = dotnetFile(
    NET8,
    pair([
      ['users', 'list', 'deserialize', 'newtonsoft', 1, 2],
      ['users', 'list', 'deserialize', 'stj', 1, 1],
    ]),
  );
  const net8Record = dotnetFile(
    NET8,
    pair([
      ['users-record', 'list', 'deserialize', 'newtonsoft', 1, 2],
      ['users-record', 'list', 'deserialize', 'stj', 1, 1],
    ]),
  );
  assert.deepEqual(
    [findPair([sdkRecord, net8Class], row)?.c.target.id, findPair([sdkRecord, net8Class], row)?.distance],
    ['dotnet@8', 0],
    'the runtime before the code shape',
  );
  assert.equal(findPair([net8Class, net8Record], row)?.c.workload, 'users-record');
  assert.equal(
    findPair([net8Class, net8Record], row)?.b?.serializer,
    'stj',
    'the baseline from the same run and target',
  );
  const mono = { id: 'mono', runtime: 'mono', version: '6.8.0.105' };
  assert.deepEqual(
    [
      runtimeDistance('mono', mono),
      runtimeDistance('dotnet@8', mono),
      runtimeDistance('dotnet@8', { id: 'dotnet', runtime: 'dotnet', version: '8.0.31' }),
    ],
    [0, null, 1],
  );
  assert.equal(runtimeDistance('dotnet', { id: 'ssh://u@h', runtime: 'dotnet', version: '10.0.12' }), 2);
});

test('npm run studies accepts runs on dotnet@N targets: a .NET 8 run fills study 001 and the note never calls it .NET 10', () => {
  const file = dotnetFile(NET8, [
    ['users', 'list', 'serialize', 'newtonsoft', 6.93 * MiB, 1.4],
    ['users', 'list', 'serialize', 'stj', 3.45 * MiB, 1],
    ['users', 'list', 'deserialize', 'newtonsoft', 4.25 * MiB, 1.3],
    ['users', 'list', 'deserialize', 'stj', 5.97 * MiB, 1],
  ]);
  const note = renderNote([file], 'npm run studies -- --results <1 results file: the runs below>');
  const s001 = note.slice(note.indexOf('## Study 001'), note.indexOf('## Study 002'));
  assert.match(
    s001,
    /\| serialize list \| newtonsoft \| #1 dotnet@8 \(\.NET 8\.0\.31\) · 2026-12-06 00:54 UTC · load 15\.9 \(users\) \| 1\.70 \| 1\.40 \[1\.26–1\.54\]/,
  );
  assert.match(s001, /\| deserialize list \| newtonsoft \| #1 dotnet@8 \(\.NET 8\.0\.31\) · .* \(users\) \|/);
  assert.doesNotMatch(s001, /\| deserialize list \| newtonsoft \| — \|/, 'not "not run"');
  assert.doesNotMatch(s001, /\.NET 10/, "the runtime is the run's, not a fixed text");
  assert.match(note, /^1\. 2026-12-06T00:54:01\.000Z · dotnet@8 8\.0\.31 \(\.NET 8\.0\.31\) · users ·/m);
  assert.match(s001, /Study 001 — \.NET 8, 10,000 fake users \(BenchmarkDotNet\): time — direction agrees in 2 of 2/);
});

test('study 001 gets the list-deserialize bytes by runtime and DTO shape, and says what moves each library', () => {
  const rows = (w: string, nj: number, stj: number): [string, 'list', 'deserialize', string, number, number][] => [
    [w, 'list', 'deserialize', 'newtonsoft', nj * MiB, 1.5],
    [w, 'list', 'deserialize', 'stj', stj * MiB, 1],
  ];
  const lines = shapeLines([
    dotnetFile(NET8, [...rows('users', 4.25, 5.97), ...rows('users-record', 10.66, 5.99)]),
    dotnetFile(NET10, [...rows('users', 4.25, 4.25), ...rows('users-record', 10.66, 4.27)]),
  ]).join('\n');
  assert.match(
    lines,
    /\| the study: \.NET 8, BenchmarkDotNet \| positional record, Guid id \| 5\.92 MiB \| 10\.55 MiB \| 1\.78 \|/,
  );
  assert.match(
    lines,
    /\| dotnet@8 8\.0\.31 \| positional record, Guid id \(users-record\) \| 5\.99 MiB \| 10\.66 MiB \| 1\.78 \|/,
  );
  assert.match(lines, /on dotnet@8 the record shape moves Newtonsoft\.Json from 4\.25 MiB to 10\.66 MiB \(2\.51×\)/);
  assert.match(
    lines,
    /with users the runtime moves System\.Text\.Json from 5\.97 MiB on dotnet@8 to 4\.25 MiB on dotnet@10/,
  );
  assert.deepEqual(shapeLines([]), []);
});

test("study 002's Δ table sets each serializer on .NET 9 beside .NET 10", () => {
  const orders = (t: typeof NET9, mean: number): ResultsFile =>
    dotnetFile(
      t,
      [
        ['orders', 'list', 'serialize', 'stj', 96 * 1024, 1],
        ['orders', 'list', 'serialize', 'newtonsoft', 248 * 1024, mean],
      ],
      100,
    );
  const lines = deltaLines([orders(NET9, 2), orders(NET10, 1.5)]).join('\n');
  assert.match(
    lines,
    /\| serialize 100 \| newtonsoft \| #1, #2 \| 2\.00 ms \[1\.99–2\.01 ms\] \| 1\.50 ms \[1\.49–1\.51 ms\] \| −25% \| −7\.8% \| yes \| 2\.00 \[1\.80–2\.20\] \| 2\.06 · inside \| 1\.50 \[1\.35–1\.65\] \| 2\.01 · \*\*outside\*\* \| 248 KiB \| 248 KiB \|/,
    "the study's net9.0 times (33.2 / 16.1 µs) and net10.0 times (30.6 / 15.2 µs) beside jsonbench's",
  );
  assert.match(
    lines,
    /\| serialize 100 \| stj \| #1, #2 \| .* \| ≈ ±0\.0% \| −5\.6% \| unclear \| baseline \| baseline \| baseline \| baseline \|/,
    "the study's reflection Δ (15.2 / 16.1 µs); jsonbench's within its error bars: unclear",
  );
  assert.match(
    lines,
    /jsonbench's Δ is outside its error bars in 1 of 2 rows, and has the study's sign in 1 of those 1; the published ratio is inside jsonbench's interval in 1 of 2/,
  );
  assert.deepEqual(deltaLines([orders(NET10, 1.5)]), [], 'one runtime: no Δ');
});

test('node build/bench/studies-reproduced.js --help prints its usage; an unknown option is a usage error, not a crash', () => {
  const script = fileURLToPath(new URL('../../bench/studies-reproduced.js', import.meta.url));
  const help = spawnSync(process.execPath, [script, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: npm run studies -- \[options\]/);
  assert.match(help.stdout, /--runs-dir <dir>/);
  assert.match(help.stdout, /--orders-sizes <list> {4}study 002's sizes \(default: 100,10000\)/);
  assert.match(
    help.stdout,
    /^ {2}002 {2}jsonbench run --target dotnet@9,dotnet@10 --workload orders --size 100,10000$/m,
    "each study's runs, as the script makes them",
  );
  assert.match(
    help.stdout,
    /^ {2}004 {2}jsonbench run --target dotnet --workload company --size 1000,10000,50000,100000$/m,
  );
  const bad = spawnSync(process.execPath, [script, '--bogus'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /Unknown option '--bogus'[\s\S]*Usage:/);
  assert.doesNotMatch(bad.stderr, /ERR_PARSE_ARGS_UNKNOWN_OPTION\n\s+at /, 'no stack trace');
});

test('a study without a measured case says "not measured", never "0 of 0 comparisons"', () => {
  const note = renderNote([], 'npm run studies');
  assert.doesNotMatch(note, /0 of 0/);
  assert.doesNotMatch(note, /To make these runs again/, 'no runs, nothing to make again');
  for (const { id, title } of STUDIES) {
    const rows = PUBLISHED.filter((p) => p.study === id).length;
    assert.ok(
      note.includes(
        `${title}: not measured (no run of its cases in the results given: ${rows} comparison${rows === 1 ? '' : 's'} without a measured case).`,
      ),
      title,
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
  const orders = file('default', []);
  orders.cases = [100, 10000].map((size) => ({ workload: 'orders', size }) as unknown as CaseResult);
  const quickShapes = file('quick', []);
  quickShapes.targets = [{ id: 'dotnet@8' }, { id: 'dotnet@10' }] as unknown as ResultsFile['targets'];
  quickShapes.cases = ['users', 'users-record'].map((workload) => ({ workload, size: 10000 }) as unknown as CaseResult);
  assert.match(
    renderNote([orders, quickShapes], 'npm run studies'),
    /`npm run studies -- --policy default --orders-sizes 100,10000`/,
    "study 001's own quick run does not make the policy `default|quick`",
  );
  const mono = dotnetFile(NET8, [
    ['weather-station', 'list', 'deserialize', 'newtonsoft', 3816, 1.36],
    ['weather-station', 'list', 'deserialize', 'stj', 1024, 1],
  ]);
  for (const c of mono.cases) Object.assign(c, { shape: 'single', size: 1, target: { id: 'mono', runtime: 'mono' } });
  Object.assign(mono.targets[0], { id: 'mono', runtime: 'mono' });
  assert.match(
    renderNote([mono], 'npm run studies'),
    /`npm run studies -- --policy default --study 000`/,
    'a note of one study says to run that study, not all four',
  );
});

test('each run of the note is listed with the command read back from its results file, its wall time and load; each row with its run, runtime, start and load', () => {
  const file = dotnetFile(NET8, [
    ['users-record', 'list', 'serialize', 'newtonsoft', 8.15 * MiB, 1.5],
    ['users-record', 'list', 'serialize', 'stj', 3.45 * MiB, 1],
  ]);
  Object.assign(file, { finishedAt: '2026-12-06T01:05:13.000Z' });
  Object.assign(file.environment.loadAverage, { end: [7.41, 13.91, 16.18] });
  Object.assign(file.policy, { caseTimeoutMs: 600_000 });
  assert.equal(
    runCommandOf(file),
    'jsonbench run --target dotnet@8 --workload users-record --size 10000 --direction serialize --policy default --case-timeout 10m',
  );
  Object.assign(file.policy, { caseTimeoutMs: 120_000 });
  assert.equal(
    runCommandOf(file),
    'jsonbench run --target dotnet@8 --workload users-record --size 10000 --direction serialize --policy default',
    "the policy's own case timeout is not repeated",
  );
  const note = renderNote([file], 'npm run studies');
  assert.match(
    note,
    /^1\. 2026-12-06T00:54:01\.000Z · dotnet@8 8\.0\.31 \(\.NET 8\.0\.31\) · users-record · AMD EPYC × 2 · policy default \(2 launches\) · 11 min 12 s · load 15\.90\/17\.40\/16\.80 at start, 7\.41\/13\.91\/16\.18 at end · `jsonbench run --target dotnet@8 /m,
  );
  assert.match(
    note,
    /\| serialize list \| newtonsoft \| #1 dotnet@8 \(\.NET 8\.0\.31\) · 2026-12-06 00:54 UTC · load 15\.9→7\.4 \| 1\.70 \|/,
  );
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
    /† serialize 100,000: the output string is larger than the run's large-object-heap threshold \(e\.g\. 15\.20 MiB over 4\.00 MiB\)/,
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
