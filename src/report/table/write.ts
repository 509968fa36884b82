import Table from 'cli-table3';
import { createColors } from 'picocolors';
import { MIN_CLIP, MIN_WRAP, type Column, type Table as TableSpec, type Tone } from './column.js';
import { escapeCell, markdownCode, type Dialect } from './escape.js';
import { wrap, wrapCell } from '../fit.js';

/**
 * Options of {@link renderTable}: colours on a terminal (callers pass false for NO_COLOR or a
 * pipe), and the terminal's width in characters (callers pass `process.stdout.columns` on a TTY;
 * absent: every column at its natural width).
 */
export interface WriteOptions<Row = unknown> {
  color?: boolean;
  width?: number;
  /** terminal: called with the headers of the columns left out to fit `width` instead of a line under the table saying so (a caller printing many tables says it once) */
  onDropped?: (headers: string[]) => void;
  /** terminal: called for each cell shown in one of its column's shorter forms ({@link Column.shorter}; `form` 1 is the first shorter one) */
  onShortened?: (column: string, row: Row, form: number) => void;
  /**
   * terminal: no box — no rules above, below or between rows, the columns separated by spaces as
   * wide as the box's borders (so {@link fitColumns} holds), no trailing spaces: the header line,
   * then one line per row (section headings, when the table has them, a line each). The run's
   * tables (issue 22: 40 rules of a default suite's 316 lines).
   */
  open?: boolean;
}

/** cli-table3's border characters of an open table ({@link WriteOptions.open}): a space where a vertical border was, nothing else. */
const OPEN_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: ' ',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' ',
};

/** Which columns a terminal table keeps to fit `width`, and each kept column's width (padding included). */
export interface Fit {
  keep: number[];
  widths: number[];
  dropped: string[];
}

/**
 * Fits a table to `width`: drops columns by {@link Column.priority} (highest first, the rightmost
 * of equals first) while the kept columns, with `wrap` columns at {@link MIN_WRAP} and `clip` ones at
 * {@link MIN_CLIP}, and the borders (one per column, plus one) exceed it; then gives the `wrap` and `clip` columns the room left, up to
 * their own width (in equal shares; a column needing less than its share leaves the rest to the others). Columns without a priority are never dropped, so a table can stay wider than a
 * very narrow terminal. `natural` is each column's width at its longest cell (padding included).
 */
export function fitColumns<Row>(columns: readonly Column<Row>[], natural: readonly number[], width = Infinity): Fit {
  const keep = columns.map((_, i) => i);
  const flexible = (i: number) => columns[i].wrap !== undefined || columns[i].clip !== undefined;
  const least = (i: number) => columns[i].least ?? (columns[i].clip !== undefined ? MIN_CLIP : MIN_WRAP);
  const minimum = (ks: number[]) =>
    ks.reduce((sum, i) => sum + (flexible(i) ? Math.min(natural[i], least(i)) : natural[i]), 0) + ks.length + 1;
  while (minimum(keep) > width) {
    let worst = -1;
    for (const i of keep)
      if ((columns[i].priority ?? 0) > 0 && (worst < 0 || (columns[i].priority ?? 0) >= (columns[worst].priority ?? 0)))
        worst = i;
    if (worst < 0) break;
    keep.splice(keep.indexOf(worst), 1);
  }
  const dropped = columns.filter((_, i) => !keep.includes(i)).map((c) => c.header);
  const fixed = keep.filter((i) => !flexible(i)).reduce((sum, i) => sum + natural[i], 0) + keep.length + 1;
  // the room left is shared among the flexible columns; one that needs less than its share gives the rest to the others
  const share = new Map<number, number>();
  let open = keep.filter(flexible);
  let room = Number.isFinite(width) ? width - fixed : Infinity;
  while (open.length) {
    const each = Math.floor(room / open.length);
    const small = open.filter((i) => natural[i] <= each);
    if (!small.length) {
      for (const i of open) share.set(i, each);
      break;
    }
    for (const i of small) {
      share.set(i, natural[i]);
      room -= natural[i];
    }
    open = open.filter((i) => !small.includes(i));
  }
  return {
    keep,
    widths: keep.map((i) =>
      flexible(i) ? Math.max(Math.min(natural[i], least(i)), Math.min(natural[i], share.get(i)!)) : natural[i],
    ),
    dropped,
  };
}

