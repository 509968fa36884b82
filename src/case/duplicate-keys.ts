/**
 * Duplicate keys in a user's JSON text (`{"id": 1, "id": 2}`). RFC 8259 §4 says the names within
 * an object SHOULD be unique and that software differs on duplicates; JSON.parse keeps the last
 * value (ECMA-262 JSON.parse defines each member in turn, so a later one overwrites), so every
 * serializer would be measured on a value the file does not show as written. Found by a scan of the
 * text's strings and brackets (numbers and literals cannot hold a key), comparing keys unescaped.
 */

/**
 * The JSON strings and brackets of `text`, in order (a string hides any bracket inside it), found
 * by a scan rather than a regular expression: V8's backtracking regex engine overflowed its stack
 * on a 60 MB string value (a hostile tester's payload: "Maximum call stack size exceeded (an
 * internal error…)"). Linear in the text's length.
 */
function* tokens(text: string): Generator<{ t: string; index: number }> {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      // the closing quote is the first one preceded by an even number of backslashes
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) return;
        let b = q - 1;
        while (b > i && text.charCodeAt(b) === 0x5c) b--;
        if ((q - 1 - b) % 2 === 0) {
          yield { t: text.slice(i, q + 1), index: i };
          i = q;
          break;
        }
        from = q + 1;
      }
    } else if (ch === 0x7b || ch === 0x7d || ch === 0x5b || ch === 0x5d) yield { t: text[i], index: i };
  }
}

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
  for (const m of tokens(text)) {
    const t = m.t;
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
