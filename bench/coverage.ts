/**
 * `npm run bench:coverage`: do the error bars hold from run to run (issue 23)? Runs `jsonbench run`
 * N times (default 6) on a fixed small set — weather-station and users at sizes 1 and 100, both
 * directions, the default policy and profile, no probes — then holds each run's 99.9% intervals
 * against the other runs' values, case by case, over every ordered pair of runs (i, j), i ≠ j:
 * - time: run j's Mean inside run i's Mean ± Error;
 * - ratio: run j's ratio inside run i's [low–high] interval.
 * What honest intervals give depends on their df and widths: two 99.9% intervals alike contain
 * each other's centre 98.0% of the time with large df, 99.5% with df 5 ({@link expectedPairCoverage}),
 * so the old fixed targets (≥ 95% time, ≥ 97% ratio) passed a 99% interval labelled 99.9%. Each
 * pair's expected coverage is derived from the two intervals' df (`time.df`, `ratioDf`) and widths,
 * and the observed coverage is judged against their mean with a bootstrap by case ({@link judge}):
 * short, consistent or wide. Prints that verdict per metric (the fixed target beside it), the
 * coverage per class against its expectation, the worst cases, each run's load average
 * (start/end) and the command; writes coverage.json beside the runs.
 *
 * Flags: --runs <n> (default 6), --out <dir> (default: a temporary folder; run i in <dir>/run-i/),
 * --from <dir> (analyse the results.json files of <dir>/run-*\/ without running), --reassemble
 * (recompute every measured case's statistics from its raw launches with this build's
 * run/assemble.ts before holding them, so files written by another build are judged by this one's
 * intervals), --worst <n> (cases listed per metric, default 8). Each run's line is followed by its
 * precision ({@link precisionLine}: ratio half-width median and p90, `--resolve` states, ⚠ noisy). Extra arguments after `--` go to every `jsonbench run`
 * (e.g. `-- --profile steady`).
 */
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { MeasuredCase, ResultsFile } from '../src/results/types.js';
import { isMeasured } from '../src/results/types.js';
import { ratioIntervalOf, timeIntervalOf } from '../src/results/ratio.js';
import { resolution } from '../src/stats/intervals.js';
import jstatModule from 'jstat';
import { reassembleGroups, recordedGroups } from '../src/run/recorded.js';
import { mulberry32 as uniform } from '../src/stats/mulberry32.js'; // the seeded uniform draws, one generator for the studies, benches and tests

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

const bin = fileURLToPath(new URL('../../bin/jsonbench.js', import.meta.url));

/** The fixed set every run measures. */
export const COVERAGE_ARGS = [
  'run',
  '--policy',
  'default',
  '--workload',
  'weather-station,users',
  '--size',
  '1,100',
  '--no-probes',
  '--no-ledger',
];

/**
 * The old fixed targets (share of other runs' values inside each run's interval), printed beside
 * the expected coverage: they cannot tell a 99% interval labelled 99.9% from an honest one
 * ({@link expectedPairCoverage}), so the verdict is {@link judge}'s.
 */
export const TARGETS = { time: 0.95, ratio: 0.97 } as const;

/** One case's coverage in one metric: ordered pairs held, pairs covered, and each run's value and interval. */
export interface CaseCoverage {
  id: string;
  caseClass: string;
  pairs: number;
  covered: number;
  /** Σ over its pairs of the coverage two honest intervals of these widths and df give ({@link expectedPairCoverage}); NaN where a df is unknown */
  expected: number;
  /** per run: [value, low, high] */
  runs: [number, number, number][];
}

/** Coverage of one metric: overall, per class, and per case (worst first). */
export interface MetricCoverage {
  pairs: number;
  covered: number;
  /** Σ of the pairs' expected coverage ({@link expectedPairCoverage}) over the pairs whose df are known */
  expected: number;
  /** pairs with an expected coverage (both runs' df known) */
  expectedPairs: number;
  byClass: Record<string, { pairs: number; covered: number; expected: number; expectedPairs: number }>;
  cases: CaseCoverage[];
}

/** One run's interval of a case on the scale it is symmetric on: centre, half-width, df (NaN when unknown) and confidence. */
export interface ScaledInterval {
  centre: number;
  half: number;
  df: number;
  confidence: number;
}

