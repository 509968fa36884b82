/**
 * Pure renderers of a case's history from the ledger: one table per case (workload × size ×
 * shape × direction × adapter), one row per run × serializer version, oldest first, so a reader
 * sees the same case across serializer versions, runtime versions and time.
 */
import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { HistoryPoint } from '../ledger/queries.js';
import { formatBytes, formatRatio, formatTime } from './units.js';
import { compareVersions } from '../versions/install.js';

/** The columns of a history table. */
export const HISTORY_COLUMNS = ['Run', 'When', 'Serializer', 'Version', 'Runtime', 'jsonbench', 'Commit', 'Mean', 'Error', 'Ratio', 'Allocated', 'Instr/op', 'Status'] as const;

/** One case's series. */
export interface HistorySeries { title: string; points: HistoryPoint[] }

const EXACT = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

/** Order inside a case: by run start, then (rows of one run) by serializer version, semver-aware. */
function byRunThenVersion(a: HistoryPoint, b: HistoryPoint): number {
  if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? -1 : 1;
  if (a.runId !== b.runId) return a.runId - b.runId;
  if (EXACT.test(a.serializerVersion) && EXACT.test(b.serializerVersion)) return compareVersions(a.serializerVersion, b.serializerVersion);
  return a.serializerVersion.localeCompare(b.serializerVersion) || a.caseId.localeCompare(b.caseId);
}

/** Groups points by case (workload · size · shape · direction · adapter), cases in order of first appearance, points by run then version. */
export function historySeries(points: readonly HistoryPoint[]): HistorySeries[] {
  const map = new Map<string, HistoryPoint[]>();
  for (const p of points) {
    const key = `${p.workload} · ${p.size} · ${p.shape} · ${p.direction} · ${p.adapter}`;
    if (!map.has(key)) map.set(key, []);
    map.get(key)!.push(p);
  }
  return [...map].map(([title, ps]) => ({ title, points: [...ps].sort(byRunThenVersion) }));
}

/** The cells of one point (times in ns/op, bytes/op), formatted. */
export function historyCells(p: HistoryPoint): string[] {
  const measured = p.status === 'measured';
  return [
    String(p.runId), p.startedAt.replace('T', ' ').slice(0, 16), p.serializer, p.serializerVersion, `${p.target} ${p.targetVersion}`,
    p.toolVersion, p.gitCommit ? p.gitCommit.slice(0, 8) : '—',
    measured && p.meanNs !== null ? formatTime(p.meanNs) : '—',
    measured && p.errorNs !== null ? formatTime(p.errorNs) : '—',
    measured ? formatRatio(p.ratio) : '—',
    measured && p.bytesPerOp !== null ? formatBytes(p.bytesPerOp) : '—',
    measured && p.instructionsPerOp !== null ? Math.round(p.instructionsPerOp).toString() : '—',
    measured ? 'measured' : `${p.status}${p.reason ? `: ${p.reason.slice(0, 60)}` : ''}`,
  ];
}

/** Markdown: a `##` heading and a table per case. */
export function renderHistoryMarkdown(points: readonly HistoryPoint[]): string {
  const out: string[] = [];
  for (const s of historySeries(points)) {
    out.push(`## ${s.title}`, '', `| ${HISTORY_COLUMNS.join(' | ')} |`, `|${' --- |'.repeat(HISTORY_COLUMNS.length)}`);
    for (const p of s.points) out.push(`| ${historyCells(p).map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
    out.push('');
  }
  return out.join('\n');
}

/** Terminal: a bold title and a cli-table3 table per case. */
export function renderHistoryTerminal(points: readonly HistoryPoint[], color: boolean): string {
  const c = createColors(color);
  const out: string[] = [];
  for (const s of historySeries(points)) {
    const t = new Table({ head: [...HISTORY_COLUMNS], style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] } });
    for (const p of s.points) t.push(historyCells(p).map((cell) => (p.status === 'measured' ? cell : c.dim(cell))));
    out.push(c.bold(s.title), t.toString(), '');
  }
  return out.join('\n');
}
