/**
 * The four published .NET studies beside jsonbench on this machine (issue 12): writes
 * benchmarks/notes/studies-reproduced.md from real runs.
 *
 *   npm run studies                                  # runs the study cases (default policy), then writes the note
 *   npm run studies -- --policy quick                # a first look
 *   npm run studies -- --results a/results.json,b/results.json   # writes the note from runs made before
 *   options: --out <file.md> (default benchmarks/notes/studies-reproduced.md), --company-sizes 1000,10000[,50000,100000]
 *
 * The runs (one `jsonbench run` per line of RUNS, `--no-ledger`, into a temporary folder):
 * users/10000, users-settings/10000 serialize, orders/100 and /10000, company at the chosen sizes
 * on `dotnet`, weather-station deserialize on `mono`. Each published figure is set beside
 * jsonbench's as a ratio against System.Text.Json (absolute times differ by machine): jsonbench's
 * ratio by the case's clock (`time.clock`: process CPU where the worker has it; the lab's, with its 99.9% log-scale interval), the same ratio from the
 * worker's thread-CPU samples (median of per-round ratios of medians, interval by the same rule),
 * and the allocation ratio (exact, GC.GetAllocatedBytesForCurrentThread).
 * Verdicts: time — direction agrees when both ratios are on the same side of 1 (a published ratio
 * within 0.95–1.05 counts as "about equal" and agrees when jsonbench's interval holds 1); the ratio
 * agrees within error when the published ratio lies inside jsonbench's interval. Allocation — the
 * direction as for time; the ratio agrees when the two ratios are within 15% of each other (the
 * figure is exact on both sides, so what differs is the runtime, library or payload, not noise).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CaseResult, ResultsFile } from '../src/results/types.js';
import { ratioIntervalOf } from '../src/results/ratio.js';
import { readResults } from '../src/results/io.js';
import { logRatioInterval, medianOf } from '../src/stats/estimate.js';
import { ratioNumber } from '../src/report/units.js';

/** One published comparison: serializer ÷ baseline on one case, times in any one unit, allocation in bytes (absent when the study gave none). */
export interface Published {
  study: string;
  label: string;
  target: 'dotnet' | 'mono';
  workload: string;
  size: number;
  shape: 'list' | 'many' | 'single';
  direction: 'serialize' | 'deserialize';
  serializer: string;
  baseline: string;
  time: [number, number];
  alloc?: [number, number];
}

/** BenchmarkDotNet's units (MemoryDiagnoser: 1 KB = 1024 B), which the studies quote; the note prints them as KiB and MiB. */
const KB = 1024;
const MB = 1024 * 1024;
const S1 = '.NET 8, 10,000 fake users (BenchmarkDotNet)';
const S2 = 'orders on net10 (BenchmarkDotNet; net9 figures in the issue)';
const S3 = 'company, employees with 3 hobbies';
const S4 = 'Mono 6.12 on a controller, weather response (4 alternating rounds of 3,000 parses)';

