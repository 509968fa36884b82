// Do the reported 99.9% intervals cover? Simulated groups of cases (a baseline and paired
// serializers) measured in launches that share each launch's effect (a group launch) or run in
// processes of their own (--separate), assembled by this build's run/assemble.ts exactly as a run
// assembles them. A TypeScript port of the statistical review's scripts (coverage.mjs, cov2.mjs,
// shared.mjs, adaptive.mjs; same generator, seeds and scenarios), so their figures can be rerun.
// node build/studies/interval-coverage/coverage.js <fixed|shared|pure|adaptive> [options]
import type { LaunchRecord } from '../../src/results/types.js';
import type { PlannedCase } from '../../src/plan/plan.js';
import type { MeasurePolicy } from '../../src/case/policy.js';
import type { RunPolicy } from '../../src/config/policies.js';
import {
  assembleCase,
  groupLaunchSpread,
  groupRatios,
  groupSpreads,
  groupYardsticks,
  launchRatiosOf,
  runPriorsInOrder,
  type CaseRecord,
  type RunPriors,
} from '../../src/run/assemble.js';
import { wantsAnotherLaunch } from '../../src/run/stop-rule.js';
import { medianRelativeError } from '../../src/stats/median.js';
import {
  launchPrior,
  launchStates,
  ratioInterval,
  resolution,
  sharedLaunchVariance,
  withinVariance,
} from '../../src/stats/intervals.js';
import { load, mulberry32, studyArgs } from '../lib/lib.js';
import { timeIntervalOf } from '../../src/results/ratio.js';
import jstatModule from 'jstat';

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

const USAGE = `node build/studies/interval-coverage/coverage.js <fixed|shared|pure|adaptive> [--n N] [--ks 2,3,5,10] [--scenario NAME] [--separate]
  fixed     coverage of the ratio and time intervals at fixed launch counts (scenarios: homog, nolaunch, hetero3, hetero0, bimodal, G2, adaptR, or all)
  shared    a launch effect shared by the group's cases (timeshared: on time; ratioshared: the baseline's alone, on every ratio)
  pure      launch values with a shared launch effect: the one-way prior (as if independent) against the two-way estimate
  adaptive  the adaptive launcher without budgets (--sa 0.025 --resolve 0.02 --launches 2 --cap 10 --rhos 0.97,1.0,1.01,1.02,1.03,1.06)
  --separate  every launch a process of its own (the .NET worker): the one-way prior path
  --groups G  the focal group runs beside G − 1 other groups of the same cases (launches of their own), and borrows their
              run prior (run/assemble.ts runPriorsInOrder, leave-the-group-out); default 1: no run prior
  --tau T     each other group's launch SDs scaled by exp(T·z), z standard normal (groups that do not share one variance)
  --focal F   the focal group's launch SDs scaled by F × e^(T·z) (drawn like the others, not at their median; a group
              noisier than the run: the reduced prior weight's case), placed at a random place in the plan
  --rounds R  rounds per launch (default 12; fewer keep the ≥ 20,000 runs a row needed to tell 99.9% from 99.7% to minutes)
  --smyth D   draw each group's launch variance scale from Smyth's model, D/χ²(D) (in place of e^(2·tau·z)):
              groups whose variances spread as the prior's d₀ = D assumes (the recorded runs: time ≈ 2.7)
  --others homogeneous
              fixed/shared: the run's other groups are homogeneous (every case sa 2.5%) instead of copies of the
              scenario's group (the default, \`scenario\`): with the default every group of a hetero3 or bimodal run
              has a noisy or bimodal case, which inflates the run prior the focal case borrows (third review)
  --explain   fixed: the focal case's ratio coverage by how its variance was chosen (stats/intervals.ts ratioInterval's
              \`own\`: heterogeneous = the guard kept its own, above the run = the run prior's weight reduced, group = the group's)
  --classes C the run's groups fall in C classes (group g in class g mod C, the focal group in class 0); with
              --class-scale S the other classes' launch SDs are scaled by S (the default suite: 3 groups a class,
              so a prior pooled across classes; S 0.5: the focal class twice as noisy as the rest, S 2: half)
About 20 s per scenario and launch count at N=2000 on a quiet core.`;

