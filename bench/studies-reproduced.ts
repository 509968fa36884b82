/**
 * The four published .NET studies beside jsonbench on this machine (issues 12 and 26): writes
 * benchmarks/notes/studies-reproduced.md from real runs, each study on its own runtime.
 *
 *   npm run studies                                  # builds, runs every study's cases (default policy), writes the note
 *   npm run studies -- --policy quick --study 001    # a first look at one study
 *   npm run studies:run -- --results a/results.json,b/results.json   # the note from runs made before, no build
 *   options: --help lists them (--out, --runs-dir, --company-sizes, --orders-sizes) and each study's runs
 *
 * The runs ({@link STUDIES}: one `jsonbench run` per line, `--no-ledger --no-probes`, into
 * jsonbench-results/studies-<time>/run-<n>/, kept): study 001 on dotnet@8 with the study's code shape
 * (users-record, users-settings-record) and a quick run of both DTO shapes on .NET 8 and 10 for its
 * allocation question; study 002 on dotnet@9 and dotnet@10 (its Δ column); study 004 on dotnet at its four
 * sizes; study 000 on mono. A published row reads the case nearest the study's runtime ({@link findPair}),
 * so runs on any .NET target are accepted and the note says which runtime each row came from.
 * Each published figure is set beside jsonbench's as a ratio against System.Text.Json (absolute times
 * differ by machine): jsonbench's ratio by the case's clock (`time.clock`: process CPU where the worker has
 * it; the lab's, with its 99.9% log-scale interval), the same ratio from the worker's thread-CPU samples
 * (per-round ratios of medians, median per launch, median of launches; its interval from the rounds pooled,
 * narrower than the case's: {@link cpuRatio}), and the allocation ratio (exact,
 * GC.GetAllocatedBytesForCurrentThread).
 * Verdicts: time — direction agrees when both ratios are on the same side of 1 (a published ratio
 * within 0.95–1.05 counts as "about equal" and agrees when jsonbench's interval holds 1); the ratio
 * agrees within error when the published ratio lies inside jsonbench's interval. Allocation — the
 * direction as for time; the ratio agrees when the two ratios are within 15% of each other (the
 * figure is exact on both sides, so what differs is the runtime, library or payload, not noise).
 * A row outside those is a gap: {@link EXPLAINED} holds the gaps the data here explain; the rest are
 * named unexplained.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CaseResult, ResultsFile } from '../src/results/types.js';
import { ratioIntervalOf } from '../src/results/ratio.js';
import { readResults } from '../src/results/io.js';
import { logRatioInterval, medianOf } from '../src/stats/estimate.js';
import { ratioNumber } from '../src/report/units.js';
import { policies } from '../src/config/policies.js';
import { formatAllocated, formatMeanError, formatOwnRatio, formatPercentDelta } from '../src/report/per-runtime.js';

/** The baseline's bytes per op here ÷ the study's beyond which (either way) the note says the documents differ: allocation is exact on both sides. */
const DOCUMENT_DIFFERS = 1.5;

/** The published studies, by number (issue 26): 000 Mono on a device, 001 .NET 8 users, 002 the report site, 004 the feature and size study. */
export type StudyId = '000' | '001' | '002' | '004';

/** The sizes of the studies with a size sweep, as `--size` lists (`1000,10000`): study 004's `company`, study 002's `orders`. */
export interface StudySizes {
  company: string;
  orders: string;
}

/**
 * A study as this note reproduces it: its heading, the jsonbench target of the runtime it ran on (the note reads
 * that target's cases first: {@link findPair}), what differs from it whatever the machine, and the `jsonbench run`s
 * that reproduce it (`npm run studies`; `--company-sizes` for study 004, `--orders-sizes` for study 002).
 */
export interface Study {
  id: StudyId;
  title: string;
  /** `dotnet@8`, `dotnet@10`, `dotnet` (the SDK's), `mono` */
  runtime: string;
  /** the study's runtime in words (`.NET 8`) */
  runtimeName: string;
  known: string;
  runs(sizes: StudySizes): string[][];
}

export const STUDIES: readonly Study[] = [
  {
    id: '001',
    title: 'Study 001 — .NET 8, 10,000 fake users (BenchmarkDotNet)',
    runtime: 'dotnet@8',
    runtimeName: '.NET 8',
    known:
      'The study ran BenchmarkDotNet on .NET 8 with its own `public record User(Guid Id, string FirstName, …)` made by Bogus, which both libraries deserialize through the record\'s constructor, and it built its settings objects (`new JsonSerializerOptions { … }`, `new JsonSerializerSettings { ContractResolver = new DefaultContractResolver { … } }`) inside each call of its settings benchmark. jsonbench measures that code shape with the workloads `users-record` and `users-settings-record` (faker\'s users, the same six fields; docs/dotnet.md) on `dotnet@8`. "Each user separately" is the `many` shape: one call per record, as the study looped.',
    runs: () => [
      ['--target', 'dotnet@8', '--workload', 'users-record', '--size', '10000'],
      ['--target', 'dotnet@8', '--workload', 'users-settings-record', '--size', '10000', '--direction', 'serialize'],
      // the DTO shape and the runtime side by side, for the allocation question (exact whatever the policy)
      [
        '--target',
        'dotnet@8,dotnet@10',
        '--workload',
        'users,users-record',
        '--size',
        '10000',
        '--direction',
        'deserialize',
        '--policy',
        'quick',
      ],
    ],
  },
  {
    id: '002',
    title: 'Study 002 — orders on net9.0 and net10.0 (the report site, BenchmarkDotNet)',
    runtime: 'dotnet@10',
    runtimeName: '.NET 10',
    known:
      "Published on net9.0 and net10.0 with BenchmarkDotNet, with a Δ column between them; the published ratios below are its net10.0 column; its net9.0 times (issue 12) are set beside jsonbench's dotnet@9 in the Δ table under it. It gave allocations for net10.0 only, and none for source-generated deserialize (not in this note's source, issues 12 and 26). The orders DTOs are jsonbench's generated ones (an enum, a date, nested lines), not the study's classes.",
    runs: (sizes) => [['--target', 'dotnet@9,dotnet@10', '--workload', 'orders', '--size', sizes.orders]],
  },
  {
    id: '004',
    title: 'Study 004 — company, employees with 3 hobbies, four sizes',
    runtime: 'dotnet',
    runtimeName: 'the SDK’s .NET',
    known:
      "The study gave absolute times, serialize allocations, and deserialize allocation ratios only (1.084, 1.075, 1.076, 1.076); its time and serialize-allocation ratios are computed here. Its deserialize input was the text Newtonsoft.Json had written (PascalCase property names, Newtonsoft's number and date formats); jsonbench deserializes its own payload text (camelCase, as JSON.stringify writes it) into the same DTOs with both libraries. The study's runtime is not in this note's source: measured here on the SDK's .NET.",
    runs: (sizes) => [['--target', 'dotnet', '--workload', 'company', '--size', sizes.company]],
  },
  {
    id: '000',
    title: 'Study 000 — Mono 6.12 on a controller, weather response (4 alternating rounds of 3,000 parses)',
    runtime: 'mono',
    runtimeName: 'Mono 6.12',
    known:
      "Published on Mono 6.12 on an ARM controller with System.Text.Json 10.0.12 and Newtonsoft.Json 13.0.5-beta1 (not in this machine's NuGet copy, which has 13.0.4: the versions measured are named below); here Debian's Mono on x86-64 (a device of your own: `--target 'ssh://user@host?mono=/usr/bin/mono'`, docs/dotnet.md). The study timed 4 alternating rounds of 3,000 parses; jsonbench times paired ABBA rounds after warmup.",
    runs: () => [['--target', 'mono', '--workload', 'weather-station', '--direction', 'deserialize']],
  },
];