/** The published figures of issue 12 (facts to compare against). Orders: the net10 column. */
export const PUBLISHED: readonly Published[] = [
  {
    study: S1,
    label: 'serialize list',
    target: 'dotnet',
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [9.415, 5.543],
    alloc: [8.07 * MB, 3.42 * MB],
  },
  {
    study: S1,
    label: 'serialize list, indented + snake_case',
    target: 'dotnet',
    workload: 'users-settings',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [14.093, 7.036],
    alloc: [10.24 * MB, 4.48 * MB],
  },
  {
    study: S1,
    label: 'serialize each user separately',
    target: 'dotnet',
    workload: 'users',
    size: 10000,
    shape: 'many',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [7.032, 4.87],
    alloc: [17.14 * MB, 3.64 * MB],
  },
  {
    study: S1,
    label: 'deserialize list',
    target: 'dotnet',
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'deserialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [26.363, 15.02],
    alloc: [10.55 * MB, 5.92 * MB],
  },
  {
    study: S1,
    label: 'deserialize each user separately',
    target: 'dotnet',
    workload: 'users',
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
          }
        : {
            ser: { refl: 1.95, sg: 1.5, nj: 3.88, ra: 2.18 * MB, sa: 2.17 * MB, na: 5.8 * MB },
            de: { refl: 4.31, sg: 4.45, nj: 6.57, ra: 4.16 * MB, na: 9.19 * MB },
          };
    const base = {
      study: S2,
      target: 'dotnet' as const,
      workload: 'orders',
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
        alloc: [f.ser.sa, f.ser.ra],
      },
      {
        ...base,
        label: `serialize ${size.toLocaleString('en-US')}`,
        direction: 'serialize',
        serializer: 'newtonsoft',
        time: [f.ser.nj, f.ser.refl],
        alloc: [f.ser.na, f.ser.ra],
      },
      {
        ...base,
        label: `deserialize ${size.toLocaleString('en-US')}`,
        direction: 'deserialize',
        serializer: 'stj-sourcegen',
        time: [f.de.sg, f.de.refl],
      },
      {
        ...base,
        label: `deserialize ${size.toLocaleString('en-US')}`,
        direction: 'deserialize',
        serializer: 'newtonsoft',
        time: [f.de.nj, f.de.refl],
        alloc: [f.de.na, f.de.ra],
      },
    ];
  }),
  ...(
    [
      [1000, 1126, 773, 367, 147, 1484, 1014],
      [10000, 13322, 6381, 3601, 1485, 23103, 17149],
      [50000, 62018, 29333, 18160, 7500, 122183, 90769],
      [100000, 121583, 59224, 36369, 15018, 246666, 184933],
    ] as const
  ).flatMap(([size, nst, sst, nsa, ssa, ndt, sdt]): Published[] => {
    const base = {
      study: S3,
      target: 'dotnet' as const,
      workload: 'company',
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
      { ...base, label: `deserialize ${size.toLocaleString('en-US')}`, direction: 'deserialize', time: [ndt, sdt] },
    ];
  }),
  {
    study: S4,
    label: 'deserialize (STJ 10.0.12, Newtonsoft 13.0.5-beta1)',
    target: 'mono',
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'deserialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    time: [0.147, 0.108],
    alloc: [3816, 1024],
  },
];

/** Where the published studies and this lab differ whatever the machine (stated with each study). */
const KNOWN: Record<string, string> = {
  [S1]: 'The study ran .NET 8 with BenchmarkDotNet (its own process per benchmark, many GCs per iteration); here .NET 10 (System.Text.Json from the shared framework). "Each user separately" is the `many` shape: one call per record, as the study looped.',
  [S2]: "Published on net9 and net10 with BenchmarkDotNet; compared here with its net10 column. The orders DTOs are jsonbench's generated ones (an enum, a date, nested lines), not the study's classes.",
  [S3]: 'The study gave absolute figures only; its ratios are computed here. Its allocation figures are for serialize only.',
  [S4]: "Published on Mono 6.12 on an ARM controller with Newtonsoft 13.0.5-beta1; here Debian's Mono on x86-64 and the Newtonsoft below (13.0.5-beta1 is not in this machine's NuGet copy). The study timed 4 alternating rounds of 3,000 parses; jsonbench times paired ABBA rounds after warmup.",
};

/**
 * What the data say beside a study's fixed text: the runtime and library versions the cases really
 * ran, and for the .NET 8 study, when jsonbench's two list-deserialize allocations are within 5% of
 * each other, that the study's allocation ratio there is not reproduced by the method (BenchmarkDotNet
 * 0.15.8's MemoryDiagnoser counted the same bytes as the worker on this machine: workers/dotnet/README.md); which
 * of the remaining differences (.NET 8, library versions, the study's classes) makes it is not claimed: no run here tests one.
 */
