/**
 * Launch-to-launch spread of the .NET pairs' ratios (bench/pairs.ts DOTNET_PAIRS: Newtonsoft.Json ÷
 * System.Text.Json on users/10000 list serialize and weather-station deserialize) under candidate
 * method rules, with the default policy: each launch a fresh worker process, the arms interleaved
 * launch by launch (arm A pair 1, arm A pair 2, arm B pair 1, …, then the next launch) so a change of
 * load hits every arm alike. Per arm and pair: launches, the coefficient of variation (sample stddev
 * ÷ mean) of the per-launch ratios (median of per-round ratios of medians, by the measuring clock:
 * process CPU time, as results report it), their mean and range, slow samples (a sample over 1.25 ×
 * its side's median in the launch) per launch, and the load average (1 min) over the arm's launches.
 * Raw per-launch figures (every sample's ms/op and minor faults/op) go to --out as JSON lines.
 *   node build/studies/dotnet-spread/dotnet-spread.js [--launches 8] [--arms base,settle1,round] [--pairs users,weather] [--out file.jsonl]
 * Arms: see ARMS below (environment variables of the worker and policy changes; the JSONBENCH_DOTNET_*
 * overrides are named in the worker's `hello.methodOverrides`).
 */
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { helpRequested } from '../lib/lib.js';
import { policies } from '../../src/config/policies.js';
import type { RoundMessage } from '../../src/worker/protocol.js';
import type { MeasurePolicy } from '../../src/case/policy.js';
import { medianOf, meanOf } from '../../src/stats/estimate.js';
import { dotnetJob, launch, payloadFor, readyTarget, summariseTime, verify } from '../../bench/dotnet-lab.js';

helpRequested(
  `node build/studies/dotnet-spread/dotnet-spread.js [--launches 8] [--arms base,settle1,round] [--pairs users,weather] [--out file.jsonl]`,
);
const { values } = parseArgs({
  options: {
    launches: { type: 'string', default: '8' },
    arms: { type: 'string', default: 'base,settle1,round' },
    pairs: { type: 'string', default: 'users,weather' },
    out: { type: 'string' },
  },
});

