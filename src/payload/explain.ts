import { lineColumn } from './position.js';

/**
 * Library failures on a user's payload, explained (issue 24): when a library's parser rejects the
 * payload's own text "at position N" (ajv JTD: "unexpected token } at position 42"), the user
 * cannot tell a library bug from a schema translation or a bad payload. The payload is valid JSON
 * (it was read with JSON.parse before the run), so the smallest JSON value around that position
 * that JSON.parse also reads is the fragment to show: the library rejects valid JSON there.
 */

/** The most characters of a fragment shown whole; a longer one is shown as a window around the position. */
export const FRAGMENT_MAX = 60;

/**
 * The innermost object or array of `text` that holds character `offset`, as [start, end) — or
 * null when the offset is outside every container (a top-level scalar). Strings are skipped, so
 * brackets inside them do not count.
 */
export function enclosingValue(text: string, offset: number): [number, number] | null {
  const open: number[] = [];
  let inString = false;
  let target: number | null = null;
  for (let i = 0; i < text.length; i++) {
    if (i === offset) target = open.length ? open[open.length - 1] : null;
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') open.push(i);
    else if (ch === '}' || ch === ']') {
      const start = open.pop();
      // the container closed at `offset` is the one the position points into
      if (i === offset && start !== undefined) return [start, i + 1];
      if (target !== null && start === target) return [start, i + 1];
    }
  }
  return target === null ? null : [target, text.length];
}

/**
 * A sentence to add to a case's reason when `message` names a position in `text` (the payload's
 * own text, which JSON.parse reads), or null when it names none. Names the character offset, its
 * line:column and the fragment there, and says it is valid JSON the library's parser rejects.
 */
export function explainRejection(text: string, message: string): string | null {
  const m = /position (\d+)/.exec(message);
  if (!m) return null;
  const offset = Number(m[1]);
  if (!(offset >= 0 && offset <= text.length)) return null;
  const { line, column } = lineColumn(text, offset);
  const span = enclosingValue(text, Math.min(offset, text.length - 1));
  let fragment: string;
  let valid = false;
  if (span && span[1] - span[0] <= FRAGMENT_MAX) {
    fragment = text.slice(span[0], span[1]);
    try {
      JSON.parse(fragment);
      valid = true;
    } catch {
      valid = false;
    }
  } else {
    const from = Math.max(0, offset - FRAGMENT_MAX / 2);
    fragment = `${from > 0 ? '…' : ''}${text.slice(from, offset + FRAGMENT_MAX / 2)}${offset + FRAGMENT_MAX / 2 < text.length ? '…' : ''}`;
  }
  const shown = JSON.stringify(fragment.replace(/\s+/g, (w) => (w.includes('\n') ? ' ' : w)));
  const where = `at character ${offset} (line ${line}, column ${column})`;
  const spaced = /^\{\s+\}$|^\[\s+\]$/.test(fragment)
    ? ' (an empty object or array with whitespace inside: ajv-validator/ajv#2595 for ajv JTD)'
    : '';
  return valid
    ? `${where} your payload holds ${shown}${spaced}, valid JSON that JSON.parse reads: the library's parser rejects it, a limitation of the library, not of your payload or its schema`
    : `${where} your payload holds ${shown}; the whole payload is valid JSON (JSON.parse reads it), so the library's parser rejects valid JSON there: a limitation of the library, not of your payload`;
}