const { values: opt, positionals } = studyArgs(
  USAGE,
  {
    n: { type: 'string' },
    ks: { type: 'string', default: '2,3,5,10' },
    scenario: { type: 'string', default: 'all' },
    separate: { type: 'boolean', default: false },
    sa: { type: 'string', default: '0.025' },
    resolve: { type: 'string', default: '0.02' },
    launches: { type: 'string', default: '2' },
    cap: { type: 'string', default: '10' },
    rhos: { type: 'string', default: '0.97,1.0,1.01,1.02,1.03,1.06' },
    groups: { type: 'string', default: '1' },
    tau: { type: 'string', default: '0' },
    focal: { type: 'string', default: '1' },
    classes: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '12' },
    'class-scale': { type: 'string', default: '1' },
    smyth: { type: 'string', default: '0' },
    explain: { type: 'boolean', default: false },
    others: { type: 'string', default: 'scenario' },
  },
  true,
);

/** mulberry32 (../lib/lib.ts) with a Marsaglia polar normal, as the review's scripts. */
function rng(seed: number) {
  const u = mulberry32(seed);
  let spare: number | null = null;
  const n = () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    let x: number, y: number, r: number;
    do {
      x = 2 * u() - 1;
      y = 2 * u() - 1;
      r = x * x + y * y;
    } while (!r || r >= 1);
    const f = Math.sqrt((-2 * Math.log(r)) / r);
    spare = y * f;
    return x * f;
  };
  return { u, n };
}
type Rng = ReturnType<typeof rng>;

/** A χ²(d) draw from `r` (Marsaglia & Tsang's gamma method, shape d/2, scale 2; for shapes < 1 boosted by u^(1/shape)). */
function chiSquare(r: Rng, d: number): number {
  const gamma = (a: number): number => {
    if (a < 1) return gamma(a + 1) * Math.pow(r.u(), 1 / a);
    const dd = a - 1 / 3;
    const c = 1 / Math.sqrt(9 * dd);
    for (;;) {
      let x: number, v: number;
      do {
        x = r.n();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = r.u();
      if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + dd * (1 - v + Math.log(v))) return dd * v;
    }
  };
  return 2 * gamma(d / 2);
}

const measure: MeasurePolicy = {
  confidence: 0.999,
  targetRelativeError: 0.01,
  minRounds: 6,
  maxRounds: 200,
} as MeasurePolicy;

/** A simulated case: true ratio `rho`, its own launch effect's log-SD `sa`, maybe a second state. */
interface SimCase {
  rho: number;
  sa: number;
  bimodal?: { p: number; jump: number };
}
/** B ns the baseline; sBl a launch effect shared by both sides of every case; sBase the baseline's alone; sS per sample; spr samples per side and round; R rounds (absent: the worker's stop rule). */
interface SimOpts {
  B: number;
  sBl: number;
  sBase?: number;
  sS: number;
  spr: number;
  R?: number;
}

