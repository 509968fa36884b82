/**
 * Pure renderers of a case's history from the ledger: one table per case (workload × size ×
 * shape × direction × adapter), one row per run × serializer version, oldest first, so a reader
 * sees the same case across serializer versions, runtime versions and time.
 */
import { createColors } from 'picocolors';
import { pointTimeInterval, type HistoryPoint } from '../results/history.js';
import { formatBytes, formatRatio, formatTime, formatTimeError } from './units.js';
import type { Column } from './table/column.js';
import { chooseColumns, renderTable } from './table/write.js';
import { escapeCell } from './table/escape.js';
import { DEFAULT_WIDTH, wrap } from './fit.js';
import { compareVersions } from '../versions/install.js';
import { sameSchema, schemaChange } from '../results/payload-schema.js';

/**
 * A point of a series: a history point, and `change` when the policy, the schema or the payload it was
 * measured with is not the previous point's (`policy quick → default; schema inferred → json-schema o.json`).
 */
export interface SeriesPoint extends HistoryPoint {
  change?: string;
}

/** One case's series; `changes`: its points where the policy or the schema changed, in order. */
export interface HistorySeries {
  title: string;
  points: SeriesPoint[];
  changes: { runId: number; text: string }[];
}

/** The mark of a point measured with another policy, schema or payload than the point before it. */
const SETUP_MARK = '◆';

/**
 * What changed from `prev` to `p` in how the case was measured: the policy (a quick run's one launch
 * against a default run's several), the schema of a user's payload (the schema-driven serializers
 * are built from it: nu7's one series drew fast-json-stringify from 2.44 to 0.95 across two policies
 * and two schemas) and the payload's bytes. Null: nothing, or not read on either side.
 */
function setupChange(prev: HistoryPoint, p: HistoryPoint): string | null {
  const parts: string[] = [];
  if (prev.policy !== undefined && p.policy !== undefined && prev.policy !== p.policy)
    parts.push(`policy ${prev.policy} → ${p.policy}`);
  const [a, b] = [prev.schema, p.schema];
  if (a && b && !sameSchema(a, b)) parts.push(`schema ${schemaChange(a, b)}`);
  // the same case id on other bytes (two payload files of one name; hx30 hist-samename drew typia 0.67 → 1.58)
  if (prev.payloadSha256 !== undefined && p.payloadSha256 !== undefined && prev.payloadSha256 !== p.payloadSha256)
    parts.push(`payload sha256 ${prev.payloadSha256.slice(0, 12)}… → ${p.payloadSha256.slice(0, 12)}… (other bytes)`);
  return parts.length ? parts.join('; ') : null;
}

import semver from 'semver';
import { deepFreeze } from '../case/frozen.js';

/** Order inside a case: by run start, then (rows of one run) by serializer version, semver-aware. */
function byRunThenVersion(a: HistoryPoint, b: HistoryPoint): number {
  if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? -1 : 1;
  if (a.runId !== b.runId) return a.runId - b.runId;
  if (semver.valid(a.serializerVersion) && semver.valid(b.serializerVersion))
    return compareVersions(a.serializerVersion, b.serializerVersion);
  return a.serializerVersion.localeCompare(b.serializerVersion) || a.caseId.localeCompare(b.caseId);
}

/**
 * The series a point belongs to: its case (workload · size · shape · direction · adapter), and for
 * a serialize point measured with `--serialize-to string` that op too (` · op: value → string`), so
 * runs that timed the string alone never share a series with runs that timed value → bytes (as
 * `compare` refuses to compare them).
 */
export function historySeriesKey(p: HistoryPoint): string {
  const op =
    p.direction === 'serialize' && p.serializeTo === 'string' ? ' · op: value → string (--serialize-to string)' : '';
  return `${p.workload} · ${p.size} · ${p.shape} · ${p.direction} · ${p.adapter}${op}`;
}

