/**
 * How the commands write lines for people (issue 22: every line the tool prints fits the width):
 * stdout's width for tables and text, and stderr's lines wrapped at stderr's width with a hanging
 * indent. The width rule is report/fit.ts's: the terminal's columns, else `COLUMNS`, else 100.
 * (The streams themselves, bidi-masked and JSON-only stdout: cli/streams.ts.)
 */
import { outputWidth, wrapLines } from '../report/fit.js';
import { visibleControls } from '../report/table/escape.js';

/** The width stdout's text is fitted to (characters): the terminal's columns, `COLUMNS`, or 100. */
export function stdoutWidth(): number {
  return outputWidth(process.stdout);
}

/**
 * One message as stderr shows it: control characters made visible (it names data: a file, a
 * serializer id), each line wrapped at `width` with a two-space hanging indent, a word longer than
 * the line (a path) kept whole on its own line so it can be copied. Ends with a newline. Pure.
 */
export function errorText(message: string, width: number): string {
  const text = visibleControls(message.replace(/\n$/, ''));
  return `${wrapLines(text, width, '  ', { keepLongWords: true })}\n`;
}

/** Writes {@link errorText} of `message` to stderr, at stderr's width. */
export function sayOnStderr(message: string): void {
  process.stderr.write(errorText(message, outputWidth(process.stderr)));
}
