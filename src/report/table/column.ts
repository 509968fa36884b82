/**
 * A table as a list of columns (BenchmarkDotNet's `IColumn`, hyperfine's `MarkupExporter`): each
 * column knows its header and how to fill its cell from a row; one writer (table/write.ts) lays
 * the same table out in every dialect.
 */

/** How a cell or a row is coloured on a terminal; in Markdown a coloured cell is bold, a dim row plain. */
export type Tone = 'dim' | 'red' | 'green';

/** One column of a table of `Row`s. */
export interface Column<Row> {
  /** stable id (tests, `--columns` one day) */
  id: string;
  header: string;
  /** right-aligned numbers on a terminal (default left) */
  align?: 'left' | 'right';
  /** the cell's text (plain; the writer escapes it) */
  cell(row: Row): string;
  /** colour of this column's cell (overrides the row's tone) */
  tone?(row: Row): Tone | undefined;
  /** terminal: wrap at this width instead of widening the column to its longest cell (and narrower still, down to {@link MIN_WRAP}, to fit the terminal) */
  wrap?: number;
  /**
   * terminal: one line, never wrapped: the column takes the room left (down to {@link MIN_CLIP}) and a
   * longer cell is cut there, ending with `…` and this text (e.g. ` → report.md`, where the whole
   * cell is)
   */
  clip?: string;
  /** terminal: the narrowest a `wrap` or `clip` column is made before columns are left out (characters, padding included); default {@link MIN_WRAP} or {@link MIN_CLIP} */
  least?: number;
  /**
   * terminal: when the table is wider than the terminal, columns are dropped highest number first
   * (the rightmost of equals first) until it fits; absent or 0: never dropped
   */
  priority?: number;
  /**
   * terminal: shorter forms of the cell, longest first, tried in order when the cell does not fit
   * its column (before any `clip`): a note's short words, then its marks. The writer uses the first
   * form that fits, else the last one (cut if `clip`), and tells `WriteOptions.onShortened`.
   */
  shorter?(row: Row): string[];
  /** the most characters a cell shows (cut with …); default DEFAULT_MAX_CHARS */
  maxChars?: number;
  /** the cell is code: a code span in Markdown (shown literally, table/escape.ts markdownCode), plain text on a terminal */
  code?: boolean;
}

/** The narrowest a `wrap` column is made to fit a terminal (characters, padding included). */
export const MIN_WRAP = 24;

/** The narrowest a `clip` column is made to fit a terminal (characters, padding included). */
export const MIN_CLIP = 12;

/** A table: columns, rows, and how rows are grouped and coloured. */
export interface Table<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** terminal: a heading row spanning the table before each row whose section differs from the previous one */
  sectionOf?(row: Row): string | undefined;
  /** colour of a whole row on a terminal */
  tone?(row: Row): Tone | undefined;
  /** terminal: no rule between rows (long tables such as the probe matrix) */
  compact?: boolean;
}

/** The same columns over another row type that carries the original row (`of` finds it). */
export function mapColumns<A, B>(columns: readonly Column<A>[], of: (row: B) => A): Column<B>[] {
  return columns.map(({ cell, tone, shorter, ...rest }): Column<B> => ({
    ...rest,
    cell: (row) => cell(of(row)),
    ...(tone ? { tone: (row: B) => tone(of(row)) } : {}),
    ...(shorter ? { shorter: (row: B) => shorter(of(row)) } : {}),
  }));
}