/**
 * The share of pairs in which run j's value falls inside run i's interval when both are honest
 * t-intervals of one quantity from independent runs: c_j − c_i ~ N(0, σ_i² + σ_j²) and run i's
 * half-width is t_i·s_i with s_i²/σ_i² ~ χ²(df_i)/df_i independent of it, so the share is
 * P(|T_df_i| ≤ t_i / √(1 + σ_j²/σ_i²)), σ_j²/σ_i² read off the two intervals (s = half-width ÷
 * t(confidence, df) each; a plug-in: the ratio's own sampling variation is left out). Two 99.9%
 * intervals alike with df 5: P(|T₅| ≤ 6.87/√2) = 99.54% — not the ~98% of large df, and a 99%
 * interval labelled 99.9% reads ~96.5% honest draws against it, which the old fixed targets
 * (≥ 95% time, ≥ 97% ratio) passed. NaN when a df or a width is not finite and positive.
 */
export function expectedPairCoverage(i: ScaledInterval, j: ScaledInterval): number {
  const t = (x: ScaledInterval) => jStat.studentt.inv(1 - (1 - x.confidence) / 2, x.df);
  if (![i.df, j.df, i.half, j.half].every((x) => Number.isFinite(x) && x > 0)) return Number.NaN;
  const ti = t(i);
  const r2 = (j.half / t(j) / (i.half / ti)) ** 2;
  return 1 - 2 * (1 - jStat.studentt.cdf(ti / Math.sqrt(1 + r2), i.df));
}

/** A case's value and interval in one run, as {@link coverage} holds them: [value, low, high] and the interval on its symmetric scale. */
interface Held {
  value: [number, number, number];
  scaled: ScaledInterval;
}

/** Each run's time and ratio of one case as {@link Held} (ratios of paired cases with an interval only; on the log scale). */
function heldOf(
  cases: readonly MeasuredCase[],
  confidence: ReadonlyMap<MeasuredCase, number>,
): { time: Held[]; ratio: Held[] } {
  // time on the scale its interval is symmetric on: the log scale with a recorded interval (since
  // branch stats5, error = mean × log half-width), else linear (files before it: mean ± error)
  const time = cases.map((c): Held => {
    const iv = timeIntervalOf(c.time) ?? [0, Infinity];
    const log = c.time.interval !== undefined && c.time.mean > 0;
    return {
      value: [c.time.mean, iv[0], iv[1]],
      scaled: {
        centre: log ? Math.log(c.time.mean) : c.time.mean,
        half: log ? c.time.error / c.time.mean : c.time.error,
        df: c.time.df ?? Number.NaN,
        confidence: confidence.get(c)!,
      },
    };
  });
  const ratio = cases
    .filter((c) => c.ratio !== null && c.serializer !== c.baseline)
    .map((c): Held | null => {
      const iv = ratioIntervalOf(c);
      if (!iv) return null;
      return {
        value: [c.ratio!, iv[0], iv[1]],
        scaled: {
          centre: Math.log(c.ratio!),
          half: Math.log(iv[1] / iv[0]) / 2,
          df: c.ratioDf ?? Number.NaN,
          confidence: confidence.get(c)!,
        },
      };
    })
    .filter((x): x is Held => x !== null);
  return { time, ratio };
}

/**
 * Holds each run's interval against the other runs' values (see the module's docstring), per
 * metric. A case counts only where it was measured in at least 2 runs; a ratio only where paired
 * (not the baseline's own case) with an interval. Cases are listed worst first.
 * @param runs the results files, one per run
 */
