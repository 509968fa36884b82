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
 * The narrowest width the output is fitted to: a narrower terminal or `COLUMNS` is read as this
 * (hx10 COL-1: `COLUMNS=1` printed 1,302 lines of one character each; the terminal folds lines
 * wider than it).
 */
const MIN_WIDTH = 20;

/**
 * The width to fit the output to: the terminal's columns when the stream is a terminal, else the
 * `COLUMNS` environment variable (a positive integer), else {@link DEFAULT_WIDTH}; never below
 * {@link MIN_WIDTH}.
 */
export function outputWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (stream.isTTY && stream.columns && stream.columns > 0) return Math.max(MIN_WIDTH, stream.columns);
  const c = Number(env.COLUMNS);
  return Number.isInteger(c) && c > 0 ? Math.max(MIN_WIDTH, c) : DEFAULT_WIDTH;
}

/** Options of {@link wrap}. */
export interface WrapOptions {
  /**
   * a word longer than the line (a path, a URL) stays whole on a line of its own instead of being
   * broken (default false: broken at the width). Such a line is the one that can exceed the width:
   * the terminal folds it, and copying it gives the word back whole.
   */
  keepLongWords?: boolean;
}

/**
 * A number and the unit after it (`4.3 s`, `74.2 µs`, `503 KiB`, `5 %`): the space between them is
 * never a line break (nu7 at 120 columns: "…after 4.3" / "    s").
 */
const NUMBER_UNIT = /(\d) (?=(?:ns|µs|μs|us|ms|s|min|h|B|KiB|MiB|GiB|TiB|kB|KB|MB|GB|%)(?![\p{L}\p{N}]))/gu;
/** What holds a number to its unit while wrap-ansi breaks lines (it breaks at U+0020 only); a plain space again after. */
const GLUE = '\u00a0';

/**
 * Word wrap of one line at `width` (wrap-ansi: at word boundaries, a word longer than the line
 * broken unless `options.keepLongWords`, colour codes not counted), a number kept on the line of
 * its unit; the lines after the first start with `indent` (a hanging indent). No wrapping when
 * `width` is absent.
 */
export function wrap(text: string, width: number | undefined, indent = '  ', options: WrapOptions = {}): string {
  if (!width || text.length <= width) return text;
  // a text that holds the glue itself is wrapped as it is (never turned into spaces it did not have)
  if (!text.includes(GLUE) && NUMBER_UNIT.test(text)) {
    NUMBER_UNIT.lastIndex = 0;
    return wrapWords(text.replace(NUMBER_UNIT, `$1${GLUE}`), width, indent, options).replaceAll(GLUE, ' ');
  }
  return wrapWords(text, width, indent, options);
}

/** {@link wrap} without the number-unit glue. */
function wrapWords(text: string, width: number, indent: string, options: WrapOptions): string {
  if (text.length <= width) return text;
  // a line's own indent stays, and its continuation lines hang under it
  const lead = /^ +/.exec(text)?.[0] ?? '';
  if (lead)
    return wrapWords(text.slice(lead.length), Math.max(1, width - lead.length), indent, options)
      .split('\n')
      .map((l) => lead + l)
      .join('\n');
  const hard = !options.keepLongWords;
  const [first, ...rest] = wrapAnsi(text, width, { hard, trim: true }).split('\n');
  if (!rest.length) return first;
  // the continuation lines are indented: wrap them again at the width left
  const tail = wrapAnsi(rest.join(' '), Math.max(1, width - indent.length), { hard, trim: true })
    .split('\n')
    .map((l) => indent + l);
  return [first, ...tail].join('\n');
}

/**
 * `wrapped` (already wrapped, without colour codes) with its first `lead` characters made bold by
 * `bold` — only when the wrap kept `lead` whole on the first line; otherwise (a terminal narrower
 * than the lead: COLUMNS=1, a 70-character payload name) it is returned as it is. Slicing a wrapped
 * text at the lead's length regardless repeated words ("serializeiz", hx5/hx6).
 */
export function boldLead(wrapped: string, lead: string, bold: (s: string) => string): string {
  return wrapped.split('\n')[0].startsWith(lead) ? bold(lead) + wrapped.slice(lead.length) : wrapped;
}

/**
 * A table cell's text wrapped at `width` (its column's width less padding), a word longer than
 * that broken: cli-table3 would cut it with `…`, which made two rows of `jsonbench list` read alike.
 */
export function wrapCell(text: string, width: number): string {
  return text.length <= width ? text : wrapAnsi(text, Math.max(1, width), { hard: true, trim: true });
}

/** Every line of `text` wrapped by {@link wrap} (same width, indent and options); blank lines kept. */
export function wrapLines(text: string, width: number | undefined, indent = '  ', options: WrapOptions = {}): string {
  return text
    .split('\n')
    .map((l) => wrap(l, width, indent, options))
    .join('\n');
}

/**
 * {@link wrap} kept to `maxLines` lines: the last one kept ends with `…` and {@link SEE_REPORT}
 * when text was left out (the full text is in report.md).
 */
export function wrapAtMost(text: string, width: number, indent: string, maxLines: number): string {
  const lines = wrap(text, width, indent).split('\n');
  if (lines.length <= maxLines) return lines.join('\n');
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1];
  const room = width - SEE_REPORT.length - 1;
  kept[maxLines - 1] = `${last.length > room ? cutAtWord(last, room) : last.trimEnd()}…${SEE_REPORT}`;
  return kept.join('\n');
}

/** One line cut to `width` with `…` and {@link SEE_REPORT} (the text is escaped by the caller); unchanged when it fits or `width` is absent. */
export function clipLine(text: string, width: number | undefined): string {
  if (!width || text.length <= width) return text;
  const room = width - SEE_REPORT.length - 1;
  return room > 8 ? `${cutAtWord(text, room)}…${SEE_REPORT}` : clip(text, width);
}

/**
 * The first `room` characters of `text`, cut back to the last word boundary when one lies in the
 * second half (a new user read `--print-schema,…` and `escap…` as typos), without a trailing
 * space or punctuation mark; else cut where the room ends (one long word). Pure.
 */
export function cutAtWord(text: string, room: number): string {
  const cut = text.slice(0, room);
  if (text.length <= room || text[room] === ' ') return cut.trimEnd();
  const space = cut.lastIndexOf(' ');
  return (space > room / 2 ? cut.slice(0, space) : cut).trimEnd().replace(/[,;:(]+$/, '');
}