const med = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n & 1 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** The bimodal cases whose launch fell into the second state since the set was last cleared (the fixed scenario's tally). */
const jumped = new Set<SimCase>();
/** How many of the focal case's launches fell into the second state, per simulated run (cleared by {@link fixed}). */
let focalJumps = 0;

/** One launch of every case of a group (index 0 the baseline). */
function launchGroup(r: Rng, cases: readonly SimCase[], o: SimOpts, launch: number): LaunchRecord[] {
  // a group launch: one process, one launch effect for every case; separate processes (--separate,
  // the .NET worker's pair per process): each case's pair draws its own
  const shared = { bl: o.sBl * r.n(), bOnly: (o.sBase ?? 0) * r.n() };
  const perCase = cases.map(() => (opt.separate ? { bl: o.sBl * r.n(), bOnly: (o.sBase ?? 0) * r.n() } : shared));
  const effects = cases.map((c) => {
    let a = c.sa * r.n();
    if (c.bimodal && r.u() < c.bimodal.p) {
      a += Math.log(c.bimodal.jump);
      jumped.add(c);
    }
    return a;
  });
  const out = cases.map((c, ci): LaunchRecord => {
    const rounds: LaunchRecord['rounds'] = [];
    const ratios: number[] = [];
    for (let j = 0; j < (o.R ?? 40); j++) {
      const base: number[] = [];
      const ser: number[] = [];
      for (let s = 0; s < o.spr; s++) {
        const { bl, bOnly } = perCase[ci];
        base.push(o.B * Math.exp(bl + bOnly + o.sS * r.n()));
        ser.push(o.B * c.rho * Math.exp(bl + effects[ci] + o.sS * r.n()));
      }
      rounds.push({ serializerNs: ser, baselineNs: base });
      ratios.push(med(ser) / med(base));
      if (!o.R && j + 1 >= 6 && medianRelativeError(ratios) < 0.01) break;
    }
    return {
      launch,
      opsPerSample: { serializer: 1, baseline: 1 },
      warmup: { serializerOps: 0, serializerMs: 0, baselineOps: 0, baselineMs: 0 },
      emptyNsPerOp: 0,
      rounds,
      noisy: false,
      elapsedMs: 1,
      clock: 'cpu',
      grouped: !opt.separate,
    };
  });
  // a group launch: the paired cases read the same baseline samples, as the JavaScript worker's group launch does
  if (!opt.separate)
    for (const l of out.slice(2))
      l.rounds.forEach((rd, j) => {
        const b = out[1].rounds[j]?.baselineNs;
        if (b) rd.baselineNs = b;
      });
  return out;
}

function makeRecs(n: number, caseClass = 'serialize'): CaseRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    planned: {
      id: `c${i}`,
      workload: 'w',
      size: 1,
      shape: 'list',
      direction: 'serialize',
      caseClass,
      serializer: i === 0 ? 'base' : `s${i}`,
      baseline: 'base',
      payloadKey: 'p',
      target: { id: 'node', runtime: 'node', version: '20' },
      status: 'planned',
      family: 'builtin',
    } as PlannedCase,
    payload: { key: 'p', path: '', bytes: 1, sha256: 'x' },
    launches: [],
    relaunches: 0,
    end: { status: 'measured' },
    paired: i !== 0,
  }));
}

const G = Number(opt.groups);
const tau = Number(opt.tau);
const focalScale = Number(opt.focal);
const classes = Number(opt.classes);
const classScale = Number(opt['class-scale']);
const smythD0 = Number(opt.smyth);
/** A group's launch-SD scale: e^(tau·z), or with --smyth D, √(D/χ²(D)) (Smyth's model for its variance). */
const groupScale = (r: Rng) => (smythD0 > 0 ? Math.sqrt(smythD0 / chiSquare(r, smythD0)) : Math.exp(tau * r.n()));

/** The simulation's cases and options with every launch SD scaled by `f`. */
function scaled(cases: readonly SimCase[], o: SimOpts, f: number): [SimCase[], SimOpts] {
  return [
    cases.map((c) => ({ ...c, sa: c.sa * f })),
    { ...o, sBl: o.sBl * f, ...(o.sBase !== undefined ? { sBase: o.sBase * f } : {}) },
  ];
}

/**
 * What the focal group (its records `recs`) borrows from G − 1 other groups of the run, each its
 * own launches of the same cases with every launch SD scaled by exp(tau·z): run/assemble.ts
 * runPriorsInOrder as a run lends it (the focal group first in the plan). Empty with G = 1.
 */
function runPrior(
  r: Rng,
  recs: CaseRecord[],
  cases: readonly SimCase[],
  o: SimOpts,
  k: number,
  sharedBase: boolean,
): RunPriors {
  if (G <= 1) return {};
  const spreads = [];
  for (let g = 1; g < G; g++) {
    const cls = g % classes;
    const [cs, os] = scaled(cases, o, groupScale(r) * (cls ? classScale : 1));
    const other = makeRecs(cs.length, cls ? `class ${cls}` : 'serialize');
    for (let l = 1; l <= k; l++) {
      const ls = launchGroup(r, cs, os, l);
      if (sharedBase)
        for (let i = 2; i < ls.length; i++)
          ls[i].rounds.forEach((rd, j) => (rd.baselineNs = ls[1].rounds[j].baselineNs));
      other.forEach((rc, i) => rc.launches.push(ls[i]));
    }
    spreads.push(groupLaunchSpread(other));
  }
  // the focal group at a random place in the plan (an early group borrows from fewer groups done)
  const at = Math.floor(r.u() * G);
  spreads.splice(at, 0, groupLaunchSpread(recs));
  return runPriorsInOrder(spreads)[at];
}

