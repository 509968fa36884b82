import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverage, expectedPairCoverage, judge, precisionLine, renderCoverage } from '../../bench/coverage.js';
import { makeResults } from '../ledger/fixture.js';

/** A run of two cases whose Mean ± Error and ratio interval are set by hand. */
function run(jsonMean: number, jsonError: number, fjsMean: number, fjsError: number, ratio: [number, number, number]) {
  const r = makeResults([{ serializer: 'json' }, { serializer: 'fast-json-stringify' }]);
  const [json, fjs] = r.cases;
  Object.assign(json, { ratio: 1, ratioError: 0, ratioInterval: [1, 1] });
  Object.assign(json.time!, { mean: jsonMean, error: jsonError });
  Object.assign(fjs.time!, { mean: fjsMean, error: fjsError });
  Object.assign(fjs, { ratio: ratio[0], ratioInterval: [ratio[1], ratio[2]] });
  return r;
}

test("coverage holds each run's interval against the other runs' values, per ordered pair and per class", () => {
  const runs = [
    run(100, 5, 60, 1, [0.6, 0.58, 0.62]),
    run(103, 5, 66, 1, [0.66, 0.64, 0.68]),
    run(101, 5, 61, 3, [0.61, 0.5, 0.7]),
  ];
  const c = coverage(runs);
  // json: every mean within ±5 of every other: 6 of 6 pairs; fjs: 60 in [58, 64] (run 3) only, 61 in [59, 61] (run 1) — 2 of 6
  assert.deepEqual([c.time.pairs, c.time.covered], [12, 8]);
  assert.deepEqual([c.time.byClass.serialize.pairs, c.time.byClass.serialize.covered], [12, 8]);
  assert.equal(c.time.cases[0].id, 'weather-station/1/single/serialize/fast-json-stringify', 'worst first');
  // the baseline's own case has no ratio to hold; fjs: run 3's wide interval covers both others, the others cover only run 3's 0.61 (run 1)
  assert.deepEqual([c.ratio.pairs, c.ratio.covered], [6, 3]);
  const text = renderCoverage(c);
  assert.match(
    text,
    /^time: 66\.7% of 12 ordered pairs \(2 cases\) inside the other run's 99\.9% interval; fixed target ≥ 95%: missed$/m,
  );
  assert.match(text, /^ratio: 50\.0% of 6 ordered pairs/m);
  assert.match(
    text,
    /fast-json-stringify: 33\.3% — 60\.0 \[59\.0–61\.0\], 66\.0 \[65\.0–67\.0\], 61\.0 \[58\.0–64\.0\]/,
  );
});

test("precisionLine: the paired ratios' log half-width (median, p90), the time error, the --resolve states and ⚠ noisy", () => {
  const r = run(100, 5, 60, 3, [0.6, 0.5, 0.72]);
  // one paired ratio: ln(0.72/0.5)/2 = 18.2%; times 5/100 and 3/60 → median 5.0%; clear of ±2% below 1: differs
  assert.equal(
    precisionLine(r, 0.02),
    'ratio ± median 18.2%, p90 18.2%; time error/mean median 5.0%; differs/within/unresolved 1/0/0; ⚠ noisy 0 of 2',
  );
  // across the band's edge: unresolved
  assert.match(precisionLine(run(100, 5, 60, 3, [0.99, 0.95, 1.03]), 0.02), /differs\/within\/unresolved 0\/0\/1/);
});

test('expectedPairCoverage: two honest 99.9% intervals alike with df 5 hold each other 99.5% of pairs; 99% ones labelled 99.9% about 97%', () => {
  const t5 = 6.868827;
  const iv = { centre: 0, half: t5 * 0.01, df: 5, confidence: 0.999 };
  // P(|T₅| ≤ 6.87/√2 = 4.857) — the statistician's 99.3–99.5%, not the ~98% the fixed targets assumed
  const e = expectedPairCoverage(iv, iv);
  assert.ok(Math.abs(e - 0.99536) < 5e-4, String(e));
  // a 99% interval (t₀.₉₉₅(5) = 4.032) labelled 99.9%: its s read as half ÷ 6.87, so the expectation stays 99.5%, while
  // honest draws would cover P(|T₅| ≤ 4.032/√2) ≈ 96.5%: the gap the verdict must see
  const narrow = { ...iv, half: 4.032 * 0.01 };
  assert.ok(Math.abs(expectedPairCoverage(narrow, narrow) - e) < 1e-12);
  // wider df, closer to the normal: P(|Z| ≤ 3.29/√2) ≈ 98.0%
  const big = { centre: 0, half: 3.2905 * 0.01, df: 1e6, confidence: 0.999 };
  assert.ok(Math.abs(expectedPairCoverage(big, big) - 0.98) < 1e-3);
  // unknown df: no expectation
  assert.ok(Number.isNaN(expectedPairCoverage({ ...iv, df: Number.NaN }, iv)));
});

