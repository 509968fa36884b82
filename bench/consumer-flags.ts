/**
 * `--server-flags` of `npm run bench:consumer` (consumer.ts), apart so a test can pin the parsing:
 * which extra Node flags the server processes run with. Each occurrence of the option is one
 * server variant (a list of flags separated by spaces or commas; an empty value is Node's default
 * flags); with two or more variants the server process sets alternate between them, so the
 * variants are measured in the same time window (the machine's load comparable) and the ops once.
 *
 * Shapes: `parseServerFlags(['', '--single-threaded-gc'])` → `[[], ['--single-threaded-gc']]`;
 * no occurrence → `[[]]` (one variant: Node's defaults).
 */

/** A server variant's label in tables and its key in consumer.json groupings: the flags, or "Node's default flags". */
export const serverFlagsLabel = (flags: readonly string[] | undefined): string =>
  flags && flags.length > 0 ? flags.join(' ') : "Node's default flags";

/**
 * The server variants of the `--server-flags` values (see above).
 * @throws Error when a token does not start with `--` (a flag), when it is `--expose-gc` (the server
 *   always has it, for `--gc-at-mark`), or when two variants are the same list of flags
 */
export function parseServerFlags(values: readonly string[] | undefined): string[][] {
  if (!values || values.length === 0) return [[]];
  const variants = values.map((v) => v.split(/[\s,]+/).filter((t) => t !== ''));
  for (const [i, flags] of variants.entries()) {
    for (const t of flags) {
      if (!t.startsWith('--'))
        throw new Error(
          `--server-flags (occurrence ${i + 1}, "${values[i]}"): "${t}" is not a Node flag (expected --name or --name=value)`,
        );
      if (t === '--expose-gc')
        throw new Error(`--server-flags (occurrence ${i + 1}): --expose-gc is always on for the servers`);
    }
  }
  const keys = variants.map((f) => f.join(' '));
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (dup >= 0)
    throw new Error(`--server-flags: variant ${dup + 1} ("${serverFlagsLabel(variants[dup])}") is given twice`);
  return variants;
}

/** Whether a consumer.json record's server flags (absent in files before the option: Node's defaults) are `flags`. */
export const sameServerFlags = (recorded: readonly string[] | undefined, flags: readonly string[]): boolean =>
  (recorded ?? []).join(' ') === flags.join(' ');

/**
 * `--ops-env NAME=VALUE` (repeatable): environment variables added to the ops processes only (the
 * servers keep the bench's environment), e.g. `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824`
 * (glibc keeps freed memory: every side of a large-document op then faults once per fresh copy, and
 * the baseline is steady; README, serialize op). Recorded per record as `opsEnv`.
 * @throws Error on an entry without `=` or with an empty name
 */
export function parseOpsEnv(entries: readonly string[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of entries ?? []) {
    const i = e.indexOf('=');
    if (i <= 0) throw new Error(`--ops-env: expected NAME=VALUE, got "${e}"`);
    env[e.slice(0, i)] = e.slice(i + 1);
  }
  return env;
}
