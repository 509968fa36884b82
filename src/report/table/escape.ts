/**
 * The one escaper of table text, per dialect. Every string from the data (serializer names,
 * versions, error messages from libraries, payload paths) goes through it before a table shows it.
 *
 * - Markdown (GitHub): `\` and `|` are escaped (a pipe would end the cell), `<` and `>` become
 *   entities (no HTML from the data), `![` becomes `!\[` (no image loaded from a message), `](`
 *   becomes `]\(` (no link: `[text](url)` from a message stays text), and
 *   every line break (LF, CR, CRLF, U+2028/U+2029) becomes a space (a cell is one line).
 * - Terminal: control characters cannot reach the terminal: ESC (the start of every escape
 *   sequence: colours, clear screen, title, clipboard writes) and the other C0/C1 controls and DEL
 *   are shown as their Unicode control pictures (ESC → ␛), line breaks and tabs become spaces.
 * Both cut text longer than `maxChars` with an ellipsis (the full text stays in results.json): a
 * 178 KB message from a validator must not take minutes to lay out.
 */

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

/** Escapes cell text for a dialect and cuts it to `maxChars`. */
export function escapeCell(text: string, dialect: Dialect, maxChars = DEFAULT_MAX_CHARS): string {
  const one = clip(String(text), maxChars).replace(LINE_BREAKS, ' ');
  if (dialect === 'terminal') return one.replace(/\t/g, ' ').replace(CONTROLS, picture);
  return one
    .replace(CONTROLS, picture)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/!\[/g, '!\\[')
    .replace(/\]\(/g, ']\\(');
}
