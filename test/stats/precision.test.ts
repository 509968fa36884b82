import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGroups } from '../../src/run/runner.js';
import { lacksPrecision, PRECISION_RESOLVE, wantsAnotherLaunch } from '../../src/run/stop-rule.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import { ratioOf, type CaseRecord } from '../../src/run/assemble.js';
import { mixtureInterval, wilsonInterval, type LaunchState } from '../../src/stats/intervals.js';
import type { LaunchRecord } from '../../src/results/types.js';
import type { CaseGroup } from '../../src/plan/plan.js';
import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import { allocated, fakeLaunch, payload, planned, timed, type Script } from '../run/fake-launch.js';
import { mulberry32 } from '../../src/stats/mulberry32.js';

/**
 * Launches in two states (issue 23; weather-station serialize fast-json-stringify ÷ json read
 * 0.62–0.64 in some launches and 0.66–0.70 in others): the centre is the mean over the launches
 * (each state by its share), its interval counts the shares' uncertainty, and with the long
 * policy's ±1% the stop rule keeps launching until the centre's standard error is within 1%, so
 * the centre converges from run to run. Synthetic launches from a seeded generator; the runner on
 * a fake clock.
 */

/** A seeded uniform generator (mulberry32, src/stats/mulberry32.ts) and a normal from it (Box–Muller). */
function rng(seed: number) {
  const u = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(u() || 1e-300)) * Math.cos(2 * Math.PI * u());
  return { u, normal };
}

/** A paired launch of 8 rounds whose per-round ratios are `ratio` × a 0.3% round jitter (baseline 1000 ns). */
function pairedLaunch(n: number, ratio: number, r: ReturnType<typeof rng>): LaunchRecord {
  return {
    launch: n,
    opsPerSample: { serializer: 100, baseline: 100 },
    warmup: { serializerOps: 1, serializerMs: 1, baselineOps: 1, baselineMs: 1 },
    emptyNsPerOp: 0,
    rounds: Array.from({ length: 8 }, () => {
      const s = 1000 * ratio * Math.exp(0.003 * r.normal());
      return { serializerNs: [s, s], baselineNs: [1000, 1000] };
    }),
    noisy: false,
    elapsedMs: 10,
  };
}

/** The two-state scenario: low state `low`, the high one `jump` times it with probability `p`, a 1% launch effect. */
interface Mixture {
  low: number;
  jump: number;
  p: number;
  launchSd: number;
}

/** One launch's ratio of the mixture. */
const draw = (m: Mixture, r: ReturnType<typeof rng>) =>
  m.low * (r.u() < m.p ? m.jump : 1) * Math.exp(m.launchSd * r.normal());

/** What the mixture's launches estimate: exp(E ln x) = low · jump^p. */
const truth = (m: Mixture) => m.low * Math.exp(m.p * Math.log(m.jump));

/** The run's other groups' ratio prior, as the precision bench's other pairs lend it (1% launch-to-launch SD, d₀ 4). */
const RUN = { variance: 0.01 ** 2, df: 4 };

/**
 * `runs` simulated runs of a lone paired case (as in bench:precision: no other paired case in its
 * group): `launches` fixed, or `adaptive` (the long policy: 5, then one more while the stop rule
 * wants it, at most 20). Each run's centre, whether its interval held the truth, its launches.
 */
