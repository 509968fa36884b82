/** Where a value stands in a text: 1-based line and column (columns count UTF-16 code units). */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * A results file that is not what the schema says; `where` is the file, `path` the JSON pointer of
 * the first problem, `position` the line and column of that value in the file's text when it was
 * read from one (results/io.ts): `file: at /cases/3/time/mean (line 80, column 17): problem`.
 */
export class ResultsFileError extends Error {
  readonly code = 'E_RESULTS';
  constructor(
    readonly where: string,
    readonly path: string,
    readonly problem: string,
    readonly position?: TextPosition,
  ) {
    const line = position ? `line ${position.line}, column ${position.column}` : '';
    const at = path && line ? `${path} (${line})` : path || line;
    super(`${where}: ${at ? `at ${at}: ` : ''}${problem}`);
  }
}
