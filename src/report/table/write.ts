import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { Column, Table as TableSpec, Tone } from './column.js';
import { escapeCell, type Dialect } from './escape.js';

/** Options of {@link renderTable}: colours on a terminal (callers pass false for NO_COLOR or a pipe). */
export interface WriteOptions { color?: boolean }

/**
 * The one table writer. `terminal`: a cli-table3 box, each column as wide as its longest cell
 * (or wrapped at its `wrap` width), section heading rows, tones as colours. `markdown`: a GitHub
 * pipe table (`| a | b |`, `| --- | --- |`), tones of cells as bold. Every cell goes through the
 * dialect's escaper. Pure: returns the text (terminal: no trailing newline; markdown: one line per row).
 */
export function renderTable<Row>(table: TableSpec<Row>, dialect: Dialect, options: WriteOptions = {}): string {
  const text = (col: Column<Row>, row: Row) => escapeCell(col.cell(row), dialect, col.maxChars);
  if (dialect === 'markdown') {
    const head = table.columns.map((c) => escapeCell(c.header, 'markdown'));
    const lines = [`| ${head.join(' | ')} |`, `|${' --- |'.repeat(head.length)}`];
    for (const row of table.rows) {
      lines.push(`| ${table.columns.map((c) => { const t = text(c, row); const tone = c.tone?.(row); return tone === 'red' || tone === 'green' ? `**${t}**` : t; }).join(' | ')} |`);
    }
    return lines.join('\n');
  }
  const k = createColors(Boolean(options.color));
  const paint = (tone: Tone | undefined, s: string) => (tone === 'dim' ? k.dim(s) : tone === 'red' ? k.red(s) : tone === 'green' ? k.green(s) : s);
  const cells = table.rows.map((row) => table.columns.map((c) => text(c, row)));
  const widths = table.columns.map((c, i) => c.wrap ?? Math.max(c.header.length, ...cells.map((r) => r[i].length)) + 2);
  const t = new Table({
    head: table.columns.map((c) => c.header),
    colWidths: widths,
    colAligns: table.columns.map((c) => c.align ?? 'left'),
    wordWrap: table.columns.some((c) => c.wrap !== undefined),
    style: { head: options.color ? ['cyan'] : [], border: options.color ? ['grey'] : [] },
  });
  let section: string | undefined;
  table.rows.forEach((row, r) => {
    const s = table.sectionOf?.(row);
    if (s !== undefined && s !== section) t.push([{ colSpan: table.columns.length, content: k.dim(escapeCell(s, 'terminal')) }]);
    section = s;
    const rowTone = table.tone?.(row);
    t.push(table.columns.map((c, i) => paint(c.tone?.(row) ?? rowTone, cells[r][i])));
  });
  return t.toString();
}