function simulate(m: Mixture, runs: number, launches: number | 'adaptive', seed: number) {
  const r = rng(seed);
  const out: { centre: number; median: number; covered: boolean; launches: number }[] = [];
  const long = policies.long;
  for (let run = 0; run < runs; run++) {
    const kept: LaunchRecord[] = [];
    const first = launches === 'adaptive' ? long.launches : launches;
    for (let l = 1; l <= first; l++) kept.push(pairedLaunch(l, draw(m, r), r));
    let reading = ratioOf(kept, 0.999, undefined, undefined, RUN)!;
    if (launches === 'adaptive')
      while (kept.length < long.maxLaunches) {
        const rec = { paired: true, launches: kept } as unknown as CaseRecord;
        const judged = { interval: reading.interval, basis: reading.basis, ...(reading.se ? { se: reading.se } : {}) };
        if (!wantsAnotherLaunch(rec, long, judged)) break;
        kept.push(pairedLaunch(kept.length + 1, draw(m, r), r));
        reading = ratioOf(kept, 0.999, undefined, undefined, RUN)!;
      }
    const values = kept.map((l) => {
      const xs = l.rounds.map((x) => x.serializerNs[0] / x.baselineNs[0]).sort((a, b) => a - b);
      return (xs[3] + xs[4]) / 2;
    });
    const sorted = [...values].sort((a, b) => a - b);
    const median =
      sorted.length % 2 ? sorted[sorted.length >> 1] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    const iv = reading.interval!;
    out.push({ centre: reading.ratio, median, covered: iv[0] <= truth(m) && truth(m) <= iv[1], launches: kept.length });
  }
  const sd = (xs: number[]) => {
    const logs = xs.map(Math.log);
    const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
    return Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1));
  };
  return {
    centreSd: sd(out.map((o) => o.centre)),
    medianSd: sd(out.map((o) => o.median)),
    coverage: out.filter((o) => o.covered).length / out.length,
    meanLaunches: out.reduce((s, o) => s + o.launches, 0) / out.length,
  };
}

test('Wilson score interval: the textbook values, never outside [0, 1]', () => {
  const [lo, hi] = wilsonInterval(5, 10, 0.95);
  assert.ok(Math.abs(lo - 0.2366) < 1e-4 && Math.abs(hi - 0.7634) < 1e-4, `${lo} ${hi}`);
  const [l0, h0] = wilsonInterval(0, 5, 0.999);
  assert.equal(l0, 0);
  assert.ok(h0 > 0.5 && h0 < 1, `${h0}`);
  assert.throws(() => wilsonInterval(3, 2, 0.95), RangeError);
});

test('two states: the centre is the mean over every launch (each state by its share), and the interval counts the shares', () => {
  // 3 launches at 0.625, 2 at 0.70 (12% apart), judged against a 1% spread
  const values = [0.625, 0.7, 0.626, 0.624, 0.701];
  const states: LaunchState[] = [
    { value: 0.625, launches: [0, 2, 3] },
    { value: 0.7005, launches: [1, 4] },
  ];
  const mix = mixtureInterval(values, states, 0.999, RUN)!;
  const logMean = values.reduce((s, v) => s + Math.log(v), 0) / values.length;
  assert.ok(Math.abs(mix.centre - Math.exp(logMean)) < 1e-12, 'the same centre as every interval of launches');
  assert.deepEqual(mix.shares, [0.6, 0.4]);
  assert.ok(mix.low < mix.centre && mix.high > mix.centre);
  // the share's uncertainty dominates: wider than the within-state noise alone (t(5)·1%/√5 ≈ 3.1%)
  assert.ok(Math.log(mix.high / mix.centre) > 0.04, `${mix.low}–${mix.high}`);
  // SE: √((Δ²·p̃(1 − p̃) + s_w²)/k), p̃ = 3/7
  assert.ok(mix.se > 0.02 && mix.se < 0.03, `se ${mix.se}`);
  assert.equal(mixtureInterval(values, [states[0]], 0.999, RUN), null, 'one state: no mixture');
  // more launches in the same proportions: narrower, about as 1/√k
  const ten = [...values, ...values];
  const tenStates: LaunchState[] = [
    { value: 0.625, launches: [0, 2, 3, 5, 7, 8] },
    { value: 0.7005, launches: [1, 4, 6, 9] },
  ];
  const mix10 = mixtureInterval(ten, tenStates, 0.999, RUN)!;
  assert.ok(mix10.high / mix10.low < mix.high / mix.low, 'it shrinks with the launches (the range did not)');
  assert.ok(mix10.se < mix.se * 0.8, `${mix10.se} vs ${mix.se}`);
});

