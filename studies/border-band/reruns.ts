// How often do three reruns of one pair give the same recommendation, as a function of where the
// pair's true ratio lies against the decision line and of the border band (issue 22)? A pair of a
// challenger X and a baseline B whose true log-ratio lies m half-widths below 0 (ratio 1); each
// rerun reads a log-ratio drawn around it with SD s (in half-widths) and an interval of half-width
// h (optionally varying between reruns); each rerun's recommendation is the state
// results/decision.ts gives a two-serializer group (use X / borderline X / no clear winner / keep
// B / too uncertain). Monte Carlo with a seeded generator; the shipped rule is cross-checked
// against this model's copy on every draw of its band.
// node build/studies/border-band/reruns.js [--n 200000] [--s 0.40,0.304] [--h 0.06] [--hcv 0,0.25]
import { decisionBounds, groupCall, ratioCall } from '../../src/results/decision.js';
import { load, studyArgs } from '../lib/lib.js';

const USAGE = `node build/studies/border-band/reruns.js [--n 200000] [--s 0.40,0.304] [--h 0.06] [--hcv 0,0.25] [--seed 1]
  n      simulated triples of reruns per cell
  s      SD of a rerun's log-ratio, in half-widths (0.304 = 1/3.29, honest 99.9% intervals; 0.40 = the
         measured cross-run coverage of issue 23)
  h      the interval's half-width (log scale) of a rerun: 0.06 ~ the users · 100 · many typia pair
  hcv    SD of ln(half-width) between reruns (0: every rerun the same width; 0.25: as the typia pair's)`;

const args = studyArgs(USAGE, {
  n: { type: 'string', default: '200000' },
  s: { type: 'string', default: '0.40,0.304' },
  h: { type: 'string', default: '0.06' },
  hcv: { type: 'string', default: '0,0.25' },
  seed: { type: 'string', default: '1' },
});
const n = Number(args.values.n);
const ss = args.values.s.split(',').map(Number);
const h0 = Number(args.values.h);
const hcvs = args.values.hcv.split(',').map(Number);

// mulberry32 + Box–Muller: reproducible draws
let state = Number(args.values.seed) >>> 0;
function uniform(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function normal(): number {
  const u = uniform() || 1e-12;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
}

/**
 * A rule: the recommendation of a two-serializer group from one rerun's ratio r and interval,
 * as a label that names the serializer and the state.
 */
type Rule = { name: string; state: (r: number, lo: number, hi: number) => string };

/** The shipped shape with border band b: borderline when 1 lies within b half-widths (facing side) of the interval's end, and within the shipped cap (decisionBounds().borderCap). */
function bandRule(b: number, signless = false): Rule {
  const { borderCap, sameWithin, unresolvedFactor } = decisionBounds();
  return {
    name: `band ${b}${signless ? ', signless' : ''}`,
    state(r, lo, hi) {
      if (lo >= 1 / sameWithin && hi <= sameWithin) return 'no clear winner';
      const holds0 = lo <= 1 && hi >= 1;
      const tie = holds0 && r >= 1 / sameWithin && r <= sameWithin;
      const below = r < 1;
      const half = Math.abs(Math.log(below ? hi / r : r / lo));
      const d = Math.log(below ? hi : lo);
      const holds = lo <= 1 && hi >= 1;
      const wide = holds && (lo < 1 / unresolvedFactor || hi > unresolvedFactor);
      let v: string;
      if (tie) v = 'same';
      else if (Math.abs(d) <= Math.min(b * half, Math.log(borderCap))) v = 'borderline';
      else if (below) v = d < 0 ? 'faster' : 'same';
      else v = d > 0 ? 'slower' : 'same';
      if (wide && !(v === 'borderline' && hi / lo <= unresolvedFactor ** 2)) return 'too uncertain';
      if (v === 'faster') return 'use X';
      if (v === 'borderline') return below || signless ? 'borderline X' : 'keep B';
      if (v === 'slower') return 'keep B';
      return 'no clear winner';
    },
  };
}

/** The shipped rule (results/decision.ts as built): ratioCall + groupCall on the one challenger row. */
const shipped: Rule = {
  name: `shipped (band ${decisionBounds().borderBand})`,
  state(r, lo, hi) {
    const call = ratioCall(r, [lo, hi]);
    const g = groupCall([{ ratio: r, call }]);
    return {
      use: 'use X',
      borderline: 'borderline X',
      baseline: 'keep B',
      'no-clear-winner': 'no clear winner',
      uncertain: 'too uncertain',
      none: 'none',
    }[g];
  },
};

const rules = [bandRule(0.5), bandRule(0.75), bandRule(1.0), bandRule(1.0, true)];
const ms = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3];

