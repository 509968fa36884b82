import { createHash } from 'node:crypto';
import { constants, closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ResultsFileError } from './errors.js';

/**
 * The integrity record of a results file (hostile tester hx4, security: a detached process that a
 * serializer's prepare() left behind, with an environment of its own so the launch tag missed it,
 * rewrote `results.json` after the run ended, and `report` then said "afterlife 3.31× faster").
 *
 * When {@link writeResults} (results/io.ts) writes a results file it also writes a sidecar beside it,
 * `<file>.sha256`, holding the SHA-256 of the text written, in `sha256sum`'s format (`<hex>  <name>`,
 * so `sha256sum -c results.json.sha256` checks it too); a run also records the hash in its ledger
 * entry (`runs.results_sha256`). Every command that reads a results file (`report`, `compare`,
 * `merge`, `ledger import`: all through readResults) compares the file with its sidecar and refuses
 * one that no longer matches ({@link ChangedResultsError}, exit 2), unless `--accept-changed` was
 * given ({@link acceptChangedResults}), which reads it with a warning naming both hashes.
 *
 * A file with no sidecar is checked against the ledger's record of its run when the ledger has one
 * (readResults' `recordOf`, cli/ledger-source.ts); with neither it is read as it is, and marked:
 * `ResultsFile.unchecked` ({@link NO_SIDECAR}), which the commands say on stderr and the reports in
 * their header (hx7 F4).
 *
 * What it cannot stop (docs/limits.md): code that runs as you can rewrite the sidecar and the ledger
 * too; a file with no record anywhere (a copy, an older run, a forged file) proves nothing either
 * way. It catches a forger that rewrites `results.json` alone, and a hand edit made after the run.
 */

/** Functions taken when this module loads, before any user code (see results/io.ts `pristine`). */
const pristine = { createHash, openSync, fstatSync, readSync, closeSync, writeFileSync, renameSync, rmSync } as const;

/** The sidecar of a results file: its path with `.sha256` appended. */
export function sidecarPath(resultsPath: string): string {
  return resultsPath + '.sha256';
}

/** SHA-256 of `text` (its UTF-8 bytes), lowercase hex. */
export function sha256Of(text: string | Uint8Array): string {
  return pristine.createHash('sha256').update(text).digest('hex');
}

/** Removes the sidecar of `resultsPath` (before its results file is replaced: a kill between the two leaves none, never a stale one). Never throws for a missing one. */
export function dropSidecar(resultsPath: string): void {
  pristine.rmSync(sidecarPath(resultsPath), { force: true });
}

/**
 * Writes the sidecar of `resultsPath` holding `sha` (atomically: an exclusive temp file, then a
 * rename, so a symbolic link planted at its name is replaced, never followed).
 * @throws the file system's error (a full disk); the temp file is removed first
 */
export function writeSidecar(resultsPath: string, sha: string): void {
  const path = sidecarPath(resultsPath);
  const tmp = path + '.tmp-' + process.pid;
  try {
    pristine.rmSync(tmp, { force: true });
    pristine.writeFileSync(tmp, `${sha}  ${basename(resultsPath)}\n`, { flag: 'wx' });
    pristine.renameSync(tmp, path);
  } catch (e) {
    pristine.rmSync(tmp, { force: true });
    throw e;
  }
}

/** The most a sidecar is read of: a `sha256sum` line is 64 hex digits, two spaces and a file name. */
const SIDECAR_MAX_BYTES = 4096;

/**
 * The hash a sidecar records (its first 64 hex digits): undefined when there is no sidecar;
 * `{ unreadable }` when one is there but cannot be what a run wrote — not a regular file (a FIFO
 * would block the reader forever, /dev/zero would fill memory: hx6), larger than
 * {@link SIDECAR_MAX_BYTES}, or holding no hash. Opened non-blocking, so a FIFO never waits for a
 * writer.
 */
