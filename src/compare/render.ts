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
  gateHeadline,
  relevantIncomparabilities,
  type CaseComparison,
  type Comparison,
  type GateReason,
  type MetricChange,
  type TargetCount,
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
];

/** The columns a comparison shows: {@link COMPARE_TABLE}, without Target when no case names one (a run on the host's Node alone). */
function compareColumns(c: Comparison): readonly Column<CompareRow>[] {
  return c.cases.some((k) => k.target) ? COMPARE_TABLE : COMPARE_TABLE.filter((col) => col.id !== 'target');
}

/** The rows of a comparison: one per case × metric, in the comparison's order. */
export function compareRows(c: Comparison): CompareRow[] {
  return c.cases.flatMap((k) => k.metrics.map((m) => ({ k, m, alpha: c.options.alpha })));
}

/** The warning above the table when the runs are not comparable (empty when they are). */
export function notComparableWarning(c: Comparison): string {
  // a comparison of instruction counts alone is not touched by the load or the clock
  const reasons = relevantIncomparabilities(c);
  if (!reasons.length) return '';
  const onlyBusierBase = reasons.every((x) => x.what === 'load' && x.busier === 'base');
  if (onlyBusierBase)
    return `⚠ The machine's load differed: ${reasons.map((x) => x.message).join('; ')}. That slows the base, so a "faster" verdict below may be the load's, not the code's; a "slower" one is not (the head was measured on the quieter machine), and --fail-on slower fails on it.`;
  const busierHead = reasons.length === 1 && reasons[0].what === 'load' ? reasons[0].loadFactor : undefined;
  if (busierHead !== undefined)
    return `⚠ The machine's load differed: ${reasons[0].message}. That can slow a case of the head by up to ${busierHead.toFixed(2)}×, so --fail-on slower fails only on a slower time whose whole interval lies above +${(200 * (busierHead - 1)).toFixed(0)}% (twice that); a smaller "slower" may be the load's: rerun both sides on a quieter machine.`;
  return `⚠ These runs are not comparable: ${reasons.map((x) => x.message).join('; ')}. The verdicts below are not evidence of a change, and --fail-on slower does not fail on them: rerun both sides with the same policy on the same quiet machine and runtime.`;
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
  return `Verdict (files with launch intervals, this jsonbench's): time is faster/slower when the interval of the Mean columns' quotient (the two runs' 99.9% errors combined, from their launch means: docs/intervals.md; one launch: from its rounds, marked ①, shown but never failing --fail-on slower) lies wholly on one side of no change, the change is at least the threshold (${thresholds}), and the fastest 10% of samples moved the same way by at least the threshold; where both runs counted instructions, those gate --fail-on slower instead of time. Older files: faster/slower only when each run measured the case in at least 2 launches and neither flagged its time noisy (else no verdict: one process cannot show how far a case moves from one launch to the next, so policy quick never gives one; use the default policy, or --metric instructions, for a CI gate); the Mann-Whitney U test on the raw samples gives p < ${o.alpha}, moving the same way as the means; the change of the mean is at least the threshold (${thresholds}) and at least the Noise of the two runs (their 99.9% error bars combined, or their launch-to-launch spread when larger), and the two runs' 99.9% intervals of the mean do not overlap; and, for time, the fastest 10% of samples moved the same way by at least the threshold (a busier machine slows the slow samples, slower code slows them all). Else same, with why. CI is the ${(100 * (1 - o.alpha)).toFixed(0)}% interval of the change of the means, p the rank test's: two tests, so where the ranks differ but that interval spans 0 the p cell says "ranks …, means n.s.". Base and Head are the figures the reports show (time: Mean, the median of the launch means; allocation: Allocated, the median of the windows); Change and CI compare the means of every sample (time) or of the windows (allocation), so Change can differ a little from Head ÷ Base. Instructions are callgrind counts (deterministic, no test); they gate CI and never rank serializers.`;
}

/**
 * The sentences under the table: the counts, the rule ({@link verdictRule}, unless `rule` is
 * false), the caveats of the metrics compared, the targets that measured nothing, the status
 * changes, the cases failed in both runs, the unmatched cases.
 */
export function compareNotes(c: Comparison, { rule = true }: { rule?: boolean } = {}): string[] {
  const o = c.options;
  const verdicts = c.cases.map(caseVerdict);
  const count = (v: string) => verdicts.filter((x) => x === v).length;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const none = count('no-verdict');
  const notes = [
    `${plural(c.cases.length, 'case', 'cases')} in both runs: ${count('slower')} slower (in at least one metric), ${count('faster')} faster (in at least one metric, slower in none), ${count('same')} same${none ? `, ${none} without a verdict (noisy, or measured in one launch)` : ''}.`,
    ...(rule ? [verdictRule(c)] : []),
  ];
  // only the caveats of the metrics compared (a comparison of instruction counts has no time caveats)
  const caveatsOf = (k: CaseComparison) =>
    o.metrics.every((m) => m === 'instructions') ? caveatsFor(k, 'instructions') : (k.caveats ?? []);
  const qualified = c.cases.filter((k) => caveatsOf(k).length);
  if (qualified.length) {
    const codes = new Set(qualified.flatMap((k) => caveatsOf(k).map((x) => x.code)));
    const legend = [
      codes.has('machine-drift')
        ? '⇅ the machine changed speed between launches in that run (the machine-drift finding: its time moved with the machine)'
        : '',
      codes.has('interrupted') ? '⏹ that run was killed and the case rebuilt from the launches it finished' : '',
      codes.has('one-launch')
        ? '① that run measured it in one launch (its interval cannot show how far another process lands)'
        : '',
    ].filter(Boolean);
    const gated = codes.has('machine-drift') || codes.has('interrupted');
    notes.push(
      `${qualified.length === 1 ? '1 case carries a caveat beside its verdict' : `${qualified.length} cases carry caveats beside their verdicts`}: ${legend.join(', ')}.${gated ? " ⇅ and ⏹ verdicts passed the same tests (a drifting machine's launch-to-launch spread already widens the Noise), so --fail-on slower still fails on them, saying which caveat each carries." : ''}${codes.has('one-launch') ? ' A ① time verdict is shown and never fails --fail-on slower: use the default policy (two launches or more) or --metric instructions for a gate.' : ''}`,
    );
    for (const k of qualified)
      notes.push(
        `${caveatMarks(k, o.metrics.every((m) => m === 'instructions') ? 'instructions' : undefined).trim()} ${k.id}: ${caveatsOf(k).map(caveatText).join('; ')}`,
      );
  }
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
  return `Verdicts: slower/faster only when the change's interval lies wholly on one side of no change and the change passes the threshold (${o.metrics.map((m) => `${METRIC_LABEL[m]} ±${o.thresholds[m]}%`).join(', ')}); else same (why) or no verdict (why). ① measured in one launch: shown, never fails the gate; ⇅ the machine drifted; ⏹ rebuilt from a killed run. Where both runs counted instructions, those gate instead of time.`;
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
  if (c.cases.length) out.push(renderTable({ columns: compareColumns(c), rows: compareRows(c) }, 'markdown'), '');
  for (const n of compareNotes(c, { rule: false })) out.push(`- ${esc(n)}`);
  out.push('', esc(shortLegend(c)), '');
  out.push('<details><summary>How a verdict is made</summary>', '', esc(verdictRule(c)), '', '</details>');
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
  if (c.cases.length)
    out.push(renderTable({ columns: compareColumns(c), rows: compareRows(c) }, 'terminal', { color }));
  out.push(...compareNotes(c).map(esc));
  return out.join('\n') + '\n';
}