/** Groups points by {@link historySeriesKey} (case, and the serialize op), series in order of first appearance, points by run then version. */
export function historySeries(points: readonly HistoryPoint[]): HistorySeries[] {
  const map = new Map<string, HistoryPoint[]>();
  for (const p of points) {
    const key = historySeriesKey(p);
    if (!map.has(key)) map.set(key, []);
    map.get(key)!.push(p);
  }
  return [...map].map(([title, ps]) => {
    const sorted = [...ps].sort(byRunThenVersion);
    const changes: HistorySeries['changes'] = [];
    const points = sorted.map((p, i): SeriesPoint => {
      const change = i > 0 ? setupChange(sorted[i - 1], p) : null;
      if (!change) return p;
      changes.push({ runId: p.runId, text: change });
      return { ...p, change };
    });
    return { title, points, changes };
  });
}

/** The columns of a history table (times in ns/op, bytes/op, formatted); rows are the points of one case. */
export const HISTORY_TABLE: readonly Column<SeriesPoint>[] = deepFreeze([
  {
    id: 'run',
    header: 'Run',
    // an import read unchecked (results/integrity.ts): the ledger does not vouch for its numbers
    cell: (p) => `${p.runId}${p.change ? ` ${SETUP_MARK}` : ''}${p.unchecked ? ' unchecked' : ''}`,
  },
  { id: 'when', header: 'When', cell: (p) => p.startedAt.replace('T', ' ').slice(0, 16) },
  { id: 'serializer', header: 'Serializer', cell: (p) => p.serializer },
  { id: 'version', header: 'Version', cell: (p) => p.serializerVersion },
  { id: 'runtime', header: 'Runtime', cell: (p) => `${p.target} ${p.targetVersion}` },
  { id: 'jsonbench', header: 'jsonbench', cell: (p) => p.toolVersion },
  { id: 'commit', header: 'Commit', cell: (p) => (p.gitCommit ? p.gitCommit.slice(0, 8) : '—') },
  {
    id: 'mean',
    header: 'Mean',
    cell: (p) => (p.status === 'measured' && p.meanNs !== null ? formatTime(p.meanNs) : '—'),
  },
  {
    id: 'error',
    header: 'Error',
    cell: (p) => (p.status === 'measured' && p.meanNs !== null ? formatTimeError(p.meanNs, pointTimeInterval(p)) : '—'),
  },
  {
    id: 'ratio',
    header: 'Ratio',
    cell: (p) =>
      p.status === 'measured'
        ? `${formatRatio(p.ratio, p.ratioInterval)}${p.noisy ? ' ⚠ noisy' : ''}${p.unranked ? ' ⊘ not ranked' : ''}`
        : '—',
  },
  {
    id: 'allocated',
    header: 'Allocated',
    cell: (p) => (p.status === 'measured' && p.bytesPerOp !== null ? formatBytes(p.bytesPerOp) : '—'),
  },
  {
    id: 'instructions',
    header: 'Instr/op',
    cell: (p) =>
      p.status === 'measured' && p.instructionsPerOp !== null ? Math.round(p.instructionsPerOp).toString() : '—',
  },
  {
    id: 'status',
    header: 'Status',
    cell: (p) => (p.status === 'measured' ? 'measured' : `${p.status}${p.reason ? `: ${p.reason.slice(0, 60)}` : ''}`),
  },
]);

/** The headers of a history table. */
export const HISTORY_COLUMNS: readonly string[] = deepFreeze(HISTORY_TABLE.map((c) => c.header));

/** The cells of one point (times in ns/op, bytes/op), formatted, unescaped. */
export function historyCells(p: SeriesPoint): string[] {
  return HISTORY_TABLE.map((c) => c.cell(p));
}

/** The sentence under a history: what Ratio's brackets and ⚠ noisy mean (and Error, where the table shows it: {@link ERROR_LEGEND}). */
export const HISTORY_LEGEND =
  "Ratio is time ÷ the class baseline's in that run, [low–high] its 99.9% interval (log scale); ⚠ noisy: that run flagged the case noisy (its launches disagreed beyond their errors, or its interval straddled the decision its takeaway makes), so the point is less certain than its interval says.";