/** The focal group's launch SD scale for one simulated run: --focal × e^(tau·z), a group drawn like the run's others (not fixed at their median). */
const focalDraw = (r: Rng) => focalScale * (G > 1 ? groupScale(r) : 1);

/** Clopper–Pearson 95% interval of a proportion x/n (C. J. Clopper & E. S. Pearson, Biometrika 26, 1934), as percentages. */
function clopperPearson(x: number, n: number): string {
  const lo = x > 0 ? jStat.beta.inv(0.025, x, n - x + 1) : 0;
  const hi = x < n ? jStat.beta.inv(0.975, x + 1, n - x) : 1;
  return `[${(100 * lo).toFixed(2)}–${(100 * hi).toFixed(2)}]`;
}

/** Whether a case's time interval (results/ratio.ts timeIntervalOf: the recorded one, log scale) holds `truth`. */
const timeCovers = (t: { mean: number; error: number; interval?: [number, number] }, truth: number) => {
  const iv = timeIntervalOf(t);
  return iv !== null && iv[0] <= truth && truth <= iv[1];
};

const assemble = (recs: CaseRecord[], run: RunPriors = {}) => {
  const s = groupSpreads(recs, run);
  return recs.map((r, i) => assembleCase(r, measure, s[i]));
};
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const ks = opt.ks.split(',').map(Number);
const N = (d: number) => Number(opt.n ?? d);

/**
 * How the focal case's (recs[1]) ratio variance was chosen (stats/intervals.ts ratioInterval's
 * `own`): `heterogeneous` (the guard kept its own), `above the run` (the run prior's weight
 * reduced), else `group` (the group's spread, moderated).
 */
function ownOf(recs: CaseRecord[], prior: RunPriors): string {
  const s = groupSpreads(recs, prior)[1];
  const lr = launchRatiosOf(recs[1].launches);
  return (
    ratioInterval(
      lr.map((x) => x.value),
      measure.confidence,
      s.ratio,
      withinVariance(lr.map((x) => x.se)),
      s.ratioOthers,
      s.ratioRun,
    )?.own ?? 'group'
  );
}

/**
 * The cases the run's other groups are drawn from ({@link runPrior}): the scenario's own group, or with
 * `--others homogeneous` the homogeneous group (every case sa 2.5%): the third review found the
 * hetero3/bimodal rows flattering when every group carries the noisy case (hetero3 k = 2 98.0% → 96.0%).
 */
function othersOf(run: SimCase[]): SimCase[] {
  if (opt.others === 'scenario') return run;
  if (opt.others === 'homogeneous') return group({ rho: 1.3, sa: 0.025 });
  throw new Error(`--others: scenario or homogeneous, not ${JSON.stringify(opt.others)}`);
}

