import type { CaseResult, ResultsFile } from '../results/types.js';
import { ratioIntervalOf } from '../results/ratio.js';
import { countOf, formatRatio, formatTime } from './units.js';
import { formatAllocated, formatPercentDelta, perRuntimeCells, perRuntimeHead } from './per-runtime.js';
import { platformOfCase } from './rows.js';
import type { Column } from './table/column.js';
import { renderTable } from './table/write.js';
import { escapeCell } from './table/escape.js';
import { wrap } from './fit.js';
import { caseReason } from './reason.js';

/**
 * The side-by-side view of a `--target` run: one table per workload × size × shape × direction,
 * one row per class × serializer, and per target the columns of per-runtime.ts (mean ± error, ratio
 * against the target's own baseline, allocation; Δ in percent for every target after the first:
 * this target's mean against the same serializer's on the first target it ran on, `stj` on
 * dotnet@10 against `stj` on dotnet@8, as the .NET report site's `net9.0 | net10.0 | Δ`); then a ranking per target and class
 * (measured cases by mean, fastest first). When the targets span several platforms (JavaScript and
 * .NET), each table also has its `across` part: every case with its ratio against its own
 * target's baseline, and its mean and allocation side by side with Δ against the reference, the
 * baseline of the same class on the first target of the run.
 */
export interface TargetTable {
  title: string;
  head: string[];
  rows: string[][];
  /** `target · class: 1. a 1.2 µs, 2. b 3.4 µs` */
  rankings: string[];
  /** JavaScript and .NET on the same payload (only when the run's targets span several platforms) */
  across?: { reference: string; head: string[]; rows: string[][] };
}

const keyOf = (c: CaseResult) => `${c.workload} · ${c.size} · ${c.shape} · ${c.direction}`;

export { formatAllocated };

/** `×1.66` — how many times the first target's mean this one takes (< 1 is faster). */
export function formatDelta(mean: number | undefined, reference: number | undefined): string {
  if (mean === undefined || reference === undefined || reference <= 0) return '—';
  const r = mean / reference;
  return `×${r >= 10 ? r.toFixed(1) : r.toFixed(2)}`;
}

/** Builds the per-target tables of a results file whose cases carry `target`. Pure. */
export function buildTargetTables(results: ResultsFile): TargetTable[] {
  const targets = results.targets.map((t) => t.id);
  const byTable = new Map<string, CaseResult[]>();
  for (const c of results.cases) {
    const k = keyOf(c);
    if (!byTable.has(k)) byTable.set(k, []);
    byTable.get(k)!.push(c);
  }
  const head = ['Class', 'Serializer', ...perRuntimeHead(targets), 'Notes'];
  return [...byTable].map(([title, cases]) => {
    const rowKeys = [...new Set(cases.map((c) => `${c.class}\u0000${c.serializer}`))];
    const find = (k: string, t: string) =>
      cases.find((c) => `${c.class}\u0000${c.serializer}` === k && c.target.id === t);
    const rows = rowKeys.map((k) => {
      const [cls, serializer] = k.split('\u0000');
      const home = targets.find((t) => find(k, t));
      const notes: string[] = [];
      for (const t of targets) {
        const c = find(k, t);
        if (c && c.status !== 'measured') notes.push(`${t}: ${c.status}${c.reason ? ` (${caseReason(c)})` : ''}`);
      }
      const cells = perRuntimeCells(targets, (t) => find(k, t), home);
      const all = targets.map((t) => find(k, t));
      const same = all.every(
        (c) => c && c.status !== 'measured' && c.status === all[0]!.status && caseReason(c) === caseReason(all[0]!),
      );
      const note = same
        ? `every target: ${all[0]!.status}${all[0]!.reason ? ` (${caseReason(all[0]!)})` : ''}`
        : notes.join('; ');
      return [cls, serializer, ...cells, note];
    });
    // ranked by the paired ratio against the target's own baseline, as the takeaways read it: a case's own mean
    // can disagree with the ratio measured beside the baseline (≠; a busy machine), and the mean then ranked wrongly
    const rankKey = (c: CaseResult) => (c.serializer === c.baseline ? 1 : (c.ratio ?? Infinity));
    const ranked = (c: CaseResult) =>
      c.serializer === c.baseline
        ? `${c.serializer} 1.00 (baseline, ${formatTime(c.time!.mean)})`
        : c.ratio === null
          ? `${c.serializer} (no paired ratio; ${formatTime(c.time!.mean)})`
          : `${c.serializer} ${formatRatio(c.ratio, ratioIntervalOf(c))}`;
    const rankings = targets.flatMap((t) =>
      [...new Set(cases.map((c) => c.class))].flatMap((cls) => {
        const measured = cases
          .filter((c) => c.target.id === t && c.class === cls && c.status === 'measured' && c.time)
          .sort((a, b) => rankKey(a) - rankKey(b) || a.time!.mean - b.time!.mean);
        return measured.length ? [`${t} · ${cls}: ${measured.map((c, i) => `${i + 1}. ${ranked(c)}`).join(', ')}`] : [];
      }),
    );
    return {
      title,
      head,
      rows,
      rankings,
      ...(acrossPlatforms(results) ? { across: buildAcross(results, cases) } : {}),
    };
  });
}

