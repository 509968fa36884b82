import { createColors } from 'picocolors';
import type { ResultsFile } from '../results/types.js';
import { buildTables, platformLabel, runColumns } from './rows.js';
import { renderTable } from './table/write.js';
import { mapColumns } from './table/column.js';
import { escapeCell } from './table/escape.js';
import { renderInstructions } from './instructions.js';
import { renderTargetTables } from './target-columns.js';

/** Width of the Notes column (characters); longer notes wrap. */
const NOTES_WIDTH = 50;

/**
 * Renders the results as terminal tables (table/write.ts over the run columns), one per workload ×
 * size × shape × direction, grouped by class; then the instruction counts (when the run counted
 * them) and the side-by-side tables of a run on several targets. Colours follow `color` (callers
 * pass false for NO_COLOR or a pipe). Pure: returns the text.
 */
export function renderTerminal(results: ResultsFile, color: boolean): string {
  const c = createColors(color);
  const out: string[] = [];
  const columns = runColumns({ notesWrap: NOTES_WIDTH });
  for (const table of buildTables(results.cases)) {
    out.push(c.bold(escapeCell(table.title, 'terminal')));
    const rows = table.sections.flatMap((s) => s.cases.map((cs) => ({ cs, section: `class ${s.caseClass}${platformLabel(s.platform) ? ` · ${platformLabel(s.platform)}` : ''}${s.baseline ? ` — ratios against ${s.baseline}` : ''}` })));
    out.push(renderTable<(typeof rows)[number]>({
      columns: mapColumns(columns, (r: (typeof rows)[number]) => r.cs),
      rows,
      sectionOf: (r) => r.section,
      tone: (r) => (r.cs.status === 'measured' ? undefined : r.cs.status === 'unsupported' ? 'dim' : 'red'),
    }, 'terminal', { color }), '');
  }
  const instructions = renderInstructions(results);
  if (instructions) out.push(instructions);
  if (results.targets.length > 1) out.push(renderTargetTables(results, 'text'));
  return out.join('\n');
}
