/**
 * Pure renderers of a {@link Comparison}: a terminal table (cli-table3) and a GitHub-flavoured
 * Markdown table for a pull-request comment. Both return text.
 */
import { createColors } from 'picocolors';
import type { Change } from './change.js';
import {
  CAVEAT_MARK,
  caseVerdict,
  caveatsFor,
  caveatText,
  type CaseComparison,
  type Comparison,
  type MetricChange,
} from './compare.js';
import { formatAllocation, formatBytes, formatTime } from '../report/units.js';
import type { Column } from '../report/table/column.js';
import { renderTable } from '../report/table/write.js';
import { escapeCell } from '../report/table/escape.js';

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
  return ch.noiseFloor === null
    ? 'n/a'
    : Number.isFinite(ch.noiseFloor)
      ? `±${ch.noiseFloor.toFixed(ch.noiseFloor < 10 ? 1 : 0)}%`
      : '∞';
}

const SAME_BECAUSE = {
  'not-significant': 'not significant',
  'below-threshold': 'under threshold',
  'within-noise': 'within noise',
  'mixed-signals': 'mixed signals',
  'slow-samples-only': 'slow samples only',
} as const;

const NO_VERDICT_BECAUSE = { noisy: 'noisy', 'one-launch': 'one launch' } as const;

/** `faster`, `slower`, `same (why)`, or `no verdict (why)`. */
export function verdictText(ch: Change): string {
  if (ch.verdict === 'no-verdict')
    return `no verdict${ch.noVerdictBecause ? ` (${NO_VERDICT_BECAUSE[ch.noVerdictBecause]})` : ''}`;
  return ch.verdict === 'same' && ch.sameBecause ? `same (${SAME_BECAUSE[ch.sameBecause]})` : ch.verdict;
}

/**
 * The p cell: the Mann-Whitney rank test's p on the raw samples (`< 0.001`, `0.042`). The CI beside
 * it is another test's — the delta-method interval of the change of the means — and the two can
 * disagree: a few slow samples widen the means' interval past 0 while the ranks still shift. Where
 * the rank test is significant (p < alpha) but that interval spans 0, the cell says both (`ranks
 * < 0.001, means n.s.`), so a small p never stands unqualified beside an interval that includes no change.
 */
export function pValue(p: number | null, ci: Change['ci'] = null, alpha = 0.05): string {
  if (p === null) return 'n/a';
  const text = p < 0.001 ? '< 0.001' : p.toFixed(3);
  return p < alpha && ci !== null && ci.low <= 0 && 0 <= ci.high ? `ranks ${text}, means n.s.` : text;
}

/** Base and Head: the figure the reports show (MetricChange `reported`, an allocation whose windows disagree as their range), else the samples' mean. */
function shown(m: MetricChange, side: 'base' | 'head'): string {
  const range = m.reported?.range?.[side];
  if (m.metric === 'alloc' && range) return formatAllocation(m.reported![side], range);
  return formatValue(m, m.reported ? m.reported[side] : side === 'base' ? m.change.baseMean : m.change.headMean);
}

const METRIC_LABEL = { time: 'time', alloc: 'allocated', instructions: 'instructions (callgrind)' } as const;

function serializerCell(k: CaseComparison): string {
  return k.baseVersion === k.headVersion ? k.serializer : `${k.serializer} (${k.baseVersion} → ${k.headVersion})`;
}

/** The marks of a case's caveats (of those that bear on `metric`, when given) after its verdict: ` ⇅`, ` ⏹`, ` ⇅ ⏹`, or ''. */
function caveatMarks(k: CaseComparison, metric?: MetricChange['metric']): string {
  const codes = new Set(caveatsFor(k, metric).map((c) => c.code));
  const marks = (Object.keys(CAVEAT_MARK) as (keyof typeof CAVEAT_MARK)[])
    .filter((code) => codes.has(code))
    .map((code) => CAVEAT_MARK[code]);
  return marks.length ? ` ${marks.join(' ')}` : '';
}