/** One published comparison: serializer ÷ baseline on one case, times in any one unit, allocation in bytes or as a ratio (absent when the study gave none). */
export interface Published {
  study: StudyId;
  label: string;
  /** the workloads to read, preferred first: the study's own code shape (`users-record`), then jsonbench's default DTOs (`users`) */
  workloads: readonly string[];
  size: number;
  shape: 'list' | 'many' | 'single';
  direction: 'serialize' | 'deserialize';
  serializer: string;
  baseline: string;
  time: [number, number];
  /** study 002: the same times on its other runtime, net9.0 ([serializer, baseline], the unit of `time`) */
  net9?: [number, number];
  /** bytes allocated per op: [serializer, baseline] */
  alloc?: [number, number];
  /** the allocation ratio, where the study published the ratio only */
  allocRatio?: number;
}

/** BenchmarkDotNet's units (MemoryDiagnoser: 1 KB = 1024 B), which the studies quote; the note prints them as KiB and MiB. */
const KB = 1024;
const MB = 1024 * 1024;
const USERS = ['users-record', 'users'] as const;
const USERS_SETTINGS = ['users-settings-record', 'users-settings'] as const;

/** The published figures of issues 12 and 26 (facts to compare against). Orders: the net10 column. */
export const PUBLISHED: readonly Published[] = [
  {
    study: '001',
    label: 'serialize list',
    workloads: USERS,
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [9.415, 5.543],
    alloc: [8.07 * MB, 3.42 * MB],
  },
  {
    study: '001',
    label: 'serialize list, indented + snake_case',
    workloads: USERS_SETTINGS,
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [14.093, 7.036],
    alloc: [10.24 * MB, 4.48 * MB],
  },
  {
    study: '001',
    label: 'serialize each user separately',
    workloads: USERS,
    size: 10000,
    shape: 'many',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [7.032, 4.87],
    alloc: [17.14 * MB, 3.64 * MB],
  },
  {
    study: '001',
    label: 'deserialize list',
    workloads: USERS,
    size: 10000,
    shape: 'list',
    direction: 'deserialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [26.363, 15.02],
    alloc: [10.55 * MB, 5.92 * MB],
  },
  {
    study: '001',
    label: 'deserialize each user separately',
    workloads: USERS,
    size: 10000,
    shape: 'many',
    direction: 'deserialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [15.974, 8.472],
    alloc: [35.5 * MB, 3.96 * MB],
  },
  ...([100, 10000] as const).flatMap((size): Published[] => {
    const f =
      size === 100
        ? {
            ser: { refl: 15.2, sg: 10.1, nj: 30.6, ra: 21.7 * KB, sa: 21.4 * KB, na: 70.0 * KB },
            de: { refl: 34.9, sg: 34.0, nj: 52.0, ra: 42.5 * KB, na: 96.1 * KB },
            // the net9.0 column (µs)
            ser9: { refl: 16.1, sg: 12.7, nj: 33.2 },
            de9: { refl: 35.8, sg: 37.4, nj: 59.1 },
          }
        : {
            ser: { refl: 1.95, sg: 1.5, nj: 3.88, ra: 2.18 * MB, sa: 2.17 * MB, na: 5.8 * MB },
            de: { refl: 4.31, sg: 4.45, nj: 6.57, ra: 4.16 * MB, na: 9.19 * MB },
            // the net9.0 column (ms)
            ser9: { refl: 2.18, sg: 1.77, nj: 4.3 },
            de9: { refl: 4.89, sg: 4.52, nj: 7.47 },
          };
    const base = {
      study: '002' as const,
      workloads: ['orders'],
      size,
      shape: 'list' as const,
      baseline: 'stj',
    };
    return [
      {
        ...base,
        label: `serialize ${size.toLocaleString('en-US')}`,
        direction: 'serialize',
        serializer: 'stj-sourcegen',
        time: [f.ser.sg, f.ser.refl],
        net9: [f.ser9.sg, f.ser9.refl],
        alloc: [f.ser.sa, f.ser.ra],
      },
      {
        ...base,
        label: `serialize ${size.toLocaleString('en-US')}`,
        direction: 'serialize',
        serializer: 'newtonsoft',
        time: [f.ser.nj, f.ser.refl],
        net9: [f.ser9.nj, f.ser9.refl],
        alloc: [f.ser.na, f.ser.ra],
      },
      {
        ...base,
        label: `deserialize ${size.toLocaleString('en-US')}`,
        direction: 'deserialize',
        serializer: 'stj-sourcegen',
        time: [f.de.sg, f.de.refl],
        net9: [f.de9.sg, f.de9.refl],
      },
      {
        ...base,
        label: `deserialize ${size.toLocaleString('en-US')}`,
        direction: 'deserialize',
        serializer: 'newtonsoft',
        time: [f.de.nj, f.de.refl],
        net9: [f.de9.nj, f.de9.refl],
        alloc: [f.de.na, f.de.ra],
      },
    ];
  }),
  ...(
    [
      [1000, 1126, 773, 367, 147, 1484, 1014, 1.084],
      [10000, 13322, 6381, 3601, 1485, 23103, 17149, 1.075],
      [50000, 62018, 29333, 18160, 7500, 122183, 90769, 1.076],
      [100000, 121583, 59224, 36369, 15018, 246666, 184933, 1.076],
    ] as const
  ).flatMap(([size, nst, sst, nsa, ssa, ndt, sdt, dar]): Published[] => {
    const base = {
      study: '004' as const,
      workloads: ['company'],
      size,
      shape: 'single' as const,
      serializer: 'newtonsoft',
      baseline: 'stj',
    };
    return [
      {
        ...base,
        label: `serialize ${size.toLocaleString('en-US')}`,
        direction: 'serialize',
        time: [nst, sst],
        alloc: [nsa * KB, ssa * KB],
      },
      {
        ...base,
        label: `deserialize ${size.toLocaleString('en-US')}`,
        direction: 'deserialize',
        time: [ndt, sdt],
        allocRatio: dar,
      },
    ];
  }),
  {
    study: '000',
    label: 'deserialize',
    workloads: ['weather-station'],
    size: 1,
    shape: 'single',
    direction: 'deserialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [0.147, 0.108],
    alloc: [3816, 1024],
  },
];

/** The study of a published row. */
function studyOf(p: Pick<Published, 'study'>): Study {
  return STUDIES.find((s) => s.id === p.study)!;
}

/** The published allocation ratio of a row (bytes ÷ bytes, or the ratio the study gave), or null. */
export function publishedAllocRatio(p: Published): number | null {
  return p.alloc ? p.alloc[0] / p.alloc[1] : (p.allocRatio ?? null);
}

/**
 * Gaps to a study that the data here explain, by `study|label|serializer|time` or `…|alloc`: the explanation, with
 * the evidence it rests on. A gap (a published ratio outside jsonbench's interval, or an allocation ratio off by more
 * than 15%) without an entry is named unexplained in the note.
 */
