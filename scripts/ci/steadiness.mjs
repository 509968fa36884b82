// Which gate is steadier for CI (docs/ci.md): per-launch time ratios against JSON.stringify, by
// the wall clock and by the process CPU clock, measured in `launches` fresh processes each
// (benchmarks/engine/pair-child.mjs: alternating rounds, median of per-round ratios), against the
// instruction counts of earlier `jsonbench run --metric instructions` runs given as results files.
// Prints the CV across launches (ratios) and across runs (instructions/op), with the load average.
//
//   node scripts/ci/steadiness.mjs [--launches 5] [--rounds 15] [--serializers a,b] [results.json…]
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { runChild, payload, load, median, cv, pct, roundRatios } from '../../benchmarks/engine/lib.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    launches: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '15' },
    serializers: { type: 'string', default: 'fast-json-stringify,typia,ajv-jtd' },
    workload: { type: 'string', default: 'weather-station/1/single' },
  },
});
const [workload, size, shape] = values.workload.split('/');
const ids = values.serializers.split(',');
const path = await payload(workload, Number(size));
const ratios = Object.fromEntries(ids.map((id) => [id, { wall: [], cpu: [] }]));
const loads = [];
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
  const runs = positionals.map((p) => JSON.parse(readFileSync(p, 'utf8')));
  const byId = new Map();
  for (const r of runs)
    for (const c of r.cases)
      if (c.instructions) {
        if (!byId.has(c.id)) byId.set(c.id, []);
        byId.get(c.id).push(c.instructions.perOp);
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
