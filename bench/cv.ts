import { meanOf } from '../src/stats/estimate.js';
import { sampleStandardDeviation } from '../src/stats/estimate.js';

/** Coefficient of variation of repeated results: sample stddev / mean (a fraction); NaN under 2 values. */
export function cv(xs: readonly number[]): number {
  if (xs.length < 2) return NaN;
  return sampleStandardDeviation([...xs]) / Math.abs(meanOf(xs));
}

/** One tool's repeated results for one pair: ratio and both sides' means (ns/op), one entry per run. */
export interface Series {
  ratio: number[];
  serializerNs: number[];
  baselineNs: number[];
}

/** `1.23%`, or `—` when there is no value. */
export function pct(x: number): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(2)}%` : '—';
}

/** ns/op with a unit that keeps 3–4 significant digits. */
export function renderNs(ns: number): string {
  if (!Number.isFinite(ns)) return '—';
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(3)} µs`;
  return `${ns.toFixed(1)} ns`;
}

/** A Markdown table (reads in a terminal too); the first row is the header. */
export function renderTable(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/**
 * The closing table: pair | jsonbench ratio CV | mitata ratio CV | tinybench ratio CV | means' CVs
 * (serializer / baseline for each tool, in that order), one row per pair.
 */
export function renderPrecisionTable(
  tools: readonly string[],
  byPair: ReadonlyMap<string, ReadonlyMap<string, Series>>,
): string {
  const rows = [
    ['pair', ...tools.map((t) => `${t} ratio CV`), `means' CVs (serializer / baseline: ${tools.join(', ')})`],
  ];
  for (const [pair, series] of byPair) {
    const get = (t: string) => series.get(t) ?? { ratio: [], serializerNs: [], baselineNs: [] };
    rows.push([
      pair,
      ...tools.map((t) => pct(cv(get(t).ratio))),
      tools.map((t) => `${pct(cv(get(t).serializerNs))} / ${pct(cv(get(t).baselineNs))}`).join('; '),
    ]);
  }
  return renderTable(rows);
}

/** Per-run values of one pair: one row per tool with its ratios and means, and their CVs. */
export function renderRuns(tools: readonly string[], series: ReadonlyMap<string, Series>): string {
  const rows = [['tool', 'ratio per run', 'ratio CV', 'serializer mean per run', 'CV', 'baseline mean per run', 'CV']];
  for (const t of tools) {
    const s = series.get(t);
    if (!s) continue;
    rows.push([
      t,
      s.ratio.map((r) => r.toFixed(3)).join(' '),
      pct(cv(s.ratio)),
      s.serializerNs.map(renderNs).join(', '),
      pct(cv(s.serializerNs)),
      s.baselineNs.map(renderNs).join(', '),
      pct(cv(s.baselineNs)),
    ]);
  }
  return renderTable(rows);
}

/**
 * What the benchmark itself adds to Linux's 1-minute load average while it runs: one process at a
 * time (the runner waiting on one worker, or one peer's process) keeps one core busy, so the
 * average climbs to ~1 within a minute of the start even on an idle machine. (The issue that set
 * the target called a run at load 1.2–1.7 "a quiet machine".)
 */
export const OWN_LOAD = 1;

/**
 * The load of everything but the benchmark, from the 1-minute load averages read at its start
 * (before it ran anything: taken as read) and at each later point (less {@link OWN_LOAD}, never
 * below 0). NaN readings (no /proc/loadavg) stay NaN.
 */
export function othersLoad(readings: readonly number[]): number[] {
  return readings.map((x, i) => (i === 0 ? x : Math.max(0, x - OWN_LOAD)));
}

/**
 * Issue 13's precision target for a run whose other processes' load ({@link othersLoad}) stayed
 * within [minLoad, maxLoad]: a ratio CV ≤ 1% when the machine is quiet (others' load < 1
 * throughout), ≤ 2% at load ≥ 8 (throughout); null between (neither condition holds, so the run
 * cannot show the target met or missed, only its figures).
 */
export function precisionTarget(minLoad: number, maxLoad: number): { limit: number; condition: string } | null {
  if (maxLoad < 1)
    return { limit: 0.01, condition: `quiet (others' load ${minLoad.toFixed(2)}–${maxLoad.toFixed(2)} < 1)` };
  if (minLoad >= 8)
    return { limit: 0.02, condition: `loaded (others' load ${minLoad.toFixed(2)}–${maxLoad.toFixed(2)} ≥ 8)` };
  return null;
}

/** One pair's ratio CVs for {@link peerVerdict}: jsonbench's and each peer tool's (fractions; NaN where a tool gave fewer than 2 ratios). */
export interface PairCvs {
  pair: string;
  jsonbench: number;
  peers: readonly { tool: string; cv: number }[];
}

/**
 * The target's second half, "jsonbench's ratio CV lower than every peer's on every pair", judged
 * over the pairs where some peer gave a CV (the .NET pairs have no peer unless BenchmarkDotNet ran),
 * naming the pairs it could not judge and, on a "no", each pair and peer jsonbench did not beat.
 * Shape: `yes on 3 pairs with a peer` / `no on 3 pairs with a peer (… ≥ mitata …)`, then
 * `; not judged on …` where pairs had none; `not judged: no pair has a peer's CV` when none had.
 */
export function peerVerdict(rows: readonly PairCvs[]): string {
  const withPeer = rows.map((r) => ({ ...r, peers: r.peers.filter((p) => Number.isFinite(p.cv)) }));
  const judged = withPeer.filter((r) => r.peers.length > 0 && Number.isFinite(r.jsonbench));
  const unjudged = withPeer.filter((r) => !judged.includes(r)).map((r) => r.pair);
  if (!judged.length) return `not judged: no pair has a peer's CV${unjudged.length ? ` (${unjudged.join(', ')})` : ''}`;
  const losses = judged.flatMap((r) =>
    r.peers
      .filter((p) => !(r.jsonbench < p.cv))
      .map((p) => `${r.pair}: jsonbench ${pct(r.jsonbench)} ≥ ${p.tool} ${pct(p.cv)}`),
  );
  const n = `${judged.length} pair${judged.length === 1 ? '' : 's'} with a peer`;
  return `${losses.length ? `no on ${n} (${losses.join('; ')})` : `yes on ${n}`}${unjudged.length ? `; not judged on ${unjudged.join(', ')} (no peer's CV)` : ''}`;
}
