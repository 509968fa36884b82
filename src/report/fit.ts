/**
 * Fitting terminal text to a width (issue 22: every printed line fits): the width to use, prose
 * wrapped at word boundaries (wrap-ansi), a line cut with a pointer to report.md. Pure.
 */
import wrapAnsi from 'wrap-ansi';
import { clip } from './table/escape.js';

/** The width assumed when neither the terminal nor `COLUMNS` gives one (issue 22: "or 100 when neither is known"). */
export const DEFAULT_WIDTH = 100;

/** Where a line cut to fit points the reader: the full text is there. */
export const SEE_REPORT = ' → report.md';

/**
 * The width to fit the output to: the terminal's columns when the stream is a terminal, else the
 * `COLUMNS` environment variable (a positive integer), else {@link DEFAULT_WIDTH}.
 */
export function outputWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (stream.isTTY && stream.columns && stream.columns > 0) return stream.columns;
  const c = Number(env.COLUMNS);
  return Number.isInteger(c) && c > 0 ? c : DEFAULT_WIDTH;
}

/**
 * Word wrap of one line at `width` (wrap-ansi: at word boundaries, a word longer than the line
 * broken, colour codes not counted); the lines after the first start with `indent`. No wrapping
 * when `width` is absent.
 */
export function wrap(text: string, width: number | undefined, indent = '  '): string {
  if (!width || text.length <= width) return text;
  const [first, ...rest] = wrapAnsi(text, width, { hard: true, trim: true }).split('\n');
  if (!rest.length) return first;
  // the continuation lines are indented: wrap them again at the width left
  const tail = wrapAnsi(rest.join(' '), Math.max(1, width - indent.length), { hard: true, trim: true })
    .split('\n')
    .map((l) => indent + l);
  return [first, ...tail].join('\n');
}

/** One line cut to `width` with `…` and {@link SEE_REPORT} (the text is escaped by the caller); unchanged when it fits or `width` is absent. */
export function clipLine(text: string, width: number | undefined): string {
  if (!width || text.length <= width) return text;
  const room = width - SEE_REPORT.length - 1;
  return room > 8 ? `${text.slice(0, room).trimEnd()}…${SEE_REPORT}` : clip(text, width);
}
