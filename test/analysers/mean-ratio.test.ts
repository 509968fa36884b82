import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult } from '../../src/results/types.js';
import { meanRatio } from '../../src/analysers/mean-ratio.js';
import { meansQuotientInterval } from '../../src/results/ratio.js';
import { checkResults } from '../../src/results/validate.js';
import { fixture } from '../report/support.js';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

/**
 * The ≠ mark (mean-ratio) fires when the Mean column and the Ratio disagree beyond their own
 * errors, not beyond a fixed 2× (new-user tryout: a 1.4× disagreement went unflagged).
 */
function pair(
  mean: number,
  error: number,
  baseMean: number,
  baseError: number,
  ratio: number,
  interval: [number, number],
): { c: CaseResult; base: CaseResult; policy: ReturnType<typeof fixture>['policy']['measure'] } {
  const r = fixture('single');
  const measured = r.cases.filter((x) => x.status === 'measured' && x.direction === 'serialize');
  const base = structuredClone(measured.find((x) => x.serializer === x.baseline)!);
  const c = structuredClone(measured.find((x) => x.serializer !== x.baseline)!);
  Object.assign(base.time!, { mean: baseMean, median: baseMean, error: baseError });
  Object.assign(c.time!, { mean, median: mean, error });
  c.ratio = ratio;
  c.ratioInterval = interval;
  c.samples = { launches: [], relaunches: 0 };
  return { c, base, policy: r.policy.measure };
}

test("the means' quotient interval is the delta method's for symmetric log ends: ln(q) ± √(h_c² + h_b²)", () => {
  const t = (mean: number, h: number) => ({
    mean,
    error: mean * h,
    interval: [mean * Math.exp(-h), mean * Math.exp(h)] as [number, number],
  });
  const [lo, hi] = meansQuotientInterval(t(140, 0.02), t(100, 0.02))!;
  const h = Math.hypot(0.02, 0.02);
  assert.ok(Math.abs(lo - 1.4 * Math.exp(-h)) < 1e-12 && Math.abs(hi - 1.4 * Math.exp(h)) < 1e-12);
  assert.equal(meansQuotientInterval({ mean: 0, error: 1 }, { mean: 100, error: 1 }), null);
});

