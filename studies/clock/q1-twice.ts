// Q1: JSON.stringify twice ÷ once (ratio ≈ 2) in N processes; CV of per-process median ratio by
// wall clock, process CPU clock and thread CPU clock, for several sample lengths.
// node build/studies/clock/q1-twice.js [--procs 6] [--busy 2] [--sampleMs 10,1,0.3] [--rounds 20] [--flags "--single-threaded-gc"]
import { studyArgs, type Clock, runChild, payload, roundRatios, median, cv, pct, load, busyLoops } from '../lib/lib.js';

const USAGE = `node build/studies/clock/q1-twice.js [--procs 6] [--busy 2] [--sampleMs 10,1,0.3] [--rounds 20] [--flags "--single-threaded-gc"]`;
const { values } = studyArgs(USAGE, {
  procs: { type: 'string', default: '6' },
  busy: { type: 'string', default: '0' },
  sampleMs: { type: 'string', default: '10' },
  rounds: { type: 'string', default: '20' },
  flags: { type: 'string', default: '' },
  size: { type: 'string', default: '1000' },
  spr: { type: 'string', default: '5' },
  cpuBudget: { type: 'string', default: '0' },
});
const CLOCKS: Clock[] = ['wall', 'cpu', 'thr'];
const path = await payload('users', Number(values.size));
const stop = busyLoops(Number(values.busy));
try {
  await new Promise((r) => setTimeout(r, 2000));
  for (const ms of values.sampleMs.split(',').map(Number)) {
    const per: Record<Clock, number[]> = { wall: [], cpu: [], thr: [] };
    const loads = [];
    let spent = 0;
    const nr = [];
    for (let p = 0; p < Number(values.procs); p++) {
      loads.push(load().split(' ')[0]);
      const t = performance.now();
      const o = runChild(
        {
          kind: 'twice',
          payloadPath: path,
          rounds: Number(values.rounds),
          cpuBudgetMs: Number(values.cpuBudget) || undefined,
          samplesPerRound: Number(values.spr),
          sampleTargetMs: ms,
          thread: true,
          warmupMinMs: 300,
        },
        ['--expose-gc', ...values.flags.split(' ').filter(Boolean)],
      );
      spent += performance.now() - t;
      nr.push(o.rounds.length);
      for (const c of CLOCKS) per[c].push(median(roundRatios(o.rounds, c)));
    }
    console.log(
      `sample ${ms} ms × ${values.spr}/round × ${values.rounds} rounds, ${values.procs} procs, busy ${values.busy}, flags '${values.flags}', loads ${loads.join(' ')}, ${(spent / 1000 / Number(values.procs)).toFixed(1)} s/proc, rounds ${nr.join(' ')}`,
    );
    for (const c of CLOCKS)
      console.log(
        `  ${c.padEnd(5)} per-process median ratios ${per[c].map((x) => x.toFixed(3)).join(' ')}  CV ${pct(cv(per[c]))}`,
      );
  }
} finally {
  stop();
}