/** A candidate rule: extra worker environment and policy fields. */
interface Arm {
  env: Record<string, string>;
  policy?: Partial<MeasurePolicy>;
}
const ARMS: Record<string, Arm> = {
  /** the lab's method as built (DOTNET_WORKER_ENV; since 2026-12-02 a forced full GC per round and the memory settle) */
  base: { env: {} },
  /** a forced full GC before each side (the method until 2026-12-02) */
  side: { env: { JSONBENCH_DOTNET_GC: 'side' } },
  /** a forced GC before each side, without the memory settle and the forced GC before the pilot (Timing.SettleMemory): the method before 2026-12-02 */
  nomem: { env: { JSONBENCH_DOTNET_GC: 'side', JSONBENCH_DOTNET_MEMORY_SETTLE: '0' } },
  /** one forced GC per round, without the memory settle */
  'round+nomem': { env: { JSONBENCH_DOTNET_GC: 'round', JSONBENCH_DOTNET_MEMORY_SETTLE: '0' } },
  /** a forced GC before each side, then one or two untimed samples before the timed ones */
  settle1: { env: { JSONBENCH_DOTNET_GC: 'side', JSONBENCH_DOTNET_SETTLE_SAMPLES: '1' } },
  settle2: { env: { JSONBENCH_DOTNET_GC: 'side', JSONBENCH_DOTNET_SETTLE_SAMPLES: '2' } },
  /** a forced GC before each side, then untimed samples until one faults under a page per op (at most 4) */
  settlefaults: { env: { JSONBENCH_DOTNET_GC: 'side', JSONBENCH_DOTNET_SETTLE_FAULTS: '4' } },
  /** one forced GC per round instead of one per side */
  round: { env: { JSONBENCH_DOTNET_GC: 'round' } },
  /** no forced GC */
  none: { env: { JSONBENCH_DOTNET_GC: 'none' } },
  /** a forced GC before each side and non-concurrent (blocking) gen2 collections: no background GC thread */
  gcconc0: { env: { JSONBENCH_DOTNET_GC: 'side', DOTNET_gcConcurrent: '0' } },
  /** a forced GC before each side and the GC's memory-conserving mode (0–9) */
  conserve5: { env: { JSONBENCH_DOTNET_GC: 'side', DOTNET_GCConserveMemory: '5' } },
  /** a forced GC before each side and freed memory kept committed */
  retainvm: { env: { JSONBENCH_DOTNET_GC: 'side', DOTNET_GCRetainVM: '1' } },
  /** a 64 MB gen0 size asked instead of 256 MB */
  gen0_64m: { env: { DOTNET_GCgen0size: '4000000' } },
  /** samples of at least 40 ops instead of 20 (longer samples) */
  minops40: { env: { JSONBENCH_DOTNET_MIN_OPS: '40' } },
  /**
   * the reference of studies/gc-before-sides/dotnet-gc-study.ts: no forced GC, half-second samples (many GC cycles each, as
   * BenchmarkDotNet's 500 ms iterations), on the process CPU clock: the steady-state cost per op
   */
  reference: {
    env: { JSONBENCH_DOTNET_GC: 'none' },
    policy: { sampleTargetMs: 500, samplesPerRound: 2, timeCapMs: 8000 },
  },
  /** 4 samples per round → 8 */
  spr8: { env: {}, policy: { samplesPerRound: 8 } },
};
const PAIRS: Record<
  string,
  { workload: string; size: number; shape: 'list' | 'single'; direction: 'serialize' | 'deserialize' }
> = {
  users: { workload: 'users', size: 10000, shape: 'list', direction: 'serialize' },
  weather: { workload: 'weather-station', size: 1, shape: 'single', direction: 'deserialize' },
};

const arms = values.arms!.split(',');
for (const a of arms)
  if (!ARMS[a]) {
    console.error(`unknown arm ${a} (have ${Object.keys(ARMS).join(', ')})`);
    process.exit(2);
  }
const pairs = values.pairs!.split(',');
const ready = await readyTarget('dotnet');
if ('reason' in ready) {
  console.error(ready.reason);
  process.exit(2);
}
const load3 = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `# ${ready.detection.description}; default policy; ${values.launches} launches per arm and pair, interleaved; arms ${arms.join(', ')}; load ${load3()}`,
);
const started = performance.now();

const jobs: Record<string, { job: (p?: Partial<MeasurePolicy>) => ReturnType<typeof dotnetJob> }> = {};
for (const name of pairs) {
  const pr = PAIRS[name];
  const p = await payloadFor(pr.workload, pr.size);
  const job = (policy: Partial<MeasurePolicy> = {}) =>
    dotnetJob({
      ...pr,
      serializer: 'newtonsoft',
      baseline: 'stj',
      mode: 'time',
      payloadPath: p.payload.path,
      policy: { ...policies.default.measure, ...policy },
    });
  const v = await verify(ready, { ...job(), mode: 'verify' }, p.workload, { main: p.text, variant: p.variantText });
  if (v.error || v.failures.length) {
    console.error(`${name}: not timed: ${v.error ?? v.failures[0].failure.reason}`);
    process.exit(1);
  }
  jobs[name] = { job };
}

/** Samples over 1.25 × the side's median in this launch, both sides. */
function slow(rounds: RoundMessage[], side: 'serializerNs' | 'baselineNs'): number {
  const xs = rounds.flatMap((r) => r[side]);
  const m = medianOf(xs);
  return xs.filter((x) => x > 1.25 * m).length;
}

