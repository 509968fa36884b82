/**
 * The one escaper of table text, per dialect. Every string from the data (serializer names,
 * versions, error messages from libraries, payload paths) goes through it before a table shows it.
 *
 * - Markdown (GitHub): `\` and `|` are escaped (a pipe would end the cell), `&`, `<` and `>`
 *   become entities (no HTML from the data, and `&lt;` in the data stays those four characters),
 *   the emphasis, strike-through and code characters `*`, `_`, `~` and `` ` `` are
 *   backslash-escaped (a serializer named `**bold**` shows its asterisks), `![` becomes `!\[` (no
 *   image loaded from a message), `](` becomes `]\(` (no link: `[text](url)` from a message stays
 *   text; a lone `[0.16–0.65]` needs nothing), every line break (LF, CR, CRLF, U+2028/U+2029)
 *   becomes a space (a cell is one line), and `@name` and `#123` get a zero-width space after the
 *   sign (no GitHub mention, no issue reference from the data). Code goes through {@link markdownCode} instead: inside a
 *   code span neither entities nor backslash escapes are decoded, so `&lt;T&gt;` would show as is.
 * - Terminal: control characters cannot reach the terminal: ESC (the start of every escape
 *   sequence: colours, clear screen, title, clipboard writes) and the other C0/C1 controls and DEL
 *   are shown as their Unicode control pictures (ESC → ␛), line breaks and tabs become spaces.
 * - Both: bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, marks) are shown as
 *   their escapes (`\u202E`, case/bidi.ts), so no cell reorders the text around it.
 * Both cut text longer than `maxChars` with an ellipsis (the full text stays in results.json): a
 * 178 KB message from a validator must not take minutes to lay out.
 */

import { maskBidi } from '../../case/bidi.js';

/** A table dialect: boxed terminal text, or a GitHub Markdown pipe table. */
export type Dialect = 'terminal' | 'markdown';

/** The longest cell text any table shows by default (characters). */
export const DEFAULT_MAX_CHARS = 500;

/** At most `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029]/g;
// C0 controls but tab and line breaks (handled first), DEL, and C1 controls
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0080-\u009f]/g;

/** A control character as its Unicode control picture (U+2400 + code; DEL → ␡), C1 controls as U+FFFD. */
function picture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
}

/**
 * Text for a terminal line or a CSV field: every control character but line feed and tab (ESC, the
 * other C0 and C1 controls, DEL, and a carriage return not followed by a line feed, which would
 * overwrite the line) shown as its control picture (ESC → ␛), and every bidirectional formatting
 * character as its escape (U+202E → `\u202E`, case/bidi.ts), so a name or message from the data
 * (a payload file name, a serializer id in a hand-edited results file) can neither drive the
 * terminal nor hide in a spreadsheet cell. Nothing is cut; line breaks stay.
 */
export function visibleControls(text: string): string {
  return maskBidi(String(text))
    .replace(/\r(?!\n)/g, '\u240d')
    .replace(CONTROLS, picture);
}

/**
 * A name from the data (a payload file name, a schema file name) as one visible line: as
 * {@link visibleControls}, and line feeds, carriage returns and tabs shown as their control pictures
 * (␊ ␍ ␉), U+2028/U+2029 as their escapes (`\u2028`). A name with a line break printed raw put
 * `::error …` and `::add-mask::` lines at the start of a line on stderr, which GitHub Actions runs as
 * workflow commands (hx5 I-ghcmd). Nothing is cut.
 */
export function visibleName(text: string): string {
  return visibleControls(String(text).replace(/[\t\n\r]/g, picture)).replace(
    /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Escapes cell text for a dialect and cuts it to `maxChars`. */
export function escapeCell(text: string, dialect: Dialect, maxChars = DEFAULT_MAX_CHARS): string {
  const one = maskBidi(clip(String(text), maxChars)).replace(LINE_BREAKS, ' ');
  if (dialect === 'terminal') return one.replace(/\t/g, ' ').replace(CONTROLS, picture);
  return one
    .replace(CONTROLS, picture)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[*_~`]/g, '\\$&')
    .replace(/!\[/g, '!\\[')
    .replace(/\]\(/g, ']\\(')
    .replace(MENTION, '$1@\u200b')
    .replace(ISSUE_REF, '$1#\u200b');
}

// GitHub links `@name` (a user or team: notified) and `#123` (an issue: cross-referenced) after a non-word
// character; a zero-width space after the sign stops both and shows nothing (hx3: a serializer id
// `@github/security` in `compare --format md`, posted as a PR comment, pinged the team)
const MENTION = /(^|[^A-Za-z0-9])@(?=[A-Za-z0-9])/g;
const ISSUE_REF = /(^|[^A-Za-z0-9])#(?=\d)/g;

/**
 * `text` as a GitHub Markdown code span, backticks included: one line (line breaks and tabs
 * become spaces, controls their pictures), cut to `maxChars`, fenced by one backtick more than the
 * longest run of backticks in it, padded with a space when it starts or ends with a backtick
 * (CommonMark 0.31 §6.1, which strips one such space). Nothing else is escaped — a code span shows
 * its text literally (`<T>` stays `<T>`) — except `|` inside a table cell, which GFM splits on
 * before inline parsing even within code (GFM spec §4.10, example 200: write `\|`).
 */
export function markdownCode(text: string, maxChars = DEFAULT_MAX_CHARS, inTable = false): string {
  let body = maskBidi(clip(String(text), maxChars))
    .replace(LINE_BREAKS, ' ')
    .replace(/\t/g, ' ')
    .replace(CONTROLS, picture);
  if (inTable) body = body.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad =
    body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '')
      ? ' '
      : '';
  return body === '' ? '' : `${fence}${pad}${body}${pad}${fence}`;
}
