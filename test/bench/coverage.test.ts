import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverage, precisionLine, renderCoverage } from '../../bench/coverage.js';
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
  assert.deepEqual(c.time.byClass, { serialize: { pairs: 12, covered: 8 } });
  assert.equal(c.time.cases[0].id, 'weather-station/1/single/serialize/fast-json-stringify', 'worst first');
  // the baseline's own case has no ratio to hold; fjs: run 3's wide interval covers both others, the others cover only run 3's 0.61 (run 1)
  assert.deepEqual([c.ratio.pairs, c.ratio.covered], [6, 3]);
  const text = renderCoverage(c);
  assert.match(
    text,
    /^time: 66\.7% of 12 ordered pairs \(2 cases\) inside the other run's 99\.9% interval; target ≥ 95%: missed$/m,
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