test("the means' quotient reads each mean's interval ends, not Error ÷ Mean both ways (sr4): an asymmetric interval moves one end only", () => {
  // this case's mean 100 ns with interval [50–101] (error = 100·ln 2, its larger log half-width), the baseline 100 [99–101]
  const c = { mean: 100, error: 100 * Math.log(2), interval: [50, 101] as [number, number] };
  const b = { mean: 100, error: 100 * Math.log(1.01), interval: [99, 101] as [number, number] };
  const [lo, hi] = meansQuotientInterval(c, b)!;
  // MOVER: below √(ln 2² + ln(1.01)²), above √(ln(1.01)² + ln(100/99)²)
  assert.ok(Math.abs(lo - Math.exp(-Math.hypot(Math.log(2), Math.log(1.01)))) < 1e-12, `low ${lo}`);
  assert.ok(Math.abs(hi - Math.exp(Math.hypot(Math.log(1.01), Math.log(100 / 99)))) < 1e-12, `high ${hi}`);
  assert.ok(
    hi < 1.02,
    `the upper end stays tight: ${hi} (Error ÷ Mean both ways read ${Math.exp(Math.hypot(Math.log(2), 0.01)).toFixed(2)})`,
  );
  // so a ratio of 1.50 [1.45–1.55] beside these means is flagged ≠: the means cannot reach it
  const { c: cc, base, policy } = pair(100, 100 * Math.log(2), 100, 100 * Math.log(1.01), 1.5, [1.45, 1.55]);
  cc.time!.interval = c.interval;
  base.time!.interval = b.interval;
  const [f] = meanRatio.analyse(cc, { policy, baseline: base });
  assert.ok(f, 'a mean-ratio finding');
  assert.match(f.message, /99\.9% CI 0\.50–1\.01 from the two means' intervals/);
});

test('a 1.4× disagreement between tight figures is flagged ≠; it says what its threshold is', () => {
  // means 140 ± 2.8 and 100 ± 2 (2% each): quotient 1.36–1.44; the ratio 1.00 [0.97–1.03]
  const { c, base, policy } = pair(140, 2.8, 100, 2, 1, [0.97, 1.03]);
  const [f] = meanRatio.analyse(c, { policy, baseline: base });
  assert.ok(f, 'a mean-ratio finding');
  assert.match(
    f.message,
    /is 1\.40× .* yet the ratio is 1\.00 \[0\.97–1\.03\]: the mean and the ratio disagree beyond their errors \(the means' quotient, 99\.9% CI 1\.36–1\.44 from the two means' intervals, does not reach the ratio's interval\)/,
  );
});

test('a 2.5× gap between means whose errors are ±60% is not flagged: the means cannot tell it', () => {
  const { c, base, policy } = pair(250, 150, 100, 60, 1, [0.9, 1.1]);
  assert.deepEqual(meanRatio.analyse(c, { policy, baseline: base }), []);
});

test("a mean quotient inside the ratio's interval, or whose interval reaches it, is not flagged", () => {
  const agree = pair(100, 2, 100, 2, 1.02, [0.98, 1.06]);
  assert.deepEqual(meanRatio.analyse(agree.c, { policy: agree.policy, baseline: agree.base }), []);
  // quotient 1.10 (errors 6% and 2%): its interval 1.03–1.17 reaches the ratio's 0.95–1.05
  const touch = pair(110, 6.6, 100, 2, 1, [0.95, 1.05]);
  assert.deepEqual(meanRatio.analyse(touch.c, { policy: touch.policy, baseline: touch.base }), []);
});

/** A case of a recorded run (test/fixtures/stats: launches with their rounds, the time's mean and error) as the analyser reads it; its median pooled from its kept launches' samples. */
interface StatsCase {
  id: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  class: string;
  serializer: string;
  baseline: string;
  ratio: number | null;
  ratioInterval: [number, number] | null;
  time: { mean: number; error: number };
  launches: CaseResult['samples']['launches'];
}
function recorded(file: string): { policy: ReturnType<typeof fixture>['policy']['measure']; cases: CaseResult[] } {
  const r = JSON.parse(
    gunzipSync(readFileSync(fileURLToPath(new URL(`../../../test/fixtures/stats/${file}`, import.meta.url)))).toString(
      'utf8',
    ),
  ) as { policy: { measure: ReturnType<typeof fixture>['policy']['measure'] }; cases: StatsCase[] };
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const cases = r.cases.map(
    (c) =>
      ({
        ...c,
        status: 'measured',
        findings: [],
        samples: { launches: c.launches, relaunches: 0 },
        time: {
          ...c.time,
          median: median(
            c.launches.filter((l) => !l.discarded).flatMap((l) => l.rounds.flatMap((x) => x.serializerNs)),
          ),
        },
      }) as unknown as CaseResult,
  );
  return { policy: r.policy.measure, cases };
}

test('Mean and Ratio pointing opposite ways is flagged ≠ although the means’ errors reach the ratio (nu7: valibot Mean 74.2 µs vs zod 88.7 µs, ratio 1.21 [1.12–1.30])', () => {
  // nu7's suite, users-settings · 100 · list · transform: 2 launches, so the means' errors are wide (the quotient's interval 0.52–1.35 reaches the ratio's)
  const { c, base, policy } = pair(74_245, 24_359, 88_748, 30_192, 1.21, [1.12, 1.3]);
  c.time!.median = 67_486;
  base.time!.median = 55_679;
  base.serializer = 'zod';
  const [f] = meanRatio.analyse(c, { policy, baseline: base });
  assert.ok(f, 'a mean-ratio finding');
  assert.match(
    f.message,
    /^Mean and ratio point opposite ways; trust the ratio: ratio 1\.21 \[1\.12–1\.30\] says slower than zod, mean 74\.2 µs \(0\.84× zod's 88\.7 µs\) says faster \(zod's mean is 1\.59× its median 55\.7 µs: a few slow samples \(GC pauses, preemption\) pull it; the medians \(67\.5 µs against 55\.7 µs, 1\.21×\) agree with the ratio\)\. The ratio pairs alternating rounds in one process; the means come from separate cases and count every slow sample$/,
  );
  // the other way round: the ratio's interval below 1, the means 10% slower
  const down = pair(110, 40, 100, 40, 0.8, [0.7, 0.9]);
  assert.match(
    meanRatio.analyse(down.c, { policy: down.policy, baseline: down.base })[0].message,
    /ratio 0\.80 \[0\.70–0\.90\] says faster than .*, mean 110 ns \(1\.10× .*\) says slower/,
  );
});

test('means within 5% the other way (a tie), or a ratio interval that reaches 1, are not flagged: ordinary noise', () => {
  const tie = pair(97, 30, 100, 30, 1.21, [1.12, 1.3]);
  assert.deepEqual(meanRatio.analyse(tie.c, { policy: tie.policy, baseline: tie.base }), []);
  // typia in nu7's orders run: means 1.91× json's, ratio 1.31 [0.25–6.90] (its noisy interval holds both)
  const wide = pair(302_945, 164_540, 158_418, 30_147, 1.31, [0.25, 6.9]);
  assert.deepEqual(meanRatio.analyse(wide.c, { policy: wide.policy, baseline: wide.base }), []);
  const reaches = pair(80, 30, 100, 30, 1.1, [0.98, 1.25]);
  assert.deepEqual(meanRatio.analyse(reaches.c, { policy: reaches.policy, baseline: reaches.base }), []);
});

test('on two recorded quiet default runs (84 cases each) ≠ fires on one case, the same in both: valibot against zod, whose mean a few slow samples pull', () => {
  for (const file of ['quiet-default-run.json.gz', 'quiet-default-run-2.json.gz']) {
    const { policy, cases } = recorded(file);
    const fired = cases.flatMap((c) => {
      const base = cases.find(
        (b) =>
          b.serializer === c.baseline &&
          b.serializer !== c.serializer &&
          `${b.workload}/${b.size}/${b.shape}/${b.direction}/${b.class}` ===
            `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.class}`,
      );
      return base ? meanRatio.analyse(c, { policy, baseline: base }).map((f) => [c.id, f.message] as const) : [];
    });
    assert.deepEqual(
      fired.map(([id]) => id),
      ['users-settings/100/many/deserialize/valibot'],
      file,
    );
    assert.match(
      fired[0][1],
      /point opposite ways; trust the ratio: ratio 1\.\d\d \[.*\] says slower than zod, .* says faster \(zod's mean is 1\.3\d× its median/,
    );
  }
});

test("results validation reads the means' interval ends too (sr4): a ratio the tight side of an asymmetric interval rules out is refused", () => {
  const r = JSON.parse(JSON.stringify(fixture('single'))) as ReturnType<typeof fixture>;
  const c = r.cases.find((x) => x.status === 'measured' && x.serializer === 'fast-json-stringify')!;
  const base = r.cases.find((x) => x.status === 'measured' && x.serializer === 'json' && x.direction === c.direction)!;
  if (c.status !== 'measured' || base.status !== 'measured') throw new Error('fixture');
  // the case's mean 525 ns with an interval reaching 35% below it and 0.1% above (error = mean × 0.35, its
  // larger log half-width), the baseline's ±11.9%: the means' quotient 0.379 reaches 0.427 at most, 1.71
  // with the 4× allowance; Error ÷ Mean both ways let it reach 2.19
  const h = c.time.error / c.time.mean;
  c.time.interval = [c.time.mean * Math.exp(-h), c.time.mean * 1.001];
  const hb = base.time.error / base.time.mean;
  base.time.interval = [base.time.mean * Math.exp(-hb), base.time.mean * Math.exp(hb)];
  // a forged ratio of 2.0, its rounds made to agree (the baseline beside it read 6.25× faster)
  for (const l of c.samples.launches) for (const x of l.rounds) x.baselineNs = x.baselineNs.map((v) => v / 6.25);
  c.ratio = 2;
  c.ratioError = 0.1;
  c.ratioInterval = [1.9, 2.1];
  assert.throws(() => checkResults(JSON.parse(JSON.stringify(r)), 'crafted'), /2 contradicts the means/);
  // the same file with the symmetric interval Error ÷ Mean implies: the means reach 2.19, and it passes that check
  c.time.interval = [c.time.mean * Math.exp(-h), c.time.mean * Math.exp(h)];
  assert.doesNotThrow(() => checkResults(JSON.parse(JSON.stringify(r)), 'crafted'));
});