export const EXPLAINED: Readonly<Record<string, string>> = {};

/** A ratio and its interval ([low, high]; null when unknown). */
interface RatioWithInterval {
  ratio: number;
  interval: [number, number] | null;
}

/** The CPU-time ratio of a case from its raw samples: per-round ratio of medians of thread-CPU ns/op, median per launch, median of launches (the launches the lab kept: a launch discarded for a slow baseline and repeated is left out, as the case's own ratio leaves it out); null without CPU samples. */
export function cpuRatio(c: CaseResult, confidence: number): RatioWithInterval | null {
  const perLaunch = c.samples.launches
    .filter((l) => !l.discarded)
    .map((l) =>
      l.rounds
        .filter((r) => r.serializerCpuNs?.length && r.baselineCpuNs?.length)
        .map((r) => medianOf(r.serializerCpuNs!) / medianOf(r.baselineCpuNs!)),
    )
    .filter((xs) => xs.length);
  if (!perLaunch.length) return null;
  const ratio = medianOf(perLaunch.map((xs) => medianOf(xs)));
  return { ratio, interval: logRatioInterval(perLaunch.flat(), ratio, confidence) };
}

/** An interval whose high end is more than this many times its low end says little: "within error" is then flagged as weak. */
export const WIDE = 3;

/** True when the interval spans more than {@link WIDE}×. */
export function isWide(x: RatioWithInterval | null): boolean {
  return !!x?.interval && x.interval[1] / x.interval[0] > WIDE;
}

/**
 * Verdict on a time ratio. `direction`: true when jsonbench's interval lies wholly on the published
 * side of 1, false when wholly on the other side, null ("unclear") when it holds 1; a published
 * ratio within 0.95–1.05 ("about equal") agrees when the interval holds 1 and is at most
 * {@link WIDE}× wide (a wider one holds 1 whatever the two serializers do: unclear), and disagrees
 * when the interval leaves 1 out. `withinError`: the published ratio lies inside the interval (null
 * without an interval).
 */
export function timeVerdict(
  published: number,
  got: RatioWithInterval | null,
): { direction: boolean | null; withinError: boolean | null } {
  if (!got) return { direction: null, withinError: null };
  const about = published >= 0.95 && published <= 1.05;
  const [lo, hi] = got.interval ?? [got.ratio, got.ratio];
  const holdsOne = lo <= 1 && hi >= 1;
  const direction = about
    ? holdsOne
      ? isWide(got)
        ? null
        : true
      : false
    : holdsOne
      ? null
      : published > 1 === lo > 1;
  return { direction, withinError: got.interval ? lo <= published && published <= hi : null };
}

/** Verdict on an allocation ratio: same side of 1 (within 0.95–1.05 both count as equal), and within 15% of the published one. */
export function allocVerdict(
  published: number,
  got: number | null,
): { direction: boolean | null; close: boolean | null } {
  if (got === null) return { direction: null, close: null };
  const side = (x: number) => (x < 0.95 ? -1 : x > 1.05 ? 1 : 0);
  return { direction: side(published) === side(got), close: Math.abs(got / published - 1) <= 0.15 };
}

/**
 * Decimals that show a row's verdict: 2, or 3 when the published ratio and an end of an interval print
 * the same at 2 (0.66 against [0.63–0.66] reads "inside" while the verdict says outside: 0.665 vs 0.662).
 */
export function decimalsFor(published: number, ...xs: (RatioWithInterval | null)[]): number {
  const r2 = (x: number) => ratioNumber(x, 2);
  return xs.some((x) => x?.interval?.some((end) => r2(end) === r2(published) && end !== published)) ? 3 : 2;
}
const fmt = (x: RatioWithInterval | null, d = 2) =>
  x
    ? `${ratioNumber(x.ratio, d)}${x.interval ? ` [${ratioNumber(x.interval[0], d)}–${ratioNumber(x.interval[1], d)}]` : ''}`
    : '—';
const yes = (b: boolean | null, wide = false) => (b === null ? '—' : b ? (wide ? 'yes (wide)' : 'yes') : '**no**');
const dir = (b: boolean | null, measured: boolean) => (measured && b === null ? 'unclear' : yes(b));

/** A published row's pair as measured: the serializer's case, its baseline's (same run, target and workload), and how close the target is to the study's runtime. */
export interface FoundPair {
  c: CaseResult;
  b: CaseResult | undefined;
  file: ResultsFile;
  /** 0: the study's own target (`dotnet@8`); 1: another target of the same major; 2: another runtime of the same platform */
  distance: 0 | 1 | 2;
}

