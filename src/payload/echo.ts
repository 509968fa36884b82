/**
 * A value from the user's data or schema shown in a message, capped (issue 25, hostile tester hx8:
 * a payload holding a 400,000-digit number printed it whole in its error, one 400 KB line on
 * stderr). Every value a message echoes (a number literal, a string, a key, a pattern) goes through
 * {@link echo}: at most {@link ECHO_MAX_CHARS} characters, then `… (N characters)`.
 */

/** The most characters of one echoed value a message shows. */
export const ECHO_MAX_CHARS = 80;

/**
 * `text` when it has at most `max` characters (UTF-16 code units), else its first `max` (never
 * half of a surrogate pair) then `… (N characters)` with its whole length. Pure.
 */
export function echo(text: string, max = ECHO_MAX_CHARS): string {
  if (text.length <= max) return text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${text.slice(0, cut)}… (${text.length.toLocaleString('en-US')} characters)`;
}
