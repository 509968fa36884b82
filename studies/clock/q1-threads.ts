// Q1: what process CPU time (all threads) adds over the main thread's CPU time, per serializer,
// with V8's default helper threads and with --single-threaded-gc / --single-threaded.
// node build/studies/clock/q1-threads.js [--workload orders] [--size 1000] [--procs 2] [--busy 0]
import {
  studyArgs,
  type ChildOutput,
  type Clock,
  runChild,
  payload,
  roundRatios,
  median,
  pct,
  load,
  busyLoops,
} from '../lib/lib.js';

const USAGE = `node build/studies/clock/q1-threads.js [--workload orders] [--size 1000] [--procs 2] [--busy 0]`;
const { values } = studyArgs(USAGE, {
  workload: { type: 'string', default: 'orders' },
  size: { type: 'string', default: '1000' },
  procs: { type: 'string', default: '2' },
  busy: { type: 'string', default: '0' },
  serializers: { type: 'string', default: 'fast-json-stringify,superjson,class-transformer' },
  rounds: { type: 'string', default: '10' },
  flagsets: { type: 'string', default: ',--single-threaded-gc,--single-threaded' },
});
const path = await payload(values.workload, Number(values.size));
const stop = busyLoops(Number(values.busy));
type Figure = 'sWall' | 'sCpu' | 'sThr' | 'bWall' | 'bCpu' | 'bThr' | 'rWall' | 'rCpu' | 'rThr';
const rows: string[] = [];
try {
  for (const flags of values.flagsets.split(',')) {
    for (const ser of values.serializers.split(',')) {
      const acc: ({ l: string; o: ChildOutput } & Record<Figure, number>)[] = [];
      for (let p = 0; p < Number(values.procs); p++) {
        const l = load().split(' ')[0];
        const o = runChild(
          {
            kind: 'pair',
            workload: values.workload,
            size: Number(values.size),
            shape: 'list',
            direction: 'serialize',
            serializer: ser,
            baseline: 'json',
            payloadPath: path,
            rounds: Number(values.rounds),
            sampleTargetMs: 10,
            thread: true,
            warmupMinMs: 500,
          },
          ['--expose-gc', ...flags.split(' ').filter(Boolean)],
        );
        const side = (k: string, c: Clock) => median(o.rounds.flatMap((r) => r[k][c]));
        acc.push({
          l,
          o,
          sWall: side('s', 'wall'),
          sCpu: side('s', 'cpu'),
          sThr: side('s', 'thr'),
          bWall: side('b', 'wall'),
          bCpu: side('b', 'cpu'),
          bThr: side('b', 'thr'),
          rWall: median(roundRatios(o.rounds, 'wall')),
          rCpu: median(roundRatios(o.rounds, 'cpu')),
          rThr: median(roundRatios(o.rounds, 'thr')),
        });
      }
      const m = (k: Figure) => median(acc.map((a) => a[k]));
      const us = (x: number) => (x / 1e3).toFixed(1);
      const row = `| ${flags || '(default)'} | ${ser} | ${acc.map((a) => a.l).join(' ')} | ${us(m('sWall'))} / ${us(m('sCpu'))} / ${us(m('sThr'))} | +${pct(m('sCpu') / m('sThr') - 1, 1)} | json ${us(m('bWall'))} / ${us(m('bCpu'))} / ${us(m('bThr'))} | +${pct(m('bCpu') / m('bThr') - 1, 1)} | ${m('rWall').toFixed(3)} / ${m('rCpu').toFixed(3)} / ${m('rThr').toFixed(3)} |`;
      rows.push(row);
      console.log(row);
    }
  }
} finally {
  stop();
}
console.log(
  `\n${values.workload}/${values.size} list serialize; µs/op medians (wall / process CPU / main-thread CPU); helper threads = process CPU ÷ thread CPU − 1; ratio vs json by wall / process CPU / thread CPU`,
);
console.log(
  '| flags | serializer | load per proc | µs/op wall / proc / thread | helpers | baseline µs/op | helpers | ratio wall / proc / thread |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