function fixed(name: string, run: SimCase[], ro: SimOpts) {
  for (const k of ks) {
    const r = rng(12345 + k);
    const n = N(2000);
    let covR = 0;
    let nR = 0;
    let covT = 0;
    let states = 0;
    // bimodal: runs whose every launch of the focal case fell into one state (none shows the other)
    let nOne = 0;
    let covOne = 0;
    const widths: number[] = [];
    const tw: number[] = [];
    // --explain: the focal case's ratio coverage by how its variance was chosen
    const why = new Map<string, { n: number; covered: number; widths: number[] }>();
    for (let rep = 0; rep < n; rep++) {
      const [cases, o] = scaled(run, ro, focalDraw(r));
      const c = cases[1];
      const logTruth = Math.log(c.rho) + (c.bimodal ? c.bimodal.p * Math.log(c.bimodal.jump) : 0);
      // the time's centre is the geometric mean of the launch means: its truth is exp(E ln launch mean),
      // a launch mean ≈ B·rho·e^(launch effects)·e^(sS²/2) (the mean of its samples)
      const tTruth = o.B * c.rho * Math.exp((c.bimodal ? c.bimodal.p * Math.log(c.bimodal.jump) : 0) + o.sS ** 2 / 2);
      const recs = makeRecs(cases.length);
      focalJumps = 0;
      for (let l = 1; l <= k; l++) {
        jumped.clear();
        const ls = launchGroup(r, cases, o, l);
        if (jumped.has(c)) focalJumps++;
        recs.forEach((rc, i) => rc.launches.push(ls[i]));
      }
      const oneState = !c.bimodal || focalJumps === 0 || focalJumps === k;
      const prior = runPrior(r, recs, othersOf(run), ro, k, false);
      const out = assemble(recs, prior)[1];
      if (out.status !== 'measured') continue;
      const iv = out.ratioInterval;
      if (iv) {
        nR++;
        const hit = Math.log(iv[0]) <= logTruth && logTruth <= Math.log(iv[1]);
        if (hit) covR++;
        if (oneState) {
          nOne++;
          if (hit) covOne++;
        }
        widths.push(Math.log(iv[1] / iv[0]) / 2);
        if (opt.explain) {
          const key = ownOf(recs, prior);
          const t = why.get(key) ?? { n: 0, covered: 0, widths: [] };
          t.n++;
          if (hit) t.covered++;
          t.widths.push(Math.log(iv[1] / iv[0]) / 2);
          why.set(key, t);
        }
      }
      const lr = launchRatiosOf(recs[1].launches);
      const yardstick = groupYardsticks(recs, prior)[1].ratio;
      if (
        launchStates(
          lr.map((x) => x.value),
          lr.map((x) => x.se),
          0.999,
          yardstick,
        ).length >= 2
      )
        states++;
      if (timeCovers(out.time, tTruth)) covT++;
      tw.push(out.time.error / out.time.mean);
    }
    console.log(
      `${name.padEnd(34)} k=${String(k).padStart(2)} ratio cov ${pct(covR / nR)} ${clopperPearson(covR, nR)} (n=${nR}) median ±${pct(med(widths))} | states fired ${pct(states / n)} | time cov ${pct(covT / n)} ${clopperPearson(covT, n)} ±${pct(med(tw))}${run[1].bimodal ? ` | every launch in one state: ${pct(nOne / nR)} of runs, ratio cov ${pct(covOne / nOne)} ${clopperPearson(covOne, nOne)}; both states seen: ${pct((covR - covOne) / (nR - nOne))} ${clopperPearson(covR - covOne, nR - nOne)}` : ''}`,
    );
    for (const [key, t] of why)
      console.log(
        `  ${key.padEnd(14)} ${pct(t.n / nR)} of runs: ratio cov ${pct(t.covered / t.n)} ${clopperPearson(t.covered, t.n)} median ±${pct(med(t.widths))}`,
      );
  }
}

function shared(name: string, run: SimCase[], ro: SimOpts, sharedBase: boolean) {
  for (const k of ks) {
    const r = rng(999 + k);
    const n = N(2000);
    let covR = 0;
    let nR = 0;
    let covT = 0;
    const w: number[] = [];
    const tw: number[] = [];
    for (let rep = 0; rep < n; rep++) {
      const [cases, o] = scaled(run, ro, focalDraw(r));
      const c = cases[1];
      // the geometric mean of launch means' truth (see fixed)
      const tTruth = o.B * c.rho * Math.exp(o.sS ** 2 / 2);
      const recs = makeRecs(cases.length);
      for (let l = 1; l <= k; l++) {
        const ls = launchGroup(r, cases, o, l);
        // a group launch: every paired case reads the same baseline samples
        if (sharedBase)
          for (let i = 2; i < ls.length; i++)
            ls[i].rounds.forEach((rd, j) => (rd.baselineNs = ls[1].rounds[j].baselineNs));
        recs.forEach((rc, i) => rc.launches.push(ls[i]));
      }
      const out = assemble(recs, runPrior(r, recs, othersOf(run), ro, k, sharedBase))[1];
      if (out.status !== 'measured') continue;
      if (out.ratioInterval) {
        nR++;
        const [lo, hi] = out.ratioInterval;
        if (Math.log(lo) <= Math.log(c.rho) && Math.log(c.rho) <= Math.log(hi)) covR++;
        w.push(Math.log(hi / lo) / 2);
      }
      if (timeCovers(out.time, tTruth)) covT++;
      tw.push(out.time.error / out.time.mean);
    }
    console.log(
      `${name.padEnd(46)} k=${String(k).padStart(2)} ratio cov ${pct(covR / nR)} ${clopperPearson(covR, nR)} ±${pct(med(w))} | time cov ${pct(covT / n)} ${clopperPearson(covT, n)} ±${pct(med(tw))}`,
    );
  }
}

