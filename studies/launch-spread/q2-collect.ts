// Q2 data: many long launches of the precision pairs, every sample kept (wall and process CPU),
// for offline simulation of stop rules. Appends one JSON line per launch to --out.
// node build/studies/launch-spread/q2-collect.js --out /tmp/q2-quiet.jsonl [--launches 16] [--busy 0] [--rounds 60]
import { appendFileSync } from 'node:fs';
import {
  studyArgs,
  required,
  type PairCase,
  type ChildSpec,
  runChild,
  payload,
  load,
  busyLoops,
  roundRatios,
  median,
} from '../lib/lib.js';

const USAGE = `node build/studies/launch-spread/q2-collect.js --out /tmp/q2-quiet.jsonl [--launches 16] [--busy 0] [--rounds 60]`;
const { values } = studyArgs(USAGE, {
  out: { type: 'string' },
  launches: { type: 'string', default: '16' },
  busy: { type: 'string', default: '0' },
  rounds: { type: 'string', default: '60' },
  sampleMs: { type: 'string', default: '2.5' },
  spr: { type: 'string', default: '4' },
  pairs: { type: 'string', default: '0,1,2' },
  condition: { type: 'string', default: 'quiet' },
  gcEach: { type: 'string', default: 'side' },
});
const PAIRS: PairCase[] = [
  {
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
    caseClass: 'serialize',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
    caseClass: 'serialize',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'deserialize',
    serializer: 'typia',
    baseline: 'typebox',
    caseClass: 'validate',
  },
];
const out = required(values.out, '--out');
const chosen = values.pairs
  .split(',')
  .map(Number)
  .map((i) => PAIRS[i]);
for (const p of chosen) p.payloadPath = await payload(p.workload, p.size);
const stop = busyLoops(Number(values.busy));
try {
  await new Promise((r) => setTimeout(r, 1500));
  for (let l = 0; l < Number(values.launches); l++) {
    for (const p of chosen) {
      // interleaved: launch l of every pair, then l+1
      const l0 = load();
      const t = performance.now();
      const o = runChild({
        kind: 'pair',
        ...p,
        payloadPath: p.payloadPath ?? '',
        rounds: Number(values.rounds),
        sampleTargetMs: Number(values.sampleMs),
        samplesPerRound: Number(values.spr),
        gcEach: values.gcEach as ChildSpec['gcEach'],
      });
      const rec = {
        condition: values.condition,
        pair: `${p.workload}/${p.direction}/${p.serializer}~${p.baseline}`,
        launch: l,
        loadBefore: l0,
        loadAfter: load(),
        launchMs: performance.now() - t,
        ...o,
      };
      appendFileSync(out, JSON.stringify(rec) + '\n');
      console.log(
        `${rec.pair} launch ${l} load ${l0} ${(rec.launchMs / 1000).toFixed(1)} s ops ${o.ops.s}/${o.ops.b} cpu ratio ${median(roundRatios(o.rounds, 'cpu')).toFixed(4)} wall ${median(roundRatios(o.rounds, 'wall')).toFixed(4)} gc ${o.gcCpuMs.toFixed(0)} ms rounds ${o.roundsMs.toFixed(0)} ms`,
      );
    }
  }
} finally {
  stop();
}
