/**
 * The method question of issue 12: samples taken right after the forced full GC before each side
 * of a round run several times slower on .NET for allocation-heavy serializers on large payloads.
 * This script measures the candidate rules on the same pairs, interleaved launch by launch:
 *   - `side`: a full GC before each side (the .NET worker's method until 2026-12-02; JSONBENCH_DOTNET_GC=side);
 *   - `side+settle`: the same, then one untimed sample before the timed ones;
 *   - `round`: a full GC once at the start of each round (the second side runs after the first's garbage; the method now);
 *   - `long`: the GC before each side, samples of 100 ms instead of 10 (longer samples amortise the transient);
 *   - `none+long`, `side+settle+long`: combinations;
 *   - `reference`: no forced GC and 500 ms samples (each spans many GC cycles, as BenchmarkDotNet's iterations): the
 *     steady-state cost per op the cheaper rules are judged against;
 *   - `retainvm`: the lab's rule with DOTNET_GCRetainVM=1 (freed memory kept committed: a diagnosis of page-fault cost);
 *   - `nosettle`: the lab's rule without the JIT settle after warmup (JSONBENCH_DOTNET_JIT_SETTLE=0); `tc0`: DOTNET_TieredCompilation=0.
 * Per launch: the ratio (median of per-round ratios of medians) by wall clock and by thread CPU,
 * the rounds, the transient (median over rounds of sample 0 ÷ the median of the later samples of
 * the same side, both sides), and the share of rounds in which the JIT still compiled.
 *   node build/studies/gc-before-sides/dotnet-gc-study.js [--target dotnet|mono] [--launches 3] [--workload users] [--shape list] [--size 10000] [--variants side,side+settle,round,long,none+long,side+settle+long,reference,retainvm] [--pairs ser-newtonsoft,de-newtonsoft,ser-stj-sourcegen]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { helpRequested } from '../lib/lib.js';
import { policies } from '../../src/config/policies.js';
import type { RoundMessage } from '../../src/worker/protocol.js';
import type { MeasurePolicy } from '../../src/case/policy.js';
import { medianOf } from '../../src/stats/estimate.js';
import {
  dotnetJob,
  formatNs,
  launch,
  payloadFor,
  readyTarget,
  summariseTime,
  verify,
  type DotnetTarget,
} from '../../bench/dotnet-lab.js';

helpRequested(
  `node build/studies/gc-before-sides/dotnet-gc-study.js [--target dotnet|mono] [--launches 3] [--workload users] [--shape list] [--size 10000] [--variants side,side+settle,round,long,none+long,side+settle+long,reference,retainvm] [--pairs ser-newtonsoft,de-newtonsoft,ser-stj-sourcegen]`,
);
const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'dotnet' },
    launches: { type: 'string', default: '3' },
    size: { type: 'string', default: '10000' },
    workload: { type: 'string', default: 'users' },
    shape: { type: 'string', default: 'list' },
    variants: { type: 'string', default: 'side,side+settle,round,long' },
    pairs: { type: 'string', default: 'ser-newtonsoft,de-newtonsoft,ser-stj-sourcegen' },
  },
});
const VARIANTS: Record<string, { env: Record<string, string>; policy?: Partial<MeasurePolicy> }> = {
  side: { env: { JSONBENCH_DOTNET_GC: 'side' } },
  'side+settle': { env: { JSONBENCH_DOTNET_GC: 'side', JSONBENCH_DOTNET_SETTLE_SAMPLES: '1' } },
  round: { env: { JSONBENCH_DOTNET_GC: 'round' } },
  long: { env: { JSONBENCH_DOTNET_GC: 'side' }, policy: { sampleTargetMs: 100 } },
  'none+long': { env: { JSONBENCH_DOTNET_GC: 'none' }, policy: { sampleTargetMs: 100 } },
  'side+settle+long': {
    env: { JSONBENCH_DOTNET_GC: 'side', JSONBENCH_DOTNET_SETTLE_SAMPLES: '1' },
    policy: { sampleTargetMs: 100 },
  },
  /** the reference: no forced GC, half-second samples (many GC cycles each), as BenchmarkDotNet's 500 ms iterations */
  reference: {
    env: { JSONBENCH_DOTNET_GC: 'none' },
    policy: { sampleTargetMs: 500, samplesPerRound: 2, timeCapMs: 8000 },
  },
  retainvm: { env: { DOTNET_GCRetainVM: '1' } },
  /** the lab's rule without the wait for tiered compilation to finish (Timing.SettleJit), as before it existed */
  nosettle: { env: { JSONBENCH_DOTNET_JIT_SETTLE: '0' } },
  /** tiered compilation off (every method compiled once, fully optimised): no tier-up can happen while timing */
  tc0: { env: { DOTNET_TieredCompilation: '0' } },
  /** the runtime's knobs one at a time (issue 12, precision on a quiet machine): dynamic PGO off */
  pgo0: { env: { DOTNET_TieredPGO: '0' } },
  /** non-concurrent (blocking) gen2 collections: no background GC thread */
  gcconc0: { env: { DOTNET_gcConcurrent: '0' } },
  /** the runtime's own call-counting delay (100 ms) instead of the launcher's 0 */
  delay100: { env: { DOTNET_TC_CallCountingDelayMs: '100' } },
  /** a fixed 64 MB gen0 budget (hex) instead of the one the GC sizes from the cache and tunes as it goes */
  gen0fixed: { env: { DOTNET_GCgen0size: '4000000' } },
  /** ReadyToRun code of the shared framework (System.Text.Json) ignored: every method jitted through the tiers */
  r2r0: { env: { DOTNET_ReadyToRun: '0' } },
  /** objects up to 100 MB allocated in gen0 instead of the large object heap (hex 0x5F5E100): the LOH's freed regions are decommitted and re-faulted */
  loh100m: { env: { DOTNET_GCLOHThreshold: '5F5E100' } },
  /** the segments GC shipped beside the runtime (libclrgc.so) with freed memory kept committed */
  segretain: { env: { DOTNET_GCName: 'libclrgc.so', DOTNET_GCRetainVM: '1' } },
  /**
   * GC regions of 32 MB (hex 0x2000000; a power of two, the default here is 4 MB): the LOH threshold's cap
   * (one region) rises to 33,554,344 B, so outputs up to ~32 MB (company/100000: ~15 MB) stay in gen0
   */
  region32m: { env: { DOTNET_GCRegionSize: '2000000' } },
  /** GC regions of 64 MB: LOH threshold cap 67,108,776 B */
  region64m: { env: { DOTNET_GCRegionSize: '4000000' } },
  /** freed regions kept committed (with the default 4 MB regions): the LOH's regions stay mapped? */
  retainvm4m: { env: { DOTNET_GCRetainVM: '1' } },
  /** the GC's memory-conserving mode (0–9; 5): compacts the LOH more often */
  conserve5: { env: { DOTNET_GCConserveMemory: '5' } },
  /** 32 MB regions and freed memory kept committed */
  'region32m+retainvm': { env: { DOTNET_GCRegionSize: '2000000', DOTNET_GCRetainVM: '1' } },
  /** 32 MB regions and a fixed 256 MB gen0 budget (hex 0x10000000): an op of company/100000 (38 MB allocated by Newtonsoft) runs without a GC */
  'region32m+gen0256m': { env: { DOTNET_GCRegionSize: '2000000', DOTNET_GCgen0size: '10000000' } },
  /** a fixed 256 MB gen0 budget alone (default 4 MB regions) */
  gen0256m: { env: { DOTNET_GCgen0size: '10000000' } },
  /** a gen0 budget cap of 256 MB (hex), so gen0 is not collected inside an op of a large payload */
  gen0max256m: { env: { DOTNET_GCgen0MaxBudget: '10000000' } },
};
const PAIRS: Record<string, { direction: 'serialize' | 'deserialize'; serializer: string }> = {
  'ser-newtonsoft': { direction: 'serialize', serializer: 'newtonsoft' },
  'de-newtonsoft': { direction: 'deserialize', serializer: 'newtonsoft' },
  'ser-stj-sourcegen': { direction: 'serialize', serializer: 'stj-sourcegen' },
};
const variants = values.variants!.split(',');
const pairs = values.pairs!.split(',');
const size = Number(values.size);
const shape = values.shape as 'list' | 'many' | 'single';
const ready = await readyTarget(values.target as DotnetTarget);
if ('reason' in ready) {
  console.error(ready.reason);
  process.exit(2);
}
const p = await payloadFor(values.workload!, size);
const started = performance.now();
console.log(
  `# ${values.workload}/${size} ${shape} on ${ready.detection.description}; default policy; ${values.launches} launches per variant and pair, interleaved; load at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

/** Median over rounds of (first sample ÷ median of the side's later samples), per side; NaN when no round has 2 samples. */
function transient(rounds: RoundMessage[], side: 'serializerNs' | 'baselineNs'): number {
  const xs = rounds
    .map((r) => r[side])
    .filter((s) => s.length >= 2)
    .map((s) => s[0] / medianOf(s.slice(1)));
  return xs.length ? medianOf(xs) : NaN;
}

/** Median over all samples of a side's minor page faults per op; NaN when the worker reported none. */
function faultsPerOp(rounds: RoundMessage[], side: 'serializerFaults' | 'baselineFaults'): number {
  const xs = rounds.flatMap((r) => r[side] ?? []);
  return xs.length ? medianOf(xs) : NaN;
}

const rows: string[] = [];
for (const pairName of pairs) {
  const pair = PAIRS[pairName];
  const job = (policy: Partial<MeasurePolicy> = {}) =>
    dotnetJob({
      workload: p.workload.id,
      size,
      shape,
      direction: pair.direction,
      serializer: pair.serializer,
      baseline: 'stj',
      mode: 'time',
      payloadPath: p.payload.path,
      policy: { ...policies.default.measure, ...policy },
    });
  const v = await verify(ready, { ...job(), mode: 'verify' }, p.workload, { main: p.text, variant: p.variantText });
  if (v.error || v.failures.length) {
    console.error(`${pairName}: not timed: ${v.error ?? v.failures[0].failure.reason}`);
    continue;
  }
  const got: Record<
    string,
    {
      wall: number;
      cpu: number;
      rounds: number;
      tS: number;
      tB: number;
      jit: number;
      sMs: number;
      bMs: number;
      fS: number;
      fB: number;
      load: number;
    }[]
  > = {};
  for (let k = 0; k < Number(values.launches); k++) {
    for (const name of variants) {
      const variant = VARIANTS[name];
      const load = loadavg()[0];
      const o = await launch(ready, job(variant.policy), 600_000, variant.env);
      const s = summariseTime(o);
      const rounds = o.messages.filter((m): m is RoundMessage => m.type === 'round');
      const jit =
        rounds.filter((r) => (r.serializerJitMethods ?? 0) > 0 || (r.baselineJitMethods ?? 0) > 0).length /
        rounds.length;
      (got[name] ??= []).push({
        wall: s.wallRatio ?? s.ratio,
        cpu: s.cpuRatio ?? NaN,
        rounds: s.rounds,
        tS: transient(rounds, 'serializerNs'),
        tB: transient(rounds, 'baselineNs'),
        jit,
        sMs: s.serializerMeanNs / 1e6,
        bMs: s.baselineMeanNs / 1e6,
        fS: faultsPerOp(rounds, 'serializerFaults'),
        fB: faultsPerOp(rounds, 'baselineFaults'),
        load,
      });
      console.log(
        `${pairName} ${name} #${k + 1}: wall ${(s.wallRatio ?? s.ratio).toFixed(3)} process CPU ${s.ratio.toFixed(3)} cpu ${s.cpuRatio?.toFixed(3)} (${formatNs(s.serializerMeanNs)} / ${formatNs(s.baselineMeanNs)}), ${s.rounds} rounds, first-sample ${transient(rounds, 'serializerNs').toFixed(2)}/${transient(rounds, 'baselineNs').toFixed(2)}, JIT in ${(jit * 100).toFixed(0)}% of rounds, round medians ms S ${rounds.map((r) => (medianOf(r.serializerNs) / 1e6).toFixed(1)).join(' ')} B ${rounds.map((r) => (medianOf(r.baselineNs) / 1e6).toFixed(1)).join(' ')}, faults/op S ${rounds.map((r) => (r.serializerFaults?.length ? medianOf(r.serializerFaults) : NaN).toFixed(0)).join(' ')} B ${rounds.map((r) => (r.baselineFaults?.length ? medianOf(r.baselineFaults) : NaN).toFixed(0)).join(' ')} (every sample, ms/op:faults/op: S ${rounds.map((r) => r.serializerNs.map((ns, i) => `${(ns / 1e6).toFixed(2)}:${(r.serializerFaults?.[i] ?? NaN).toFixed(0)}`).join(',')).join(' ')} B ${rounds.map((r) => r.baselineNs.map((ns, i) => `${(ns / 1e6).toFixed(2)}:${(r.baselineFaults?.[i] ?? NaN).toFixed(0)}`).join(',')).join(' ')}), GCs per round S ${rounds.map((r) => r.serializerGcs).join(' ')} B ${rounds.map((r) => r.baselineGcs).join(' ')}, ops/sample ${JSON.stringify((o.messages.find((m) => m.type === 'setup') as { opsPerSample?: unknown } | undefined)?.opsPerSample)}, load ${load.toFixed(2)}`,
      );
    }
  }
  const range = (xs: number[]) =>
    `${medianOf(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;
  rows.push(`| ${pair.direction} ${pair.serializer} ÷ stj | | | | | | | |`);
  for (const name of variants) {
    const g = got[name];
    rows.push(
      `| ${name} | ${range(g.map((x) => x.wall))} | ${range(g.map((x) => x.cpu))} | ${formatNs(medianOf(g.map((x) => x.sMs)) * 1e6)} / ${formatNs(medianOf(g.map((x) => x.bMs)) * 1e6)} | ${medianOf(g.map((x) => x.tS)).toFixed(2)} / ${medianOf(g.map((x) => x.tB)).toFixed(2)} | ${medianOf(g.map((x) => x.fS)).toFixed(0)} / ${medianOf(g.map((x) => x.fB)).toFixed(0)} | ${medianOf(g.map((x) => x.rounds))} | ${range(g.map((x) => x.load))} |`,
    );
  }
}
console.log(
  [
    '',
    '| rule | ratio wall, median [range] | ratio thread CPU | mean (serializer / stj) | first sample after GC ÷ later (serializer / stj) | minor faults per op, median (serializer / stj) | rounds | load |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
console.log(
  `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; load at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
