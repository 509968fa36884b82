import type { AllocStats, CaseResult, ResultsFile } from '../results/types.js';
import { formatBytes, formatTime } from './units.js';
import type { Column } from './table/column.js';
import { renderTable } from './table/write.js';
import { escapeCell } from './table/escape.js';

/**
 * The side-by-side view of a `--target` run: one table per workload × size × shape × direction,
 * one row per class × serializer, and per target the Mean and Allocated columns, with a Δ column
 * (mean on this target / mean on the first target) for every target after the first; then a
 * ranking per target and class (measured cases by mean, fastest first).
 */
export interface TargetTable {
  title: string;
  head: string[];
  rows: string[][];
  /** `target · class: 1. a 1.2 µs, 2. b 3.4 µs` */
  rankings: string[];
}

const keyOf = (c: CaseResult) => `${c.workload} · ${c.size} · ${c.shape} · ${c.direction}`;

/** `408 B` (exact), `~408 B` (estimate), `n/a` (no counter). */
export function formatAllocated(a: AllocStats | undefined): string {
  if (!a) return '—';
  if (a.method === 'n/a') return 'n/a';
  return `${a.method === 'estimate' ? '~' : ''}${formatBytes(a.mean)}`;
}

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
  for (const c of results.cases) { const k = keyOf(c); if (!byTable.has(k)) byTable.set(k, []); byTable.get(k)!.push(c); }
  const head = ['Class', 'Serializer', ...targets.flatMap((t, i) => (i === 0 ? [`${t} Mean`, `${t} Allocated`] : [`${t} Mean`, `${t} Δ`, `${t} Allocated`])), 'Notes'];
  return [...byTable].map(([title, cases]) => {
    const rowKeys = [...new Set(cases.map((c) => `${c.class}\u0000${c.serializer}`))];
    const find = (k: string, t: string) => cases.find((c) => `${c.class}\u0000${c.serializer}` === k && c.target.id === t);
    const meanOf = (c?: CaseResult) => (c?.status === 'measured' ? c.time?.mean : undefined);
    const rows = rowKeys.map((k) => {
      const [cls, serializer] = k.split('\u0000');
      const ref = meanOf(find(k, targets[0]));
      const notes: string[] = [];
      const cells = targets.flatMap((t, i) => {
        const c = find(k, t);
        if (c && c.status !== 'measured') notes.push(`${t}: ${c.status}${c.reason ? ` (${c.reason})` : ''}`);
        const mean = c?.status === 'measured' && c.time ? formatTime(c.time.mean) : c ? c.status : '—';
        const alloc = c?.status === 'measured' ? formatAllocated(c.allocated) : '—';
        return i === 0 ? [mean, alloc] : [mean, formatDelta(meanOf(c), ref), alloc];
      });
      const all = targets.map((t) => find(k, t));
      const same = all.every((c) => c && c.status !== 'measured' && c.status === all[0]!.status && c.reason === all[0]!.reason);
      const note = same ? `every target: ${all[0]!.status}${all[0]!.reason ? ` (${all[0]!.reason})` : ''}` : notes.join('; ');
      return [cls, serializer, ...cells, note];
    });
    const rankings = targets.flatMap((t) => [...new Set(cases.map((c) => c.class))].flatMap((cls) => {
      const measured = cases.filter((c) => c.target.id === t && c.class === cls && c.status === 'measured' && c.time).sort((a, b) => a.time!.mean - b.time!.mean);
      return measured.length ? [`${t} · ${cls}: ${measured.map((c, i) => `${i + 1}. ${c.serializer} ${formatTime(c.time!.mean)}`).join(', ')}`] : [];
    }));
    return { title, head, rows, rankings };
  });
}

/** One line per target: runtime, engine, allocation method seen, and wall time spent on it (or its fault). Pure. */
export function targetSummaryLines(results: ResultsFile): string[] {
  return results.targets.map((t) => {
    if (t.fault) return `${t.id}: ${t.fault}`;
    const methods = [...new Set(results.cases.filter((c) => c.target.id === t.id && c.allocated).map((c) => c.allocated!.method))];
    const time = t.timing ? ` · setup ${(t.timing.prepareMs / 1000).toFixed(1)} s, ${t.timing.launches} launches ${(t.timing.launchMs / 1000).toFixed(1)} s` : '';
    return `${t.id}: ${t.runtime} ${t.version} (${t.engine} ${t.engineVersion})${methods.length ? ` · allocation ${methods.join('/')}` : ''}${time}`;
  });
}

/** The columns of a target table: its head, cell i of each row. */
function targetColumns(t: TargetTable): Column<string[]>[] {
  return t.head.map((header, i) => ({ id: header, header, cell: (row: string[]) => row[i] }));
}

/** Renders the per-target tables as terminal text or GitHub Markdown (table/write.ts). Pure. */
export function renderTargetTables(results: ResultsFile, format: 'text' | 'markdown'): string {
  const md = format === 'markdown';
  const esc = (s: string) => escapeCell(s, md ? 'markdown' : 'terminal', Infinity);
  const out: string[] = [md ? '### Targets' : 'Targets:', ...(md ? [''] : []), ...targetSummaryLines(results).map((l) => (md ? `- ${esc(l)}` : `  ${esc(l)}`)), ''];
  for (const t of buildTargetTables(results)) {
    const table = renderTable({ columns: targetColumns(t), rows: t.rows }, md ? 'markdown' : 'terminal');
    if (md) out.push(`### ${esc(t.title)} — by target`, '', table, '', 'Ranking per target:', '', ...t.rankings.map((r) => `- ${esc(r)}`), '');
    else out.push(`${esc(t.title)} — by target (Δ: mean ÷ ${esc(results.targets[0]?.id ?? 'first target')}'s; ~ allocation estimated)`, table, '', 'Ranking per target:', ...t.rankings.map((r) => `  ${esc(r)}`), '');
  }
  return out.join('\n');
}