function pure() {
  const r = rng(5);
  const n = N(20000);
  for (const [sh, own] of [
    [0.05, 0],
    [0.05, 0.01],
    [0.05, 0.025],
    [0.0, 0.05],
  ])
    for (const k of [2, 3, 5]) {
      let oneWay = 0;
      let twoWay = 0;
      const w1: number[] = [];
      const w2: number[] = [];
      for (let rep = 0; rep < n; rep++) {
        const L = Array.from({ length: k }, () => sh * r.n());
        const cs = Array.from({ length: 6 }, (_, c) => L.map((l) => Math.exp(Math.log(1 + c) + l + own * r.n())));
        const iv = ratioInterval(cs[0], 0.999, launchPrior(cs.slice(1)))!;
        if (iv.low <= 1 && 1 <= iv.high) oneWay++;
        w1.push(Math.log(iv.high / iv.low) / 2);
        const all = sharedLaunchVariance(cs.map((xs) => xs.map(Math.log)))!;
        const rest = sharedLaunchVariance(cs.slice(1).map((xs) => xs.map(Math.log)))!;
        const iv2 = ratioInterval(cs[0], 0.999, { kind: 'shared', variance: all.variance, df: all.df }, 0, rest)!;
        if (iv2.low <= 1 && 1 <= iv2.high) twoWay++;
        w2.push(Math.log(iv2.high / iv2.low) / 2);
      }
      console.log(
        `shared launch sd ${sh}, own sd ${own}, k=${k}: one-way prior (as if independent) ${pct(oneWay / n)} ±${pct(med(w1))} | two-way shared ${pct(twoWay / n)} ±${pct(med(w2))}`,
      );
    }
}

function adaptive() {
  const sa = Number(opt.sa);
  const resolve = Number(opt.resolve);
  const launches = Number(opt.launches);
  const cap = Number(opt.cap);
  const rhos = opt.rhos.split(',').map(Number);
  const n = N(1000);
  const cases: SimCase[] = [{ rho: 1, sa: 0 }, ...rhos.map((rho) => ({ rho, sa }))];
  const o: SimOpts = { B: 10000, sBl: 0.03, sS: 0.03, spr: 4, R: 12 };
  const policy = { adaptive: { resolve }, measure } as RunPolicy;
  const r = rng(777 + Math.round(sa * 1e4));
  const st = rhos.map(() => ({ differs: 0, within: 0, unresolved: 0, wrong: 0, cov: 0, launches: 0 }));
  for (let rep = 0; rep < n; rep++) {
    const recs = makeRecs(cases.length);
    const push = (which: number[], l: number) => {
      const ls = launchGroup(r, cases, o, l);
      which.forEach((i) => recs[i].launches.push(ls[i]));
    };
    const all = cases.map((_, i) => i);
    for (let l = 1; l <= launches; l++) push(all, l);
    // the run's other groups (--groups G) lend the prior as in a run (leave-the-group-out, so the
    // focal group's extra launches do not change it); the stop rule judges the interval results.json
    // will carry (groupRatios with the prior) and the launches against the yardsticks a run uses
    const prior = runPrior(r, recs, cases, o, launches, true);
    for (let l = launches + 1; l <= cap; l++) {
      const judged = groupRatios(recs, measure, prior);
      const yardsticks = groupYardsticks(recs, prior);
      const more = all.filter((i) => wantsAnotherLaunch(recs[i], policy, judged[i], yardsticks[i]));
      if (!more.length) break;
      push(more, l);
    }
    const out = assemble(recs, prior);
    rhos.forEach((rho, j) => {
      const c = out[j + 1];
      const s = st[j];
      if (c.status !== 'measured') return;
      const iv = c.ratioInterval ?? null;
      const state = resolution(iv, resolve, c.ratioBasis, recs[j + 1].launches.length);
      s[state]++;
      s.launches += recs[j + 1].launches.length;
      const inBand = rho >= 1 - resolve - 1e-12 && rho <= 1 + resolve + 1e-12;
      if (state === 'differs' && (inBand || iv![1] < 1 - resolve !== rho < 1)) s.wrong++;
      if (state === 'within' && !inBand) s.wrong++;
      if (iv && iv[0] <= rho && rho <= iv[1]) s.cov++;
    });
  }
  console.log(
    `adaptive sa=${sa} resolve=${resolve} N=${n} launches ${launches}..${cap}${G > 1 ? `, run prior from ${G - 1} other groups` : ', no run prior (--groups 1)'}`,
  );
  rhos.forEach((rho, j) => {
    const s = st[j];
    console.log(
      `  rho=${rho.toFixed(3)} differs ${pct(s.differs / n)} within ${pct(s.within / n)} unresolved ${pct(s.unresolved / n)} | wrong claims ${pct(s.wrong / n)} | final-interval coverage ${pct(s.cov / n)} | mean launches ${(s.launches / n).toFixed(2)}`,
    );
  });
}

