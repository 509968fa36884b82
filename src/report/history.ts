/**
 * Pure renderers of a case's history from the ledger: one table per case (workload × size ×
 * shape × direction × adapter), one row per run × serializer version, oldest first, so a reader
 * sees the same case across serializer versions, runtime versions and time.
 */
import { createColors } from 'picocolors';
import type { HistoryPoint } from '../results/history.js';
import { formatBytes, formatRatio, formatTime } from './units.js';
import type { Column } from './table/column.js';
import { renderTable } from './table/write.js';
import { escapeCell } from './table/escape.js';
import { compareVersions } from '../versions/install.js';

/** One case's series. */
export interface HistorySeries {
  title: string;
  points: HistoryPoint[];
}

import semver from 'semver';

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
  return [...map].map(([title, ps]) => ({ title, points: [...ps].sort(byRunThenVersion) }));
}

/** The columns of a history table (times in ns/op, bytes/op, formatted); rows are the points of one case. */
export const HISTORY_TABLE: readonly Column<HistoryPoint>[] = [
  { id: 'run', header: 'Run', cell: (p) => String(p.runId) },
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
    cell: (p) => (p.status === 'measured' && p.errorNs !== null ? formatTime(p.errorNs) : '—'),
  },
  {
    id: 'ratio',
    header: 'Ratio',
    cell: (p) =>
      p.status === 'measured' ? `${formatRatio(p.ratio, p.ratioInterval)}${p.noisy ? ' ⚠ noisy' : ''}` : '—',
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
];

/** The headers of a history table. */
export const HISTORY_COLUMNS: readonly string[] = HISTORY_TABLE.map((c) => c.header);

/** The cells of one point (times in ns/op, bytes/op), formatted, unescaped. */
export function historyCells(p: HistoryPoint): string[] {
  return HISTORY_TABLE.map((c) => c.cell(p));
}

/** The sentence under a history: what Ratio's brackets and ⚠ noisy mean. */
export const HISTORY_LEGEND =
  "Ratio is time ÷ the class baseline's in that run, [low–high] its 99.9% interval (log scale); ⚠ noisy: that run's launches disagreed beyond their errors, or the ratio's interval straddles the decision line 1, so a rerun may read differently. Error is the half-width of the 99.9% interval of the mean.";

/** Markdown: a `##` heading and a table per case, then {@link HISTORY_LEGEND}. */
export function renderHistoryMarkdown(points: readonly HistoryPoint[]): string {
  const out: string[] = [];
  for (const s of historySeries(points))
    out.push(
      `## ${escapeCell(s.title, 'markdown')}`,
      '',
      renderTable({ columns: HISTORY_TABLE, rows: s.points }, 'markdown'),
      '',
    );
  if (out.length) out.push(HISTORY_LEGEND, '');
  return out.join('\n');
}

/** Terminal: a bold title and a table per case (points without numbers dim). */
export function renderHistoryTerminal(points: readonly HistoryPoint[], color: boolean): string {
  const c = createColors(color);
  const out: string[] = [];
  for (const s of historySeries(points)) {
    out.push(
      c.bold(escapeCell(s.title, 'terminal')),
      renderTable(
        { columns: HISTORY_TABLE, rows: s.points, tone: (p) => (p.status === 'measured' ? undefined : 'dim') },
        'terminal',
        { color },
      ),
      '',
    );
  }
  if (out.length) out.push(HISTORY_LEGEND, '');
  return out.join('\n');
}
