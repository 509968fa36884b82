import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  confidenceHalfWidth,
  estimate,
  logRatioInterval,
  meanOf,
  medianOf,
  medianRelativeError,
  relativeError,
  tCritical,
} from '../../src/stats/estimate.js';

/** |actual − expected| ≤ tolerance, with both numbers in the message. */
function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: got ${actual}, expected ${expected} ± ${tolerance}`);
}

/**
 * Upper critical values t(p, ν) of Student's t, as printed (3 decimals) in the NIST/SEMATECH
 * e-Handbook of Statistical Methods, table 1.3.6.7.2, and every textbook t table. `tCritical`
 * takes the two-sided confidence c, so p = 1 − (1 − c)/2: c = 0.95 → p = 0.975, c = 0.999 → p = 0.9995.
 */
const T_TABLE: { confidence: number; p: number; dof: number; t: number }[] = [
  { confidence: 0.95, p: 0.975, dof: 1, t: 12.706 },
  { confidence: 0.95, p: 0.975, dof: 9, t: 2.262 },
  { confidence: 0.95, p: 0.975, dof: 30, t: 2.042 },
  { confidence: 0.9, p: 0.95, dof: 5, t: 2.015 },
  { confidence: 0.99, p: 0.995, dof: 10, t: 3.169 },
  { confidence: 0.999, p: 0.9995, dof: 1, t: 636.619 },
  { confidence: 0.999, p: 0.9995, dof: 4, t: 8.61 },
  { confidence: 0.999, p: 0.9995, dof: 9, t: 4.781 },
  { confidence: 0.999, p: 0.9995, dof: 29, t: 3.659 },
  { confidence: 0.999, p: 0.9995, dof: 100, t: 3.39 },
];

for (const row of T_TABLE) {
  test(`t(${row.p}, ${row.dof}) matches the printed table value ${row.t}`, () => {
    // the table rounds to 3 decimals, so the exact value lies within half a unit of the last place
    near(tCritical(row.confidence, row.dof), row.t, 0.0005 + 1e-9, `tCritical(${row.confidence}, ${row.dof})`);
  });
}

test('t has no critical value below one degree of freedom (Infinity: no interval from one sample)', () => {
  assert.equal(tCritical(0.999, 0), Infinity);
});

/**
 * NIST StRD univariate data set "Michelso" (Michelson's 1879 speed-of-light measurements,
 * 100 values in 1000 km/s, lower difficulty). Certified values: mean 299.852400000000,
 * standard deviation 0.0790105478190518 (and lag-1 autocorrelation 0.535199668621283, which
 * checks the order of the values below). Written here as (value − 299) × 1000 to keep it short.
 */
const MICHELSO = [
  850, 740, 900, 1070, 930, 850, 950, 980, 980, 880, 1000, 980, 930, 650, 760, 810, 1000, 1000, 960, 960, 960, 940, 960,
  940, 880, 800, 850, 880, 900, 840, 830, 790, 810, 880, 880, 830, 800, 790, 760, 800, 880, 880, 880, 860, 720, 720,
  620, 860, 970, 950, 880, 910, 850, 870, 840, 840, 850, 840, 840, 840, 890, 810, 810, 820, 800, 770, 760, 740, 750,
  760, 910, 920, 890, 860, 880, 720, 840, 850, 850, 780, 890, 840, 780, 810, 760, 810, 790, 810, 820, 850, 870, 870,
  810, 740, 810, 940, 950, 800, 810, 870,
].map((v) => 299 + v / 1000);

test('NIST StRD Michelso: the mean and standard deviation match the certified values to 12 significant digits', () => {
  assert.equal(MICHELSO.length, 100);
  const e = estimate(MICHELSO, 0.999);
  assert.equal(e.n, 100);
  near(e.mean, 299.8524, 299.8524 * 1e-12, 'mean');
  near(e.stddev, 0.0790105478190518, 0.0790105478190518 * 1e-12, 'stddev');
  near(meanOf(MICHELSO), 299.8524, 299.8524 * 1e-12, 'meanOf');
});

test('NIST StRD Michelso: median, min and max are the 50th/51st, first and last order statistics', () => {
  // sorted, the 50th and 51st values are both 299.85 (R's median(morley$Speed) is 850 too)
  const e = estimate(MICHELSO, 0.999);
  near(e.median, 299.85, 1e-12, 'median');
  near(medianOf(MICHELSO), 299.85, 1e-12, 'medianOf');
  near(e.min, 299.62, 1e-12, 'min');
  near(e.max, 300.07, 1e-12, 'max');
});

test('built like NIST StRD NumAcc4 (1e7 + 0.2, then 500 × (1e7 + 0.1, 1e7 + 0.3)): mean 10000000.2, stddev 0.1 despite the large offset', () => {
  const xs = [10000000.2];
  for (let i = 0; i < 500; i++) xs.push(10000000.1, 10000000.3);
  const e = estimate(xs, 0.999);
  assert.equal(e.n, 1001);
  near(e.mean, 10000000.2, 1e-7, 'mean');
  // NIST certifies 0.1; a one-pass sum-of-squares formula loses every digit here
  near(e.stddev, 0.1, 1e-8, 'stddev');
});

test('the CI half-width is t·s/√n: 1..10 at 95% is 2.262 × 3.0277 / √10 = 2.1659', () => {
  const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const s = Math.sqrt(55 / 6); // Σ(x − 5.5)² = 82.5, / 9
  const expected = (2.262 * s) / Math.sqrt(10);
  // tolerance: the table's rounding of t (±0.0005) times s/√n
  near(confidenceHalfWidth(xs, 0.95), expected, (0.0005 * s) / Math.sqrt(10) + 1e-12, 'half-width');
  near(estimate(xs, 0.95).error, expected, (0.0005 * s) / Math.sqrt(10) + 1e-12, 'estimate().error');
  near(relativeError(xs, 0.95), expected / 5.5, (0.0005 * s) / Math.sqrt(10) / 5.5 + 1e-12, 'relativeError');
});

test('the 99.9% CI half-width of 5 samples uses t(0.9995, 4) = 8.610', () => {
  const xs = [10, 12, 11, 9, 13]; // mean 11, Σ(x − 11)² = 10, s = √2.5
  const sOverRootN = Math.sqrt(2.5) / Math.sqrt(5);
  near(confidenceHalfWidth(xs, 0.999), 8.61 * sOverRootN, 0.0005 * sOverRootN + 1e-12, 'half-width');
});

test('identical samples have zero stddev and zero error (a fake clock reaches the target at once)', () => {
  const e = estimate([7, 7, 7, 7], 0.999);
  assert.equal(e.stddev, 0);
  assert.equal(e.error, 0);
  assert.equal(relativeError([7, 7, 7, 7], 0.999), 0);
});

test('one sample has no spread and an infinite error; none throws', () => {
  const e = estimate([42], 0.999);
  assert.deepEqual([e.n, e.mean, e.median, e.stddev, e.error, e.min, e.max], [1, 42, 42, 0, Infinity, 42, 42]);
  assert.equal(confidenceHalfWidth([42], 0.999), Infinity);
  assert.throws(() => estimate([], 0.999), /no samples/);
});

/**
 * Tukey's fences by hand. simple-statistics' quantile of n = 12 sorted values at p = 0.25 is the
 * mean of the 3rd and 4th values (n·p = 3 is whole and n is even), at p = 0.75 of the 9th and 10th.
 * Sorted: −9, 0.25, 4, 4, 5, 5, 5, 6, 6, 7, 10.25, 30 → Q1 = 4, Q3 = 6.5, IQR = 2.5,
 * fences 4 − 3.75 = 0.25 and 6.5 + 3.75 = 10.25. Values on a fence are not outliers.
 */
test("Tukey's fences: one low and one high outlier; the values exactly on the fences are kept in", () => {
  const xs = [5, 30, 4, 6, -9, 5, 10.25, 7, 4, 0.25, 6, 5];
  const e = estimate(xs, 0.999);
  assert.deepEqual(e.outliers, { low: 1, high: 1 });
  // every statistic still includes them
  assert.equal(e.n, 12);
  assert.equal(e.min, -9);
  assert.equal(e.max, 30);
  near(e.mean, 73.5 / 12, 1e-12, 'mean');
});

test("Tukey's fences: moving a value past a fence makes it an outlier", () => {
  const xs = [5, 30, 4, 6, -9, 5, 10.26, 7, 4, 0.24, 6, 5];
  assert.deepEqual(estimate(xs, 0.999).outliers, { low: 2, high: 2 });
});

test('Michelso has 3 outliers by Tukey (299.62, 299.65 low; 300.07 high)', () => {
  // quantiles of n = 100 at p = 0.25 and 0.75: means of the 25th/26th (299.80, 299.80) and
  // 75th/76th (299.89, 299.89) values → IQR 0.09, fences 299.665 and 300.025
  assert.deepEqual(estimate(MICHELSO, 0.999).outliers, { low: 2, high: 1 });
});

test('a ratio interval is computed on the log scale: asymmetric, above 0, around the reported ratio', () => {
  const ratios = [0.2, 0.5, 0.3, 0.9, 0.25, 0.6];
  const logs = ratios.map(Math.log);
  const m = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / (logs.length - 1));
  const h = (tCritical(0.999, 5) * sd) / Math.sqrt(6);
  const iv = logRatioInterval(ratios, 0.4, 0.999)!;
  assert.ok(Math.abs(iv[0] - 0.4 * Math.exp(-h)) < 1e-12 && Math.abs(iv[1] - 0.4 * Math.exp(h)) < 1e-12, String(iv));
  assert.ok(iv[0] > 0 && 0.4 - iv[0] < iv[1] - 0.4, 'asymmetric: longer above');
  assert.equal(logRatioInterval([0.5], 0.5, 0.999), null, 'one ratio: no interval');
  assert.equal(logRatioInterval([0.5, 0], 0.5, 0.999), null, 'a ratio of 0 has no log');
});

test('medianOf (stats/median.ts, kept free of jStat for the worker) equals jStat.median on odd, even, unsorted and repeated values', async () => {
  const jstatModule = (await import('jstat')).default as unknown as {
    jStat?: { median(xs: number[]): number };
    median(xs: number[]): number;
  };
  const jStat = jstatModule.jStat ?? jstatModule;
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let n = 1; n <= 40; n++) {
    const xs = Array.from({ length: n }, () => (n % 3 === 0 ? Math.floor(next() * 4) : next() * 1e6 - 5e5));
    assert.equal(medianOf(xs), jStat.median(xs), `n=${n}`);
  }
  assert.throws(() => medianOf([]), /no values/);
});

test('medianRelativeError: the MAD-based error, and where more than half the values tie (MAD 0), the mean absolute deviation’s', () => {
  // [1, 2, 3, 4, 5]: median 3, MAD 1 → 1.4826 · 1.2533 / √5 / 3
  near(medianRelativeError([1, 2, 3, 4, 5]), (1.4826 * 1.2533) / Math.sqrt(5) / 3, 1e-12, 'MAD-based');
  // [1, 1, 1, 1, 2, 3]: median 1, MAD 0; mean |x − 1| = 3/6 → SD 1.2533 · 0.5, error · 1.2533 / √6 / 1
  const tied = medianRelativeError([1, 1, 1, 1, 2, 3]);
  near(tied, (1.2533 * 0.5 * 1.2533) / Math.sqrt(6), 1e-12, 'ties: from the mean absolute deviation');
  assert.ok(tied > 0, 'not 0: ties do not make an exact median');
  assert.equal(medianRelativeError([2, 2, 2, 2]), 0, 'every value the same: 0');
  assert.equal(medianRelativeError([1, 2]), Infinity);
  assert.equal(medianRelativeError([-1, 0, 0]), Infinity, 'a median that is not positive');
});
