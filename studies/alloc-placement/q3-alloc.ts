// Q3: does taking the allocation windows in the timing process, after the timed rounds, change
// bytes/op? For each case: A and A' = two separate allocation processes (today: warmup, then 5
// windows), B = one timing process (warmup, pilot, paired rounds with the baseline, then the
// same 5 windows for the serializer and for the baseline).
// node build/studies/alloc-placement/q3-alloc.js [--out /tmp/q3-alloc.jsonl] [--rounds 8]
import { appendFileSync } from 'node:fs';
import type { CaseClass, Direction, Shape } from '../../src/case/coordinates.js';
import { studyArgs, runChild, payload, median, load, type ChildOutput, type ChildSpec } from '../lib/lib.js';

const USAGE = `node build/studies/alloc-placement/q3-alloc.js [--out /tmp/q3-alloc.jsonl] [--rounds 8]`;
const { values } = studyArgs(USAGE, {
  out: { type: 'string', default: '/tmp/engine-q3-alloc.jsonl' },
  rounds: { type: 'string', default: '8' },
});
const W: [string, number, Shape][] = [
  ['weather-station', 1, 'single'],
  ['users', 100, 'list'],
  ['users', 100, 'many'],
  ['users-settings', 100, 'list'],
  ['orders', 100, 'list'],
  ['orders', 100, 'many'],
  ['company', 1000, 'single'],
  ['users', 10000, 'list'],
];
const SER: [Direction, string, CaseClass, string | undefined][] = [
  ['serialize', 'fast-json-stringify', 'serialize', 'json'],
  ['serialize', 'typia', 'serialize', 'json'],
  ['serialize', 'superjson', 'serialize', 'json'],
  ['serialize', 'class-transformer', 'serialize', 'json'],
  ['serialize', 'json', 'serialize', undefined],
  ['deserialize', 'json', 'parse', undefined],
  ['deserialize', 'typia', 'validate', 'typebox'],
  ['deserialize', 'valibot', 'transform', 'zod'],
  ['deserialize', 'class-transformer', 'transform', 'zod'],
];
console.log(`load ${load()}`);
console.log(
  "| case | A bytes/op | A' bytes/op | B (after rounds) bytes/op | B/A − 1 | A'/A − 1 | baseline in B vs its own A |",
);
console.log('|---|---|---|---|---|---|---|');
for (const [workload, size, shape] of W) {
  const path = await payload(workload, size);
  for (const [direction, serializer, caseClass, baseline] of SER) {
    const base: ChildSpec = {
      kind: 'pair',
      workload,
      size,
      shape,
      direction,
      serializer,
      caseClass,
      payloadPath: path,
      sampleTargetMs: 2.5,
      samplesPerRound: 4,
      alloc: true,
    };
    const id = `${workload}/${size}/${shape}/${direction}/${serializer}`;
    let a: ChildOutput, a2: ChildOutput, b: ChildOutput;
    try {
      a = runChild({ ...base, rounds: 0 });
      a2 = runChild({ ...base, rounds: 0 });
      b = runChild({ ...base, baseline, rounds: Number(values.rounds) });
    } catch (e) {
      console.log(
        `| ${id} | ${
          String((e as Error).message)
            .split('\n')
            .find((l) => /Error|incorrect|unsupported/.test(l))
            ?.slice(0, 120) ?? 'failed'
        } | | | | | |`,
      );
      continue;
    }
    const m = (o: ChildOutput, k: string) => median(o.alloc?.[k]?.windowsBytesPerOp ?? []);
    const rec = { id, a: a.alloc?.s, a2: a2.alloc?.s, b: b.alloc?.s, bBase: b.alloc?.b, loads: [a.load, b.load] };
    appendFileSync(values.out, JSON.stringify(rec) + '\n');
    console.log(
      `| ${id} | ${m(a, 's').toFixed(1)} | ${m(a2, 's').toFixed(1)} | ${m(b, 's').toFixed(1)} | ${((m(b, 's') / m(a, 's') - 1) * 100).toFixed(2)}% | ${((m(a2, 's') / m(a, 's') - 1) * 100).toFixed(2)}% | ${b.alloc?.b ? `${baseline} ${m(b, 'b').toFixed(1)}` : ''} |`,
    );
  }
}
console.log(`load ${load()}`);
