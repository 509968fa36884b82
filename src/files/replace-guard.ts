import { closeSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * What a command that writes a file (`report --out`, `history --out`, `site --out`, `ledger export --out`) may
 * replace: nothing but a file jsonbench itself wrote of that kind, told by its first bytes. hx8 wrote a report over a
 * ledger and over another run's results.json; hx18 over the run's own payload file (the next run measured the report
 * as the payload), a user's notes.md, package.json-like `.json` files, a `.txt` (history), a user's index.html
 * (site), and `ledger export --out` over the ledger it read and over another run's results.json, each with exit 0.
 */

/** The kinds of file jsonbench writes, each told by the start of its text (at most {@link HEAD_BYTES}). */
const OWN_FILES = {
  /** report.md */
  'md report': (head: string) => head.startsWith('# jsonbench results'),
  /** report.html, the history page, the site's pages */
  'HTML page': (head: string) => /<meta name="generator" content="jsonbench[ "]|<title>jsonbench /.test(head),
  /** report.json */
  'json report': (head: string) => /^\{\s*"tool":\s*"jsonbench",\s*"kind":\s*"report"/.test(head),
  /** report.csv */
  'csv report': (head: string) => head.startsWith('source,target,id,workload,'),
  /** report.bmf.json: keys are case ids */
  'Bencher Metric Format report': (head: string) =>
    /^\{\s*"[^"\n]*\/\d+\/(single|list|many)\/(serialize|deserialize)\/[^"\n]*":\s*\{/.test(head) ||
    /^\{\s*\}/.test(head),
  /** report.gab.json */
  'github-action-benchmark report': (head: string) =>
    /^\[\s*\{\s*"name":\s*"[^"\n]*\/\d+\/(single|list|many)\/(serialize|deserialize)\//.test(head) ||
    /^\[\s*\]/.test(head),
  /** a run's results as `ledger export` writes them */
  'results file': (head: string) => /^\{\s*"schemaVersion":\s*\d+,\s*"tool":\s*"jsonbench"/.test(head),
} as const satisfies Record<string, (head: string) => boolean>;

export type OwnFile = keyof typeof OWN_FILES;

/** How much of an existing file is read to tell what it is. */
const HEAD_BYTES = 4096;

/**
 * Why the existing file at `path` must not be replaced by a file of kind `kind`, or null when it may be (absent, or
 * a file of that kind jsonbench wrote: {@link OWN_FILES}). Never a symbolic link, a run's results file or its
 * integrity record (by name: results.json, *.sha256, *.partial.jsonl), a folder, anything but a regular file, or an
 * SQLite database.
 */
export function replaceRefusal(path: string, kind: OwnFile): string | null {
  // hx25 s_symlink: site's index.html linked to another run's report.html was written through (the check followed
  // the link, saw a jsonbench page and allowed it): a link is never written through, whatever it points to
  try {
    if (lstatSync(path).isSymbolicLink()) return 'is a symbolic link: jsonbench does not write through a link';
  } catch {
    return null;
  }
  let isFile: boolean;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return 'is a folder';
    isFile = st.isFile();
  } catch {
    return null;
  }
  if (/^results\.json(\.sha256)?$|\.partial\.jsonl?$|\.sha256$/.test(basename(path)))
    return "is a run's results file or its integrity record";
  if (!isFile) return 'is not a regular file';
  const buf = Buffer.alloc(HEAD_BYTES);
  let n: number;
  try {
    const fd = openSync(path, 'r');
    try {
      n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return 'exists and cannot be read to tell what it is';
  }
  const head = buf.subarray(0, n).toString('utf8');
  if (head.startsWith('SQLite format 3\u0000')) return 'is an SQLite database (a ledger?)';
  if (OWN_FILES[kind](head)) return null;
  return `exists and is not ${/^(?:[aeiou]|HTML|md)/i.test(kind) ? 'an' : 'a'} ${kind} jsonbench wrote (it begins ${JSON.stringify(head.slice(0, 40).replace(/\s+/g, ' '))})`;
}

/**
 * What to do about a refusal of {@link replaceRefusal} (`refused`): choose another path, and, only for a regular file
 * that is not a run's records (a user's file), that deleting it first would let it be replaced. hx22 F2b: "--out:
 * /dev/null is not a regular file: choose another file (to replace it, delete it first)" told a user, perhaps root, to
 * delete /dev/null, or a whole folder. `what`: a file, or a folder (`site --out`).
 */
export function replaceAdvice(refused: string, what: 'file' | 'folder' = 'file'): string {
  return refused.startsWith('exists and is not')
    ? `choose another ${what} (to replace it, delete it first)`
    : `choose another ${what}`;
}