test('coverage with df recorded: expected against observed, a bootstrap interval by case and a verdict', () => {
  // 12 cases × 3 runs, each run's interval t₅-wide around a centre the runs agree on (observed 100%), df 5 each
  const honest = Array.from({ length: 3 }, () => run(100, 20, 60, 10, [0.6, 0.5, 0.72]));
  for (const r of honest) for (const c of r.cases) Object.assign(c.time!, { df: 5 });
  for (const r of honest) Object.assign(r.cases[1], { ratioDf: 5 });
  const c = coverage(honest);
  // 2 cases × 6 pairs, each pair expected P(|T₅| ≤ 4.857) = 99.54%
  assert.ok(Math.abs(c.time.expected / c.time.expectedPairs - 0.99536) < 5e-4);
  const v = judge(c.time);
  assert.equal(v.observed, 1);
  // every pair covered: the case bootstrap has no spread, but honest intervals cover all 12 pairs 0.995¹² = 94% of the time
  assert.ok(v.low > 0 && v.nullHigh >= v.difference, JSON.stringify(v));
  assert.equal(v.verdict, 'consistent');
  // runs that disagree: the fjs means 60, 66, 61 with ±1 (df 5): expected 99.5%, observed 33%: short
  const apart = [
    run(100, 5, 60, 1, [0.6, 0.58, 0.62]),
    run(100, 5, 66, 1, [0.66, 0.64, 0.68]),
    run(100, 5, 61, 1, [0.61, 0.6, 0.62]),
  ];
  for (const r of apart) for (const c of r.cases) Object.assign(c.time!, { df: 5 });
  const many = [...Array.from({ length: 3 }, (_, i) => apart[i])];
  const judged = judge(coverage(many).time, 500);
  assert.equal(judged.verdict, 'consistent', 'two cases only: the bootstrap cannot tell');
  assert.match(
    renderCoverage(coverage(many)),
    /^ {2}expected 99\.\d%, observed 66\.7% \(2 cases with df\): −3\d\.\d points/m,
  );
  // without df (files written before ratioDf): no expectation, said so
  assert.match(renderCoverage(coverage(apart)), /ratio: [^\n]*\n {2}expected: no expectation/);
});

test('judge: 99% intervals labelled 99.9% across 40 cases read short; honest ones consistent; far wider ones wide', () => {
  /** 40 cases of 30 ordered pairs (6 runs); `missed` of them miss one pair each */
  const metric = (missed: number, expected: number) => {
    const cases = Array.from({ length: 40 }, (_, i) => ({
      id: `c${i}`,
      caseClass: 'serialize',
      pairs: 30,
      covered: i < missed ? 29 : 30,
      expected: 30 * expected,
      runs: [],
    }));
    const sum = (f: (k: (typeof cases)[number]) => number) => cases.reduce((n, k) => n + f(k), 0);
    return {
      pairs: sum((k) => k.pairs),
      covered: sum((k) => k.covered),
      expected: sum((k) => k.expected),
      expectedPairs: sum((k) => k.pairs),
      byClass: {},
      cases,
    };
  };
  // df 5: expected 99.5%, 6 of 1,200 pairs missed; a 99% interval labelled 99.9% misses ~3.5% (42): short
  assert.equal(judge(metric(40, 0.995)).verdict, 'short');
  assert.equal(judge(metric(6, 0.995)).verdict, 'consistent');
  // not one of 1,200 pairs missed where honest intervals miss 6 on average (e⁻⁶ = 0.25% of the time): wider than needed
  assert.equal(judge(metric(0, 0.995)).verdict, 'wide');
  // expected 90% (say, intervals labelled 90%) but all but 2 pairs covered: wide
  assert.equal(judge(metric(2, 0.9)).verdict, 'wide');
});
