/**
 * Pure renderers of a {@link Comparison}: a terminal table (cli-table3) and a GitHub-flavoured
 * Markdown table for a pull-request comment. Both return text.
 */
import { createColors } from 'picocolors';
import type { Change } from './change.js';
import {
  CAVEAT_MARK,
  caveatsFor,
  METRICS,
  type CaseComparison,
  type Comparison,
  type Metric,
  type MetricChange,
} from './compare.js';
import { countOf, formatAllocation, formatBytes, formatRatio, formatTime } from '../report/units.js';
import { DEFAULT_WIDTH, wrap, wrapAtMost } from '../report/fit.js';
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
  if (m.metric === 'ratio') return formatRatio(x);
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

const METRIC_LABEL: Readonly<Record<Metric, string>> = {
  ratio: 'ratio',
  time: 'time',
  alloc: 'allocated',
  instructions: 'instructions',
};

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

/** The case a row belongs to, as its section heading (terminal) or Case cell (Markdown) names it. */
const caseOf = ({ k }: CompareRow) => `${k.workload} · ${k.size} · ${k.shape} · ${k.direction}`;

/**
 * The columns of a comparison table; the verdict is red when slower, green when faster. Markdown
 * has a Case column; the terminal names each case in a heading row above its rows instead, and
 * fits its width by leaving out p, then Noise, then Base → Head, then CI.
 */
