/**
 * Standalone: one .NET case end to end, printing every step and message.
 *   node build/bench/dotnet-try.js [--target dotnet|mono] [--workload users] [--size 100]
 *     [--shape list] [--direction serialize] [--serializer newtonsoft] [--baseline stj]
 *     [--policy quick|default] [--sample-ms N] [--time-cap-ms N] [--warmup-max-ms N] [--warmup-min-ops N] [--modes verify,time,alloc]
 * Steps: detect the target; generate the DTOs of every built-in workload and build the worker
 * into the cache (build time and log path printed); write the payload with the workload's own
 * code; a verify launch checked by the host's gate (src/dotnet/gate.ts); then a time launch and
 * an alloc launch, each message printed (round samples abbreviated).
 */
import { parseArgs } from 'node:util';
import { policies } from '../src/config/policies.js';
import type { Shape } from '../src/case/coordinates.js';
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
} from './dotnet-lab.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'dotnet' },
    workload: { type: 'string', default: 'users' },
    size: { type: 'string', default: '100' },
    shape: { type: 'string' },
    direction: { type: 'string', default: 'serialize' },
    serializer: { type: 'string', default: 'newtonsoft' },
    baseline: { type: 'string', default: 'stj' },
    policy: { type: 'string', default: 'quick' },
    'sample-ms': { type: 'string' },
    'time-cap-ms': { type: 'string' },
    'warmup-max-ms': { type: 'string' },
    'warmup-min-ops': { type: 'string' },
    modes: { type: 'string', default: 'verify,time,alloc' },
  },
});

const short = (m: unknown) => {
  const text = JSON.stringify(m, (k, v) =>
    Array.isArray(v) && v.length > 6
      ? [...v.slice(0, 3), `… ${v.length} items`]
      : typeof v === 'string' && v.length > 160
        ? v.slice(0, 157) + '…'
        : v,
  );
  return text;
};

const t0 = performance.now();
const ready = await readyTarget(values.target as DotnetTarget);
if ('reason' in ready) {
  console.error(`target ${values.target} cannot run: ${ready.reason}`);
  process.exit(2);
}
console.log(
  `target: ${ready.detection.description} (worker ${ready.build.framework}, build ${ready.build.cached ? 'reused' : 'made'}: dotnet build took ${(ready.build.buildMs / 1000).toFixed(1)} s; log ${ready.build.logPath})`,
);
console.log(`worker: ${ready.build.command} ${ready.build.args.join(' ')}`);
const { workload, payload, text, variantText } = await payloadFor(values.workload!, Number(values.size));
const shape = (values.shape ?? workload.shapes[0]) as Shape;
console.log(`payload: ${payload.path} (${payload.bytes} bytes), shape ${shape}`);
const base = policies[values.policy as 'quick' | 'default'].measure;
const policy = {
  ...base,
  ...(values['sample-ms'] ? { sampleTargetMs: Number(values['sample-ms']) } : {}),
  ...(values['time-cap-ms'] ? { timeCapMs: Number(values['time-cap-ms']) } : {}),
  ...(values['warmup-max-ms'] ? { warmupMaxMs: Number(values['warmup-max-ms']) } : {}),
  ...(values['warmup-min-ops'] ? { warmupMinOps: Number(values['warmup-min-ops']) } : {}),
};
const job = dotnetJob({
  workload: workload.id,
  size: Number(values.size),
  shape,
  direction: values.direction as 'serialize' | 'deserialize',
  serializer: values.serializer!,
  baseline: values.baseline,
  mode: 'verify',
  payloadPath: payload.path,
  policy,
});
const modes = values.modes!.split(',');

if (modes.includes('verify')) {
  const v = await verify(ready, job, workload, { main: text, variant: variantText });
  console.log(`\n# verify launch (${v.outcome.elapsedMs.toFixed(0)} ms, exit ${v.outcome.exitCode})`);
  for (const m of v.outcome.messages) console.log(short(m));
  if (v.error) {
    console.log(`✗ failed: ${v.error}`);
    process.exit(1);
  }
  if (v.failures.length) {
    for (const f of v.failures)
      console.log(
        `✗ incorrect (${f.side}): ${f.failure.reason}: expected ${f.failure.expected}, got ${f.failure.actual}`,
      );
    process.exit(1);
  }
  console.log(`✓ gate passed on both payloads for ${[...new Set(v.gates.map((g) => g.side))].join(' and ')}`);
}
if (modes.includes('time')) {
  const o = await launch(ready, { ...job, mode: 'time' });
  console.log(`\n# time launch (${o.elapsedMs.toFixed(0)} ms, exit ${o.exitCode})`);
  for (const m of o.messages) console.log(short(m));
  const s = summariseTime(o);
  console.log(
    `→ ${values.serializer} ${formatNs(s.serializerMeanNs)}, ${values.baseline} ${formatNs(s.baselineMeanNs)}, ratio ${s.ratio.toFixed(3)} by ${s.clock === 'cpu' ? 'process CPU' : 'wall clock'}` +
      (s.wallRatio ? `, ${s.wallRatio.toFixed(3)} by wall clock` : '') +
      (s.cpuRatio
        ? `, ${s.cpuRatio.toFixed(3)} by thread CPU (${formatNs(s.serializerCpuMeanNs!)} vs ${formatNs(s.baselineCpuMeanNs!)})`
        : '') +
      `; ${s.rounds} rounds${s.noisy ? ', noisy' : ''}`,
  );
}
if (modes.includes('alloc')) {
  const o = await launch(ready, { ...job, mode: 'alloc' });
  console.log(`\n# alloc launch (${o.elapsedMs.toFixed(0)} ms, exit ${o.exitCode})`);
  for (const m of o.messages) console.log(short(m));
  const a = summariseAlloc(o);
  console.log(
    `→ ${values.serializer} allocates ${formatBytes(a.bytesPerOp)}/op (${a.bytesPerOp.toFixed(0)} B), ${a.gcPerOp.toFixed(4)} GCs/op (${a.method})`,
  );
}
console.log(
  `\ntotal ${((performance.now() - t0) / 1000) | 0} s; load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