// cross-check: the model's copy of the shipped band against the shipped functions
const copy = bandRule(decisionBounds().borderBand);
let checked = 0;
for (let i = 0; i < 100000; i++) {
  const x = (uniform() - 0.5) * 0.4;
  const h = 0.005 + uniform() * 0.3;
  const r = Math.exp(x);
  const lo = Math.exp(x - h);
  const hi = Math.exp(x + h);
  const a = copy.state(r, lo, hi);
  const b = shipped.state(r, lo, hi);
  if (a !== b) throw new Error(`model and shipped rule differ at r ${r} [${lo}, ${hi}]: ${a} vs ${b}`);
  checked++;
}

console.log(`# three reruns of one pair: P(same recommendation) by the true ratio's distance m (half-widths) of 1`);
console.log(`# m = 1: the true interval's end touches 1; m < 1: it holds 1; m = 0: the true ratio is 1`);
console.log(
  `# n ${n} triples per cell, h ${h0}; model cross-checked with the shipped rule on ${checked} draws; load ${load()}`,
);
for (const hcv of hcvs)
  for (const s of ss) {
    console.log(`\n## s = ${s} h, half-width varies by ${hcv} (SD of its log) between reruns`);
    console.log(`| m | ${rules.map((r) => r.name).join(' | ')} | same serializer named, band 0.5 | band 1.0 |`);
    console.log(`|---|${rules.map(() => '---|').join('')}---|---|`);
    for (const m of ms) {
      const agree = rules.map(() => 0);
      const named = [0, 0];
      for (let i = 0; i < n; i++) {
        const runs: [number, number, number][] = [];
        for (let k = 0; k < 3; k++) {
          const h = h0 * Math.exp(hcv * normal());
          const x = -m * h0 + s * h0 * normal();
          runs.push([Math.exp(x), Math.exp(x - h), Math.exp(x + h)]);
        }
        rules.forEach((rule, j) => {
          const st = runs.map(([r, lo, hi]) => rule.state(r, lo, hi));
          if (st[0] === st[1] && st[1] === st[2]) agree[j]++;
        });
        // the serializer each rerun tells the reader to look at: X (use or borderline), B (keep), none (tie)
        [rules[0], rules[2]].forEach((rule, j) => {
          const who = runs.map(([r, lo, hi]) =>
            rule
              .state(r, lo, hi)
              .replace(/^(use|borderline) /, '')
              .replace(/^keep /, ''),
          );
          if (who[0] === who[1] && who[1] === who[2]) named[j]++;
        });
      }
      console.log(
        `| ${m} | ${agree.map((a) => (a / n).toFixed(3)).join(' | ')} | ${named.map((a) => (a / n).toFixed(3)).join(' | ')} |`,
      );
    }
  }

// the three measured default runs of users · 100 · many serialize, typia ÷ JSON.stringify (load 2.7)
const measured: [number, number, number][] = [
  [0.96, 0.88, 1.05],
  [0.92, 0.87, 0.97],
  [0.92, 0.87, 0.97],
];
console.log(`\n## the measured typia ÷ JSON.stringify reruns (0.96 [0.88–1.05], 0.92 [0.87–0.97] twice)`);
for (const rule of [...rules, shipped])
  console.log(`- ${rule.name}: ${measured.map(([r, lo, hi]) => rule.state(r, lo, hi)).join(' / ')}`);