export const COMPARE_TABLE: readonly Column<CompareRow>[] = [
  { id: 'case', header: 'Case', cell: caseOf },
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

/** The terminal's columns: {@link COMPARE_TABLE} without Case, Base and Head as one column, with the priorities that fit a width. */
function terminalColumns(): Column<CompareRow>[] {
  const byId = new Map(COMPARE_TABLE.map((c) => [c.id, c]));
  const col = (id: string, extra: Partial<Column<CompareRow>> = {}) => ({ ...byId.get(id)!, ...extra });
  return [
    col('serializer'),
    col('metric'),
    {
      id: 'base-head',
      header: 'Base → Head',
      // a figure never wraps inside itself (`18.1 KiB–18.6`, `KiB`): no-break spaces within each
      cell: ({ m }) => `${shown(m, 'base').replace(/ /g, '\u00a0')} → ${shown(m, 'head').replace(/ /g, '\u00a0')}`,
      wrap: 32,
      priority: 3,
    },
    col('change', { align: 'right' }),
    col('ci', { priority: 2 }),
    col('p', { priority: 5 }),
    col('noise', { priority: 4 }),
    col('verdict', { wrap: 30 }),
  ];
}

/** The rows of a comparison: one per case × metric, in the comparison's order. */
export function compareRows(c: Comparison): CompareRow[] {
  return c.cases.flatMap((k) => k.metrics.map((m) => ({ k, m, alpha: c.options.alpha })));
}

/** The warning above the table when the runs are not comparable (empty when they are). */
export function notComparableWarning(c: Comparison): string {
  // a comparison of an older jsonbench listed the load among the differences
  const blocking = c.notComparable.filter((x) => x.what !== 'load');
  if (!blocking.length) return '';
  return `⚠ These runs are not comparable: ${blocking.map((x) => x.message).join('; ')}. The verdicts below are not evidence of a change, and --fail-on slower does not fail on them: rerun both sides with the same policy on the same quiet machine and runtime.`;
}

/**
 * The one-line caveat of a load difference (empty without one): time verdicts may be the load's
 * (a slower time of a head measured busier does not gate); the ratio verdicts stand, as a ratio's
 * two sides ran in one process, alternating rounds, so the load slowed both alike.
 */
export function loadCaveat(c: Comparison): string {
  const load = c.load ?? c.notComparable.find((x) => x.what === 'load');
  if (!load) return '';
  const time =
    load.busier === 'head' ? "time verdicts may be the load's and do not gate" : "a faster time may be the load's";
  return `⚠ ${load.message}: ${time}; ratios stand.`;
}

/** Per metric: how many rows got each verdict (`ratio: 2 faster, 13 same; allocated: 17 without a verdict (one launch)`). */
function verdictCounts(c: Comparison): string {
  const parts: string[] = [];
  for (const metric of METRICS) {
    const ms = c.cases.flatMap((k) => k.metrics.filter((m) => m.metric === metric));
    if (!ms.length) continue;
    const n = (v: string) => ms.filter((m) => m.change.verdict === v).length;
    const why = [
      ...new Set(ms.flatMap((m) => (m.change.noVerdictBecause ? [NO_VERDICT_BECAUSE[m.change.noVerdictBecause]] : []))),
    ];
    const counts = [
      ...(n('slower') ? [`${n('slower')} slower`] : []),
      ...(n('faster') ? [`${n('faster')} faster`] : []),
      ...(n('same') ? [`${n('same')} same`] : []),
      ...(n('no-verdict') ? [`${n('no-verdict')} without a verdict (${why.join(', ')})`] : []),
    ];
    parts.push(`${METRIC_LABEL[metric]}: ${counts.join(', ')}`);
  }
  return parts.join('; ');
}

/** What each caveat mark means, said once under the table for all the cases it marks. */
const CAVEAT_MEANING: Readonly<Record<keyof typeof CAVEAT_MARK, string>> = {
  'machine-drift':
    'the machine changed speed between that run’s launches of the case: part of the change may be the machine’s',
  interrupted: 'that run was killed and the case rebuilt from the launches it finished',
  'one-launch':
    "that run measured the case in one launch: its interval is from the launch's rounds, which cannot show how far another process lands",
};

/** The sentences under the table: the counts, the rule, the caveats (each said once), the status changes, the unmatched cases. */
export function compareNotes(c: Comparison): string[] {
  const o = c.options;
  const thresholds = o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ');
  const notes = [
    `${countOf(c.cases.length, 'case')} in both runs${c.cases.length ? ` — ${verdictCounts(c)}` : ''}.`,
    `Verdict: faster or slower when the change's CI lies clear of no change and the change passes the threshold (${thresholds}); else same, with why. CI: ratio and time, the two runs' 99.9% intervals combined (time also needs its fastest 10% of samples to move alike); allocation and older files, the ${(100 * (1 - o.alpha)).toFixed(0)}% interval of the change of the means (p: Mann-Whitney). Ratio is time ÷ the class baseline's in the same process, so the machine's load barely moves it. Base and Head as the reports show them (time: Mean, the mean of the launch means; allocation: the windows' median). The rule in full: docs/commands.md.`,
  ];
  const marked = new Map<keyof typeof CAVEAT_MARK, { cases: Set<string>; sides: Set<string> }>();
  for (const k of c.cases)
    for (const cv of k.caveats ?? []) {
      const entry = marked.get(cv.code) ?? { cases: new Set(), sides: new Set() };
      entry.cases.add(k.id);
      entry.sides.add(cv.side);
      marked.set(cv.code, entry);
    }
  for (const code of Object.keys(CAVEAT_MARK) as (keyof typeof CAVEAT_MARK)[]) {
    const m = marked.get(code);
    if (!m) continue;
    const sides = [...m.sides].sort().join(' and ');
    notes.push(`${CAVEAT_MARK[code]} ${countOf(m.cases.size, 'case')} (${sides}): ${CAVEAT_MEANING[code]}.`);
  }
  if (marked.size)
    notes.push(
      'A verdict with a caveat passed the same tests, so --fail-on slower still fails on it, saying which caveat it carries.',
    );
  for (const s of c.statusChanges)
    notes.push(
      `${s.kind === 'broken' ? '✗ now' : '✓ now measured, was'} ${s.kind === 'broken' ? s.head : s.base}: ${s.id}${s.reason ? ` — ${s.reason}` : ''}`,
    );
  for (const u of c.unread ?? []) notes.push(`Not read in ${u.side}: ${u.problem}`);
  if (c.onlyInBase.length) notes.push(`Only in base (${c.onlyInBase.length}): ${c.onlyInBase.join(', ')}`);
  if (c.onlyInHead.length) notes.push(`Only in head (${c.onlyInHead.length}): ${c.onlyInHead.join(', ')}`);
  return notes;
}

/** Markdown: a heading naming both runs, the warnings, the table (verdicts that are not `same` in bold), then the notes. */
export function renderCompareMarkdown(c: Comparison, baseLabel: string, headLabel: string): string {
  const esc = (s: string) => escapeCell(s, 'markdown', Infinity);
  const out = [`### jsonbench compare: ${esc(baseLabel)} → ${esc(headLabel)}`, ''];
  for (const w of c.warnings ?? []) out.push(`> ${esc(w)}`, '');
  const warning = notComparableWarning(c);
  if (warning) out.push(`> **${esc(warning)}**`, '');
  const load = loadCaveat(c);
  if (load) out.push(`> ${esc(load)}`, '');
  if (c.cases.length) out.push(renderTable({ columns: COMPARE_TABLE, rows: compareRows(c) }, 'markdown'), '');
  for (const n of compareNotes(c)) out.push(`- ${esc(n)}`);
  return out.join('\n') + '\n';
}

/**
 * Terminal: the warnings, the table (a heading row per case; slower in red, faster in green when
 * `color`), then the notes, every line fitted to `width` (report/fit.ts; default 100): prose
 * wrapped, the table's columns left out by importance, a long list of case ids cut to a few lines.
 */
export function renderCompareTerminal(
  c: Comparison,
  baseLabel: string,
  headLabel: string,
  color: boolean,
  width = DEFAULT_WIDTH,
): string {
  const k = createColors(color);
  const esc = (s: string) => escapeCell(s, 'terminal', Infinity);
  const say = (s: string) => wrap(esc(s), width);
  // a list of case ids (only in one run, status changes) is cut after a few lines
  const list = (s: string) => wrapAtMost(esc(s), width, '  ', 4);
  const out = [k.bold(wrap(`compare ${esc(baseLabel)} → ${esc(headLabel)}`, width, '  ', { keepLongWords: true }))];
  for (const w of c.warnings ?? []) out.push(k.yellow(say(w)));
  const warning = notComparableWarning(c);
  if (warning) out.push(k.bold(k.yellow(say(warning))));
  const load = loadCaveat(c);
  if (load) out.push(k.yellow(say(load)));
  if (c.cases.length)
    out.push(
      renderTable({ columns: terminalColumns(), rows: compareRows(c), sectionOf: caseOf, compact: true }, 'terminal', {
        color,
        width,
      }),
    );
  out.push(...compareNotes(c).map((n) => k.dim(/^(Only in|✗ now|✓ now|Not read)/.test(n) ? list(n) : say(n))));
  return out.join('\n') + '\n';
}
