/**
 * The version-matrix syntax of `--serializer`: `fast-json-stringify@5,6,7` asks for three
 * published versions of one adapter's library, each measured as its own row labelled
 * `<adapter>@<version>` (e.g. `fast-json-stringify@5.16.1`).
 */

/** One `--serializer` entry: an adapter id, and the npm version specs asked for (none: the installed one). */
export interface SerializerSpec {
  id: string;
  versions: string[];
}

/** A token that continues the previous entry's version list: `6`, `6.1.0`, `^5`, `~4.2`, `latest`, `next`. */
const VERSION_TOKEN = /^([~^]|[<>]=?|=)?v?\d[\w.\-+*]*$|^(latest|next|beta|canary)$/;

/**
 * Groups split `--serializer` tokens into entries: `["fast-json-stringify@5", "6", "json"]` →
 * `[{ id: "fast-json-stringify", versions: ["5", "6"] }, { id: "json", versions: [] }]`.
 * A token that is a known adapter id always starts a new entry.
 * @throws Error naming a token that is a version with no `name@` before it.
 */
export function parseSerializerSpecs(tokens: readonly string[], knownIds: readonly string[]): SerializerSpec[] {
  const out: SerializerSpec[] = [];
  for (const token of tokens) {
    if (knownIds.includes(token)) {
      out.push({ id: token, versions: [] });
      continue;
    }
    const at = token.lastIndexOf('@');
    if (at > 0) {
      out.push({ id: token.slice(0, at), versions: [token.slice(at + 1)] });
      continue;
    }
    const last = out[out.length - 1];
    if (VERSION_TOKEN.test(token)) {
      if (!last || last.versions.length === 0)
        throw new Error(
          `"${token}" looks like a version but follows no name@version (write e.g. fast-json-stringify@5,${token})`,
        );
      last.versions.push(token);
      continue;
    }
    out.push({ id: token, versions: [] });
  }
  return out;
}

/** Row label of a version of an adapter: `fast-json-stringify@5.16.1`. */
export function versionedId(adapterId: string, version: string): string {
  return `${adapterId}@${version}`;
}

/**
 * The adapter id inside a row label: `fast-json-stringify@5.16.1` → `fast-json-stringify`;
 * a label without a version (`json`, `@scope/x`) is returned as is.
 */
export function adapterIdOf(label: string): string {
  const at = label.lastIndexOf('@');
  return at > 0 ? label.slice(0, at) : label;
}
