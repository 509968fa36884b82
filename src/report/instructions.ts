/**
 * Pure renderer of the instruction counts of a run: a table in the run's case order, never sorted
 * by the count, under a title saying what the number is and is not.
 */
import type { CaseResult, ResultsFile } from '../results/types.js';
import type { Column } from './table/column.js';
import { renderTable } from './table/write.js';
import { deepFreeze } from '../case/frozen.js';

/** The label every report puts on this metric. */
export const INSTRUCTIONS_LABEL =
  'Instructions per op (Valgrind callgrind; deterministic, for CI gates — not time, and not a ranking: it ignores caches, branch misses and memory stalls)';

/** The columns of the instructions table (rows: cases that have a count). */
export const INSTRUCTION_COLUMNS: readonly Column<CaseResult>[] = deepFreeze([
  { id: 'case', header: 'Case', cell: (c) => `${c.workload} · ${c.size} · ${c.shape} · ${c.direction}` },
  { id: 'serializer', header: 'Serializer', cell: (c) => c.serializer },
  { id: 'version', header: 'Version', cell: (c) => c.serializerVersion },
  {
    id: 'instructions',
    header: 'Instructions/op',
    cell: (c) => Math.round(c.instructions!.perOp).toLocaleString('en-US'),
  },
  {
    id: 'iterations',
    header: 'Iterations N₁ / N₂',
    cell: (c) => `${c.instructions!.iterations[0]} / ${c.instructions!.iterations[1]}`,
  },
]);

/** Terminal (or Markdown with `markdown`) table of the cases that have an instruction count; '' when none has. */
export function renderInstructions(results: ResultsFile, markdown = false): string {
  const rows = results.cases.filter((c) => c.instructions);
  if (!rows.length) return '';
  const table = renderTable({ columns: INSTRUCTION_COLUMNS, rows }, markdown ? 'markdown' : 'terminal');
  return markdown ? [`### ${INSTRUCTIONS_LABEL}`, '', table, ''].join('\n') : `${INSTRUCTIONS_LABEL}\n${table}\n`;
}