/** Each column's width at its longest cell (`cells`: the escaped texts, row by row), padding included; a header of several lines is as wide as its longest line; a `wrap` column at most its wrap width. */
function naturalWidths<Row>(columns: readonly Column<Row>[], cells: readonly string[][]): number[] {
  const headerWidth = (h: string) => Math.max(...h.split('\n').map((l) => l.length));
  return columns.map((c, i) => {
    const longest = Math.max(headerWidth(c.header), ...cells.map((r) => r[i].length)) + 2;
    return c.wrap === undefined ? longest : Math.min(c.wrap, longest);
  });
}

/**
 * The columns a terminal table keeps at `width` ({@link fitColumns} on the cells' widths), for a
 * caller that chooses them once for several tables (all their rows in `table`) and renders each
 * with the kept columns, so every table shows the same ones.
 */
export function chooseColumns<Row>(table: TableSpec<Row>, width: number): Fit {
  const cells = table.rows.map((row) => table.columns.map((c) => escapeCell(c.cell(row), 'terminal', c.maxChars)));
  return fitColumns(table.columns, naturalWidths(table.columns, cells), width);
}

/**
 * One terminal cell fitted to its column's width `w` (padding included): a cell too long takes its
 * column's first shorter form that fits, else its last ({@link Column.shorter}; `onShortened` is
 * told); then a `wrap` column's cell is wrapped, a long word broken (cli-table3 would cut it with
 * …), and a `clip` column's is cut, ending with … and the column's pointer.
 */
function fitCell<Row>(
  row: Row,
  text: string,
  col: Column<Row>,
  w: number,
  onShortened?: WriteOptions<Row>['onShortened'],
): string {
  const room = w - 2;
  let t = text;
  if (col.shorter && t.length > room) {
    const forms = col.shorter(row).map((f) => escapeCell(f, 'terminal', col.maxChars));
    if (forms.length) {
      const found = forms.findIndex((f) => f.length <= room);
      const form = found >= 0 ? found : forms.length - 1;
      onShortened?.(col.id, row, form + 1);
      t = forms[form];
    }
  }
  if (col.wrap !== undefined) return wrapCell(t, room);
  if (col.clip === undefined || t.length <= room) return t;
  const keepChars = room - col.clip.length - 1;
  return keepChars > 0 ? `${t.slice(0, keepChars).trimEnd()}…${col.clip}` : `${t.slice(0, Math.max(0, room - 1))}…`;
}

/**
 * The kept columns' widths once their cells are fitted: a `wrap` or `clip` column is narrowed to
 * its longest fitted line (a note shown in a shorter form leaves no blank run beside it), the last
 * of them widened back as far as the table's longest section heading needs (padding included).
 */
function trimmed<Row>(
  table: TableSpec<Row>,
  columns: readonly Column<Row>[],
  widths: readonly number[],
  cells: readonly string[][],
): number[] {
  const longestLine = (s: string) => Math.max(...s.split('\n').map((l) => l.length));
  const flexible = (c: Column<Row>) => c.wrap !== undefined || c.clip !== undefined;
  const out = widths.map((w, k) =>
    flexible(columns[k])
      ? Math.min(w, Math.max(longestLine(columns[k].header), ...cells.map((r) => longestLine(r[k]))) + 2)
      : w,
  );
  const headings = table.sectionOf
    ? table.rows.map((r) => escapeCell(table.sectionOf!(r) ?? '', 'terminal').length + 2)
    : [];
  const short = Math.max(0, ...headings) - (out.reduce((a, b) => a + b, 0) + out.length - 1);
  const last = columns.map(flexible).lastIndexOf(true);
  if (short > 0 && last >= 0) out[last] = Math.min(widths[last], out[last] + short);
  return out;
}