/** True when the run's targets (or its cases) span more than one platform. */
function acrossPlatforms(results: ResultsFile): boolean {
  return (
    new Set([...results.targets.map((t) => t.platform ?? 'javascript'), ...results.cases.map(platformOfCase)]).size > 1
  );
}

/** `×0.62` of bytes/op against a reference, or — when either has no figure. */
function allocDelta(c: CaseResult | undefined, ref: CaseResult | undefined): string {
  const mine = c?.status === 'measured' && c.allocated?.method !== 'n/a' ? c.allocated?.mean : undefined;
  const theirs = ref?.status === 'measured' && ref.allocated?.method !== 'n/a' ? ref.allocated?.mean : undefined;
  return formatDelta(mine, theirs);
}

/**
 * The cases of one table across platforms: per class, every target's cases (its baseline first),
 * each with its ratio against its own target's baseline and Δ of mean and allocation against the
 * reference case: the baseline of the class on the first target that has one (a JavaScript target
 * when the run names one first). Δ compares processes on one machine, not paired rounds: it is as
 * good as the two means.
 */
function buildAcross(results: ResultsFile, cases: CaseResult[]): NonNullable<TargetTable['across']> {
  const order = results.targets.map((t) => t.id);
  const classes = [...new Set(cases.map((c) => c.class))];
  const rows: string[][] = [];
  const refs: string[] = [];
  for (const cls of classes) {
    const inClass = cases.filter((c) => c.class === cls);
    const refTarget = order.find((t) =>
      inClass.some((c) => c.target.id === t && c.serializer === c.baseline && c.status === 'measured'),
    );
    const ref = inClass.find((c) => c.target.id === refTarget && c.serializer === c.baseline);
    if (ref) refs.push(`${cls}: ${ref.serializer} on ${ref.target.id}`);
    const sorted = [...inClass].sort(
      (a, b) =>
        order.indexOf(a.target.id) - order.indexOf(b.target.id) ||
        Number(b.serializer === b.baseline) - Number(a.serializer === a.baseline) ||
        (a.ratio ?? Infinity) - (b.ratio ?? Infinity),
    );
    for (const c of sorted) {
      const m = c.status === 'measured';
      rows.push([
        cls,
        c.target.id,
        c.serializer,
        m ? (c.serializer === c.baseline ? 'baseline' : formatRatio(c.ratio, ratioIntervalOf(c))) : c.status,
        m && c.time ? formatTime(c.time.mean) : '—',
        c === ref ? 'reference' : formatDelta(c.time?.mean, ref?.time?.mean),
        m ? formatAllocated(c.allocated) : '—',
        c === ref ? 'reference' : allocDelta(c, ref),
      ]);
    }
  }
  return {
    reference: refs.join('; '),
    head: ['Class', 'Target', 'Serializer', 'Ratio (own baseline)', 'Mean', 'Δ Mean', 'Allocated', 'Δ Allocated'],
    rows,
  };
}