/** The .NET major of a target's version (`8.0.31` → 8), or null. */
function majorOf(version: string | undefined): number | null {
  const m = /^(\d+)\./.exec(version ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * How close a case's target is to a study's runtime (`dotnet@8`, `dotnet`, `mono`), or null when it is another
 * platform: 0 the same target id, 1 the same .NET major (a `dotnet@8` study read from any .NET 8), 2 another runtime
 * of the platform (Mono for Mono; any .NET for .NET). An ssh target running the worker counts as its runtime.
 */
export function runtimeDistance(
  study: string,
  target: { id: string; runtime: string; version: string },
): 0 | 1 | 2 | null {
  const mono = study === 'mono';
  if ((target.runtime === 'mono') !== mono || (!mono && target.runtime !== 'dotnet')) return null;
  if (target.id === study) return 0;
  const m = /^dotnet@(\d+)$/.exec(study);
  if (m && majorOf(target.version) === Number(m[1])) return 1;
  return study === 'dotnet' && target.id.startsWith('dotnet') && !target.id.includes('@') ? 0 : 2;
}

/**
 * The measured pair of a published row in the results files: among the cases of its coordinates on a target of the
 * study's platform, the one nearest the study's runtime ({@link runtimeDistance}), then of the workload preferred
 * first (the study's code shape before jsonbench's default DTOs); a case whose pair is unmeasured comes after a
 * measured one. `runtime` overrides the study's (study 002's Δ table reads dotnet@9 with it). Undefined when none.
 */
export function findPair(
  files: readonly ResultsFile[],
  p: Published,
  runtime = studyOf(p).runtime,
): FoundPair | undefined {
  let best: (FoundPair & { rank: number }) | undefined;
  for (const file of files)
    for (const c of file.cases) {
      const w = p.workloads.indexOf(c.workload);
      if (w < 0 || c.size !== p.size || c.shape !== p.shape || c.direction !== p.direction) continue;
      if (c.serializer !== p.serializer) continue;
      const distance = runtimeDistance(runtime, c.target);
      if (distance === null) continue;
      const b = file.cases.find(
        (x) =>
          x.target.id === c.target.id &&
          x.workload === c.workload &&
          x.size === c.size &&
          x.shape === c.shape &&
          x.direction === c.direction &&
          x.serializer === p.baseline,
      );
      const rank = (c.status === 'measured' ? 0 : 100) + distance * 10 + w;
      if (!best || rank < best.rank) best = { c, b, file, distance, rank };
    }
  if (!best) return undefined;
  const { rank: _rank, ...found } = best;
  return found;
}

/** `dotnet@8 8.0.31 (.NET 8.0.31)`: a target as its run recorded it, with the runtime's own FrameworkDescription. */
function targetText(file: ResultsFile, id: string): string {
  const t = file.targets.find((x) => x.id === id);
  if (!t) return id;
  const description = (t.probe as { description?: unknown } | undefined)?.description;
  return `${t.id} ${t.version}${typeof description === 'string' && description ? ` (${description})` : ''}`;
}

/**
 * The large-object-heap threshold (bytes) a .NET case ran with: its run's target probe states it in
 * `gcMode` ("workstation, Interactive, LOH threshold 4194216 B, …", workers/dotnet/src/RuntimeInfo.cs);
 * null where it is not stated (Mono, a run without the probe field).
 */
export function lohThresholdOf(files: readonly ResultsFile[], c: CaseResult): number | null {
  for (const f of files) {
    if (!f.cases.includes(c)) continue;
    const t = f.targets.find((x) => x.id === c.target.id);
    const m = /LOH threshold (\d+) B/.exec(String((t?.probe as { gcMode?: unknown } | undefined)?.gcMode ?? ''));
    return m ? Number(m[1]) : null;
  }
  return null;
}

/**
 * A serialize case whose output string is larger than its run's LOH threshold: the string (UTF-16,
 * 2 bytes per char of the payload's JSON, which is ASCII here: payload bytes × 2) is a large object,
 * and the GC returns freed LOH regions to the OS, so each op faults its pages back (~17 µs a page on
 * this machine's VM; workers/dotnet/README.md): the time then holds page faults, not only the
 * serializer's work. Returns the output and threshold bytes, or null when the output fits or the
 * threshold is unknown.
 */
export function overLoh(
  files: readonly ResultsFile[],
  c: CaseResult | undefined,
): { output: number; threshold: number } | null {
  if (!c || c.direction !== 'serialize') return null;
  const threshold = lohThresholdOf(files, c);
  const output = c.payload.bytes * 2;
  return threshold !== null && output > threshold ? { output, threshold } : null;
}

/** Bytes as the note prints them: `3.45 MiB`, `96.5 KiB`, `944 B` (1024-based, as BenchmarkDotNet's KB and MB). */
export function noteBytes(x: number | undefined): string {
  if (x === undefined) return '—';
  if (x >= MB) return `${(x / MB).toFixed(2)} MiB`;
  if (x >= KB) return `${(x / KB).toFixed(1)} KiB`;
  return `${x.toFixed(0)} B`;
}

const allocOf = (x: CaseResult | undefined) =>
  x?.status === 'measured' && x.allocated?.method !== 'n/a' ? x.allocated?.mean : undefined;

/**
 * What the data say beside a study's fixed text: the runtimes and library versions its rows were read from (a
 * target's own FrameworkDescription), a row read from a runtime other than the study's (named, never called the
 * study's), and rows read from jsonbench's default DTOs where the study's code shape has a workload of its own.
 */
export function dataNotes(files: readonly ResultsFile[], study: StudyId): string {
  const s = STUDIES.find((x) => x.id === study)!;
  const pairs = PUBLISHED.filter((p) => p.study === study)
    .map((p) => ({ p, found: findPair(files, p) }))
    .filter((x): x is { p: Published; found: FoundPair } => x.found !== undefined);
  if (!pairs.length) return '';
  const runtimes = new Set<string>();
  const versions = new Map<string, string>();
  const away = new Set<string>();
  const fallback = new Set<string>();
  for (const { p, found } of pairs) {
    runtimes.add(targetText(found.file, found.c.target.id));
    for (const x of [found.c, found.b]) if (x?.serializerVersion) versions.set(x.serializer, x.serializerVersion);
    if (found.distance > 0) away.add(targetText(found.file, found.c.target.id));
    if (p.workloads.indexOf(found.c.workload) > 0) fallback.add(`${found.c.workload} (not ${p.workloads[0]})`);
  }
  const out = [
    `Measured here on ${[...runtimes].join(', ')}; ${[...versions].map(([id, v]) => `${id} ${v}`).join(', ')}.`,
  ];
  if (away.size)
    out.push(
      `Not the study's runtime (${s.runtimeName}): ${[...away].join(', ')} (${s.runtime} was not in the results given).`,
    );
  if (fallback.size)
    out.push(
      `Some rows read jsonbench's default DTOs, ${[...fallback].join(', ')}: the study's own code shape was not in the results given.`,
    );
  // the baseline's own bytes against the study's: exact on both sides, so a difference is the document, not noise
  const otherDocs = new Map<string, string>();
  for (const { p, found } of pairs) {
    const got = allocOf(found.b);
    if (!p.alloc || got === undefined) continue;
    const k = got / p.alloc[1];
    if (k > DOCUMENT_DIFFERS || k < 1 / DOCUMENT_DIFFERS)
      otherDocs.set(
        p.label,
        `${p.label} ${noteBytes(got)} here, ${noteBytes(p.alloc[1])} published (${ratioNumber(k, 1)}×)`,
      );
  }
  if (otherDocs.size)
    out.push(
      `System.Text.Json's own allocation is not the study's on the same case (${[...otherDocs.values()].join('; ')}): the documents measured here are not the study's, so a gap in the ratios below may come from the documents rather than the libraries.`,
    );
  return out.join(' ');
}

/**
 * Study 001's allocation question (issue 26: STJ allocated 5.97 MiB and Newtonsoft 4.25 MiB deserializing the list
 * on .NET 8, where the study published 5.92 vs 10.55 MB): the list-deserialize bytes per op of both libraries, by
 * runtime and DTO shape, from every run that has them; then what moves each library, in words computed from the rows.
 * Empty without such runs.
 */
export function shapeLines(files: readonly ResultsFile[]): string[] {
  const rows: { target: string; version: string; workload: string; stj: number; nj: number }[] = [];
  for (const f of files)
    for (const stj of f.cases) {
      if (stj.serializer !== 'stj' || stj.direction !== 'deserialize' || stj.shape !== 'list' || stj.size !== 10000)
        continue;
      if (!USERS.includes(stj.workload as (typeof USERS)[number]) || stj.target.runtime !== 'dotnet') continue;
      const nj = f.cases.find(
        (x) =>
          x.serializer === 'newtonsoft' &&
          x.target.id === stj.target.id &&
          x.workload === stj.workload &&
          x.direction === 'deserialize' &&
          x.shape === 'list' &&
          x.size === 10000,
      );
      const a = allocOf(stj);
      const b = allocOf(nj);
      if (a === undefined || b === undefined) continue;
      if (rows.some((r) => r.target === stj.target.id && r.workload === stj.workload)) continue;
      rows.push({ target: stj.target.id, version: stj.target.version, workload: stj.workload, stj: a, nj: b });
    }
  if (!rows.length) return [];
  rows.sort((x, y) => (majorOf(x.version) ?? 0) - (majorOf(y.version) ?? 0) || x.workload.localeCompare(y.workload));
  const shape = (w: string) =>
    w === 'users-record' ? 'positional record, Guid id (users-record)' : 'settable class, string id (users)';
  const out = [
    'Deserializing the list of 10,000 users, bytes allocated per op (exact on both sides) by runtime and DTO shape:',
    '',
    '| runtime | DTO shape | stj | newtonsoft | newtonsoft ÷ stj |',
    '|---|---|---|---|---|',
    '| the study: .NET 8, BenchmarkDotNet | positional record, Guid id | 5.92 MiB | 10.55 MiB | 1.78 |',
    ...rows.map(
      (r) =>
        `| ${r.target} ${r.version} | ${shape(r.workload)} | ${noteBytes(r.stj)} | ${noteBytes(r.nj)} | ${ratioNumber(r.nj / r.stj, 2)} |`,
    ),
    '',
  ];
  const said: string[] = [];
  const byTarget = new Map<string, typeof rows>();
  for (const r of rows) byTarget.set(r.target, [...(byTarget.get(r.target) ?? []), r]);
  for (const [target, rs] of byTarget) {
    const cls = rs.find((r) => r.workload === 'users');
    const rec = rs.find((r) => r.workload === 'users-record');
    if (cls && rec)
      said.push(
        `on ${target} the record shape moves Newtonsoft.Json from ${noteBytes(cls.nj)} to ${noteBytes(rec.nj)} (${ratioNumber(rec.nj / cls.nj, 2)}×) and System.Text.Json from ${noteBytes(cls.stj)} to ${noteBytes(rec.stj)} (${ratioNumber(rec.stj / cls.stj, 2)}×)`,
      );
  }
  for (const workload of USERS) {
    const rs = rows.filter((r) => r.workload === workload);
    const lo = rs[0];
    const hi = rs[rs.length - 1];
    if (rs.length >= 2 && majorOf(lo.version) !== majorOf(hi.version))
      said.push(
        `with ${workload} the runtime moves System.Text.Json from ${noteBytes(lo.stj)} on ${lo.target} to ${noteBytes(hi.stj)} on ${hi.target} and Newtonsoft.Json from ${noteBytes(lo.nj)} to ${noteBytes(hi.nj)}`,
      );
  }
  if (said.length) out.push(`What moves each library: ${said.join('; ')}.`, '');
  return out;
}

/**
 * Study 002's Δ column: per serializer, its mean on `dotnet@9` and `dotnet@10` (the same major read from any target)
 * and Δ between them (`≈` when the error bars overlap, report/per-runtime.ts), beside the study's own net9.0 → net10.0
 * Δ from its published times ({@link Published.net9}); then each runtime's own ratio beside the study's ratio on that
 * runtime ("inside" when the published ratio lies in jsonbench's interval), and the allocation. Ends with a sentence
 * counting the agreements. Empty unless both runtimes ran the study's cases.
 */
export function deltaLines(files: readonly ResultsFile[]): string[] {
  const rows = PUBLISHED.filter((p) => p.study === '002');
  const keys = [...new Map(rows.map((p) => [`${p.direction}|${p.size}`, p])).values()];
  const on = (p: Published, serializer: string, runtime: string) =>
    findPair(files, { ...p, serializer, baseline: 'stj' }, runtime);
  const lines: string[] = [];
  let nDelta = 0;
  let clearDelta = 0;
  let sameDelta = 0;
  let nRatio = 0;
  let insideRatio = 0;
  const inside = (pub: number, c: CaseResult) => {
    const v = timeVerdict(pub, c.ratio == null ? null : { ratio: c.ratio, interval: ratioIntervalOf(c) });
    if (v.withinError === null) return '';
    nRatio++;
    if (v.withinError) insideRatio++;
    return v.withinError ? ' · inside' : ' · **outside**';
  };
  for (const p of keys)
    for (const serializer of ['stj', 'stj-sourcegen', 'newtonsoft']) {
      const a = on(p, serializer, 'dotnet@9');
      const b = on(p, serializer, 'dotnet@10');
      if (!a || !b || a.distance > 1 || b.distance > 1) continue;
      // the study's times of this serializer: a row's own, or (stj) the baseline of the case's rows
      const pub = rows.find((x) => x.label === p.label && x.serializer === serializer);
      const t10 = pub ? pub.time[0] : p.time[1];
      const t9 = pub ? pub.net9?.[0] : p.net9?.[1];
      const pubDelta = t9 === undefined ? null : t10 / t9 - 1;
      const delta = formatPercentDelta(b.c, a.c);
      let deltaVerdict = '—';
      if (pubDelta !== null && delta !== '—') {
        nDelta++;
        if (delta.startsWith('≈')) deltaVerdict = 'unclear';
        else {
          clearDelta++;
          const same = b.c.time!.mean < a.c.time!.mean === pubDelta < 0;
          if (same) sameDelta++;
          deltaVerdict = same ? 'yes' : '**no**';
        }
      }
      const pubDeltaText =
        pubDelta === null ? '—' : `${pubDelta < 0 ? '−' : '+'}${Math.abs(pubDelta * 100).toFixed(1)}%`;
      const ratio9 = pub?.net9
        ? ratioNumber(pub.net9[0] / pub.net9[1], 2) + inside(pub.net9[0] / pub.net9[1], a.c)
        : '—';
      const ratio10 = pub ? ratioNumber(pub.time[0] / pub.time[1], 2) + inside(pub.time[0] / pub.time[1], b.c) : '—';
      const from = [...new Set([a, b].map((x) => `#${files.indexOf(x.file) + 1}`))].join(', ');
      lines.push(
        `| ${p.label} | ${serializer} | ${from} | ${formatMeanError(a.c)} | ${formatMeanError(b.c)} | ${delta} | ${pubDeltaText} | ${deltaVerdict} | ${formatOwnRatio(a.c)} | ${serializer === 'stj' ? 'baseline' : ratio9} | ${formatOwnRatio(b.c)} | ${serializer === 'stj' ? 'baseline' : ratio10} | ${formatAllocated(a.c.allocated)} | ${formatAllocated(b.c.allocated)} |`,
      );
    }
  if (!lines.length) return [];
  return [
    "The study's Δ column beside jsonbench's: each serializer on .NET 9 and .NET 10, jsonbench's mean on each and Δ between them (separate processes: Δ is the weaker reading; `≈` when the two means' intervals overlap), the study's Δ from its own net9.0 and net10.0 times, whether the two agree in sign (unclear when jsonbench's Δ is `≈`), and each runtime's ratio beside the study's on that runtime (inside: the published ratio lies in jsonbench's interval). The study gave no net9.0 allocation.",
    '',
    '| case | serializer | read from | dotnet@9 mean [interval] | dotnet@10 mean [interval] | Δ | published Δ | Δ: same sign | dotnet@9 ratio | published net9.0 ratio | dotnet@10 ratio | published net10.0 ratio | dotnet@9 allocated | dotnet@10 allocated |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...lines,
    '',
    `Δ against the study's: jsonbench's Δ is outside its error bars in ${clearDelta} of ${nDelta} rows, and has the study's sign in ${sameDelta} of those ${clearDelta}; the published ratio is inside jsonbench's interval in ${insideRatio} of ${nRatio} (both runtimes).`,
    '',
  ];
}

/** A duration as `--case-timeout` takes it: `10m`, `90s`, `500ms`. */
function durationText(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * The `jsonbench run` command a results file was made by, read back from what the file records: its targets,
 * workloads, sizes (ascending), the direction when it ran one only, the policy, and `--case-timeout` when it is not
 * the policy's own (src/config/policies.ts). What a results file does not record (`--no-ledger`, `--no-probes`,
 * `--out`, which `npm run studies` adds to each run) is left out. Pure.
 */
export function runCommandOf(file: ResultsFile): string {
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  const args = [
    'jsonbench run',
    `--target ${file.targets.map((t) => t.id).join(',')}`,
    `--workload ${uniq(file.cases.map((c) => c.workload)).join(',')}`,
    `--size ${uniq(file.cases.map((c) => c.size))
      .sort((a, b) => a - b)
      .join(',')}`,
  ];
  const directions = uniq(file.cases.map((c) => c.direction));
  if (directions.length === 1) args.push(`--direction ${directions[0]}`);
  args.push(`--policy ${file.policy.name}`);
  const own = policies[file.policy.name as keyof typeof policies] as { caseTimeoutMs: number } | undefined;
  const timeout = (file.policy as { caseTimeoutMs?: number }).caseTimeoutMs;
  if (own && timeout !== undefined && timeout !== own.caseTimeoutMs)
    args.push(`--case-timeout ${durationText(timeout)}`);
  return args.join(' ');
}

/** `2026-12-06 00:54 UTC` from an ISO time (as given when it is not one). */
function dateText(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;
}

/** `load 19.0→7.4`: the one-minute load average at a run's start and end (start only when the end is not recorded). */
function loadText(file: ResultsFile): string {
  const l = file.environment.loadAverage;
  return `load ${l.start[0].toFixed(1)}${l.end ? `→${l.end[0].toFixed(1)}` : ''}`;
}

/** `12 min 3 s`: a run's wall time from its start and finish, or '' when either is missing. */
function wallText(file: ResultsFile): string {
  const ms = Date.parse(file.finishedAt ?? '') - Date.parse(file.startedAt);
  if (!Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/**
 * Where a note row was read from: `#3 dotnet@10 (.NET 10.0.12) · 2026-12-06 02:04 UTC · load 24.8→19.8`: the run's
 * number in the note's list (which gives its command), the target with the runtime's own FrameworkDescription, the
 * run's start and its load.
 */
function readFrom(files: readonly ResultsFile[], file: ResultsFile, targetId: string): string {
  const t = file.targets.find((x) => x.id === targetId);
  const description = (t?.probe as { description?: unknown } | undefined)?.description;
  const runtime = typeof description === 'string' && description ? ` (${description.replace(/ \(.*$/, '')})` : '';
  return `#${files.indexOf(file) + 1} ${targetId}${runtime} · ${dateText(file.startedAt)} · ${loadText(file)}`;
}

/**
 * True when a results file is a study run that names its own policy (study 001's quick run of both DTO shapes):
 * its policy is not the one `npm run studies --policy` gave, so "make these runs again" leaves it out.
 */
function ownPolicyRun(f: ResultsFile): boolean {
  const targets = f.targets.map((t) => t.id).join(',');
  const workloads = [...new Set(f.cases.map((c) => c.workload))].join(',');
  return STUDIES.some((s) =>
    s
      .runs(DEFAULT_SIZES)
      .some(
        (args) =>
          args.includes('--policy') &&
          args[args.indexOf('--target') + 1] === targets &&
          args[args.indexOf('--workload') + 1] === workloads,
      ),
  );
}

/** The note's head: title, how to make the runs again, the list of runs (command, start, wall time, load) and the method. Pure. */
function headerLines(files: readonly ResultsFile[], command: string, runsDir?: string): string[] {
  const out: string[] = [
    '# The .NET studies reproduced',
    '',
    `Generated by \`${command}\` (bench/studies-reproduced.ts) from ${files.length} run${files.length === 1 ? '' : 's'}; do not edit by hand.`,
    '',
  ];
  // how to make these runs again: the script's own runs at the policy and the sweep sizes the files hold
  const sizesOf = (workload: string) =>
    [...new Set(files.flatMap((f) => f.cases.filter((c) => c.workload === workload).map((c) => c.size)))].sort(
      (a, b) => a - b,
    );
  const companySizes = sizesOf('company');
  const ordersSizes = sizesOf('orders');
  const policyNames = [...new Set(files.filter((f) => !ownPolicyRun(f)).map((f) => f.policy.name))];
  // the studies the files hold a case of: a note of some studies says to run those only
  const held = STUDIES.filter((s) => PUBLISHED.some((p) => p.study === s.id && findPair(files, p))).map((s) => s.id);
  const only = held.length && held.length < STUDIES.length ? ` --study ${held.join(',')}` : '';
  if (files.length)
    out.push(
      `To make these runs again on your machine: \`npm run studies -- --policy ${policyNames.join('|')}${companySizes.length ? ` --company-sizes ${companySizes.join(',')}` : ''}${ordersSizes.length ? ` --orders-sizes ${ordersSizes.join(',')}` : ''}${only}\` (each study's \`jsonbench run\`s one after another, each with \`--no-ledger --no-probes\`, into \`jsonbench-results/studies-<time>/\`; the default policy takes hours on a loaded 2-core machine: docs/studies.md), or rebuild this note from results files you kept: \`npm run studies:run -- --results a/results.json,b/results.json\` (no rebuild).${runsDir ? ` These runs' results: \`${runsDir}\`.` : ''}`,
      '',
      'The runs, each with the command read back from its results file (what the file does not record — `--no-ledger`, `--no-probes`, `--out` — left out), its start, wall time, and the load average (1, 5, 15 min) at its start and end:',
      '',
    );
  for (const [i, f] of files.entries()) {
    const e = f.environment;
    const targets = f.targets.map((t) => targetText(f, t.id)).join(', ');
    const workloads = [...new Set(f.cases.map((c) => c.workload))].join(', ');
    const wall = wallText(f);
    out.push(
      `${i + 1}. ${f.startedAt} · ${targets} · ${workloads} · ${e.cpuModel} × ${e.cores} · policy ${f.policy.name} (${f.policy.launches} launch${f.policy.launches === 1 ? '' : 'es'})${wall ? ` · ${wall}` : ''} · load ${e.loadAverage.start.map((x) => x.toFixed(2)).join('/')} at start${e.loadAverage.end ? `, ${e.loadAverage.end.map((x) => x.toFixed(2)).join('/')} at end` : ''} · \`${runCommandOf(f)}\``,
    );
  }
  out.push(
    '',
    'Every ratio is serializer ÷ System.Text.Json (reflection) on the same payload; < 1 is faster or smaller. ' +
      "jsonbench's time ratio: **case** is the lab's, by the case's clock (`time.clock`: process CPU time, CLOCK_PROCESS_CPUTIME_ID, where the worker has it, as issue 13's engine reads the JavaScript worker; else wall): paired alternating rounds in one process, each round's ratio of the two sides' median samples, each launch's ratio the median of its rounds', the case's the geometric mean of its launches', with a 99.9% interval on the log scale from the launches (src/run/assemble.ts ratioOf); " +
      "**thread CPU** is read from the measuring thread's CPU clock (CLOCK_THREAD_CPUTIME_ID, per sample), which leaves out the background GC and JIT threads (preemption by other processes adds wall time, not CPU time): the same per-round ratios, the median per launch and the median of launches, but its 99.9% interval is from all rounds pooled, which leaves out the launch-to-launch variance: it is narrower than the case's, and a published ratio outside it is weaker evidence of a gap than one outside the case's (the gaps below are read from the case's). " +
      "Allocation is exact on both sides (BenchmarkDotNet's MemoryDiagnoser and GC.GetAllocatedBytesForCurrentThread count the same bytes). " +
      'Time verdicts: *direction* — jsonbench\'s interval lies on the published side of 1 (yes), on the other side (no), or holds 1 (unclear); a published 0.95–1.05 is "about equal" and agrees when the interval holds 1 and is at most ' +
      WIDE +
      '× wide (unclear when wider), disagrees when it leaves 1 out; *within error* — the published ratio lies inside jsonbench\'s interval ("yes (wide)": an interval wider than ' +
      WIDE +
      '×, which agrees with almost anything). ' +
      'Allocation verdicts: direction as for time; *close* — within 15% of the published ratio. ' +
      'Each row names the run it was read from (#: the list above, with its command), its target and runtime, when it started and the load then.',
    '',
  );
  return out;
}

/** A study's counts of verdicts, for its summary sentence. */
interface Tally {
  n: number;
  dirWall: number;
  dirCpu: number;
  offWall: number;
  offCpu: number;
  inWall: number;
  inCpu: number;
  wideWall: number;
  wideCpu: number;
  nAlloc: number;
  dirAlloc: number;
  closeAlloc: number;
  missing: number;
}

/**
 * One measured published row: its table line, its gaps (the published ratio outside jsonbench's interval, or an
 * allocation ratio more than 15% off), and its output over the LOH threshold (or null); counts its verdicts into `t`.
 */
function measuredRow(
  files: readonly ResultsFile[],
  study: Study,
  p: Published,
  found: FoundPair,
  confidence: number,
  t: Tally,
): { line: string; gaps: string[]; big: { output: number; threshold: number } | null } {
  const { c, b } = found;
  const pub = p.time[0] / p.time[1];
  const run = `${readFrom(files, found.file, c.target.id)}${c.workload !== p.workloads[0] ? ` (${c.workload})` : ''}`;
  const big = [c, b].map((x) => overLoh(files, x)).find((x) => x !== null) ?? null;
  const label = big ? `${p.label} †` : p.label;
  const wall: RatioWithInterval | null = c.ratio == null ? null : { ratio: c.ratio, interval: ratioIntervalOf(c) };
  const cpu = cpuRatio(c, confidence);
  const tw = timeVerdict(pub, wall);
  const tc = timeVerdict(pub, cpu);
  t.n++;
  if (tw.direction) t.dirWall++;
  if (tc.direction) t.dirCpu++;
  if (tw.direction === false) t.offWall++;
  if (tc.direction === false) t.offCpu++;
  if (tw.withinError) t.inWall++;
  if (tc.withinError) t.inCpu++;
  if (tw.withinError && isWide(wall)) t.wideWall++;
  if (tc.withinError && isWide(cpu)) t.wideCpu++;
  const pubAlloc = publishedAllocRatio(p);
  const gotAlloc = c.allocRatio ?? null;
  const av = pubAlloc === null ? { direction: null, close: null } : allocVerdict(pubAlloc, gotAlloc);
  if (pubAlloc !== null && gotAlloc !== null) {
    t.nAlloc++;
    if (av.direction) t.dirAlloc++;
    if (av.close) t.closeAlloc++;
  }
  const d = decimalsFor(pub, wall, cpu);
  // a ratio the study published with three decimals (study 004's 1.084) is compared at three
  const da = p.allocRatio !== undefined ? 3 : 2;
  const line =
    `| ${label} | ${p.serializer} | ${run} | ${ratioNumber(pub, d)} | ${fmt(wall, d)} | ${fmt(cpu, d)} | ${dir(tw.direction, !!wall)} / ${yes(tw.withinError, isWide(wall))} | ${dir(tc.direction, !!cpu)} / ${yes(tc.withinError, isWide(cpu))} ` +
    `| ${pubAlloc === null ? '—' : ratioNumber(pubAlloc, da)} | ${gotAlloc === null ? '—' : ratioNumber(gotAlloc, da)} (${noteBytes(allocOf(c))} ÷ ${noteBytes(allocOf(b))}) | ${pubAlloc === null ? '—' : `${yes(av.direction)} / ${yes(av.close)}`} |`;
  const key = `${study.id}|${p.label}|${p.serializer}`;
  const gaps: string[] = [];
  if (tw.withinError === false)
    gaps.push(
      `- ${p.label}, ${p.serializer}, time (published ${ratioNumber(pub, 2)}, here ${fmt(wall, 2)}): ${EXPLAINED[`${key}|time`] ?? (big ? 'the LOH faults of the † note are in these times; beyond them unexplained' : 'unexplained')}.`,
    );
  if (av.close === false)
    gaps.push(
      `- ${p.label}, ${p.serializer}, allocation (published ${ratioNumber(pubAlloc!, 2)}, here ${ratioNumber(gotAlloc!, 2)}): ${EXPLAINED[`${key}|alloc`] ?? 'unexplained'}.`,
    );
  return { line, gaps, big };
}

/** A study's summary sentence from its counts. */
function summaryOf(study: Study, t: Tally): string {
  const { n, missing } = t;
  const without = `${missing} comparison${missing === 1 ? '' : 's'} without a measured case`;
  return n === 0
    ? `${study.title}: not measured (no run of its cases in the results given: ${without}).`
    : `${study.title}: time — direction agrees in ${t.dirWall} of ${n} comparisons by the case's clock (${t.offWall} disagree, the rest unclear: the interval holds 1, or is wider than ${WIDE}× where the study found the two about equal) and ${t.dirCpu} of ${n} by thread CPU time (${t.offCpu} disagree); the published ratio is inside jsonbench's interval in ${t.inWall} of ${n} (case; ${t.wideWall} of them an interval wider than ${WIDE}×, which says little) and ${t.inCpu} of ${n} (thread CPU; ${t.wideCpu} wider than ${WIDE}×). Allocation — direction agrees in ${t.dirAlloc} of ${t.nAlloc}, within 15% in ${t.closeAlloc} of ${t.nAlloc}.${missing ? ` ${without}.` : ''}`;
}

/** One study's section of the note: its text, the table of its published rows, its notes and gaps, and its summary sentence. Pure. */
function studySection(
  files: readonly ResultsFile[],
  study: Study,
  confidence: number,
): { lines: string[]; summary: string } {
  const t: Tally = {
    n: 0,
    dirWall: 0,
    dirCpu: 0,
    offWall: 0,
    offCpu: 0,
    inWall: 0,
    inCpu: 0,
    wideWall: 0,
    wideCpu: 0,
    nAlloc: 0,
    dirAlloc: 0,
    closeAlloc: 0,
    missing: 0,
  };
  const lines: string[] = [];
  const overCap: string[] = [];
  const gaps: string[] = [];
  let eg: { output: number; threshold: number } | null = null;
  for (const p of PUBLISHED.filter((x) => x.study === study.id)) {
    const found = findPair(files, p);
    const c = found?.c;
    if (!found || !c || c.status !== 'measured') {
      t.missing++;
      lines.push(
        `| ${p.label} | ${p.serializer} | — | ${ratioNumber(p.time[0] / p.time[1], 2)} | ${c ? `${c.status}: ${c.reason ?? ''}`.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 120) : 'not run'} | | | | | | |`,
      );
      continue;
    }
    const row = measuredRow(files, study, p, found, confidence, t);
    lines.push(row.line);
    gaps.push(...row.gaps);
    if (row.big && !overCap.includes(p.label)) overCap.push(p.label);
    if (row.big && !eg) eg = row.big;
  }
  const out = [
    `## ${study.title}`,
    '',
    [study.known, dataNotes(files, study.id)].filter(Boolean).join(' '),
    '',
    '| case | serializer | read from | published time ratio | jsonbench case | jsonbench thread CPU | case: direction / within error | thread CPU: direction / within error | published alloc ratio | jsonbench alloc ratio | alloc: direction / close |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...lines,
    '',
  ];
  if (overCap.length)
    out.push(
      `† ${overCap.join(', ')}: the output string is larger than the run's large-object-heap threshold${eg ? ` (e.g. ${noteBytes(eg.output)} over ${noteBytes(eg.threshold)})` : ''}, so each op faults the pages of a freed LOH region back in (~17 µs a page on this machine's VM; workers/dotnet/README.md): these times include those faults, not only the serializers' work.`,
      '',
    );
  if (study.id === '001') out.push(...shapeLines(files));
  if (study.id === '002') out.push(...deltaLines(files));
  if (gaps.length) out.push('Gaps to the study, each explained or named unexplained:', '', ...gaps, '');
  const summary = summaryOf(study, t);
  out.push(summary, '');
  return { lines: out, summary };
}

/** Renders the note from results files. Pure. */
export function renderNote(files: readonly ResultsFile[], command: string, runsDir?: string): string {
  const out = headerLines(files, command, runsDir);
  const confidence = files[0]?.policy.measure.confidence ?? 0.999;
  const closing: string[] = [];
  for (const study of STUDIES) {
    const { lines, summary } = studySection(files, study, confidence);
    out.push(...lines);
    closing.push(`- ${summary}`);
  }
  out.push('## Closing note', '', ...closing, '');
  return out.join('\n');
}

/** The sizes `npm run studies` runs when not told: each study's own sweep. */
const DEFAULT_SIZES: StudySizes = { company: '1000,10000,50000,100000', orders: '100,10000' };

/** The `--help` text: the options, then each study's `jsonbench run`s at the default sizes (what a run without --results makes). */
function usage(): string {
  const runs = STUDIES.flatMap((s) =>
    s.runs(DEFAULT_SIZES).map((args) => `  ${s.id}  jsonbench run ${args.join(' ')}`),
  ).join('\n');
  return `Usage: npm run studies -- [options]     (builds first: minutes; refused while a run holds build/)
       npm run studies:run -- [options] (no build: after npm run build; also for --help)
       node build/bench/studies-reproduced.js [options]

Writes benchmarks/notes/studies-reproduced.md: the four published .NET studies beside jsonbench's figures.
Without --results it runs each chosen study's \`jsonbench run\`s first, one after another, each with
--policy <policy> (unless it names its own) --no-ledger --no-probes, into <runs-dir>/run-<n>/ (kept:
rebuild the note from them with --results). The runs, by study:
${runs}
On a loaded 2-core machine the default policy takes minutes for 000, tens of minutes for 001, and about an
hour or more each for 002 and 004 at their largest sizes (docs/studies.md has measured times); --policy
quick makes the same runs as a first look.

Options:
  --policy <name>          quick, default or long (default: default)
  --study <ids>            only these studies' runs: ${STUDIES.map((s) => s.id).join(',')} (default: all)
  --company-sizes <list>   study 004's sizes (default: ${DEFAULT_SIZES.company})
  --orders-sizes <list>    study 002's sizes (default: ${DEFAULT_SIZES.orders})
  --results <files>        comma-separated results.json files of runs made before: no run, only the note
  --runs-dir <dir>         where the runs go (default: jsonbench-results/studies-<time>/)
  --out <file.md>          the note (default: benchmarks/notes/studies-reproduced.md)
  -h, --help               this text
`;
}

/** The `jsonbench run` argument lists of the chosen studies (a list that names its own --policy keeps it). */
function runsOf(ids: readonly string[], sizes: StudySizes): string[][] {
  return STUDIES.filter((s) => ids.includes(s.id)).flatMap((s) => s.runs(sizes));
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        help: { type: 'boolean', short: 'h' },
        policy: { type: 'string', default: 'default' },
        study: { type: 'string', default: STUDIES.map((s) => s.id).join(',') },
        results: { type: 'string' },
        'runs-dir': { type: 'string' },
        out: { type: 'string', default: 'benchmarks/notes/studies-reproduced.md' },
        'company-sizes': { type: 'string', default: DEFAULT_SIZES.company },
        'orders-sizes': { type: 'string', default: DEFAULT_SIZES.orders },
      },
    }));
  } catch (e) {
    process.stderr.write(`studies: ${(e as Error).message}\n\n${usage()}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(usage());
    return;
  }
  const ids = values.study!.split(',').map((x) => x.trim());
  const unknown = ids.filter((x) => !STUDIES.some((s) => s.id === x));
  if (unknown.length) {
    process.stderr.write(
      `studies: unknown --study ${unknown.join(', ')} (choose from ${STUDIES.map((s) => s.id).join(', ')})\n`,
    );
    process.exit(2);
  }
  let paths: string[];
  let command = 'npm run studies';
  let runsDir: string | undefined;
  if (values.results) {
    paths = values.results.split(',');
    command += ` -- --results <${paths.length} results file${paths.length === 1 ? '' : 's'}: the runs below>`;
  } else {
    runsDir =
      values['runs-dir'] ?? join('jsonbench-results', `studies-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    mkdirSync(runsDir, { recursive: true });
    process.stderr.write(`studies: the runs go to ${runsDir}/run-<n>/ (kept; --results rebuilds the note from them)\n`);
    paths = [];
    const sizes: StudySizes = { company: values['company-sizes']!, orders: values['orders-sizes']! };
    command += ` -- --policy ${values.policy}${ids.includes('004') ? ` --company-sizes ${sizes.company}` : ''}${ids.includes('002') ? ` --orders-sizes ${sizes.orders}` : ''}${values.study !== STUDIES.map((s) => s.id).join(',') ? ` --study ${values.study}` : ''}`;
    for (const [i, args] of runsOf(ids, sizes).entries()) {
      const out = join(runsDir, `run-${i + 1}`);
      const argv = [
        'bin/jsonbench.js',
        'run',
        ...args,
        ...(args.includes('--policy') ? [] : ['--policy', values.policy!]),
        '--no-ledger',
        '--no-probes',
        '--out',
        out,
      ];
      process.stderr.write(`studies: node ${argv.join(' ')}\n`);
      const r = spawnSync(process.execPath, argv, { stdio: ['ignore', 'inherit', 'inherit'] });
      if (r.status !== 0)
        process.stderr.write(`studies: run ${i + 1} exited with ${r.status}; its results (if any) are still read\n`);
      paths.push(join(out, 'results.json'));
    }
  }
  const files: ResultsFile[] = [];
  for (const p of paths) {
    try {
      files.push(readResults(p));
    } catch (e) {
      process.stderr.write(`studies: cannot read ${p}: ${(e as Error).message}\n`);
    }
  }
  writeFileSync(values.out!, renderNote(files, command, runsDir));
  process.stderr.write(`studies: wrote ${values.out} from ${files.length} results file(s)\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
