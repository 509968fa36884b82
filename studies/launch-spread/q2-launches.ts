// Q2: launch schemes simulated from a pool of launches of the same pair: 1 launch, 2 (mean),
// 3 (median), and 2 + a third only when the two disagree by more than a threshold (then the
// median of three). Reports the CV of the case ratio across simulated runs, how often the third
// launch is needed, and how far the third moves the result.
// node build/studies/launch-spread/q2-launches.js <jsonl>… [--rounds 12] [--config default]
import {
  studyArgs,
  readLaunches,
  type Clock,
  type LaunchRecord,
  median,
  mean,
  cv,
  pct,
  roundRatios,
  mad,
} from '../lib/lib.js';

const USAGE = `node build/studies/launch-spread/q2-launches.js <jsonl>… [--rounds 12] [--config default]`;
const { values, positionals } = studyArgs(
  USAGE,
  {
    rounds: { type: 'string', default: '12' },
    config: { type: 'string' },
    clock: { type: 'string', default: 'cpu' },
  },
  true,
);
const clock = values.clock as Clock;
const recs = readLaunches(positionals).filter((r) => !values.config || (r.config ?? 'default') === values.config);
const byPair = new Map<string, LaunchRecord[]>();
for (const r of recs) {
  const k = `${r.condition} ${r.pair}${r.config ? ' [' + r.config + ']' : ''}`;
  if (!byPair.has(k)) byPair.set(k, []);
  byPair.get(k)?.push(r);
}
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = (n: number, k: number): number[] => {
  const idx = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, k);
};
const n = Number(values.rounds);
console.log(
  `launch estimate = median of the first ${n} per-round ratios (${values.clock} clock); 4000 simulated runs per scheme`,
);
console.log(
  '| pair | launches in pool | 1 launch CV | 2 (mean) CV | 3 (median) CV | 2+1 @1% CV / third needed / |moved| | 2+1 @2% CV / third / moved | 2+1 @SE CV / third / moved |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const [k, ls] of byPair) {
  const est = ls.map((l) => median(roundRatios(l.rounds, clock).slice(0, n)));
  const se = ls.map((l) => {
    const r = roundRatios(l.rounds, clock).slice(0, n);
    return (1.4826 * mad(r) * 1.2533) / Math.sqrt(r.length) / median(r);
  });
  if (est.length < 4) continue;
  const sim = (scheme: number | 'se') => {
    const out: number[] = [];
    let thirds = 0;
    const moved: number[] = [];
    for (let s = 0; s < 4000; s++) {
      const [a, b, c] = pick(est.length, 3);
      if (scheme === 1) out.push(est[a]);
      else if (scheme === 2) out.push((est[a] + est[b]) / 2);
      else if (scheme === 3) out.push(median([est[a], est[b], est[c]]));
      else {
        const two = (est[a] + est[b]) / 2;
        const thr = scheme === 'se' ? 3 * Math.sqrt(se[a] ** 2 + se[b] ** 2) : scheme;
        if (Math.abs(est[a] - est[b]) / two > thr) {
          thirds++;
          const m = median([est[a], est[b], est[c]]);
          moved.push(Math.abs(m / two - 1));
          out.push(m);
        } else out.push(two);
      }
    }
    return { cv: cv(out), third: thirds / 4000, moved: moved.length ? median(moved) : 0 };
  };
  const f = (r: { cv: number; third: number; moved: number }) =>
    `${pct(r.cv)} / ${pct(r.third, 0)} / ${pct(r.moved, 1)}`;
  console.log(
    `| ${k} | ${est.length} | ${pct(sim(1).cv)} | ${pct(sim(2).cv)} | ${pct(sim(3).cv)} | ${f(sim(0.01))} | ${f(sim(0.02))} | ${f(sim('se'))} |`,
  );
}