test('the precision a ±1% band asks for: another launch while the SE exceeds 1%; a coarser band asks for its side only', () => {
  // 8 kept launches (the long policy's own): resolution needs 2 at least
  const rec = { paired: true, launches: Array.from({ length: 8 }, () => ({})) } as unknown as CaseRecord;
  const clear = { interval: [0.6, 0.7] as const, basis: 'moderated' as const };
  assert.equal(PRECISION_RESOLVE, 0.01);
  assert.equal(policies.long.adaptive.resolve, 0.01);
  // 0.6–0.7 differs from ±1%, but its centre's SE is 1.5%: the long policy launches again
  assert.equal(wantsAnotherLaunch(rec, policies.long, { ...clear, se: 0.015 }), true);
  assert.equal(wantsAnotherLaunch(rec, policies.long, { ...clear, se: 0.009 }), false);
  assert.equal(lacksPrecision({ ...clear }, 0.01), true, 'no SE known: not precise');
  // the default's ±2% asks for the side of the band only (its 5-minute suite target)
  assert.equal(wantsAnotherLaunch(rec, policies.default, { ...clear, se: 0.05 }), false);
  assert.equal(lacksPrecision({ ...clear, se: 0.05 }, 0.02), false);
});

test('bimodal launches 6% apart (states too close to split): the centre converges with the launches, the median does not; the long policy stops near 1% SD', () => {
  // the real pair's shape: half the launches 6.4% above the others, a 1% launch effect, states not split
  // (the judged spread's threshold, t(4)·√2·1% ≈ 12%, is above the gap)
  const m: Mixture = { low: 0.625, jump: 1.064, p: 0.5, launchSd: 0.01 };
  const runs = 300;
  const at = (k: number | 'adaptive', seed: number) => simulate(m, runs, k, seed);
  const k5 = at(5, 1);
  const k10 = at(10, 2);
  const k20 = at(20, 3);
  const adaptive = at('adaptive', 4);
  const expected = (k: number) => Math.sqrt(Math.log(m.jump) ** 2 * 0.25 + m.launchSd ** 2) / Math.sqrt(k);
  const row = (name: string, s: ReturnType<typeof simulate>) =>
    `${name}: centre SD ${(100 * s.centreSd).toFixed(2)}%, median SD ${(100 * s.medianSd).toFixed(2)}%, coverage ${(100 * s.coverage).toFixed(1)}%, launches ${s.meanLaunches.toFixed(1)}`;
  const table = [row('k=5', k5), row('k=10', k10), row('k=20', k20), row('adaptive', adaptive)].join('\n');
  // the centre's spread is the mixture's √((Δ²/4 + σ²)/k), within Monte-Carlo error (±8% of itself at 300 runs)
  for (const [k, s] of [
    [5, k5],
    [10, k10],
    [20, k20],
  ] as const)
    assert.ok(Math.abs(s.centreSd / expected(k) - 1) < 0.2, `k=${k}: ${s.centreSd} vs ${expected(k)}\n${table}`);
  assert.ok(k5.centreSd > 0.012, table);
  assert.ok(k20.centreSd < 0.01, table);
  // the median of a bimodal set jumps between the states: at 20 launches it spreads more than the mean does
  assert.ok(k20.medianSd > 1.3 * k20.centreSd, table);
  // the long policy's stop rule keeps launching past 5 and ends near the 1% target
  assert.ok(adaptive.meanLaunches > 8, table);
  assert.ok(adaptive.centreSd < 0.0115, table);
  // every interval here is 99.9% nominal: at 5 launches 6% of runs (2·½⁵) see one state only and mostly miss
  // the mixture's mean; from 8 launches (the long policy's own) nearly every run sees both
  assert.ok(k5.coverage >= 0.9, table);
  for (const s of [k10, k20, adaptive]) assert.ok(s.coverage >= 0.97, table);
});