/** The legend's sentence about the Error column, said where the table shows it (nu16: the terminal's legend explained a column it had left out). */
export const ERROR_LEGEND =
  "Error is how far the mean's 99.9% interval reaches above and below it (+above/−below: log scale, asymmetric; ± where the two read alike).";

/** The legend's sentence about ⊘, said once when a point carries it. */
export const UNRANKED_LEGEND =
  "⊘ not ranked: that run refused to rank the case (its baseline ran slowed beside it, it was too fast to be real, it waited, or its clocks disagreed: that run's report.md says which), so its ratio is not the work's.";

/** The legend under a history's tables: {@link HISTORY_LEGEND}, then Error's and ⊘'s sentences where they apply. */
function historyLegend(points: readonly HistoryPoint[], errorShown: boolean): string {
  return [
    HISTORY_LEGEND,
    ...(errorShown ? [ERROR_LEGEND] : []),
    ...(points.some((p) => p.unranked) ? [UNRANKED_LEGEND] : []),
  ].join(' ');
}

/**
 * The lines under a series whose policy or schema changed (none when neither did): one per change,
 * `◆ run 6: policy default → quick; schema inferred → json-schema orders.flat.schema.json`.
 */
export function setupChangeLines(s: HistorySeries): string[] {
  return s.changes.map((c) => `${SETUP_MARK} run ${c.runId}: ${c.text}`);
}

/** The legend's sentence about {@link SETUP_MARK}, said once when a series has a change. */
export const SETUP_LEGEND = `${SETUP_MARK}: that run measured the case with another policy, schema or payload than the run before it, so the points on either side of it are not comparable (as compare says); compare points between marks.`;

/** Markdown: a `##` heading and a table per case, then {@link HISTORY_LEGEND}. */
export function renderHistoryMarkdown(points: readonly HistoryPoint[]): string {
  const out: string[] = [];
  const series = historySeries(points);
  for (const s of series)
    out.push(
      `## ${escapeCell(s.title, 'markdown')}`,
      '',
      renderTable({ columns: HISTORY_TABLE, rows: s.points }, 'markdown'),
      '',
      ...setupChangeLines(s).flatMap((l) => [escapeCell(l, 'markdown'), '']),
    );
  if (out.length) out.push(historyLegend(points, true), '');
  if (series.some((s) => s.changes.length)) out.push(SETUP_LEGEND, '');
  return out.join('\n');
}

/**
 * The terminal's history columns ({@link HISTORY_TABLE}, fitted to a width): Run, When, Version
 * and Ratio stay; Mean, Allocated, Runtime, Serializer (its label repeats the title's adapter and
 * the Version), Error, Commit and jsonbench go first on a narrow terminal (the last first); Instr/op
 * only when a point has a count; Status only when a point has no number, cut to one line.
 */
function terminalHistoryColumns(points: readonly HistoryPoint[]): Column<SeriesPoint>[] {
  const priority: Record<string, number> = {
    serializer: 3,
    runtime: 2,
    jsonbench: 6,
    commit: 5,
    error: 4,
    allocated: 2,
    mean: 1,
    instructions: 3,
  };
  const shown = (id: string) =>
    (id !== 'instructions' || points.some((p) => p.instructionsPerOp !== null)) &&
    (id !== 'status' || points.some((p) => p.status !== 'measured'));
  return HISTORY_TABLE.filter((c) => shown(c.id)).map((c) =>
    c.id === 'status'
      ? { ...c, cell: (p: SeriesPoint) => (p.status === 'measured' ? '' : c.cell(p)), clip: '' }
      : { ...c, priority: priority[c.id] ?? 0 },
  );
}

/**
 * Terminal: a bold title and a compact table per case (points without numbers dim), then
 * {@link HISTORY_LEGEND}, every line fitted to `width` (default {@link DEFAULT_WIDTH}).
 */
