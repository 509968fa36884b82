// Q3 follow-up: when bytes/op after the timed rounds differ from a fresh allocation process, is it
// the extra running time or the baseline sharing the process? A = alloc process (0.5 s warmup),
// A-long = alloc process with 3 s warmup, C = rounds of the serializer alone then alloc,
// B = paired rounds with the baseline then alloc.
// node build/studies/alloc-placement/q3-alloc-why.js
import type { CaseClass, Direction, Shape } from '../../src/case/coordinates.js';
import { helpRequested, runChild, payload, median, type ChildOutput, type ChildSpec } from '../lib/lib.js';

helpRequested('node build/studies/alloc-placement/q3-alloc-why.js: 4 cases × 4 launches (a few minutes)');
const CASES: [string, number, Shape, Direction, string, CaseClass, string][] = [
  ['weather-station', 1, 'single', 'deserialize', 'class-transformer', 'transform', 'zod'],
  ['users', 100, 'list', 'serialize', 'class-transformer', 'serialize', 'json'],
  ['weather-station', 1, 'single', 'serialize', 'typia', 'serialize', 'json'],
  ['users', 100, 'list', 'serialize', 'superjson', 'serialize', 'json'],
];
console.log('| case | A | A-long | C (alone, after rounds) | B (paired, after rounds) |');
console.log('|---|---|---|---|---|');
for (const [workload, size, shape, direction, serializer, caseClass, baseline] of CASES) {
  const base: ChildSpec = {
    kind: 'pair',
    workload,
    size,
    shape,
    direction,
    serializer,
    caseClass,
    payloadPath: await payload(workload, size),
    sampleTargetMs: 2.5,
    samplesPerRound: 4,
    alloc: true,
  };
  const m = (o: ChildOutput) => median(o.alloc?.s.windowsBytesPerOp ?? []).toFixed(1);
  const a = runChild({ ...base, rounds: 0 });
  const al = runChild({ ...base, rounds: 0, warmupMinMs: 3000 });
  const c = runChild({ ...base, rounds: 8 });
  const b = runChild({ ...base, baseline, rounds: 8 });
  console.log(`| ${workload}/${size}/${shape}/${direction}/${serializer} | ${m(a)} | ${m(al)} | ${m(c)} | ${m(b)} |`);
}