const group = (focal: SimCase, sa = 0.025, G = 5): SimCase[] => [
  { rho: 1, sa: 0 },
  focal,
  ...Array.from({ length: G - 1 }, (_, i) => ({ rho: 1.2 + 0.3 * i, sa })),
];
const base: SimOpts = { B: 10000, sBl: 0.03, sS: 0.03, spr: 4, R: Number(opt.rounds) };
const G5 = (sa: number, others = sa): SimCase[] => [
  { rho: 1, sa: 0 },
  { rho: 1.3, sa },
  ...[1.5, 1.8, 2.1, 2.4].map((rho) => ({ rho, sa: others })),
];
const which = opt.scenario;
const is = (s: string) => which === 'all' || which === s;
console.log(
  `# ${positionals[0] ?? '(none)'} scenario ${which}${opt.separate ? ', separate processes' : ''}${G > 1 ? `, run of ${G} groups (${smythD0 > 0 ? `Smyth d₀ ${smythD0}` : `tau ${tau}`}, focal ×${focalScale}${classes > 1 ? `, ${classes} classes, the others ×${classScale}` : ''}${opt.others === 'homogeneous' ? ', the other groups homogeneous' : ''})` : ''}; load ${load()}`,
);
switch (positionals[0]) {
  case 'fixed':
    if (is('homog')) fixed('homogeneous sa=2.5%', group({ rho: 1.3, sa: 0.025 }), base);
    if (is('nolaunch')) fixed('no launch effect sa=0', group({ rho: 1.3, sa: 0 }, 0), base);
    if (is('hetero3')) fixed('focal sa=7.5%, others 2.5%', group({ rho: 1.3, sa: 0.075 }), base);
    if (is('hetero0')) fixed('focal sa=2.5%, others 0.5%', group({ rho: 1.3, sa: 0.025 }, 0.005), base);
    if (is('bimodal'))
      fixed('bimodal p=.3 jump 1.15', group({ rho: 1.3, sa: 0.01, bimodal: { p: 0.3, jump: 1.15 } }), base);
    if (is('G2')) fixed('homogeneous, group of 2 paired', group({ rho: 1.3, sa: 0.025 }, 0.025, 2), base);
    if (is('adaptR'))
      fixed('homog, worker stop rule rounds', group({ rho: 1.3, sa: 0.025 }), { ...base, R: undefined });
    break;
  case 'shared':
    if (is('timeshared'))
      shared('time: shared launch effect 5%, within 3%/sample', G5(0), { ...base, sBl: 0.05 }, false);
    if (is('ratioshared'))
      shared('ratio: baseline-only launch effect 2.5%, sa .5%', G5(0.005), { ...base, sBl: 0, sBase: 0.025 }, true);
    if (is('homog')) shared('homogeneous sa=2.5%', G5(0.025), base, false);
    break;
  case 'pure':
    pure();
    break;
  case 'adaptive':
    adaptive();
    break;
  default:
    console.error(USAGE);
    process.exitCode = 2;
}
