import { positionIn } from './position.js';

/**
 * Duplicate keys in a user's JSON text (`{"id": 1, "id": 2}`). RFC 8259 §4 says the names within
 * an object SHOULD be unique and that software differs on duplicates; JSON.parse keeps the last
 * value (ECMA-262 JSON.parse defines each member in turn, so a later one overwrites), so every
 * serializer would be measured on a value the file does not show as written. Found by a scan of the
 * text's strings and brackets (numbers and literals cannot hold a key), comparing keys unescaped.
 */

/** A JSON string or one of the structural characters that matter here: a string hides any bracket inside it. */
const TOKENS = /"(?:[^"\\]|\\.)*"|[{}[\]]/g;
/** Whitespace then a colon: the string before it is a member name. */
const NAME_END = /[ \t\r\n]*:/y;

/** A duplicate key: its name (unescaped) and the character offset of its second occurrence. */
export interface DuplicateKey {
  key: string;
  offset: number;
}

/** The duplicate keys of a JSON text, in text order, at most `limit`. Expects valid JSON (parse it first). */
export function duplicateKeys(text: string, limit = 3): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  const stack: (Set<string> | null)[] = [];
  for (const m of text.matchAll(TOKENS)) {
    const t = m[0];
    if (t === '{') stack.push(new Set());
    else if (t === '[') stack.push(null);
    else if (t === '}' || t === ']') stack.pop();
    else {
      const names = stack.at(-1);
      if (!names) continue;
      NAME_END.lastIndex = m.index + t.length;
      if (!NAME_END.test(text)) continue;
      const key = JSON.parse(t) as string;
      if (names.has(key)) {
        out.push({ key, offset: m.index });
        if (out.length >= limit) break;
      } else names.add(key);
    }
  }
  return out;
}

/**
 * The warning for each duplicate key of one unit of a payload: `file:line:column` (`source` is
 * `file`, or `file:line` for an NDJSON record, whose text is that one line).
 */
export function duplicateKeyWarnings(text: string, source: string): string[] {
  return duplicateKeys(text).map(({ key, offset }) => {
    const at = positionIn(text, offset, source);
    return `${at}: duplicate key ${JSON.stringify(key)} in one object: JSON.parse keeps its last value, so every serializer is measured on that one alone (RFC 8259 §4: names should be unique)`;
  });
}
