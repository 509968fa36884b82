// Q2 offline analysis: which within-launch statistic predicts launch-to-launch agreement of the
// ratio, and which stop rule reaches a ratio CV target in the least time.
// node build/studies/launch-spread/q2-analyze.js /tmp/q2-*.jsonl [--clock cpu] [--target 0.01]
import {
  studyArgs,
  median,
  mean,
  sd,
  cv,
  mad,
  pct,
  readLaunches,
  type Clock,
  type LaunchRecord,
  type Round,
} from '../lib/lib.js';

const USAGE = `node build/studies/launch-spread/q2-analyze.js /tmp/q2-*.jsonl [--clock cpu] [--target 0.01]`;
const { values, positionals } = studyArgs(
  USAGE,
  {
    clock: { type: 'string', default: 'cpu' },
    target: { type: 'string', default: '0.01' },
    ratio: { type: 'string', default: 'medmed' },
    detail: { type: 'boolean', default: false },
  },
  true,
);
const clock = values.clock as Clock;
const target = Number(values.target);
const launches = readLaunches(positionals);
const byPair = new Map<string, LaunchRecord[]>();
for (const l of launches) {
  const k = `${l.condition} ${l.pair}`;
  if (!byPair.has(k)) byPair.set(k, []);
  byPair.get(k)?.push(l);
}

// per-round ratio variants
const rr: Record<string, (r: Round) => number> = {
  medmed: (r) => median(r.s[clock]) / median(r.b[clock]),
  sumsum: (r) => mean(r.s[clock]) / mean(r.b[clock]),
  first: (r) => r.s[clock][0] / r.b[clock][0],
};
const roundRatio = rr[values.ratio as string];
if (!roundRatio) throw new Error(`--ratio ${values.ratio}: one of ${Object.keys(rr).join(', ')}`);
// within-launch statistics of the launch estimate (median of per-round ratios), relative to it
const stats: Record<string, (xs: number[]) => number> = {
  t: (xs) => sd(xs) / Math.sqrt(xs.length) / median(xs),
  mad: (xs) => (1.4826 * mad(xs) * 1.2533) / Math.sqrt(xs.length) / median(xs),
  boot: (xs, B = 200) => {
    const n = xs.length;
    const ms = [];
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let b = 0; b < B; b++) {
      const y = [];
      for (let i = 0; i < n; i++) y.push(xs[Math.floor(rnd() * n)]);
      ms.push(median(y));
    }
    return sd(ms) / median(xs);
  },
  // half the relative spread of the middle half of rounds / sqrt(n): a cheap robust SE
  iqr: (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))];
    return (((q(0.75) - q(0.25)) / 1.349) * 1.2533) / Math.sqrt(xs.length) / median(xs);
  },
};
// CPU ms spent in rounds up to n (both sides' samples; gc share added pro rata)
const costMs = (l: LaunchRecord, n: number): number => {
  const per = l.rounds.map(
    (r) => (r.s.cpu.reduce((a, b) => a + b, 0) * l.ops.s + r.b.cpu.reduce((a, b) => a + b, 0) * l.ops.b) / 1e6,
  );
  const tot = per.reduce((a, b) => a + b, 0);
  const part = per.slice(0, n).reduce((a, b) => a + b, 0);
  return part * (1 + l.gcCpuMs / tot);
};

const NS = [4, 6, 8, 10, 12, 16, 20, 30, 40, 60];
for (const [key, ls] of byPair) {
  const ratios = ls.map((l) => l.rounds.map(roundRatio));
  const nmax = Math.min(...ratios.map((r) => r.length));
  const truth = median(ratios.map((r) => median(r)));
  const loads = ls.map((l) => Number(l.loadBefore.split(' ')[0]));
  console.log(
    `\n## ${key}: ${ls.length} launches, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}, clock ${clock}, round ratio ${values.ratio}, pooled ratio ${truth.toFixed(4)}; launch overhead (start→rounds) median ${(median(ls.map((l) => l.t.sinceProcessStartMs - l.roundsMs)) / 1000).toFixed(2)} s wall; rounds CPU ${median(ls.map((l) => costMs(l, l.rounds.length) / l.rounds.length)).toFixed(1)} ms/round, gc ${pct(median(ls.map((l) => l.gcCpuMs / costMs(l, l.rounds.length))), 0)} of it`,
  );
  console.log(
    '| rounds n | CPU ms | launch-to-launch CV of est_n | mean SE t | mean SE mad | mean SE boot | mean SE iqr | obs/pred (boot) | corr(|dev|, SE boot) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const n of NS.filter((n) => n <= nmax)) {
    const est = ratios.map((r) => median(r.slice(0, n)));
    const se = Object.fromEntries(Object.entries(stats).map(([k, f]) => [k, ratios.map((r) => f(r.slice(0, n)))]));
    const dev = est.map((e) => Math.abs(e / truth - 1));
    // Spearman-free: Pearson on ranks
    const rank = (xs: number[]): number[] => {
      const idx = xs.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
      const r: number[] = [];
      idx.forEach(([, i], k) => {
        r[i] = k;
      });
      return r;
    };
    const corr = (a: number[], b: number[]): number => {
      const ma = mean(a),
        mb = mean(b);
      let s = 0,
        sa = 0,
        sb = 0;
      for (let i = 0; i < a.length; i++) {
        s += (a[i] - ma) * (b[i] - mb);
        sa += (a[i] - ma) ** 2;
        sb += (b[i] - mb) ** 2;
      }
      return s / Math.sqrt(sa * sb);
    };
    console.log(
      `| ${n} | ${median(ls.map((l) => costMs(l, n))).toFixed(0)} | ${pct(cv(est))} | ${pct(mean(se.t))} | ${pct(mean(se.mad))} | ${pct(mean(se.boot))} | ${pct(mean(se.iqr))} | ${(cv(est) / mean(se.boot)).toFixed(2)} | ${corr(rank(dev), rank(se.boot)).toFixed(2)} |`,
    );
  }
}
