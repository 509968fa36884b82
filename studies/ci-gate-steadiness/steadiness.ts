// Which gate is steadier for CI (docs/ci.md): per-launch time ratios against JSON.stringify, by
// the wall clock and by the process CPU clock, measured in `launches` fresh processes each
// (studies/lib/pair-child.ts: alternating rounds, median of per-round ratios), against the
// instruction counts of earlier `jsonbench run --metric instructions` runs given as results files.
// Prints the CV across launches (ratios) and across runs (instructions/op), with the load average.
//
//   node build/studies/ci-gate-steadiness/steadiness.js [--launches 5] [--rounds 15] [--serializers a,b] [results.json…]
import { readFileSync } from 'node:fs';
import type { Shape } from '../../src/case/coordinates.js';
import { studyArgs, runChild, payload, load, median, cv, pct, roundRatios } from '../lib/lib.js';

const USAGE = `node build/studies/ci-gate-steadiness/steadiness.js [--launches 5] [--rounds 15] [--serializers a,b] [results.json…]`;

const { values, positionals } = studyArgs(
  USAGE,
  {
    launches: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '15' },
    serializers: { type: 'string', default: 'fast-json-stringify,typia,ajv-jtd' },
    workload: { type: 'string', default: 'weather-station/1/single' },
  },
  true,
);
const [workload, size, shapeText] = values.workload.split('/');
const shape = shapeText as Shape;
const ids = values.serializers.split(',');
const path = await payload(workload, Number(size));
const ratios = Object.fromEntries(ids.map((id) => [id, { wall: [] as number[], cpu: [] as number[] }]));
const loads: number[] = [];
const t0 = performance.now();
for (let l = 0; l < Number(values.launches); l++) {
  for (const id of ids) {
    loads.push(Number(load().split(' ')[0]));
    const o = runChild({
      kind: 'pair',
      workload,
      size: Number(size),
      shape,
      direction: 'serialize',
      caseClass: 'serialize',
      serializer: id,
      baseline: 'json',
      payloadPath: path,
      rounds: Number(values.rounds),
      sampleTargetMs: 10,
      samplesPerRound: 5,
      gcEach: 'side',
    });
    ratios[id].wall.push(median(roundRatios(o.rounds, 'wall')));
    ratios[id].cpu.push(median(roundRatios(o.rounds, 'cpu')));
  }
  process.stderr.write(`launch ${l + 1} done, load ${load()}\n`);
}
console.log(
  `${values.workload} serialize ÷ json, ${values.launches} launches each, ${((performance.now() - t0) / 1000).toFixed(0)} s, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
);
console.log('| serializer | wall-clock ratio (median) | CV | CPU-time ratio (median) | CV |');
console.log('|---|---|---|---|---|');
for (const id of ids)
  console.log(
    `| ${id} | ${median(ratios[id].wall).toFixed(3)} | ${pct(cv(ratios[id].wall))} | ${median(ratios[id].cpu).toFixed(3)} | ${pct(cv(ratios[id].cpu))} |`,
  );
if (positionals.length) {
  const runs = positionals.map(
    (p) =>
      JSON.parse(readFileSync(p, 'utf8')) as {
        cases: { id: string; instructions?: { perOp: number } }[];
        environment: { loadAverage: { start: number[] } };
      },
  );
  const byId = new Map<string, number[]>();
  for (const r of runs)
    for (const c of r.cases)
      if (c.instructions) {
        if (!byId.has(c.id)) byId.set(c.id, []);
        byId.get(c.id)?.push(c.instructions.perOp);
      }
  console.log(
    `\ninstructions/op over ${runs.length} runs (loads at start: ${runs.map((r) => r.environment.loadAverage.start[0].toFixed(1)).join(', ')})`,
  );
  console.log('| case | instructions/op (median) | CV | max − min |');
  console.log('|---|---|---|---|');
  for (const [id, xs] of byId)
    console.log(
      `| ${id} | ${Math.round(median(xs)).toLocaleString('en-US')} | ${pct(cv(xs), 4)} | ${pct((Math.max(...xs) - Math.min(...xs)) / median(xs), 4)} |`,
    );
}
