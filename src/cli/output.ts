/**
 * How the commands write lines for people (issue 22: every line the tool prints fits the width):
 * stdout's width for tables and text, and stderr's lines wrapped at stderr's width with a hanging
 * indent. The width rule is report/fit.ts's: the terminal's columns, else `COLUMNS`, else 100.
 * (The streams themselves, bidi-masked and JSON-only stdout: cli/streams.ts.)
 */
import { fstatSync } from 'node:fs';
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

/**
 * True when stdout and stderr are one place (`fstat` of fds 1 and 2: the same device and inode — one
 * terminal, `2>&1` into a pipe or a file), so a line said on stderr was read where stdout goes: the
 * run then names its results path once (issue 22, nu6: printed on both). False when either cannot be
 * stat'ed.
 * @param fds the two descriptors (tests pass others)
 */
export function sameDestination(fds: [number, number] = [1, 2]): boolean {
  try {
    const [a, b] = fds.map((fd) => fstatSync(fd));
    return a.dev === b.dev && a.ino === b.ino && a.rdev === b.rdev;
  } catch {
    return false;
  }
}