/** One row of a comparison table: a case and one of its metrics. */
export interface CompareRow {
  k: CaseComparison;
  m: MetricChange;
  /** the comparison's significance level (CompareOptions `alpha`) */ alpha?: number;
}

/** The columns of a comparison table; the verdict is red when slower, green when faster. */
export const COMPARE_TABLE: readonly Column<CompareRow>[] = [
  { id: 'case', header: 'Case', cell: ({ k }) => `${k.workload} · ${k.size} · ${k.shape} · ${k.direction}` },
  { id: 'serializer', header: 'Serializer', cell: ({ k }) => serializerCell(k) },
  { id: 'metric', header: 'Metric', cell: ({ m }) => METRIC_LABEL[m.metric] },
  { id: 'base', header: 'Base', cell: ({ m }) => shown(m, 'base') },
  { id: 'head', header: 'Head', cell: ({ m }) => shown(m, 'head') },
  { id: 'change', header: 'Change', cell: ({ m }) => pct(m.change.percent) },
  { id: 'ci', header: 'CI', cell: ({ m }) => interval(m.change) },
  { id: 'p', header: 'p', cell: ({ m, alpha }) => pValue(m.change.p, m.change.ci, alpha) },
  { id: 'noise', header: 'Noise', cell: ({ m }) => noise(m.change) },
  {
    id: 'verdict',
    header: 'Verdict',
    cell: ({ k, m }) => `${verdictText(m.change)}${caveatMarks(k, m.metric)}`,
    tone: ({ m }) => (m.change.verdict === 'slower' ? 'red' : m.change.verdict === 'faster' ? 'green' : undefined),
  },
];

/** The rows of a comparison: one per case × metric, in the comparison's order. */
export function compareRows(c: Comparison): CompareRow[] {
  return c.cases.flatMap((k) => k.metrics.map((m) => ({ k, m, alpha: c.options.alpha })));
}

/** The warning above the table when the runs are not comparable (empty when they are). */
export function notComparableWarning(c: Comparison): string {
  if (!c.notComparable.length) return '';
  const onlyBusierBase = c.notComparable.every((x) => x.what === 'load' && x.busier === 'base');
  if (onlyBusierBase)
    return `⚠ The machine's load differed: ${c.notComparable.map((x) => x.message).join('; ')}. That slows the base, so a "faster" verdict below may be the load's, not the code's; a "slower" one is not (the head was measured on the quieter machine), and --fail-on slower fails on it.`;
  return `⚠ These runs are not comparable: ${c.notComparable.map((x) => x.message).join('; ')}. The verdicts below are not evidence of a change, and --fail-on slower does not fail on them: rerun both sides with the same policy on the same quiet machine and runtime.`;
}