interface Row {
  ratio: number;
  cpuRatio: number;
  wallRatio: number;
  load: number;
  slowS: number;
  slowB: number;
  samples: number;
  rounds: number;
  sMs: number;
  bMs: number;
}
const got = new Map<string, Row[]>();
for (let k = 0; k < Number(values.launches); k++) {
  for (const arm of arms) {
    for (const pair of pairs) {
      const a = ARMS[arm];
      const load = loadavg()[0];
      const o = await launch(ready, jobs[pair].job(a.policy), 600_000, a.env);
      let s;
      try {
        s = summariseTime(o);
      } catch (e) {
        console.log(`${arm} ${pair} #${k + 1}: ${(e as Error).message}`);
        continue;
      }
      const rounds = o.messages.filter((m): m is RoundMessage => m.type === 'round');
      const hello = o.messages.find((m) => m.type === 'hello') as
        { methodOverrides?: string; gcMode?: string } | undefined;
      const setup = o.messages.find((m) => m.type === 'setup') as
        { opsPerSample?: unknown; sampleTargetMs?: number } | undefined;
      const row: Row = {
        ratio: s.ratio,
        cpuRatio: s.cpuRatio ?? NaN,
        wallRatio: s.wallRatio ?? NaN,
        load,
        slowS: slow(rounds, 'serializerNs'),
        slowB: slow(rounds, 'baselineNs'),
        samples: rounds.reduce((n, r) => n + r.serializerNs.length, 0),
        rounds: rounds.length,
        sMs: s.serializerMeanNs / 1e6,
        bMs: s.baselineMeanNs / 1e6,
      };
      const key = `${arm}|${pair}`;
      got.set(key, [...(got.get(key) ?? []), row]);
      console.log(
        `${arm} ${pair} #${k + 1}: ratio ${s.ratio.toFixed(3)} (thread CPU ${row.cpuRatio.toFixed(3)}, wall ${row.wallRatio.toFixed(3)}), ${rounds.length} rounds, slow samples S ${row.slowS}/${row.samples} B ${row.slowB}, means ${row.sMs.toFixed(3)} / ${row.bMs.toFixed(3)} ms, ops/sample ${JSON.stringify(setup?.opsPerSample)}, load ${load.toFixed(2)}`,
      );
      if (values.out)
        appendFileSync(
          values.out,
          JSON.stringify({
            arm,
            pair,
            launch: k + 1,
            ...row,
            methodOverrides: hello?.methodOverrides ?? null,
            gcMode: hello?.gcMode,
            setup,
            rounds: rounds.map((r) => ({
              s: r.serializerNs,
              b: r.baselineNs,
              sf: r.serializerFaults,
              bf: r.baselineFaults,
              sg: r.serializerGcs,
              bg: r.baselineGcs,
            })),
          }) + '\n',
        );
    }
  }
}

const cv = (xs: number[]) => {
  const m = meanOf(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)) / m;
};
console.log(
  '\n| arm | pair | launches | ratio CV | mean ratio [range] | thread-CPU ratio CV | slow samples/launch (S / B) | load |\n|---|---|---|---|---|---|---|---|',
);
for (const pair of pairs)
  for (const arm of arms) {
    const rows = got.get(`${arm}|${pair}`) ?? [];
    if (rows.length < 2) continue;
    const r = rows.map((x) => x.ratio);
    console.log(
      `| ${arm} | ${pair} | ${rows.length} | ${(cv(r) * 100).toFixed(2)}% | ${meanOf(r).toFixed(3)} [${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}] | ${(cv(rows.map((x) => x.cpuRatio)) * 100).toFixed(2)}% | ${meanOf(rows.map((x) => x.slowS)).toFixed(1)} / ${meanOf(rows.map((x) => x.slowB)).toFixed(1)} | ${Math.min(...rows.map((x) => x.load)).toFixed(1)}–${Math.max(...rows.map((x) => x.load)).toFixed(1)} |`,
    );
  }
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; load at end ${load3()}`);
