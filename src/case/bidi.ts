/**
 * The characters that reorder the text around them (Unicode's bidirectional formatting characters,
 * UAX #9 §2): the embeddings and overrides U+202A–U+202E (LRE, RLE, PDF, LRO, RLO), the isolates
 * U+2066–U+2069 (LRI, RLI, FSI, PDI), and the implicit marks U+200E, U+200F (LRM, RLM) and U+061C
 * (ALM). Shown as they are, a payload key, a serializer id or an error message holding them makes a
 * terminal line, a report or generated code read differently from what it holds ("Trojan Source",
 * CVE-2021-42574: `"user\u202ENAME"` displays as `"userEMAN"`).
 */
const BIDI_FORMAT = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every bidirectional formatting character ({@link BIDI_FORMAT}) written as its escape,
 * `\u` and four upper-case hex digits (U+202E → the six characters `\u202E`), so it is seen and
 * reorders nothing. The one masker of every place jsonbench shows text from the data: the terminal
 * and stderr (cli/streams.ts), report.md, report.html (its markup and its data), CSV, the site and
 * history pages, and the code it generates (C# DTOs, typia modules). In JSON text and in string
 * literals of JavaScript, TypeScript and C# the escape denotes the same character, so masking such
 * text keeps its meaning. Other text is returned unchanged (same string).
 */
export function maskBidi(text: string): string {
  return text.replace(BIDI_FORMAT, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