export function renderHistoryTerminal(points: readonly HistoryPoint[], color: boolean, width = DEFAULT_WIDTH): string {
  const c = createColors(color);
  const out: string[] = [];
  // the columns are chosen once, over every point, so every case's table shows the same ones; said once at the end
  const all = terminalHistoryColumns(points);
  const fit = chooseColumns({ columns: all, rows: points }, width);
  const columns = fit.keep.map((i) => all[i]);
  const series = historySeries(points);
  for (const s of series) {
    out.push(
      c.bold(wrap(escapeCell(s.title, 'terminal'), width)),
      renderTable(
        {
          columns,
          rows: s.points,
          tone: (p) => (p.status === 'measured' ? undefined : 'dim'),
          compact: true,
        },
        'terminal',
        { color, width },
      ),
      ...setupChangeLines(s).map((l) => wrap(escapeCell(l, 'terminal'), width, '  ')),
      '',
    );
  }
  if (fit.dropped.length)
    out.push(
      c.dim(
        wrap(
          `(${fit.dropped.length === 1 ? 'column' : 'columns'} left out to fit ${width} characters: ${fit.dropped.join(', ')}; a wider terminal or --format md shows them)`,
          width,
          ' ',
        ),
      ),
    );
  if (out.length)
    out.push(
      wrap(
        historyLegend(
          points,
          columns.some((k) => k.id === 'error'),
        ),
        width,
      ),
      '',
    );
  if (series.some((s) => s.changes.length)) out.push(wrap(SETUP_LEGEND, width), '');
  return out.join('\n');
}

/** One row of the history's summary: a table's cases (workload × size × shape × direction) in the ledger. */
interface SummaryRow {
  title: string;
  serializers: number;
  runs: number;
  points: number;
  latest: HistoryPoint;
}

/**
 * Terminal, without a filter (issue 22: `history` printed 2,274 lines): what the ledger holds,
 * one row per workload × size × shape × direction — how many serializers, runs and points, and
 * the latest run — then how to see the points. Pure.
 */
export function renderHistorySummary(points: readonly HistoryPoint[], color: boolean, width = DEFAULT_WIDTH): string {
  const byTable = new Map<string, HistoryPoint[]>();
  for (const p of points) {
    const k = `${p.workload} · ${p.size} · ${p.shape} · ${p.direction}`;
    byTable.set(k, [...(byTable.get(k) ?? []), p]);
  }
  const rows: SummaryRow[] = [...byTable].map(([title, ps]) => {
    const latest = [...ps].sort(byRunThenVersion).at(-1)!;
    return {
      title,
      serializers: new Set(ps.map((p) => p.serializer)).size,
      runs: new Set(ps.map((p) => p.runId)).size,
      points: ps.length,
      latest,
    };
  });
  const columns: Column<SummaryRow>[] = [
    { id: 'case', header: 'Workload · size · shape · direction', cell: (r) => r.title, clip: '', least: 40 },
    { id: 'serializers', header: 'Serializers', cell: (r) => String(r.serializers), align: 'right', priority: 3 },
    { id: 'runs', header: 'Runs', cell: (r) => String(r.runs), align: 'right' },
    { id: 'points', header: 'Points', cell: (r) => String(r.points), align: 'right', priority: 2 },
    {
      id: 'latest',
      header: 'Latest run',
      cell: (r) => `${r.latest.runId} (${r.latest.startedAt.replace('T', ' ').slice(0, 16)})`,
      priority: 1,
    },
  ];
  const runs = new Set(points.map((p) => p.runId)).size;
  return [
    createColors(color).bold(
      wrap(
        `The ledger holds ${points.length} points of ${historySeries(points).length} cases from ${runs} run${runs === 1 ? '' : 's'}:`,
        width,
      ),
    ),
    renderTable({ columns, rows, compact: true }, 'terminal', { color, width }),
    wrap(
      "Each case's points: jsonbench history --workload W (and --size, --shape, --direction, --serializer, --target), or --last N for the latest N of every case.",
      width,
    ),
    '',
  ].join('\n');
}