export function coverage(runs: readonly ResultsFile[]): { time: MetricCoverage; ratio: MetricCoverage } {
  const ids = [...new Set(runs.flatMap((r) => r.cases.map((c) => c.id)))];
  const empty = (): MetricCoverage => ({ pairs: 0, covered: 0, expected: 0, expectedPairs: 0, byClass: {}, cases: [] });
  const out = { time: empty(), ratio: empty() };
  for (const id of ids) {
    const confidence = new Map<MeasuredCase, number>();
    const cases = runs
      .map((r) => {
        const c = r.cases.find((x) => x.id === id);
        if (c && isMeasured(c)) confidence.set(c, r.policy?.measure?.confidence ?? 0.999);
        return c;
      })
      .filter((c): c is MeasuredCase => c !== undefined && isMeasured(c));
    if (cases.length < 2) continue;
    const { time, ratio } = heldOf(cases, confidence);
    for (const [metric, held] of [
      ['time', time],
      ['ratio', ratio],
    ] as const) {
      if (held.length < 2) continue;
      let pairs = 0;
      let covered = 0;
      let expected = 0;
      let expectedPairs = 0;
      for (const [i, hi] of held.entries())
        for (const [j, hj] of held.entries()) {
          if (i === j) continue;
          pairs++;
          const [, low, high] = hi.value;
          const v = hj.value[0];
          if (low <= v && v <= high) covered++;
          const e = expectedPairCoverage(hi.scaled, hj.scaled);
          if (Number.isFinite(e)) {
            expected += e;
            expectedPairs++;
          }
        }
      const m = out[metric];
      const cls = cases[0].class;
      m.pairs += pairs;
      m.covered += covered;
      m.expected += expected;
      m.expectedPairs += expectedPairs;
      m.byClass[cls] ??= { pairs: 0, covered: 0, expected: 0, expectedPairs: 0 };
      m.byClass[cls].pairs += pairs;
      m.byClass[cls].covered += covered;
      m.byClass[cls].expected += expected;
      m.byClass[cls].expectedPairs += expectedPairs;
      m.cases.push({
        id,
        caseClass: cls,
        pairs,
        covered,
        expected: expectedPairs === pairs ? expected : Number.NaN,
        runs: held.map((h) => h.value),
      });
    }
  }
  for (const m of [out.time, out.ratio]) m.cases.sort((a, b) => a.covered / a.pairs - b.covered / b.pairs);
  return out;
}

/**
 * A results file with every measured case's statistics recomputed from its raw launches by this
 * build's run/assemble.ts (assembleGroup, per group: same workload, size, shape, direction, class and
 * target, with the run's other groups' prior as the runner lends it: runPriorsInOrder), as a run
 * of this build would have written them; other cases as they are.
 */
export function reassemble(r: ResultsFile): ResultsFile {
  const rebuilt = new Map<string, ResultsFile['cases'][number]>();
  for (const group of reassembleGroups(recordedGroups(r.cases.filter(isMeasured)), r.policy.measure))
    for (const c of group) rebuilt.set(c.id, c);
  return { ...r, cases: r.cases.map((c) => rebuilt.get(c.id) ?? c) };
}

const pct = (covered: number, pairs: number) => (pairs ? `${((100 * covered) / pairs).toFixed(1)}%` : '—');
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toPrecision(3));

/** Expected against observed coverage of one metric, with a bootstrap interval of their difference ({@link judge}). */
export interface CoverageVerdict {
  observed: number;
  expected: number;
  /** observed − expected over the cases with an expected coverage, and its 95% bootstrap interval (cases resampled) */
  difference: number;
  low: number;
  high: number;
  /** `short`: below the null band and the bootstrap interval below 0 (the intervals do not hold from run to run as their widths and df say); `wide`: above both; else `consistent` */
  /** the 95% band of the difference honest intervals would show (each pair covered with its expected probability) */
  nullLow: number;
  nullHigh: number;
  verdict: 'short' | 'consistent' | 'wide' | 'no expectation';
  cases: number;
}

/**
 * Observed against expected coverage of one metric: the expected share is the mean over the
 * ordered pairs of {@link expectedPairCoverage} (what honest intervals of these widths and df
 * give), over the cases whose every pair has one. Two spreads, `resamples` draws each, seeded:
 * - the benchmark's own interval of the difference (observed − expected): the percentile
 *   bootstrap over cases (B. Efron & R. Tibshirani, "An Introduction to the Bootstrap", 1993,
 *   ch. 13; cases resampled, because a case's pairs share its runs and are not independent);
 * - what honest intervals would show: each pair covered with its expected probability (a
 *   parametric bootstrap of the null; pairs drawn independently), its 2.5–97.5% band of the
 *   difference (`nullLow`, `nullHigh`). With few runs every case may cover all its pairs, and
 *   the case bootstrap then has no spread at all: the null band says whether that is surprising.
 * The verdict: `short` when the difference lies below the null band and its bootstrap interval
 * below 0; `wide` when above both; else `consistent`.
 */