export function dataNotes(files: readonly ResultsFile[], study: string): string {
  const rows = PUBLISHED.filter((p) => p.study === study);
  const versions = new Map<string, string>();
  const runtimes = new Set<string>();
  for (const p of rows) {
    for (const id of [p.serializer, p.baseline]) {
      const c = findCase(files, p, id);
      if (c?.serializerVersion) versions.set(id, c.serializerVersion);
      if (c) runtimes.add(`${c.target.runtime} ${c.target.version}`);
    }
  }
  const out: string[] = [];
  if (versions.size)
    out.push(`Measured here: ${[...runtimes].join(', ')}; ${[...versions].map(([id, v]) => `${id} ${v}`).join(', ')}.`);
  if (study === S1) {
    const p = rows.find((r) => r.shape === 'list' && r.direction === 'deserialize')!;
    const n = findCase(files, p, p.serializer);
    const b = findCase(files, p, p.baseline);
    const an = n?.status === 'measured' ? n.allocated?.mean : undefined;
    const ab = b?.status === 'measured' ? b.allocated?.mean : undefined;
    if (an && ab && Math.abs(an / ab - 1) <= 0.05) {
      out.push(
        `Deserializing the list, both libraries allocate about the same bytes here (${(an / MB).toFixed(2)} MiB and ${(ab / MB).toFixed(2)} MiB); BenchmarkDotNet 0.15.8's MemoryDiagnoser counted the same as the worker on this machine (workers/dotnet/README.md), so the study's ${ratioNumber(p.alloc![0] / p.alloc![1], 2)}× is not the method's doing; what differs is untested here (.NET 8 and its library versions, or the study's own user classes beside jsonbench's generated DTOs).`,
      );
    }
  }
  return out.join(' ');
}

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