test('bimodal launches 20% apart (states split): the interval counts the shares, the centre converges and coverage holds', () => {
  const m: Mixture = { low: 0.6, jump: 1.2, p: 0.3, launchSd: 0.01 };
  const runs = 300;
  const k5 = simulate(m, runs, 5, 11);
  const k10 = simulate(m, runs, 10, 12);
  const k20 = simulate(m, runs, 20, 13);
  const adaptive = simulate(m, runs, 'adaptive', 14);
  const table = [k5, k10, k20, adaptive]
    .map(
      (s, i) =>
        `${['k=5', 'k=10', 'k=20', 'adaptive'][i]}: centre SD ${(100 * s.centreSd).toFixed(2)}%, coverage ${(100 * s.coverage).toFixed(1)}%, launches ${s.meanLaunches.toFixed(1)}`,
    )
    .join('\n');
  assert.ok(k5.centreSd > k10.centreSd && k10.centreSd > k20.centreSd, table);
  // at 5 launches 17% of runs see one state only (0.7⁵): those miss, as any interval of launches must
  assert.ok(k5.coverage >= 0.8, table);
  assert.ok(k10.coverage >= 0.96 && k20.coverage >= 0.98, table);
  assert.ok(adaptive.meanLaunches > 10, table);
  // runs whose 8 first launches all fell into the low state (0.7⁸ = 5.8%) read a small spread, stop, and miss
  assert.ok(adaptive.coverage >= 0.92, table);
  assert.ok(adaptive.centreSd < k10.centreSd, table);
});

/** A timing launch of 8 rounds whose serializer reads `ratio` × the baseline's 1000 ns, with a small jitter. */
function timedAt(ratio: number, seed: number): LaunchOutcome {
  const r = rng(seed);
  const rounds = Array.from({ length: 8 }, () => {
    const s = 1000 * ratio * Math.exp(0.002 * r.normal());
    return [s, s];
  });
  return timed(
    rounds,
    rounds.map(() => [1000, 1000]),
  );
}

test('the runner on a fake clock, long policy: a case whose launches alternate between two states keeps launching; a steady one stops at the policy’s launches', async () => {
  // w: states 0.625 and 0.665 (6.4% apart) in a fixed, even order; s: 2.0 with a 0.3% launch effect
  const order = [1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1];
  const r = rng(99);
  const script: Script = {
    'json/time': [timed([[1000, 1000]].concat(Array.from({ length: 7 }, () => [1000, 1000])))],
    'w/time': order.map((h, i) => timedAt((h ? 0.665 : 0.625) * Math.exp(0.005 * r.normal()), i)),
    's/time': Array.from({ length: 20 }, (_, i) => timedAt(2 * Math.exp(0.003 * r.normal()), 100 + i)),
    'json/alloc': [allocated([640])],
    'w/alloc': [allocated([640])],
    's/alloc': [allocated([640])],
  };
  const policy: RunPolicy = { ...policies.long, maxRelaunches: 0, coldStart: { processes: 0, byDefault: false } };
  const group: CaseGroup = ['json', 'w', 's'].map((s) => planned(s));
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-precision-'));
  const fake = fakeLaunch(script);
  let clock = 0;
  try {
    const results = await runGroups({
      groups: [group],
      payloads: new Map([[payload.key, payload]]),
      policy,
      partialPath: join(dir, 'partial.jsonl'),
      launchFor: () => async (job, timeoutMs, place) => {
        const o = await fake.launch(job, timeoutMs, place);
        clock += 1000;
        return o;
      },
      groupLaunches: false,
      now: () => clock,
    });
    const calls = (s: string) => fake.calls.filter((c) => c.job.serializer === s && c.job.mode === 'time').length;
    const w = results.find((c) => c.serializer === 'w')!;
    assert.ok(w.status === 'measured' && w.ratio !== null);
    assert.equal(calls('s'), policy.launches, `a steady case is precise after the policy's ${policy.launches}`);
    // before: the policy's launches only (0.63–0.67 "differs" from ±1%), a centre wherever those fell
    assert.ok(calls('w') >= policy.launches + 4, `w launched ${calls('w')} times`);
    // its centre is the mean over its launches, near the states' midpoint (0.645)
    assert.ok(Math.abs(w.ratio / Math.sqrt(0.625 * 0.665) - 1) < 0.02, `ratio ${w.ratio}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
