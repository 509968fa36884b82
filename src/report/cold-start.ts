/**
 * Pure renderer of a run's cold starts (`run --metric cold-start`): per case that has them, the
 * median over fresh processes of loading the adapter, `prepare()` and the first op, beside the
 * case's warm mean and how many warm ops the first call is worth. A section of its own, so the
 * cold figures sit next to the warm ones and never inside them.
 */
import type { CaseResult, ResultsFile } from '../results/types.js';
import type { Column } from './table/column.js';
import { renderTable } from './table/write.js';
import { formatTime } from './units.js';
import { deepFreeze } from '../case/frozen.js';

/** The label every report puts on this section. */
export const COLD_START_LABEL =
  'Cold start (each in a fresh process, timed once, wall clock; median over processes, [min–max] when several): load = importing the adapter and its library, prepare = prepare() (schema compilation, code generation), first call = the first op, code cold. Not part of the warm figures.';

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** `1.2 ms` for one process, `1.2 ms [1.1–1.9 ms]` for several. */
export function formatCold(ns: readonly number[]): string {
  if (ns.length === 1) return formatTime(ns[0]);
  return `${formatTime(median(ns))} [${formatTime(Math.min(...ns))}–${formatTime(Math.max(...ns))}]`;
}

/** The columns of the cold-start table (rows: cases that have cold figures). */
export const COLD_START_COLUMNS: readonly Column<CaseResult>[] = deepFreeze([
  { id: 'case', header: 'Case', cell: (c) => `${c.workload} · ${c.size} · ${c.shape} · ${c.direction}` },
  { id: 'serializer', header: 'Serializer', cell: (c) => c.serializer },
  { id: 'load', header: 'Load', cell: (c) => formatCold(c.coldStart!.loadNs) },
  { id: 'prepare', header: 'Prepare', cell: (c) => formatCold(c.coldStart!.prepareNs) },
  { id: 'first-call', header: 'First call', cell: (c) => formatCold(c.coldStart!.firstCallNs) },
  { id: 'warm-mean', header: 'Warm mean', cell: (c) => (c.time ? formatTime(c.time.mean) : '—') },
  {
    id: 'first-vs-warm',
    header: 'First ÷ warm',
    cell: (c) =>
      c.time && c.time.mean > 0
        ? `${Math.round(median(c.coldStart!.firstCallNs) / c.time.mean).toLocaleString('en-US')}×`
        : '—',
  },
  {
    id: 'processes',
    header: 'Processes',
    cell: (c) =>
      `${c.coldStart!.processes}${c.coldStart!.failures?.length ? ` (${c.coldStart!.failures.length} failed)` : ''}`,
  },
]);

/** Terminal (or Markdown with `markdown`) table of the cases that have cold figures; '' when none has. */
export function renderColdStart(results: ResultsFile, markdown = false): string {
  const rows = results.cases.filter((c) => c.coldStart);
  if (!rows.length) return '';
  const table = renderTable({ columns: COLD_START_COLUMNS, rows }, markdown ? 'markdown' : 'terminal');
  return markdown ? [`### ${COLD_START_LABEL}`, '', table, ''].join('\n') : `${COLD_START_LABEL}\n${table}\n`;
}
