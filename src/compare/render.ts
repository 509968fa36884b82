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
  caveatText,
  gateHeadline,
  relevantIncomparabilities,
  type CaseComparison,
  type Comparison,
  type GateReason,
  type Metric,
  type MetricChange,
  type TargetCount,
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

/** A change in percent: `+4.2%`, `−38%`; past ±100,000% (a factor of 1,000) as `> +99999%` (hx19 F09: `+2.2373186842124864e+29%`). */
const pct = (x: number) =>
  !Number.isFinite(x) || Math.abs(x) >= 1e5
    ? `${x >= 0 ? '> +' : '< −'}99999%`
    : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(Math.abs(x) < 10 ? 1 : 0)}%`;

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

const NO_VERDICT_BECAUSE = {
  noisy: 'noisy',
  'one-launch': 'one launch',
  'not-ranked': 'not ranked in its run',
} as const;

/** `faster`, `slower`, `same (why)`, `unclear (within noise)` (same, but its interval reaches past the threshold), or `no verdict (why)`. */
export function verdictText(ch: Change): string {
  if (ch.verdict === 'no-verdict')
    return `no verdict${ch.noVerdictBecause ? ` (${NO_VERDICT_BECAUSE[ch.noVerdictBecause]})` : ''}`;
  // an interval that reaches past the threshold on a side shows no sameness (nu16: "−87% … +1420%, same (within
  // noise)"): unclear, as the gate reads it (neither fails --fail-on slower)
  if (ch.verdict === 'same' && ch.sameBecause === 'within-noise') return 'unclear (within noise)';
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
// each column and the list frozen: a config in the host cannot swap a cell (test/architecture/frozen-exports.test.ts)
export const COMPARE_TABLE: readonly Column<CompareRow>[] = Object.freeze(
  (
    [
      { id: 'case', header: 'Case', cell: caseOf },
      { id: 'serializer', header: 'Serializer', cell: ({ k }) => serializerCell(k) },
      { id: 'target', header: 'Target', cell: ({ k }) => k.target ?? '' },
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
    ] as Column<CompareRow>[]
  ).map((c) => Object.freeze(c)),
);

/** The columns a comparison shows: {@link COMPARE_TABLE}, without Target when no case names one (a run on the host's Node alone). */
function compareColumns(c: Comparison): readonly Column<CompareRow>[] {
  return c.cases.some((k) => k.target) ? COMPARE_TABLE : COMPARE_TABLE.filter((col) => col.id !== 'target');
}

/** The terminal's columns: {@link COMPARE_TABLE} without Case (a heading row names it), Base and Head as one column, with the priorities that fit a width; Target only when a case names one. */
function terminalColumns(c: Comparison): Column<CompareRow>[] {
  const byId = new Map(COMPARE_TABLE.map((col) => [col.id, col]));
  const col = (id: string, extra: Partial<Column<CompareRow>> = {}) => ({ ...byId.get(id)!, ...extra });
  return [
    col('serializer'),
    ...(c.cases.some((k) => k.target) ? [col('target')] : []),
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
    // never wrapped (nu9: 23 Verdict cells on two rows at 120 columns): a narrow terminal drops p, Noise, Base → Head, CI first
    col('verdict'),
  ];
}

/** The rows of a comparison: one per case × metric, in the comparison's order. */
export function compareRows(c: Comparison): CompareRow[] {
  return c.cases.flatMap((k) => k.metrics.map((m) => ({ k, m, alpha: c.options.alpha })));
}

/** The warning above the table when the runs are not comparable (empty when they are). */
export function notComparableWarning(c: Comparison): string {
  // a comparison of an older jsonbench listed the load among the differences; counts alone are not touched by the clock
  const blocking = relevantIncomparabilities(c).filter((x) => x.what !== 'load');
  if (!blocking.length) return '';
  return `⚠ These runs are not comparable: ${blocking.map((x) => x.message).join('; ')}. The verdicts below are not evidence of a change, and --fail-on slower does not fail on them: rerun both sides with the same policy, schema and runtime on the same quiet machine.`;
}

/**
 * The one-line caveat of a load difference (empty without one, or for instruction counts alone,
 * which the load does not move): the ratio verdicts stand, as a ratio's two sides ran in one
 * process, alternating rounds, so the load slowed both alike. A busier base can only hide a
 * slowdown, so its slower times gate; a busier head's slower time gates only beyond twice the
 * slowdown its load factor can explain (compare.ts gateReasons).
 */
export function loadCaveat(c: Comparison): string {
  if (c.options.metrics.every((m) => m === 'instructions')) return '';
  const load = c.load ?? c.notComparable.find((x) => x.what === 'load');
  if (!load) return '';
  const f = load.loadFactor;
  const time =
    load.busier === 'base'
      ? "a faster time may be the load's; a slower one is not, and gates"
      : f !== undefined && Number.isFinite(f)
        ? `a slower time gates only beyond ${twiceWhatLoadExplains(f)}`
        : "time verdicts may be the load's and do not gate";
  return `⚠ ${load.message}: ${time}; ratios stand.`;
}

/**
 * `+41% (twice the +20.4% this load can explain)` for a load factor `f` (1.204): the slowdown it explains written as a
 * percent, as the gate's bound is (nu16: "+344% (twice the 2.72× …)" read as 5.44×), with a decimal where the whole
 * percents would not double to the bound shown.
 */
function twiceWhatLoadExplains(f: number): string {
  const half = 100 * (f - 1);
  const bound = Math.round(2 * half);
  const halfText = 2 * Math.round(half) === bound ? Math.round(half).toString() : half.toFixed(1);
  return `+${bound}% (twice the +${halfText}% this load can explain)`;
}

/** A target's cases in one run: `4 / 0`, `0 / 4`, or `—` when the run did not have it. */
const countCell = (n: TargetCount | null) => (n ? `${n.measured} / ${n.failed}` : '—');

/** Why a target measured nothing in a run, for its row: its fault (not installed, failed to start), else ''. */
const faultOf = (t: Comparison['targets'][number]) =>
  (t.head?.measured === 0 && t.head.fault) || (t.base?.measured === 0 && t.base.fault) || '';

/**
 * The sentences about targets: one per target that measured nothing in a run (a runtime that is
 * not installed, a worker that failed to start), so no target drops out unseen.
 */
function targetNotes(c: Comparison): string[] {
  return (c.targets ?? [])
    .filter((t) => t.base?.measured === 0 || t.head?.measured === 0)
    .map((t) => {
      const runs = [t.base?.measured === 0 ? 'base' : '', t.head?.measured === 0 ? 'head' : ''].filter(Boolean);
      const why = faultOf(t);
      return `⚠ Target ${t.id} measured nothing in ${runs.join(' nor ')}${why ? `: ${why}` : ''}; its cases are not compared.`;
    });
}

/** The rule a verdict follows, in full (under the terminal table; collapsed under the Markdown one). */
function verdictRule(c: Comparison): string {
  const o = c.options;
  if (o.metrics.every((m) => m === 'instructions'))
    return `Instructions are callgrind's counts per op (valgrind simulates the CPU: deterministic, so no interval and no test): slower/faster when the count moved by at least the threshold (±${o.thresholds.instructions}%). The machine's load and its clock do not move them, so a load difference between the runs is not a reason to doubt them. They gate CI and never rank serializers.`;
  const thresholds = o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ');
  return `Verdict (files with launch intervals, this jsonbench's): time is faster/slower when the interval of the Mean columns' quotient (the two runs' 99.9% errors combined, from their launch means: docs/intervals.md; one launch: from its rounds, marked ①, shown but never failing --fail-on slower) lies wholly on one side of no change, the change is at least the threshold (${thresholds}), and the fastest 10% of samples moved the same way by at least the threshold; where both runs counted instructions, those gate --fail-on slower instead of time. Older files: faster/slower only when each run measured the case in at least 2 launches and neither flagged its time noisy (else no verdict: one process cannot show how far a case moves from one launch to the next, so policy quick never gives one; use the default policy, or --metric instructions, for a CI gate); the Mann-Whitney U test on the raw samples gives p < ${o.alpha}, moving the same way as the means; the change of the mean is at least the threshold (${thresholds}) and at least the Noise of the two runs (their 99.9% error bars combined, or their launch-to-launch spread when larger), and the two runs' 99.9% intervals of the mean do not overlap; and, for time, the fastest 10% of samples moved the same way by at least the threshold (a busier machine slows the slow samples, slower code slows them all). Else same, with why (unclear where the interval of the change holds no change but reaches past the threshold: within noise). CI is the ${(100 * (1 - o.alpha)).toFixed(0)}% interval of the change of the means, p the rank test's: two tests, so where the ranks differ but that interval spans 0 the p cell says "ranks …, means n.s.". Base and Head are the figures the reports show (time: Mean, the mean of the launch means; allocation: Allocated, the median of the windows); Change and CI compare the means of every sample (time) or of the windows (allocation), so Change can differ a little from Head ÷ Base. Instructions are callgrind counts (deterministic, no test); they gate CI and never rank serializers.`;
}

/** Per metric: how many rows got each verdict (`ratio: 2 faster, 13 same; allocated: 17 without a verdict (one launch)`). */
function verdictCounts(c: Comparison): string {
  const parts: string[] = [];
  for (const metric of METRICS) {
    const ms = c.cases.flatMap((k) => k.metrics.filter((m) => m.metric === metric));
    if (!ms.length) continue;
    const unclear = (m: MetricChange) => m.change.verdict === 'same' && m.change.sameBecause === 'within-noise';
    const n = (v: string) => ms.filter((m) => m.change.verdict === v && !unclear(m)).length;
    const nUnclear = ms.filter(unclear).length;
    const why = [
      ...new Set(ms.flatMap((m) => (m.change.noVerdictBecause ? [NO_VERDICT_BECAUSE[m.change.noVerdictBecause]] : []))),
    ];
    const counts = [
      ...(n('slower') ? [`${n('slower')} slower`] : []),
      ...(n('faster') ? [`${n('faster')} faster`] : []),
      ...(n('same') ? [`${n('same')} same`] : []),
      ...(nUnclear ? [`${nUnclear} unclear (within noise)`] : []),
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

/**
 * The sentences under the table: the counts, the rule (unless `rule` is false: the Markdown comment
 * collapses it), the caveats (each said once), the targets that measured nothing, the status
 * changes, the cases failed in both runs, the unmatched cases.
 */
export function compareNotes(c: Comparison, { rule = true }: { rule?: boolean } = {}): string[] {
  const o = c.options;
  const thresholds = o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ');
  const notes = [`${countOf(c.cases.length, 'case')} in both runs${c.cases.length ? ` — ${verdictCounts(c)}` : ''}.`];
  if (rule)
    notes.push(
      `Verdict: faster or slower when the change's CI lies clear of no change and the change passes the threshold (${thresholds}); else same, with why. CI: ratio and time, the two runs' 99.9% intervals combined (time also needs its fastest 10% of samples to move alike); allocation and older files, the ${(100 * (1 - o.alpha)).toFixed(0)}% interval of the change of the means (p: Mann-Whitney). Ratio is time ÷ the class baseline's in the same process, so the machine's load barely moves it. Base and Head as the reports show them (time: Mean, the mean of the launch means; allocation: the windows' median). The rule in full: docs/commands.md.`,
    );
  const marked = new Map<keyof typeof CAVEAT_MARK, { cases: Set<string>; sides: Set<string> }>();
  // only the caveats of the metrics compared (a comparison of instruction counts has no time caveats)
  const countsOnly = o.metrics.every((m) => m === 'instructions');
  for (const k of c.cases)
    for (const cv of countsOnly ? caveatsFor(k, 'instructions') : (k.caveats ?? [])) {
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
  if (marked.has('machine-drift') || marked.has('interrupted'))
    notes.push(
      `A ⇅ or ⏹ verdict passed the same tests, so --fail-on slower still fails on it, saying which caveat it carries${marked.has('one-launch') ? '; a ① verdict is shown and never fails it' : ''}.`,
    );
  else if (marked.has('one-launch')) notes.push('A ① verdict is shown and never fails --fail-on slower.');
  notes.push(...targetNotes(c));
  for (const s of c.statusChanges)
    notes.push(
      `${s.kind === 'broken' ? '✗ now' : '✓ now measured, was'} ${s.kind === 'broken' ? s.head : s.base}: ${s.id}${s.reason ? ` — ${s.reason}` : ''}`,
    );
  for (const f of c.failedInBoth ?? [])
    notes.push(
      `✗ ${f.base === f.head ? f.head : `${f.base}, then ${f.head}`} in both runs: ${f.id}${f.reason ? ` — ${f.reason}` : ''}`,
    );
  for (const u of c.unread ?? []) notes.push(`Not read in ${u.side}: ${u.problem}`);
  if (c.onlyInBase.length) notes.push(`Only in base (${c.onlyInBase.length}): ${c.onlyInBase.join(', ')}`);
  if (c.onlyInHead.length) notes.push(`Only in head (${c.onlyInHead.length}): ${c.onlyInHead.join(', ')}`);
  return notes;
}

/** What the Markdown comparison says besides the comparison itself. */
export interface MarkdownCompareOptions {
  /** the gate's reasons (compare.ts gateReasons) and the `--fail-on` they come from: the heading then says the gate's outcome */
  gate?: { failOn: readonly string[]; reasons: readonly GateReason[] };
  /** a sentence after the runs' names (the action: where and how they were measured) */
  subtitle?: string;
}

/** The legend under the Markdown table, one paragraph: what a verdict needs, the marks, where the rule is. */
function shortLegend(c: Comparison): string {
  const o = c.options;
  if (o.metrics.every((m) => m === 'instructions'))
    return `Instructions are callgrind's counts per op (deterministic: no interval, no load effect): slower/faster when they moved by at least ±${o.thresholds.instructions}%.`;
  return `Verdicts: slower/faster only when the change's interval lies wholly on one side of no change and the change passes the threshold (${o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ')}); else same (why), unclear (within noise: the interval holds no change but reaches past the threshold), or no verdict (why). ① measured in one launch: shown, never fails the gate; ⇅ the machine drifted; ⏹ rebuilt from a killed run. Where both runs counted instructions, those gate instead of time. Base and Head as the reports show them (time: Mean, the mean of the launch means; allocation: the windows' median).`;
}

/**
 * Markdown (a pull-request comment, a job summary): a heading (the gate's outcome when `gate` is
 * given, else the runs' names), the warnings, each target's cases measured / failed in both runs
 * (under a gate, with several targets, or when a target measured nothing),
 * the reasons the gate fails, the table (verdicts that are not `same` in bold; a Target column when
 * the runs named targets), the notes, a short legend, and the full rule collapsed.
 */
export function renderCompareMarkdown(
  c: Comparison,
  baseLabel: string,
  headLabel: string,
  options: MarkdownCompareOptions = {},
): string {
  const esc = (s: string) => escapeCell(s, 'markdown', Infinity);
  const out: string[] = [];
  const gate = options.gate;
  if (gate) {
    const failing = gate.reasons.length > 0 && !gate.reasons.some((r) => r.kind === 'nothing-compared');
    out.push(
      `### jsonbench: ${gateHeadline(gate.reasons)}${failing ? ` (fails on ${gate.failOn.join(',')})` : ''}`,
      '',
    );
    out.push(
      `Base ${esc(baseLabel)} → head ${esc(headLabel)}${options.subtitle ? ` (${esc(options.subtitle)})` : ''}.`,
      '',
    );
  } else {
    out.push(`### jsonbench compare: ${esc(baseLabel)} → ${esc(headLabel)}`, '');
    if (options.subtitle) out.push(esc(options.subtitle), '');
  }
  for (const w of c.warnings ?? []) out.push(`> ${esc(w)}`, '');
  const warning = notComparableWarning(c);
  if (warning) out.push(`> **${esc(warning)}**`, '');
  // each target's cases measured / failed: always under a gate (a target that measured nothing must not drop out
  // unseen), else when there are several targets or one measured nothing
  const targets = c.targets ?? [];
  if (
    targets.length &&
    (gate || targets.length > 1 || targets.some((t) => t.base?.measured === 0 || t.head?.measured === 0))
  )
    out.push(
      renderTable(
        {
          columns: [
            { id: 'target', header: 'Target', cell: (t) => t.id },
            { id: 'base', header: 'Base: measured / failed', cell: (t) => countCell(t.base) },
            { id: 'head', header: 'Head: measured / failed', cell: (t) => countCell(t.head) },
            { id: 'why', header: 'Why none', cell: (t) => faultOf(t), maxChars: 200 },
          ] satisfies Column<Comparison['targets'][number]>[],
          rows: targets,
        },
        'markdown',
      ),
      '',
    );
  if (gate?.reasons.length) {
    out.push('Fails the gate:', '');
    for (const r of gate.reasons.slice(0, 10)) out.push(`- ${esc(r.text)}`);
    if (gate.reasons.length > 10) out.push(`- … and ${gate.reasons.length - 10} more`);
    out.push('');
  }
  const load = loadCaveat(c);
  if (load) out.push(`> ${esc(load)}`, '');
  if (c.cases.length) out.push(renderTable({ columns: compareColumns(c), rows: compareRows(c) }, 'markdown'), '');
  for (const n of compareNotes(c, { rule: false })) out.push(`- ${esc(n)}`);
  out.push('', esc(shortLegend(c)), '');
  out.push('<details><summary>How a verdict is made</summary>', '', esc(verdictRule(c)), '', '</details>');
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
      renderTable({ columns: terminalColumns(c), rows: compareRows(c), sectionOf: caseOf, compact: true }, 'terminal', {
        color,
        width,
      }),
    );
  out.push(...compareNotes(c).map((n) => k.dim(/^(Only in|✗ now|✓ now|Not read)/.test(n) ? list(n) : say(n))));
  return out.join('\n') + '\n';
}
