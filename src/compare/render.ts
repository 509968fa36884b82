/**
 * Pure renderers of a {@link Comparison}: a terminal table (cli-table3) and a GitHub-flavoured
 * Markdown table for a pull-request comment. Both return text.
 */
import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { Change } from './change.js';
import type { CaseComparison, Comparison, MetricChange } from './compare.js';
import { formatBytes, formatTime } from '../report/units.js';

/** The columns of a comparison table. */
export const COMPARE_COLUMNS = ['Case', 'Serializer', 'Metric', 'Base', 'Head', 'Change', 'CI', 'p', 'Noise', 'Verdict'] as const;

/** Instructions per op with a unit chosen by magnitude: `812`, `15.2 k`, `3.41 M`. */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1e3) return n.toFixed(0);
  if (abs < 1e6) return `${(n / 1e3).toFixed(abs < 1e4 ? 2 : 1)} k`;
  return `${(n / 1e6).toFixed(abs < 1e7 ? 2 : 1)} M`;
}

function formatValue(m: MetricChange, x: number): string {
  return m.metric === 'time' ? formatTime(x) : m.metric === 'alloc' ? formatBytes(x) : formatCount(x);
}

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(Math.abs(x) < 10 ? 1 : 0)}%`;

function interval(ch: Change): string {
  return ch.ci ? `${pct(ch.ci.low)} … ${pct(ch.ci.high)}` : '—';
}

function noise(ch: Change): string {
  return ch.noiseFloor === null ? 'n/a' : Number.isFinite(ch.noiseFloor) ? `±${ch.noiseFloor.toFixed(ch.noiseFloor < 10 ? 1 : 0)}%` : '∞';
}

const SAME_BECAUSE = { 'not-significant': 'not significant', 'below-threshold': 'under threshold', 'within-noise': 'within noise', 'mixed-signals': 'mixed signals', 'slow-samples-only': 'slow samples only' } as const;

/** `faster`, `slower`, or `same (why)`. */
export function verdictText(ch: Change): string {
  return ch.verdict === 'same' && ch.sameBecause ? `same (${SAME_BECAUSE[ch.sameBecause]})` : ch.verdict;
}

function pValue(p: number | null): string {
  if (p === null) return 'n/a';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

const METRIC_LABEL = { time: 'time', alloc: 'allocated', instructions: 'instructions (callgrind)' } as const;

function serializerCell(k: CaseComparison): string {
  return k.baseVersion === k.headVersion ? k.serializer : `${k.serializer} (${k.baseVersion} → ${k.headVersion})`;
}

/** The cells of each row: one per case × metric. */
export function compareRows(c: Comparison): { cells: string[]; verdict: Change['verdict'] }[] {
  return c.cases.flatMap((k) => k.metrics.map((m) => ({
    verdict: m.change.verdict,
    cells: [
      `${k.workload} · ${k.size} · ${k.shape} · ${k.direction}`, serializerCell(k), METRIC_LABEL[m.metric],
      formatValue(m, m.change.baseMean), formatValue(m, m.change.headMean), pct(m.change.percent), interval(m.change), pValue(m.change.p), noise(m.change), verdictText(m.change),
    ],
  })));
}

/** The sentences under the table: the rule, the counts, the status changes, the unmatched cases. */
export function compareNotes(c: Comparison): string[] {
  const o = c.options;
  const rows = c.cases.flatMap((k) => k.metrics);
  const count = (v: string) => rows.filter((m) => m.change.verdict === v).length;
  const thresholds = o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ');
  const notes = [
    `${c.cases.length} cases in both runs: ${count('slower')} slower, ${count('faster')} faster, ${count('same')} same (${rows.length} metric rows).`,
    `Verdict: faster/slower only when the Mann-Whitney U test on the raw samples gives p < ${o.alpha}, moving the same way as the means; the change of the mean is at least the threshold (${thresholds}) and at least the Noise of the two runs (their 99.9% error bars combined, or their launch-to-launch spread when larger); and, for time, the fastest 10% of samples moved the same way by at least the threshold (a busier machine slows the slow samples, slower code slows them all). Else same, with why. CI is the ${(100 * (1 - o.alpha)).toFixed(0)}% interval of the change. Instructions are callgrind counts (deterministic, no test); they gate CI and never rank serializers. One launch per run (policy quick) cannot show launch-to-launch variation: prefer the default policy, or --metric instructions, for a CI gate.`,
  ];
  for (const s of c.statusChanges) notes.push(`${s.kind === 'broken' ? '✗ now' : '✓ now measured, was'} ${s.kind === 'broken' ? s.head : s.base}: ${s.id}${s.reason ? ` — ${s.reason}` : ''}`);
  if (c.onlyInBase.length) notes.push(`Only in base (${c.onlyInBase.length}): ${c.onlyInBase.join(', ')}`);
  if (c.onlyInHead.length) notes.push(`Only in head (${c.onlyInHead.length}): ${c.onlyInHead.join(', ')}`);
  return notes;
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Markdown: a heading naming both runs, the table (slower verdicts in bold), then the notes. */
export function renderCompareMarkdown(c: Comparison, baseLabel: string, headLabel: string): string {
  const out = [`### jsonbench compare: ${escapeCell(baseLabel)} → ${escapeCell(headLabel)}`, ''];
  if (c.cases.length) {
    out.push(`| ${COMPARE_COLUMNS.join(' | ')} |`, `|${' --- |'.repeat(COMPARE_COLUMNS.length)}`);
    for (const r of compareRows(c)) {
      const cells = r.cells.map(escapeCell);
      if (r.verdict !== 'same') cells[cells.length - 1] = `**${cells[cells.length - 1]}**`;
      out.push(`| ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  for (const n of compareNotes(c)) out.push(`- ${escapeCell(n)}`);
  return out.join('\n') + '\n';
}

/** Terminal: a cli-table3 table (slower in red, faster in green when `color`), then the notes. */
export function renderCompareTerminal(c: Comparison, baseLabel: string, headLabel: string, color: boolean): string {
  const k = createColors(color);
  const out = [k.bold(`compare ${baseLabel} → ${headLabel}`)];
  if (c.cases.length) {
    const t = new Table({ head: [...COMPARE_COLUMNS], style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] } });
    for (const r of compareRows(c)) {
      const paint = r.verdict === 'slower' ? k.red : r.verdict === 'faster' ? k.green : (s: string) => s;
      t.push(r.cells.map((s, i) => (i === r.cells.length - 1 ? paint(s) : s)));
    }
    out.push(t.toString());
  }
  out.push(...compareNotes(c));
  return out.join('\n') + '\n';
}
