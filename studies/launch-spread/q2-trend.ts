// Q2: per-launch trend of the per-round ratio (median of each block of 10 rounds), by clock.
// node build/studies/launch-spread/q2-trend.js <q2-collect.jsonl> [cpu|wall|thr]
import { readFileSync } from 'node:fs';
import { helpRequested, median, roundRatios, type Clock, type Round } from '../lib/lib.js';

helpRequested('node build/studies/launch-spread/q2-trend.js <q2-collect.jsonl> [cpu|wall|thr]');
const clock = (process.argv[3] ?? 'cpu') as Clock;
if (!process.argv[2]) throw new Error('q2-trend: give the JSON lines of q2-collect (--help)');
for (const l of readFileSync(process.argv[2], 'utf8')
  .trim()
  .split('\n')
  .map(
    (x) =>
      JSON.parse(x) as {
        pair: string;
        launch: number;
        loadBefore: string;
        ops: Record<string, number>;
        rounds: Round[];
      },
  )) {
  const r = roundRatios(l.rounds, clock);
  const blocks: string[] = [];
  for (let i = 0; i < r.length; i += 10) blocks.push(median(r.slice(i, i + 10)).toFixed(3));
  const sMed = median(l.rounds.flatMap((x) => x.s[clock])),
    bMed = median(l.rounds.flatMap((x) => x.b[clock]));
  console.log(
    `${l.pair.padEnd(45)} L${String(l.launch).padEnd(3)} load ${l.loadBefore.split(' ')[0]} ops ${l.ops.s}/${l.ops.b} ${blocks.join(' ')}  s ${sMed.toFixed(0)} b ${bMed.toFixed(0)} ns`,
  );
}
