// Smyth's d₀ and s₀² per measure (time, ratio) from recorded runs: the evidence for the run prior's
// cap on d₀ (stats/intervals.ts PRIOR_DF_MAX_BY_MEASURE). Each recorded run is re-assembled into its
// groups as run/assemble.ts does (groupLaunchSpread: a group's launch-to-launch variance of the log
// launch values, with its df), and Smyth's moment estimator is applied to the groups' variances of
// one target (G. K. Smyth, "Linear models and empirical Bayes methods for assessing differential
// expression in microarray experiments", Stat. Appl. Genet. Mol. Biol. 3(1), 2004, §6.2: with
// zᵍ = ln sᵍ² and eᵍ = zᵍ − ψ(dᵍ/2) + ln(dᵍ/2), ψ′(d₀/2) = mean over g of (eᵍ − ē)²·G/(G − 1) − ψ′(dᵍ/2),
// s₀² = exp(ē + ψ(d₀/2) − ln(d₀/2)); d₀ = ∞ when the right side is ≤ 0).
// node build/studies/interval-coverage/prior-df.js [files …]  (default: the quiet fixtures in test/fixtures/stats/)
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { groupLaunchSpread, type CaseRecord } from '../../src/run/assemble.js';
import { recordedGroups, type RecordedCase } from '../../src/run/recorded.js';
import { load, studyArgs } from '../lib/lib.js';
import jstatModule from 'jstat';

const jStat = ((jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule) as unknown as {
  chisquare: { sample(df: number): number };
};

/** ψ(x), the digamma function: recurrence up to x ≥ 6, then the asymptotic series. */
export function digamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/** ψ′(x), the trigamma function: recurrence up to x ≥ 6, then the asymptotic series. */
export function trigamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r += 1 / (x * x);
    x += 1;
  }
  const f = 1 / (x * x);
  return r + 1 / x + f / 2 + (f / x) * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f / 30)));
}

/** The x with ψ′(x) = y (y > 0), by Smyth's Newton iteration on 1/ψ′ (limma's trigammaInverse). */
export function trigammaInverse(y: number): number {
  if (y > 1e7) return 1 / Math.sqrt(y);
  if (y < 1e-6) return 1 / y;
  let x = 0.5 + 1 / y;
  for (let i = 0; i < 50; i++) {
    const tri = trigamma(x);
    const dif = (tri * (1 - tri / y)) / psi2(x);
    x += dif;
    if (-dif / x < 1e-8) break;
  }
  return x;
}

/** ψ″(x), the tetragamma function (the derivative of ψ′), for the Newton step. */
function psi2(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 2 / (x * x * x);
    x += 1;
  }
  const f = 1 / (x * x);
  return r - 1 / (x * x) - 1 / (x * x * x) - f * f * (1 / 2 - f * (1 / 6 - f * (1 / 6 - (3 * f) / 10)));
}

/** Smyth's moment estimate of d₀ and s₀² from variances `v` with df `d` (§6.2). */
export function smythFit(
  v: readonly number[],
  d: readonly number[],
  strata?: readonly string[],
): { d0: number; s0: number; groups: number } {
  const G = v.length;
  const e = v.map((x, i) => Math.log(x) - digamma(d[i] / 2) + Math.log(d[i] / 2));
  const ebar = e.reduce((s, x) => s + x, 0) / G;
  // with strata (classes), each centred on its own mean (a common d₀, an s₀² per class): G − strata df
  const keys = strata ?? e.map(() => '');
  const means = new Map<string, number>();
  for (const k of new Set(keys)) {
    const xs = e.filter((_, i) => keys[i] === k);
    means.set(k, xs.reduce((s, x) => s + x, 0) / xs.length);
  }
  const rhs =
    e.reduce((s, x, i) => s + (x - means.get(keys[i])!) ** 2, 0) / (G - means.size) -
    d.reduce((s, x) => s + trigamma(x / 2), 0) / G;
  const d0 = rhs > 0 ? 2 * trigammaInverse(rhs) : Infinity;
  const s0 = Number.isFinite(d0) ? Math.exp(ebar + digamma(d0 / 2) - Math.log(d0 / 2)) : Math.exp(ebar);
  return { d0, s0, groups: G };
}

/** A recorded run's groups as run/assemble.ts sees them (a fixture's slimmed cases, or a results.json's measured cases). */
function groupsOf(file: string): CaseRecord[][] {
  const buf = readFileSync(file);
  const raw = JSON.parse((file.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8')) as { cases: RecordedCase[] };
  return recordedGroups(raw.cases);
}

/** One measure's fit as text: pooled over the target's groups, and with each class centred on its own mean. */
function fitText(es: readonly [number, number, string][]): string {
  const f = (strata?: string[]) =>
    smythFit(
      es.map((e) => e[0]),
      es.map((e) => e[1]),
      strata,
    );
  const a = f();
  const b = f(es.map((e) => e[2]));
  const sd = (s0: number) => `${(100 * Math.sqrt(s0)).toFixed(2)}%`;
  return `${es.length} groups, d₀ ${a.d0.toFixed(2)} (s₀ ${sd(a.s0)} log SD); classes centred: d₀ ${b.d0.toFixed(2)}`;
}

const here = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const { values: opt, positionals } = studyArgs(
  `node build/studies/interval-coverage/prior-df.js [--check] [files …]
  Smyth's moment estimate of d₀ (and s₀) per measure from recorded runs' groups (results.json, or the
  slimmed fixtures test/fixtures/stats/quiet-default-run*.json.gz, the default).
  --check  first, the estimator on 20,000 groups drawn from Smyth's model (d₀ = 2, 4, 10; df 1–3 each)`,
  { check: { type: 'boolean', default: false } },
  true,
);
console.log(`# prior-df; load ${load()}`);
if (opt.check)
  for (const d0 of [2, 4, 10]) {
    const v: number[] = [];
    const d: number[] = [];
    for (let g = 0; g < 20_000; g++) {
      const dg = 1 + (g % 3);
      const s2 = (0.01 * d0) / jStat.chisquare.sample(d0);
      v.push((s2 * jStat.chisquare.sample(dg)) / dg);
      d.push(dg);
    }
    const fit = smythFit(v, d);
    console.log(`check: Smyth-model draws d₀ = ${d0}, s₀² = 0.01 → d₀ ${fit.d0.toFixed(2)}, s₀² ${fit.s0.toFixed(4)}`);
  }
const files = positionals.length
  ? positionals
  : [here('test/fixtures/stats/quiet-default-run.json.gz'), here('test/fixtures/stats/quiet-default-run-2.json.gz')];
const all: { time: [number, number, string][]; ratio: [number, number, string][] } = { time: [], ratio: [] };
for (const f of files) {
  const spreads = groupsOf(f).map(groupLaunchSpread);
  for (const m of ['time', 'ratio'] as const) {
    const es = spreads
      .filter((s) => s[m] !== undefined && s[m].variance > 0 && s[m].df > 0)
      .map((s): [number, number, string] => [s[m]!.variance, s[m]!.df, `${s.target} ${s.caseClass}`]);
    all[m].push(...es);
    console.log(`${f.split('/').pop()} ${m.padEnd(5)}: ${fitText(es)}`);
  }
}
if (files.length > 1)
  for (const m of ['time', 'ratio'] as const) console.log(`all runs ${m.padEnd(5)}: ${fitText(all[m])}`);
