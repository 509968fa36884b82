// Why does the forced GC before each side change a ratio? One process, one serializer, blocks of
// 4 samples (2.5 ms CPU each) preceded by a full gc(), a minor gc({type:'minor'}) or nothing,
// interleaved; CPU ns/op per block type and per sample index.
// node --expose-gc build/studies/v8-flags-and-gc/gc-policy.js [serializer] [workload/size/shape]
import { readFileSync } from 'node:fs';
import * as v8 from 'node:v8';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { unitView, unitsOf } from '../../src/workloads/unit.js';
import type { Shape } from '../../src/case/coordinates.js';
import { helpRequested, payload, median } from '../lib/lib.js';

helpRequested(
  'node --expose-gc build/studies/v8-flags-and-gc/gc-policy.js [serializer] [workload/size/shape] (about 5 s)',
);
const gc = (globalThis as { gc?: (o?: { type: 'minor' }) => void }).gc;
if (!gc) throw new Error('gc-policy: run node with --expose-gc');
const [ser = 'fast-json-stringify', wl = 'weather-station/1/single'] = process.argv.slice(2);
const [workload, size, shapeText] = wl.split('/');
const shape = shapeText as Shape;
const text = readFileSync(await payload(workload, Number(size)), 'utf8');
const w = unitView(await workloads.load(workload), shape);
const p = await (await serializers.load(ser)).prepare(w, 'serialize');
const serialize = p.serialize;
if (!serialize) throw new Error(`${ser} does not serialize`);
const a = unitsOf(JSON.parse(text), shape)[0],
  b = unitsOf(JSON.parse(text), shape)[0];
let slot: unknown;
const op = (i: number): void => {
  slot = undefined;
  slot = serialize.call(p, (i & 1) === 0 ? a : b);
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};
const heapNew = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
// warmup 1 s CPU
let n = 0;
const t0 = cpu();
while (cpu() - t0 < 1e9) for (let k = 0; k < 100; k++) op(n++);
let ops = 1;
for (;;) {
  const c = cpu();
  for (let i = 0; i < ops; i++) op(i);
  if (cpu() - c > 2.5e6) break;
  ops *= 2;
}
type Kind = 'full' | 'minor' | 'none';
const res: Record<Kind, number[][]> = { full: [[], [], [], []], minor: [[], [], [], []], none: [[], [], [], []] };
const kinds: Kind[] = ['full', 'minor', 'none'];
for (let r = 0; r < 30; r++)
  for (const k of r % 2 ? [...kinds].reverse() : kinds) {
    if (k === 'full') gc();
    else if (k === 'minor') gc({ type: 'minor' });
    for (let s = 0; s < 4; s++) {
      const c = cpu();
      for (let i = 0; i < ops; i++) op(i);
      res[k][s].push((cpu() - c) / ops);
    }
  }
console.log(
  `${ser} ${wl}: ${ops} ops/sample; new space now ${((heapNew()?.space_size ?? NaN) / 1048576).toFixed(1)} MiB; CPU ns/op median by sample index after the GC (1st..4th):`,
);
for (const k of kinds) console.log(`  ${k.padEnd(5)} ${res[k].map((xs) => median(xs).toFixed(0)).join(' ')}`);
