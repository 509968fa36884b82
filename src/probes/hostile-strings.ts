import { deepFreeze } from '../case/frozen.js';
/**
 * Hostile strings: the characters and lengths that break JSON string writers, shared by the
 * string probes (catalog/strings.ts) and the gate's hostile variant payload (hostile-variant.ts).
 *
 * Classes are the characters RFC 8259 §7 says must be escaped (quotation mark, reverse solidus,
 * U+0000–U+001F), those that are legal unescaped but break JavaScript or HTML embedding (U+007F,
 * U+2028, U+2029), surrogates that are not a pair (lone high, lone low, a reversed pair: valid in
 * a JavaScript string, not encodable in UTF-8, so a writer must escape them as \uXXXX —
 * ECMA-262 "well-formed JSON.stringify", ES2019), and well-paired non-BMP characters (which
 * must NOT be split or escaped wrongly).
 *
 * Lengths cross the thresholds writers switch strategy at: fast-json-stringify 7 escapes strings
 * under 42 characters in a hand-written loop, uses a regex test up to 5,000 and `JSON.stringify`
 * beyond (its `asString`); 100 and 100,000 sit between and far beyond.
 */

export type HostileClass =
  'quote' | 'backslash' | 'controls' | 'separators' | 'lone-high' | 'lone-low' | 'reversed-pair' | 'non-bmp';

/** The code units of each class, in the order they are placed into a probe string. */
export const HOSTILE_CHARS: Readonly<Record<HostileClass, readonly string[]>> = deepFreeze({
  quote: ['"'],
  backslash: ['\\'],
  controls: Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  separators: ['\u007f', '\u2028', '\u2029'],
  'lone-high': ['\ud800', '\udbff'],
  'lone-low': ['\udc00', '\udfff'],
  'reversed-pair': ['\ude00\ud83d'],
  'non-bmp': ['\u{1F600}', '\u{1D11E}'],
});

export const HOSTILE_CLASSES = deepFreeze(Object.keys(HOSTILE_CHARS) as HostileClass[]);

/** String lengths (UTF-16 code units) of issue 11. */
export const HOSTILE_LENGTHS: readonly number[] = deepFreeze([0, 1, 40, 41, 100, 4_999, 5_000, 100_000]);

/** The plain filler around hostile characters. */
const FILL = 'a';

/**
 * A string of exactly `length` code units holding every character of the class: one at the very
 * start (so a writer that checks only a prefix is caught too) and all of them at the end, with
 * filler between. Null when the class does not fit (use {@link singleCharStrings} at length 1).
 */
export function hostileString(cls: HostileClass, length: number): string | null {
  const chars = HOSTILE_CHARS[cls].join('');
  const head = HOSTILE_CHARS[cls][0];
  if (length === 0) return '';
  if (length < chars.length + head.length)
    return length >= chars.length && length > 1 ? FILL.repeat(length - chars.length) + chars : null;
  return head + FILL.repeat(length - chars.length - head.length) + chars;
}

/** Every hostile character of every class, in class order (47 code units). */
export const ALL_HOSTILE_CHARS = HOSTILE_CLASSES.map((c) => HOSTILE_CHARS[c].join('')).join('');

/** A string of exactly `length` code units (≥ 47) holding every hostile character of every class, filler before them. */
export function combinedHostileString(length: number): string {
  if (length < ALL_HOSTILE_CHARS.length)
    throw new RangeError(`a combined hostile string needs at least ${ALL_HOSTILE_CHARS.length} characters`);
  return FILL.repeat(length - ALL_HOSTILE_CHARS.length) + ALL_HOSTILE_CHARS;
}

/** The members of a class that are a single code unit: the length-1 strings of that class. */
export function singleCharStrings(cls: HostileClass): string[] {
  return HOSTILE_CHARS[cls].filter((c) => c.length === 1);
}

/** `U+0000`-style name of a one-code-unit string. */
export function codeUnitName(c: string): string {
  return 'U+' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
}

/** What each class holds, in words a user reads (probe titles). */
export const HOSTILE_WORDS: Readonly<Record<HostileClass, string>> = deepFreeze({
  quote: 'a double quote (")',
  backslash: 'a backslash (\\)',
  controls: 'the control characters U+0000 to U+001F',
  separators: 'DEL (U+007F) and the line and paragraph separators (U+2028, U+2029)',
  'lone-high': 'unpaired high surrogates U+D800, U+DBFF (half an emoji, the other half missing)',
  'lone-low': 'unpaired low surrogates U+DC00, U+DFFF (half an emoji, the other half missing)',
  'reversed-pair': 'the two halves of an emoji in reverse order (U+DE00 then U+D83D)',
  'non-bmp': 'characters beyond U+FFFF (the emoji U+1F600, the musical symbol U+1D11E)',
});

/** Names of the single characters a length-1 sample can be, beyond their code (`U+0000 (NUL)`). */
const CHAR_NAMES: Record<string, string> = {
  '\u0000': 'NUL',
  '\u0008': 'backspace',
  '\u0009': 'tab',
  '\u000a': 'line feed',
  '\u000c': 'form feed',
  '\u000d': 'carriage return',
  '\u001b': 'escape',
  '\u007f': 'DEL',
  '\u2028': 'line separator',
  '\u2029': 'paragraph separator',
  '"': 'double quote',
  '\\': 'backslash',
};

/**
 * A hostile sample in words (a probe title's subject): what the string holds and where, e.g.
 * "a 40-character string holding unpaired high surrogates … (one at its start, all at its end)", "the single
 * character U+0000 (NUL)", "an empty string".
 */
export function describeHostile(cls: HostileClass | 'empty', length: number, value: string): string {
  if (cls === 'empty' || length === 0) return 'an empty string';
  if (value.length === 1)
    return `the single character ${codeUnitName(value)}${CHAR_NAMES[value] ? ` (${CHAR_NAMES[value]})` : ''}`;
  const where = value.startsWith(HOSTILE_CHARS[cls][0]) ? 'one at its start, all at its end' : 'all at its end';
  return `a ${length.toLocaleString('en-US')}-character string holding ${HOSTILE_WORDS[cls]} (${where})`;
}

/**
 * Every hostile sample: each class at each length where it fits, plus each single character at
 * length 1, with a short name (`controls.L41`, `lone-high.U+D800.L1`: ids) and what it holds in
 * words ({@link describeHostile}: titles).
 */
export function hostileSamples(
  lengths: readonly number[] = HOSTILE_LENGTHS,
): { name: string; value: string; words: string }[] {
  const out: { name: string; value: string; words: string }[] = [];
  if (lengths.includes(0)) out.push({ name: 'empty.L0', value: '', words: describeHostile('empty', 0, '') });
  for (const cls of HOSTILE_CLASSES) {
    for (const length of lengths) {
      if (length === 0) continue;
      if (length === 1) {
        for (const c of singleCharStrings(cls))
          out.push({ name: `${cls}.${codeUnitName(c)}.L1`, value: c, words: describeHostile(cls, 1, c) });
        continue;
      }
      const s = hostileString(cls, length);
      if (s !== null) out.push({ name: `${cls}.L${length}`, value: s, words: describeHostile(cls, length, s) });
    }
  }
  return out;
}