/**
 * What a run on several targets adds on the terminal, after its group tables (issue 22: a
 * `--target node,dotnet` run said each number four times — group tables, by-target tables, rankings,
 * across platforms): the "Targets:" lines, then per workload × size × shape × direction one line
 * with only what the group tables do not show — each case's mean against the same serializer's on
 * the first target it ran on (`bun: json ≈ −10%, typia +12%`), or, for a serializer of another
 * platform, against its class's baseline on the first target that measured one (`dotnet@10: stj
 * −38% against json on node`). The ratios, rankings and side-by-side tables are in the group
 * tables and report.md. Each line fits `width`. Pure.
 */
export function targetDeltaLines(results: ResultsFile, width: number): string[] {
  const order = results.targets.map((t) => t.id);
  if (order.length < 2) return [];
  const esc = (s: string) => escapeCell(s, 'terminal', Infinity);
  const measured = results.cases.filter((c) => c.status === 'measured' && c.time);
  const lines: string[] = [];
  for (const key of [...new Set(results.cases.map(keyOf))]) {
    const cases = measured.filter((c) => keyOf(c) === key);
    const several = new Set(cases.map((c) => c.class)).size > 1;
    const parts: string[] = [];
    for (const t of order.slice(1)) {
      const said = cases
        .filter((c) => c.target.id === t)
        .flatMap((c) => {
          const earlier = order.slice(0, order.indexOf(t));
          const own = earlier
            .map((e) => cases.find((x) => x.target.id === e && x.serializer === c.serializer && x.class === c.class))
            .find(Boolean);
          const name = `${c.serializer}${several ? ` (${c.class})` : ''}`;
          if (own) return [`${name} ${formatPercentDelta(c, own)}`];
          const ref = earlier
            .map((e) => cases.find((x) => x.target.id === e && x.class === c.class && x.serializer === x.baseline))
            .find(Boolean);
          return ref ? [`${name} ${formatPercentDelta(c, ref)} against ${ref.serializer} on ${ref.target.id}`] : [];
        });
      if (said.length) parts.push(`${t}: ${said.join(', ')}`);
    }
    if (parts.length) lines.push(`  ${wrap(esc(`${key} · ${parts.join('; ')}`), width - 2, '    ')}`);
  }
  return [
    'Targets:',
    ...targetSummaryLines(results).map((l) => `  ${wrap(esc(l), width - 2, '    ')}`),
    ...(lines.length
      ? [
          wrap(
            `Across targets: each mean against the same serializer's on the first target it ran on (≈ within the error bars); the ratios are in the tables above, the side-by-side tables in report.md (or --verbose):`,
            width,
          ),
          ...lines,
        ]
      : []),
  ];
}

/** One line per target: runtime, engine, allocation method seen, and wall time spent on it (or its fault). Pure. */
export function targetSummaryLines(results: ResultsFile): string[] {
  return results.targets.map((t) => {
    if (t.fault) return `${t.id}: ${t.fault}`;
    const methods = [
      ...new Set(results.cases.filter((c) => c.target.id === t.id && c.allocated).map((c) => c.allocated!.method)),
    ];
    const time = t.timing
      ? ` · setup ${(t.timing.prepareMs / 1000).toFixed(1)} s, ${countOf(t.timing.launches, 'launch', 'launches')} ${(t.timing.launchMs / 1000).toFixed(1)} s`
      : '';
    return `${t.id}: ${t.runtime} ${t.version} (${t.engine} ${t.engineVersion})${methods.length ? ` · allocation ${methods.join('/')}` : ''}${time}`;
  });
}