export function judge(m: MetricCoverage, resamples = 2000, seed = 23): CoverageVerdict {
  const cases = m.cases.filter((k) => Number.isFinite(k.expected));
  const sum = (ks: readonly CaseCoverage[]) =>
    ks.reduce(
      (a, k) => ({ pairs: a.pairs + k.pairs, covered: a.covered + k.covered, expected: a.expected + k.expected }),
      {
        pairs: 0,
        covered: 0,
        expected: 0,
      },
    );
  const all = sum(cases);
  if (!all.pairs)
    return {
      observed: Number.NaN,
      expected: Number.NaN,
      difference: Number.NaN,
      low: Number.NaN,
      high: Number.NaN,
      nullLow: Number.NaN,
      nullHigh: Number.NaN,
      verdict: 'no expectation',
      cases: 0,
    };
  const u = uniform(seed);
  const diffs: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const s = sum(Array.from({ length: cases.length }, () => cases[Math.floor(u() * cases.length)]));
    diffs.push((s.covered - s.expected) / s.pairs);
  }
  const low = quantile(diffs, 0.025);
  const high = quantile(diffs, 0.975);
  const nulls: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let covered = 0;
    for (const k of cases) for (let i = 0; i < k.pairs; i++) if (u() < k.expected / k.pairs) covered++;
    nulls.push((covered - all.expected) / all.pairs);
  }
  const nullLow = quantile(nulls, 0.025);
  const nullHigh = quantile(nulls, 0.975);
  const difference = (all.covered - all.expected) / all.pairs;
  return {
    observed: all.covered / all.pairs,
    expected: all.expected / all.pairs,
    difference,
    low,
    high,
    nullLow,
    nullHigh,
    verdict: difference < nullLow && high < 0 ? 'short' : difference > nullHigh && low > 0 ? 'wide' : 'consistent',
    cases: cases.length,
  };
}

const VERDICT_TEXT = {
  short: 'short: fewer pairs covered than honest intervals of these widths and df give',
  consistent: 'consistent with honest intervals',
  wide: 'more pairs covered than these widths and df give (wider than needed, or the runs agree more than their intervals say)',
  'no expectation': 'no expectation (no df recorded: files written before ratioDf; try --reassemble)',
} as const;

/**
 * The printed report of {@link coverage}: per metric, the observed coverage against the expected
 * ({@link judge}: what honest intervals of the recorded widths and df give, with a bootstrap
 * interval of the difference and a verdict), against the old fixed target beside it, per class,
 * then the worst cases.
 */
export function renderCoverage(c: ReturnType<typeof coverage>, worst = 8): string {
  const lines: string[] = [];
  const p1 = (x: number) => `${(100 * x).toFixed(1)}%`;
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}${(100 * Math.abs(x)).toFixed(1)}`;
  for (const metric of ['time', 'ratio'] as const) {
    const m = c[metric];
    const target = TARGETS[metric];
    const met = m.pairs > 0 && m.covered / m.pairs >= target;
    lines.push(
      `${metric}: ${pct(m.covered, m.pairs)} of ${m.pairs} ordered pairs (${m.cases.length} cases) inside the other run's 99.9% interval; fixed target ≥ ${100 * target}%: ${met ? 'met' : 'missed'}`,
    );
    const v = judge(m);
    lines.push(
      v.verdict === 'no expectation'
        ? `  expected: ${VERDICT_TEXT[v.verdict]}`
        : `  expected ${p1(v.expected)}, observed ${p1(v.observed)} (${v.cases} cases with df): ${signed(v.difference)} points [${signed(v.low)}, ${signed(v.high)}] (95%, bootstrap by case; honest intervals: ${signed(v.nullLow)} to ${signed(v.nullHigh)}) — ${VERDICT_TEXT[v.verdict]}`,
    );
    for (const [cls, x] of Object.entries(m.byClass).sort())
      lines.push(
        `  class ${cls}: ${pct(x.covered, x.pairs)} of ${x.pairs}${x.expectedPairs ? ` (expected ${pct(x.expected, x.expectedPairs)})` : ''}`,
      );
    const bad = m.cases.filter((k) => k.covered < k.pairs).slice(0, worst);
    if (bad.length) lines.push(`  worst cases (value [low–high] per run${metric === 'time' ? ', ns/op' : ''}):`);
    for (const k of bad)
      lines.push(
        `    ${k.id}: ${pct(k.covered, k.pairs)}${Number.isFinite(k.expected) ? ` (expected ${pct(k.expected, k.pairs)})` : ''} — ${k.runs.map(([v, lo, hi]) => `${fmt(v)} [${fmt(lo)}–${fmt(hi)}]`).join(', ')}`,
      );
  }
  return lines.join('\n');
}

/** The `q` quantile (0–1) of `xs` by linear interpolation between order statistics. */
function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
}

