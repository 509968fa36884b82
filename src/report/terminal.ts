import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { ResultsFile } from '../results/types.js';
import { buildTables, COLUMNS, rowCells } from './rows.js';

/** Width of the Notes column (characters); longer notes wrap. */
const NOTES_WIDTH = 50;

/**
 * Renders the results as terminal tables (cli-table3), one per workload × size × shape ×
 * direction, grouped by class. Colours follow `color` (callers pass false for NO_COLOR or a pipe).
 * Pure: returns the text.
 */
export function renderTerminal(results: ResultsFile, color: boolean): string {
  const c = createColors(color);
  const out: string[] = [];
  for (const table of buildTables(results.cases)) {
    out.push(c.bold(table.title));
    // Every column but Notes fits its widest cell, so ids like "fast-json-stringify@7.3.10" are never cut.
    const cellsOf = table.sections.flatMap((s) => s.cases.map(rowCells));
    const widths = COLUMNS.map((h, i) => i === COLUMNS.length - 1 ? NOTES_WIDTH : Math.max(h.length, ...cellsOf.map((r) => r[i].length)) + 2);
    const t = new Table({ head: [...COLUMNS], style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] }, wordWrap: true, colWidths: widths });
    for (const section of table.sections) {
      t.push([{ colSpan: COLUMNS.length, content: c.dim(`class ${section.caseClass}${section.baseline ? ` — ratios against ${section.baseline}` : ''}`) }]);
      for (const cs of section.cases) {
        const cells = rowCells(cs);
        const paint = cs.status === 'measured' ? (s: string) => s : cs.status === 'unsupported' ? c.dim : c.red;
        t.push(cells.map(paint));
      }
    }
    out.push(t.toString(), '');
  }
  return out.join('\n');
}