/** The sentences under the table: the rule, the counts, the status changes, the unmatched cases. */
export function compareNotes(c: Comparison): string[] {
  const o = c.options;
  const verdicts = c.cases.map(caseVerdict);
  const count = (v: string) => verdicts.filter((x) => x === v).length;
  const thresholds = o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ');
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const none = count('no-verdict');
  const notes = [
    `${plural(c.cases.length, 'case', 'cases')} in both runs: ${count('slower')} slower (in at least one metric), ${count('faster')} faster (in at least one metric, slower in none), ${count('same')} same${none ? `, ${none} without a verdict (noisy, or measured in one launch)` : ''}.`,
    `Verdict (files with launch intervals, this jsonbench's): time is faster/slower when the interval of the Mean columns' quotient (the two runs' 99.9% errors combined, from their launch means: docs/intervals.md; one launch: from its rounds, marked ①) lies wholly on one side of no change, the change is at least the threshold (${thresholds}), and the fastest 10% of samples moved the same way by at least the threshold; where both runs counted instructions, those gate --fail-on slower instead of time. Older files: faster/slower only when each run measured the case in at least 2 launches and neither flagged its time noisy (else no verdict: one process cannot show how far a case moves from one launch to the next, so policy quick never gives one; use the default policy, or --metric instructions, for a CI gate); the Mann-Whitney U test on the raw samples gives p < ${o.alpha}, moving the same way as the means; the change of the mean is at least the threshold (${thresholds}) and at least the Noise of the two runs (their 99.9% error bars combined, or their launch-to-launch spread when larger), and the two runs' 99.9% intervals of the mean do not overlap; and, for time, the fastest 10% of samples moved the same way by at least the threshold (a busier machine slows the slow samples, slower code slows them all). Else same, with why. CI is the ${(100 * (1 - o.alpha)).toFixed(0)}% interval of the change of the means, p the rank test's: two tests, so where the ranks differ but that interval spans 0 the p cell says "ranks …, means n.s.". Base and Head are the figures the reports show (time: Mean, the median of the launch means; allocation: Allocated, the median of the windows); Change and CI compare the means of every sample (time) or of the windows (allocation), so Change can differ a little from Head ÷ Base. Instructions are callgrind counts (deterministic, no test); they gate CI and never rank serializers.`,
  ];
  const qualified = c.cases.filter((k) => k.caveats?.length);
  if (qualified.length) {
    notes.push(
      `${qualified.length === 1 ? '1 case carries a caveat beside its verdict' : `${qualified.length} cases carry caveats beside their verdicts`}: ⇅ the machine changed speed between launches in that run (the machine-drift finding: its time moved with the machine), ⏹ that run was killed and the case rebuilt from the launches it finished, ① that run measured it in one launch (its interval cannot show how far another process lands). Their verdicts passed the same tests (a drifting machine's launch-to-launch spread already widens the Noise), so --fail-on slower still fails on them, saying which caveat each carries.`,
    );
    for (const k of qualified) notes.push(`${caveatMarks(k).trim()} ${k.id}: ${k.caveats.map(caveatText).join('; ')}`);
  }
  for (const s of c.statusChanges)
    notes.push(
      `${s.kind === 'broken' ? '✗ now' : '✓ now measured, was'} ${s.kind === 'broken' ? s.head : s.base}: ${s.id}${s.reason ? ` — ${s.reason}` : ''}`,
    );
  for (const u of c.unread ?? []) notes.push(`Not read in ${u.side}: ${u.problem}`);
  if (c.onlyInBase.length) notes.push(`Only in base (${c.onlyInBase.length}): ${c.onlyInBase.join(', ')}`);
  if (c.onlyInHead.length) notes.push(`Only in head (${c.onlyInHead.length}): ${c.onlyInHead.join(', ')}`);
  return notes;
}

/** Markdown: a heading naming both runs, the table (verdicts that are not `same` in bold), then the notes. */
export function renderCompareMarkdown(c: Comparison, baseLabel: string, headLabel: string): string {
  const esc = (s: string) => escapeCell(s, 'markdown', Infinity);
  const out = [`### jsonbench compare: ${esc(baseLabel)} → ${esc(headLabel)}`, ''];
  for (const w of c.warnings ?? []) out.push(`> ${esc(w)}`, '');
  const warning = notComparableWarning(c);
  if (warning) out.push(`> **${esc(warning)}**`, '');
  if (c.cases.length) out.push(renderTable({ columns: COMPARE_TABLE, rows: compareRows(c) }, 'markdown'), '');
  for (const n of compareNotes(c)) out.push(`- ${esc(n)}`);
  return out.join('\n') + '\n';
}

/** Terminal: the table (slower in red, faster in green when `color`), then the notes. */
export function renderCompareTerminal(c: Comparison, baseLabel: string, headLabel: string, color: boolean): string {
  const k = createColors(color);
  const esc = (s: string) => escapeCell(s, 'terminal', Infinity);
  const out = [k.bold(`compare ${esc(baseLabel)} → ${esc(headLabel)}`)];
  for (const w of c.warnings ?? []) out.push(k.yellow(esc(w)));
  const warning = notComparableWarning(c);
  if (warning) out.push(k.bold(k.yellow(esc(warning))));
  if (c.cases.length) out.push(renderTable({ columns: COMPARE_TABLE, rows: compareRows(c) }, 'terminal', { color }));
  out.push(...compareNotes(c).map(esc));
  return out.join('\n') + '\n';
}