/** The cases of the results files matching a published row (target kind, workload, size, shape, direction, serializer). */
function findCase(files: readonly ResultsFile[], p: Published, serializer: string): CaseResult | undefined {
  for (const f of files) {
    const kinds = new Map(f.targets.map((t) => [t.id, t.kind]));
    const c = f.cases.find(
      (x) =>
        (kinds.get(x.target.id) ?? x.target.id) === p.target &&
        x.workload === p.workload &&
        x.size === p.size &&
        x.shape === p.shape &&
        x.direction === p.direction &&
        x.serializer === serializer,
    );
    if (c) return c;
  }
  return undefined;
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

/** Renders the note from results files. Pure. */
export function renderNote(files: readonly ResultsFile[], command: string): string {
  const out: string[] = [
    '# The .NET studies reproduced',
    '',
    `Generated by \`${command}\` (bench/studies-reproduced.ts) from ${files.length} run${files.length === 1 ? '' : 's'}; do not edit by hand.`,
    '',
  ];
  // how to make these runs again: the script's own runs at the policy and company sizes the files hold
  const companySizes = [
    ...new Set(files.flatMap((f) => f.cases.filter((c) => c.workload === 'company').map((c) => c.size))),
  ].sort((a, b) => a - b);
  const policies = [...new Set(files.map((f) => f.policy.name))];
  if (files.length)
    out.push(
      `To make these runs again on your machine: \`npm run studies -- --policy ${policies.join('|')}${companySizes.length ? ` --company-sizes ${companySizes.join(',')}` : ''}\` (one \`jsonbench run\` per study; the default policy takes tens of minutes on a loaded 2-core machine), or rebuild this note from results files you kept: \`npm run studies -- --results a/results.json,b/results.json\`.`,
      '',
    );
  for (const f of files) {
    const e = f.environment;
    const targets = f.targets.map((t) => `${t.id} ${t.version}`).join(', ');
    out.push(
      `- ${f.startedAt} · ${targets} · ${e.cpuModel} × ${e.cores} · policy ${f.policy.name} (${f.policy.launches} launch${f.policy.launches === 1 ? '' : 'es'}) · load ${e.loadAverage.start.map((x) => x.toFixed(2)).join('/')} at start${e.loadAverage.end ? `, ${e.loadAverage.end.map((x) => x.toFixed(2)).join('/')} at end` : ''}`,
    );
  }
  out.push(
    '',
    'Every ratio is serializer ÷ System.Text.Json (reflection) on the same payload; < 1 is faster or smaller. ' +
      "jsonbench's time ratio: **case** is the lab's, by the case's clock (`time.clock`: process CPU time, CLOCK_PROCESS_CPUTIME_ID, where the worker has it, as issue 13's engine reads the JavaScript worker; else wall; paired alternating rounds in one process, median of per-round ratios of medians, 99.9% interval on the log scale); " +
      "**thread CPU** is the same from the measuring thread's CPU clock (CLOCK_THREAD_CPUTIME_ID, per sample), which leaves out the background GC and JIT threads: preemption by other processes adds wall time, not CPU time. " +
      "Allocation is exact on both sides (BenchmarkDotNet's MemoryDiagnoser and GC.GetAllocatedBytesForCurrentThread count the same bytes). " +
      'Time verdicts: *direction* — jsonbench\'s interval lies on the published side of 1 (yes), on the other side (no), or holds 1 (unclear); a published 0.95–1.05 is "about equal" and agrees when the interval holds 1 and is at most ' +
      WIDE +
      '× wide (unclear when wider), disagrees when it leaves 1 out; *within error* — the published ratio lies inside jsonbench\'s interval ("yes (wide)": an interval wider than ' +
      WIDE +
      '×, which agrees with almost anything). ' +
      'Allocation verdicts: direction as for time; *close* — within 15% of the published ratio.',
    '',
  );
  const confidence = files[0]?.policy.measure.confidence ?? 0.999;
  const studies = [...new Set(PUBLISHED.map((p) => p.study))];
  const closing: string[] = [];
  for (const study of studies) {
    const rows = PUBLISHED.filter((p) => p.study === study);
    const lines: string[] = [];
    const overCap: string[] = [];
    let n = 0;
    let dirWall = 0;
    let dirCpu = 0;
    let offWall = 0;
    let offCpu = 0;
    let inWall = 0;
    let inCpu = 0;
    let wideWall = 0;
    let wideCpu = 0;
    let nAlloc = 0;
    let dirAlloc = 0;
    let closeAlloc = 0;
    let missing = 0;
    for (const p of rows) {
      const c = findCase(files, p, p.serializer);
      const b = findCase(files, p, p.baseline);
      const pub = p.time[0] / p.time[1];
      if (!c || c.status !== 'measured') {
        missing++;
        lines.push(
          `| ${p.label} | ${p.serializer} | ${ratioNumber(pub, 2)} | ${c ? `${c.status}: ${c.reason ?? ''}`.replace(/\|/g, '/').slice(0, 120) : 'not run'} | | | | | | |`,
        );
        continue;
      }
      const big = [c, b].map((x) => overLoh(files, x)).find((x) => x !== null) ?? null;
      if (big && !overCap.includes(p.label)) overCap.push(p.label);
      const label = big ? `${p.label} †` : p.label;
      const wall: RatioWithInterval | null = c.ratio === null ? null : { ratio: c.ratio, interval: ratioIntervalOf(c) };
      const cpu = cpuRatio(c, confidence);
      const tw = timeVerdict(pub, wall);
      const tc = timeVerdict(pub, cpu);
      n++;
      if (tw.direction) dirWall++;
      if (tc.direction) dirCpu++;
      if (tw.direction === false) offWall++;
      if (tc.direction === false) offCpu++;
      if (tw.withinError) inWall++;
      if (tc.withinError) inCpu++;
      if (tw.withinError && isWide(wall)) wideWall++;
      if (tc.withinError && isWide(cpu)) wideCpu++;
      const pubAlloc = p.alloc ? p.alloc[0] / p.alloc[1] : null;
      const gotAlloc = c.allocRatio ?? null;
      const av = pubAlloc === null ? { direction: null, close: null } : allocVerdict(pubAlloc, gotAlloc);
      if (pubAlloc !== null && gotAlloc !== null) {
        nAlloc++;
        if (av.direction) dirAlloc++;
        if (av.close) closeAlloc++;
      }
      const bytes = (x: number | undefined) =>
        x === undefined
          ? '—'
          : x >= MB
            ? `${(x / MB).toFixed(2)} MiB`
            : x >= KB
              ? `${(x / KB).toFixed(1)} KiB`
              : `${x.toFixed(0)} B`;
      const allocOf = (x: CaseResult | undefined) =>
        x?.status === 'measured' && x.allocated?.method !== 'n/a' ? x.allocated?.mean : undefined;
      const d = decimalsFor(pub, wall, cpu);
      lines.push(
        `| ${label} | ${p.serializer} | ${ratioNumber(pub, d)} | ${fmt(wall, d)} | ${fmt(cpu, d)} | ${dir(tw.direction, !!wall)} / ${yes(tw.withinError, isWide(wall))} | ${dir(tc.direction, !!cpu)} / ${yes(tc.withinError, isWide(cpu))} ` +
          `| ${pubAlloc === null ? '—' : ratioNumber(pubAlloc, 2)} | ${gotAlloc === null ? '—' : ratioNumber(gotAlloc, 2)} (${bytes(allocOf(c))} ÷ ${bytes(allocOf(b))}) | ${pubAlloc === null ? '—' : `${yes(av.direction)} / ${yes(av.close)}`} |`,
      );
    }
    out.push(
      `## ${study}`,
      '',
      [KNOWN[study] ?? '', dataNotes(files, study)].filter(Boolean).join(' '),
      '',
      '| case | serializer | published time ratio | jsonbench case | jsonbench thread CPU | case: direction / within error | thread CPU: direction / within error | published alloc ratio | jsonbench alloc ratio | alloc: direction / close |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...lines,
      '',
    );
    if (overCap.length) {
      const eg = rows
        .map((p) => findCase(files, p, p.baseline))
        .map((x) => overLoh(files, x))
        .find((x) => x !== null);
      out.push(
        `† ${overCap.join(', ')}: the output string is larger than the run's large-object-heap threshold${eg ? ` (e.g. ${(eg.output / MB).toFixed(1)} MiB over ${(eg.threshold / MB).toFixed(1)} MiB)` : ''}, so each op faults the pages of a freed LOH region back in (~17 µs a page on this machine's VM; workers/dotnet/README.md): these times include those faults, not only the serializers' work.`,
        '',
      );
    }
    const summary =
      n === 0
        ? `${study}: not measured (no run of its cases in the results given: ${missing} comparison${missing === 1 ? '' : 's'} without a measured case).`
        : `${study}: time — direction agrees in ${dirWall} of ${n} comparisons by the case's clock (${offWall} disagree, the rest unclear: the interval holds 1, or is wider than ${WIDE}× where the study found the two about equal) and ${dirCpu} of ${n} by thread CPU time (${offCpu} disagree); the published ratio is inside jsonbench's interval in ${inWall} of ${n} (case; ${wideWall} of them an interval wider than ${WIDE}×, which says little) and ${inCpu} of ${n} (thread CPU; ${wideCpu} wider than ${WIDE}×). Allocation — direction agrees in ${dirAlloc} of ${nAlloc}, within 15% in ${closeAlloc} of ${nAlloc}.${missing ? ` ${missing} comparison${missing === 1 ? '' : 's'} without a measured case.` : ''}`;
    out.push(summary, '');
    closing.push(`- ${summary}`);
  }
  out.push('## Closing note', '', ...closing, '');
  return out.join('\n');
}

/** The runs the note needs: `jsonbench run` arguments. */
function runs(companySizes: string): string[][] {
  return [
    ['--target', 'dotnet', '--workload', 'users', '--size', '10000'],
    ['--target', 'dotnet', '--workload', 'users-settings', '--size', '10000', '--direction', 'serialize'],
    ['--target', 'dotnet', '--workload', 'orders', '--size', '100,10000'],
    ['--target', 'dotnet', '--workload', 'company', '--size', companySizes],
    ['--target', 'mono', '--workload', 'weather-station', '--direction', 'deserialize'],
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      policy: { type: 'string', default: 'default' },
      results: { type: 'string' },
      out: { type: 'string', default: 'benchmarks/notes/studies-reproduced.md' },
      'company-sizes': { type: 'string', default: '1000,10000' },
    },
  });
  let paths: string[];
  let command = 'npm run studies';
  if (values.results) {
    paths = values.results.split(',');
    command += ` -- --results <${paths.length} results file${paths.length === 1 ? '' : 's'}: the runs below>`;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'jsonbench-studies-'));
    paths = [];
    command += ` -- --policy ${values.policy} --company-sizes ${values['company-sizes']}`;
    for (const [i, args] of runs(values['company-sizes']!).entries()) {
      const out = join(dir, `run-${i + 1}`);
      const argv = ['bin/jsonbench.js', 'run', ...args, '--policy', values.policy!, '--no-ledger', '--out', out];
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
  writeFileSync(values.out!, renderNote(files, command));
  process.stderr.write(`studies: wrote ${values.out} from ${files.length} results file(s)\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
