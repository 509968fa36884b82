/** A results file that is not what the schema says; `where` is the file, `path` the JSON pointer of the first problem. */
export class ResultsFileError extends Error {
  readonly code = 'E_RESULTS';
  constructor(readonly where: string, readonly path: string, problem: string) {
    super(`${where}: ${path ? `at ${path}: ` : ''}${problem}`);
  }
}
