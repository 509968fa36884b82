/** Line and column (1-based) of a character offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Where `offset` stands in one unit of a payload, as `file:line:column`; `source` is the file, or
 * `file:line` for an NDJSON record (its text is that one line), which then takes the column alone.
 */
export function positionIn(text: string, offset: number, source: string): string {
  const { line, column } = lineColumn(text, offset);
  return /:\d+$/.test(source) && !text.includes('\n') ? `${source}:${column}` : `${source}:${line}:${column}`;
}