export function recordedSha(resultsPath: string): string | { unreadable: string } | undefined {
  let fd: number;
  try {
    fd = pristine.openSync(sidecarPath(resultsPath), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : { unreadable: (e as Error).message };
  }
  try {
    const st = pristine.fstatSync(fd);
    if (!st.isFile()) return { unreadable: 'it is not a regular file' };
    if (st.size > SIDECAR_MAX_BYTES) return { unreadable: `it holds ${st.size} bytes, not one sha256sum line` };
    const buf = Buffer.alloc(st.size);
    const n = pristine.readSync(fd, buf, 0, st.size, 0);
    const sha = /^([0-9a-f]{64})\b/.exec(buf.subarray(0, n).toString('utf8'))?.[1];
    return sha ?? { unreadable: 'it holds no SHA-256' };
  } finally {
    pristine.closeSync(fd);
  }
}

let accepting = false;
let warn: (message: string) => void = (m) => process.stderr.write(m + '\n');

/** `--accept-changed`: read results files that no longer match their sidecar, with a warning (written by `say`) instead of a refusal. */
export function acceptChangedResults(say?: (message: string) => void): void {
  accepting = true;
  if (say) warn = say;
}

/** A results file whose text no longer has the SHA-256 its run recorded. */
export class ChangedResultsError extends ResultsFileError {}

/** What {@link checkIntegrity} found: the sidecar matched (or `--accept-changed` read a changed file), or there is none. */
export type IntegrityState = 'sidecar' | 'none';

/**
 * `ResultsFile.unchecked` of a file read with no sidecar and no other record of its hash (hx7 F4:
 * a real results file with a serializer renamed, its sidecar left out, was believed silently).
 */
export const NO_SIDECAR = 'no sidecar';

/** Another record of the hash a run wrote its results file with (the ledger's `runs.results_sha256`), and where it is, in words. */
export interface IntegrityRecord {
  sha: string;
  /** e.g. `ledger .jsonbench/ledger.db (run 12)` */
  where: string;
}

/**
 * Checks `text`, read from `path`, against the sidecar's hash. Returns `'sidecar'` when the hashes
 * match (or, with {@link acceptChangedResults}, after a warning), `'none'` when there is no sidecar
 * (the caller may check another record: {@link checkAgainstRecord}).
 * @throws ChangedResultsError naming the file, both hashes, and the flag that reads it anyway
 */
export function checkIntegrity(path: string, text: string): IntegrityState {
  const recorded = recordedSha(path);
  if (recorded === undefined) return 'none';
  const now = sha256Of(text);
  if (now === recorded) return 'sidecar';
  // a sidecar that is there but not a run's (garbage, a FIFO, a device) proves nothing either way: refused like a mismatch (hx6)
  const what =
    typeof recorded === 'string'
      ? `changed after the run wrote it: its sha256 is ${now}, the run recorded ${recorded} in ${basename(sidecarPath(path))}`
      : `cannot be checked: its integrity record ${basename(sidecarPath(path))} is not one a run wrote (${recorded.unreadable})`;
  if (accepting) {
    warn(`jsonbench: ${path}: ${what}; read as it is now (--accept-changed): its numbers are not the run's`);
    return 'sidecar';
  }
  throw new ChangedResultsError(
    path,
    '',
    typeof recorded === 'string'
      ? `${what}. ${REWRITTEN}`
      : `${what}: a run writes one sha256sum line there. Remove it if you know where the file came from, or pass --accept-changed to read it anyway`,
  );
}

const REWRITTEN =
  'Something rewrote it after the run (a process the run left behind, an editor, a script): its numbers are not what the run measured. Pass --accept-changed to read it anyway';

/**
 * Checks `text`, read from `path` (which has no sidecar), against another record of its run's hash
 * (the ledger's). Returns silently when they match; with {@link acceptChangedResults} writes a
 * warning and returns.
 * @throws ChangedResultsError naming the file, both hashes and where the record is
 */
export function checkAgainstRecord(path: string, text: string, record: IntegrityRecord): void {
  const now = sha256Of(text);
  if (now === record.sha) return;
  const what = `changed after the run wrote it: its sha256 is ${now}, ${record.where} recorded ${record.sha} for its run (the file has no ${basename(sidecarPath(path))})`;
  if (accepting) {
    warn(`jsonbench: ${path}: ${what}; read as it is now (--accept-changed): its numbers are not the run's`);
    return;
  }
  throw new ChangedResultsError(path, '', `${what}. ${REWRITTEN}`);
}