/**
 * The one table writer. `terminal`: a cli-table3 box, each column as wide as its longest cell
 * (or wrapped at its `wrap` width), fitted to `options.width` ({@link fitColumns}; a line under the
 * table names the columns left out), section heading rows, tones as colours. `markdown`: a GitHub
 * pipe table (`| a | b |`, `| --- | --- |`), tones of cells as bold. Every cell goes through the
 * dialect's escaper. Pure: returns the text (terminal: no trailing newline; markdown: one line per row).
 */
export function renderTable<Row>(table: TableSpec<Row>, dialect: Dialect, options: WriteOptions<Row> = {}): string {
  const text = (col: Column<Row>, row: Row) =>
    col.code && dialect === 'markdown'
      ? markdownCode(col.cell(row), col.maxChars, true)
      : escapeCell(col.cell(row), dialect, col.maxChars);
  if (dialect === 'markdown') {
    const head = table.columns.map((c) => escapeCell(c.header, 'markdown'));
    const lines = [`| ${head.join(' | ')} |`, `|${' --- |'.repeat(head.length)}`];
    for (const row of table.rows) {
      lines.push(
        `| ${table.columns
          .map((c) => {
            const t = text(c, row);
            const tone = c.tone?.(row);
            return tone === 'red' || tone === 'green' ? `**${t}**` : t;
          })
          .join(' | ')} |`,
      );
    }
    return lines.join('\n');
  }
  const k = createColors(Boolean(options.color));
  const paint = (tone: Tone | undefined, s: string) =>
    tone === 'dim' ? k.dim(s) : tone === 'red' ? k.red(s) : tone === 'green' ? k.green(s) : s;
  const all = table.rows.map((row) => table.columns.map((c) => text(c, row)));
  const fit = fitColumns(table.columns, naturalWidths(table.columns, all), options.width);
  const columns = fit.keep.map((i) => table.columns[i]);
  const cells = all.map((r, ri) =>
    fit.keep.map((i, k) => fitCell(table.rows[ri], r[i], table.columns[i], fit.widths[k], options.onShortened)),
  );
  const widths = trimmed(table, columns, fit.widths, cells);
  const t = new Table({
    head: columns.map((c) => c.header),
    colWidths: widths,
    colAligns: columns.map((c) => c.align ?? 'left'),
    wordWrap: columns.some((c) => c.wrap !== undefined),
    style: {
      head: options.color ? ['cyan'] : [],
      border: options.color ? ['grey'] : [],
      ...(table.compact ? { compact: true } : {}),
    },
    // without section rows the rule under the header goes too; with them it must stay (a spanning row after a blanked rule draws ┴┴┴)
    ...(options.open
      ? { chars: OPEN_CHARS }
      : table.compact && !table.sectionOf
        ? { chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } }
        : {}),
  });
  let section: string | undefined;
  table.rows.forEach((row, r) => {
    const s = table.sectionOf?.(row);
    if (s !== undefined && s !== section)
      t.push([{ colSpan: columns.length, content: k.dim(escapeCell(s, 'terminal')) }]);
    section = s;
    const rowTone = table.tone?.(row);
    t.push(columns.map((c, i) => paint(c.tone?.(row) ?? rowTone, cells[r][i])));
  });
  if (options.onDropped && fit.dropped.length) options.onDropped(fit.dropped);
  const note =
    fit.dropped.length && !options.onDropped
      ? `\n${k.dim(wrap(`(${fit.dropped.length === 1 ? 'column' : 'columns'} left out to fit ${options.width} characters: ${fit.dropped.join(', ')}; a wider terminal shows them)`, options.width, ' '))}`
      : '';
  const drawn = t.toString();
  return (options.open ? drawn.replace(/ +$/gm, '') : drawn) + note;
}