/**
 * One run's precision, as docs/intervals.md compares builds: the median and 90th percentile of the
 * paired ratios' half-width on the log scale (ln(high/low)/2), the median time error ÷ mean, the
 * `--resolve` states of the ratio intervals (stats/intervals.ts resolution against `resolve`, the
 * band the run recorded, as the runner decides them: differs/within/unresolved) and the cases
 * flagged ⚠ noisy.
 */
export function precisionLine(r: ResultsFile, resolve: number): string {
  const measured = r.cases.filter(isMeasured);
  const paired = measured.filter((c) => c.ratio !== null && c.serializer !== c.baseline && c.ratioInterval);
  const hw = paired.map((c) => Math.log(c.ratioInterval![1] / c.ratioInterval![0]) / 2);
  const te = measured.map((c) => c.time.error / c.time.mean);
  const states = { differs: 0, within: 0, unresolved: 0 };
  for (const c of paired) states[resolution(c.ratioInterval ?? null, resolve, c.ratioBasis)]++;
  const p = (x: number) => `${(100 * x).toFixed(1)}%`;
  const noisy = measured.filter((c) => c.findings.some((f) => f.code === 'noisy')).length;
  return hw.length
    ? `ratio ± median ${p(quantile(hw, 0.5))}, p90 ${p(quantile(hw, 0.9))}; time error/mean median ${p(quantile(te, 0.5))}; differs/within/unresolved ${states.differs}/${states.within}/${states.unresolved}; ⚠ noisy ${noisy} of ${measured.length}`
    : `no paired ratio; ⚠ noisy ${noisy} of ${measured.length}`;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join('/');
const log = (s: string) => process.stdout.write(s + '\n');

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '6' },
      out: { type: 'string' },
      from: { type: 'string' },
      worst: { type: 'string', default: '8' },
      reassemble: { type: 'boolean', default: false },
    },
  });
  const n = Number(values.runs);
  if (!Number.isInteger(n) || n < 2) {
    process.stderr.write(`bench:coverage: --runs needs an integer ≥ 2, got ${values.runs}\n`);
    return 2;
  }
  const outDir = values.from ?? values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-coverage-'));
  const args = [...COVERAGE_ARGS, ...positionals];
  if (!values.from) {
    log(`jsonbench ${args.join(' ')} --out ${outDir}/run-<i>, ${n} runs (${cpus().length} cores)`);
    for (let i = 1; i <= n; i++) {
      const dir = join(outDir, `run-${i}`);
      mkdirSync(dir, { recursive: true });
      const before = load();
      const start = performance.now();
      const child = spawnSync(process.execPath, [bin, ...args, '--out', dir], {
        stdio: ['ignore', openSync(join(dir, 'table.txt'), 'w'), openSync(join(dir, 'stderr.txt'), 'w')],
      });
      log(
        `run ${i}: exit ${child.status ?? child.signal}, ${((performance.now() - start) / 1000).toFixed(0)} s, load ${before} → ${load()}`,
      );
    }
  }
  const dirs = readdirSync(outDir)
    .filter((d) => /^run-\d+$/.test(d) && existsSync(join(outDir, d, 'results.json')))
    .sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
  const read = dirs.map((d) => JSON.parse(readFileSync(join(outDir, d, 'results.json'), 'utf8')) as ResultsFile);
  const runs = values.reassemble ? read.map(reassemble) : read;
  if (values.reassemble) log("(statistics recomputed from each case's raw launches by this build's run/assemble.ts)");
  if (runs.length < 2) {
    process.stderr.write(`bench:coverage: fewer than 2 runs with a results.json in ${outDir}\n`);
    return 1;
  }
  for (const [i, r] of runs.entries()) {
    const l = r.environment.loadAverage;
    log(
      `${dirs[i]}: ${r.startedAt}, profile ${r.policy.profile ?? 'steady (not recorded)'}, policy ${r.policy.name}, load ${l.start.map((x) => x.toFixed(1)).join('/')} → ${(l.end ?? []).map((x) => x.toFixed(1)).join('/')}`,
    );
    const band = read[i].cases.find((c) => isMeasured(c) && c.resolution)?.resolution?.resolve ?? 0.02;
    log(`  ${precisionLine(r, band)}`);
  }
  const c = coverage(runs);
  log('');
  log(renderCoverage(c, Number(values.worst)));
  writeFileSync(join(outDir, 'coverage.json'), JSON.stringify(c, null, 2));
  log(`\n(coverage.json in ${outDir})`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