/** The columns of a target table: its head, cell i of each row. */
function targetColumns(t: TargetTable): Column<string[]>[] {
  return headColumns(t.head);
}

/**
 * Columns of a side-by-side table from its headers; on a narrow terminal the per-target columns are
 * left out allocation first, then mean, then Δ, then the class (the ratios and serializers stay).
 */
function headColumns(head: readonly string[]): Column<string[]>[] {
  const priority = (h: string) =>
    /Allocated|Alloc/.test(h) ? 4 : /Mean/.test(h) ? 3 : /Δ/.test(h) ? 2 : h === 'Class' ? 1 : 0;
  return head.map((header, i) => ({
    id: header,
    header,
    cell: (row: string[]) => row[i],
    priority: priority(header),
    ...(header === 'Notes' ? { wrap: 40, least: 14 } : {}),
  }));
}

/** The heading of the per-target rankings (every dialect: terminal, Markdown, HTML). */
export const RANKING_LABEL =
  "Ranking per target (by the ratio to the target's own baseline, measured beside it; serializers whose intervals overlap are not told apart):";

/** The sentence above an across-platforms table (every dialect). */
export function acrossIntro(across: NonNullable<TargetTable['across']>): string {
  return `Across platforms: ratios against each target's own baseline; Δ against ${across.reference || 'no measured reference'} (separate processes, not paired rounds)`;
}

/** The heading of a run's side-by-side section (`#2` when the report merges several results files). */
export function sideBySideHeading(index: number, several: boolean): string {
  return `Side by side, by target${several ? ` (#${index + 1})` : ''}`;
}

/**
 * Renders the per-target tables as terminal text or GitHub Markdown (table/write.ts). Text is
 * fitted to `width` when given (characters: tables drop and wrap columns, sentences wrap; a new
 * user's 245-column by-target table at 80 columns). Pure.
 */
export function renderTargetTables(results: ResultsFile, format: 'text' | 'markdown', width?: number): string {
  const md = format === 'markdown';
  const esc = (s: string) => escapeCell(s, md ? 'markdown' : 'terminal', Infinity);
  const say = (s: string) => (width === undefined ? s : wrap(s, width));
  const fit = width === undefined ? undefined : { width };
  const out: string[] = [
    md ? '### Targets' : 'Targets:',
    ...(md ? [''] : []),
    ...targetSummaryLines(results).map((l) =>
      md ? `- ${esc(l)}` : width === undefined ? `  ${esc(l)}` : `  ${wrap(esc(l), width - 2, '    ')}`,
    ),
    '',
  ];
  for (const t of buildTargetTables(results)) {
    const table = renderTable(
      { columns: targetColumns(t), rows: t.rows },
      md ? 'markdown' : 'terminal',
      md ? {} : (fit ?? {}),
    );
    if (md)
      out.push(
        `### ${esc(t.title)} — by target`,
        '',
        table,
        '',
        RANKING_LABEL,
        '',
        ...t.rankings.map((r) => `- ${esc(r)}`),
        '',
      );
    else
      out.push(
        say(
          `${esc(t.title)} — by target (Δ: mean against the same serializer's on the first target it ran on, ≈ within the error bars; ratio against the target's own baseline; ~ allocation estimated)`,
        ),
        table,
        '',
        say(RANKING_LABEL),
        ...t.rankings.map((r) => (width === undefined ? `  ${esc(r)}` : `  ${wrap(esc(r), width - 2, '    ')}`)),
        '',
      );
    if (t.across) {
      const across = renderTable(
        {
          columns: headColumns(t.across.head),
          rows: t.across.rows,
        },
        md ? 'markdown' : 'terminal',
        md ? {} : (fit ?? {}),
      );
      const intro = acrossIntro(t.across);
      if (md) out.push(`#### ${esc(t.title)} — across platforms`, '', esc(intro), '', across, '');
      else out.push(say(`${esc(t.title)} — ${esc(intro)}`), across, '');
    }
  }
  return out.join('\n');
}
