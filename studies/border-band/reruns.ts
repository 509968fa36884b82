// How often do three reruns of one pair give the same recommendation, as a function of where the
// pair's true ratio lies against the decision line and of the border band (issue 22)? A pair of a
// challenger X and a baseline B whose true log-ratio lies m half-widths below 0 (ratio 1); each
// rerun reads a log-ratio drawn around it with SD s (in half-widths) and an interval of half-width
// h (optionally varying between reruns); each rerun's recommendation is the state
// results/decision.ts gives a two-serializer group (use X / borderline X / no clear winner / keep
// B / too uncertain), and the action it tells the reader to take (switch to X, or keep B). Variants
// of the tie clause (none; a ratio within 2%, 1% or 0.5% of 1 whose interval holds 1; the 2% one
// only for an interval within 4% or 5% of 1) at the shipped band. Monte Carlo with a seeded
// generator; the shipped rule is cross-checked against this model's copy on 100,000 random intervals.
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

/**
 * The tie clause of a variant: a ratio within `point` of 1 (0.98–1.02 for 1.02) whose interval
 * holds 1 is "no clear winner" — and, with `ends`, only when the interval also lies within `ends`
 * of 1 (a resolved tie: the run rules out a difference larger than that). Null: no tie clause.
 */
type Tie = { point: number; ends?: number } | null;

/**
 * The shipped shape with border band b (capped at decisionBounds().borderCap) and a tie clause:
 * borderline when 1 lies within b half-widths (facing side) of the interval's end.
 */
function bandRule(b: number, tie: Tie, name: string): Rule {
  const { borderCap, sameWithin, unresolvedFactor } = decisionBounds();
  return {
    name,
    state(r, lo, hi) {
      if (lo >= 1 / sameWithin && hi <= sameWithin) return 'no clear winner';
      const holds = lo <= 1 && hi >= 1;
      const tied =
        tie !== null &&
        holds &&
        r >= 1 / tie.point &&
        r <= tie.point &&
        (tie.ends === undefined || (lo >= 1 / tie.ends && hi <= tie.ends));
      const below = r < 1;
      const half = Math.abs(Math.log(below ? hi / r : r / lo));
      const d = Math.log(below ? hi : lo);
      const wide = holds && (lo < 1 / unresolvedFactor || hi > unresolvedFactor);
      let v: string;
      if (tied) v = 'same';
      else if (Math.abs(d) <= Math.min(b * half, Math.log(borderCap))) v = 'borderline';
      else if (below) v = d < 0 ? 'faster' : 'same';
      else v = d > 0 ? 'slower' : 'same';
      if (wide && !(v === 'borderline' && hi / lo <= unresolvedFactor ** 2)) return 'too uncertain';
      if (v === 'faster') return 'use X';
      if (v === 'borderline') return below ? 'borderline X' : 'keep B';
      if (v === 'slower') return 'keep B';
      return 'no clear winner';
    },
  };
}

/**
 * The action a state tells the reader to take: switch to X (`use X`) or keep the baseline (every
 * other state: borderline X and too uncertain say "rerun before switching", no clear winner and
 * keep B say to keep it).
 */
const actionOf = (state: string): string => (state === 'use X' ? 'switch' : 'keep');

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

const { borderBand, sameWithin, tieWithin } = decisionBounds();
// the variants (issue 22, after out24's tie rule): no tie clause (out23), the 2% tie (out24), narrower tie zones
// on the point (1%, 0.5%), and the 2% tie only for an interval within 4% or 5% of 1 (a resolved tie)
const rules: Rule[] = [
  bandRule(borderBand, null, 'no tie'),
  bandRule(borderBand, { point: sameWithin }, 'tie 2%'),
  bandRule(borderBand, { point: 1.01 }, 'tie 1%'),
  bandRule(borderBand, { point: 1.005 }, 'tie 0.5%'),
  bandRule(borderBand, { point: sameWithin, ends: 1.04 }, 'tie 2%, ends 4%'),
  bandRule(borderBand, { point: sameWithin, ends: 1.05 }, 'tie 2%, ends 5%'),
];
const ms = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3];

// cross-check: the model's copy of the shipped rule (band, cap, tie clause with its ends) against the shipped functions
const copy = bandRule(borderBand, { point: sameWithin, ends: tieWithin }, 'copy');
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
  `# state: the three reruns give the same state (use X / borderline X / no clear winner / keep B / too uncertain);`,
);
console.log(`# action: the same action (switch to X for "use X", keep B for every other state)`);
console.log(
  `# band ${borderBand} half-width, capped at ${decisionBounds().borderCap}; n ${n} triples per cell, h ${h0}; shipped rule (tie ${sameWithin}, ends ${tieWithin}) cross-checked with the model on ${checked} draws; load ${load()}`,
);
for (const hcv of hcvs)
  for (const s of ss) {
    console.log(`\n## s = ${s} h, half-width varies by ${hcv} (SD of its log) between reruns`);
    console.log(`| m | ${rules.map((r) => `${r.name}: state | action`).join(' | ')} |`);
    console.log(`|---|${rules.map(() => '---|---|').join('')}`);
    for (const m of ms) {
      const agree = rules.map(() => 0);
      const act = rules.map(() => 0);
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
          const ac = st.map(actionOf);
          if (ac[0] === ac[1] && ac[1] === ac[2]) act[j]++;
        });
      }
      console.log(
        `| ${m} | ${rules.map((_, j) => `${(agree[j] / n).toFixed(3)} | ${(act[j] / n).toFixed(3)}`).join(' | ')} |`,
      );
    }
  }

// measured pairs: typia ÷ JSON.stringify on users · 100 · many serialize, three default runs at load 2.7 and three
// at load 9.5–11.1 (NOTE.md); nu6's ajv-jtd ÷ JSON.stringify on orders-log (quick, load 4.7–7.7)
const measured: { what: string; runs: [number, number, number][] }[] = [
  {
    what: 'typia, load 2.7: 0.96 [0.88–1.05], 0.92 [0.87–0.97] twice',
    runs: [
      [0.96, 0.88, 1.05],
      [0.92, 0.87, 0.97],
      [0.92, 0.87, 0.97],
    ],
  },
  {
    what: 'typia, load 9.5–11.1: 0.934 [0.893–0.975], 0.912 [0.863–0.964], 0.962 [0.926–0.999]',
    runs: [
      [0.934, 0.893, 0.975],
      [0.912, 0.863, 0.964],
      [0.962, 0.926, 0.999],
    ],
  },
  { what: "nu6's ajv-jtd: 0.99 [0.97–1.01]", runs: [[0.99, 0.97, 1.01]] },
];
for (const { what, runs } of measured) {
  console.log(`\n## measured: ${what}`);
  for (const rule of [...rules, shipped])
    console.log(`- ${rule.name}: ${runs.map(([r, lo, hi]) => rule.state(r, lo, hi)).join(' / ')}`);
}
