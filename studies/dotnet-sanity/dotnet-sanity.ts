/**
 * Sanity measurement of the .NET worker against the published .NET 8 study (10,000 Bogus users,
 * BenchmarkDotNet): users/10000, shape `list`, serialize and deserialize; newtonsoft and
 * stj-sourcegen each paired with stj (the baseline) in alternating rounds, `--launches` launches
 * each (interleaved), the default policy; one allocation launch per serializer.
 *   node build/studies/dotnet-sanity/dotnet-sanity.js [--target dotnet|mono] [--launches 5] [--policy default]
 * Prints, per direction: mean time per op (median of launch means), the ratio to stj by wall
 * clock and by thread CPU (median of launches, each the median of per-round ratios; min–max of
 * launches beside it), allocated bytes per op and its ratio, the load average around each
 * launch, and the study's figures. Every case passes the host's gate first, or is not timed.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { helpRequested } from '../lib/lib.js';
import { policies } from '../../src/config/policies.js';
import { medianOf } from '../../src/stats/estimate.js';
import {
  dotnetJob,
  formatBytes,
  formatNs,
  launch,
  payloadFor,
  readyTarget,
  summariseAlloc,
  summariseTime,
  verify,
  type DotnetTarget,
  type TimeSummary,
} from '../../bench/dotnet-lab.js';

helpRequested(
  `node build/studies/dotnet-sanity/dotnet-sanity.js [--target dotnet|mono] [--launches 5] [--policy default]`,
);
const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'dotnet' },
    launches: { type: 'string', default: '5' },
    policy: { type: 'string', default: 'default' },
    size: { type: 'string', default: '10000' },
  },
});
const launches = Number(values.launches);
const size = Number(values.size);
const policy = policies[values.policy as 'quick' | 'default' | 'long'].measure;

/** The study's published figures (issue 12): time per op and allocated per op, BenchmarkDotNet, .NET 8. */
const STUDY = {
  serialize: { newtonsoft: { ms: 9.415, mb: 8.07 }, stj: { ms: 5.543, mb: 3.42 } },
  deserialize: { newtonsoft: { ms: 26.363, mb: 10.55 }, stj: { ms: 15.02, mb: 5.92 } },
} as const;

const load = () => loadavg()[0].toFixed(2);
const started = performance.now();
const ready = await readyTarget(values.target as DotnetTarget);
if ('reason' in ready) {
  console.error(`target ${values.target} cannot run: ${ready.reason}`);
  process.exit(2);
}
const { workload, payload, text, variantText } = await payloadFor('users', size);
console.log(
  `# users/${size} list on ${ready.detection.description}; worker ${ready.build.framework} (${ready.build.cached ? 'reused build' : 'built'}, dotnet build ${(ready.build.buildMs / 1000).toFixed(1)} s); policy ${values.policy}, ${launches} launches per pair; load average at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

const lines: string[] = [];
for (const direction of ['serialize', 'deserialize'] as const) {
  const job = (serializer: string, mode: 'time' | 'alloc' | 'verify') =>
    dotnetJob({
      workload: 'users',
      size,
      shape: 'list',
      direction,
      serializer,
      baseline: 'stj',
      mode,
      payloadPath: payload.path,
      policy,
    });
  const versions = new Map<string, string>();
  for (const s of ['newtonsoft', 'stj-sourcegen']) {
    const v = await verify(ready, job(s, 'verify'), workload, { main: text, variant: variantText });
    if (v.error || v.failures.length) {
      console.error(
        `${direction} ${s}: not timed: ${v.error ?? v.failures.map((f) => `${f.side} ${f.failure.reason}`).join('; ')}`,
      );
      process.exit(1);
    }
    for (const l of v.libraries) versions.set(l.serializer, l.version);
  }
  const runs: Record<string, (TimeSummary & { load: string })[]> = { newtonsoft: [], 'stj-sourcegen': [] };
  for (let k = 0; k < launches; k++) {
    for (const s of ['newtonsoft', 'stj-sourcegen']) {
      const before = load();
      const summary = summariseTime(await launch(ready, job(s, 'time')));
      runs[s].push({ ...summary, load: `${before}→${load()}` });
      console.log(
        `${direction} ${s} launch ${k + 1}: ${formatNs(summary.serializerMeanNs)} vs stj ${formatNs(summary.baselineMeanNs)}, ratio ${summary.ratio.toFixed(3)} ${summary.clock === 'cpu' ? 'process CPU' : 'wall'} / ${summary.wallRatio?.toFixed(3) ?? '—'} wall / ${summary.cpuRatio?.toFixed(3) ?? '—'} thread CPU, ${summary.rounds} rounds${summary.noisy ? ' (noisy)' : ''}, load ${before}→${load()}`,
      );
    }
  }
  const alloc: Record<string, number> = {};
  for (const s of ['stj', 'newtonsoft', 'stj-sourcegen'])
    alloc[s] = summariseAlloc(await launch(ready, { ...job(s, 'alloc'), baseline: undefined })).bytesPerOp;

  const stjMeans = [...runs.newtonsoft, ...runs['stj-sourcegen']].map((r) => r.baselineMeanNs);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
  lines.push(
    '',
    `## ${direction}, users/${size} list (${ready.detection.description})`,
    '',
    '| serializer | version | mean (wall) | mean (thread CPU) | ratio wall [launches] | ratio CPU [launches] | allocated | alloc ratio | study: time, alloc (ratio) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  const st = STUDY[direction];
  lines.push(
    `| stj | ${versions.get('stj')} | ${formatNs(medianOf(stjMeans))} | ${formatNs(medianOf([...runs.newtonsoft, ...runs['stj-sourcegen']].map((r) => r.baselineCpuMeanNs ?? NaN)))} | 1.00 (baseline) | 1.00 | ${formatBytes(alloc.stj)} | 1.00 | ${st.stj.ms} ms, ${st.stj.mb} MiB |`,
  );
  for (const s of ['newtonsoft', 'stj-sourcegen']) {
    const r = runs[s];
    const study =
      s === 'newtonsoft'
        ? `${st.newtonsoft.ms} ms, ${st.newtonsoft.mb} MiB (${(st.newtonsoft.ms / st.stj.ms).toFixed(2)}×, ${(st.newtonsoft.mb / st.stj.mb).toFixed(2)}×)`
        : 'not in this study';
    lines.push(
      `| ${s} | ${versions.get(s)} | ${formatNs(medianOf(r.map((x) => x.serializerMeanNs)))} | ${formatNs(medianOf(r.map((x) => x.serializerCpuMeanNs ?? NaN)))} | ${medianOf(r.map((x) => x.ratio)).toFixed(2)} [${range(r.map((x) => x.ratio))}] | ${medianOf(r.map((x) => x.cpuRatio ?? NaN)).toFixed(2)} [${range(r.map((x) => x.cpuRatio ?? NaN))}] | ${formatBytes(alloc[s])} | ${(alloc[s] / alloc.stj).toFixed(2)} | ${study} |`,
    );
  }
  lines.push(
    '',
    `load average per launch: ${Object.entries(runs)
      .map(([s, r]) => `${s} ${r.map((x) => x.load).join(', ')}`)
      .join('; ')}`,
  );
}
console.log(lines.join('\n'));
console.log(
  `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
