import { dotnetJob, payloadFor, readyTarget, verify, type DotnetTarget } from './dotnet-lab.js';
import { policies } from '../src/config/policies.js';
import constructs, { datesInUnknown } from '../test/dotnet/constructs-workload.js';

/**
 * Scratch check (not a benchmark): builds the worker with the constructs fixture and runs the
 * gate for each .NET serializer, direction and shape. Usage: node build/bench/dotnet-constructs.js [dotnet|mono]
 */
const target = (process.argv[2] ?? 'dotnet') as DotnetTarget;
const t0 = Date.now();
const r = await readyTarget(target, undefined, [constructs, datesInUnknown]);
if ('reason' in r) {
  console.error(r.reason);
  process.exit(1);
}
console.log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
for (const [w, size] of [
  [constructs, 6],
  [datesInUnknown, 2],
] as const) {
  const p = await payloadFor(w, size);
  const policy = {
    ...policies.quick.measure,
    warmupMinOps: 10,
    warmupMinMs: 5,
    warmupMaxMs: 50,
    sampleTargetMs: 2,
    samplesPerRound: 2,
    minRounds: 2,
    maxRounds: 3,
    timeCapMs: 50,
    allocWindows: 3,
    allocWindowMinMs: 2,
  };
  for (const shape of ['list', 'many'] as const) {
    for (const direction of ['serialize', 'deserialize'] as const) {
      for (const serializer of ['newtonsoft', 'stj-sourcegen']) {
        const v = await verify(
          r,
          dotnetJob({
            workload: w.id,
            size,
            shape,
            direction,
            serializer,
            baseline: 'stj',
            mode: 'verify',
            payloadPath: p.payload.path,
            policy,
          }),
          p.workload,
          { main: p.text, variant: p.variantText },
        );
        const fails = v.failures.map(
          (f) => `${f.side}: ${f.failure.reason}: expected ${f.failure.expected}, got ${f.failure.actual}`,
        );
        console.log(
          `${w.id} ${shape} ${direction} ${serializer}: ${v.error ?? ''} ${fails.length ? fails.join(' | ') : v.gates.length + ' gates ok'}`,
        );
      }
    }
  }
}
