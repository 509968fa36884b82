import { createHash, timingSafeEqual } from 'node:crypto';
import { constants, closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ResultsFileError } from './errors.js';
import { integrityKey, macOf } from '../case/integrity-key.js';

export { integrityKeyPath } from '../case/integrity-key.js';

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
 * The sidecar is signed (hx8, issue 25: a forged file with a hand-made `sha256sum results.json >
 * results.json.sha256` was read as checked, and `ledger import` vouched for it): its second line,
 * `# jsonbench hmac-sha256 <hex>`, is the HMAC-SHA256 of the file's bytes under a key only this
 * user's jsonbench holds ({@link integrityKeyPath}: 32 random bytes made on first use, mode 0600).
 * A sidecar whose hash matches but whose HMAC is missing or another key's (`sha256sum` by hand, an
 * older jsonbench, another account or machine) proves nothing: the file is read unchecked
 * ({@link NOT_SIGNED}) unless the ledger vouches for it. GNU `sha256sum -c` skips lines that begin
 * with `#`, so `sha256sum -c results.json.sha256` still checks the hash (coreutils 9.1, also with
 * `--strict`).
 *
 * What it proves: the file was written by this user's jsonbench (or by code that can read this
 * user's key) and has not changed since. What it cannot (docs/limits.md): code that runs as you — a
 * config, a serializer's prepare(), any process of yours — can read the key and sign what it likes,
 * and rewrite the ledger too; a file with no record anywhere (a copy from another machine, an older
 * run, a forged file) proves nothing either way. It catches a forger that rewrites `results.json`
 * (with or without a sidecar) without your key, and a hand edit made after the run.
 */

/**
 * Functions taken when this module loads, before any user code (see results/io.ts `pristine`; the key is read and
 * made by case/integrity-key.ts, which takes its own the same way).
 */
const pristine = {
  createHash,
  timingSafeEqual,
  openSync,
  fstatSync,
  readSync,
  closeSync,
  writeFileSync,
  renameSync,
  rmSync,
} as const;

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

/** The comment line of a signed sidecar, before its HMAC (GNU sha256sum -c skips `#` lines). */
const MAC_PREFIX = '# jsonbench hmac-sha256 ';

let keyWarned = false;

/**
 * Writes the sidecar of `resultsPath` for `text`, the file's text: its SHA-256 in `sha256sum`'s
 * format, then the HMAC line ({@link MAC_PREFIX}) under this user's key (made on first use). When no
 * key can be had (a read-only home), the sidecar holds the hash alone, said once on stderr: readers
 * then read the file unchecked. Atomic: an exclusive temp file, then a rename, so a symbolic link
 * planted at its name is replaced, never followed. Returns the SHA-256 (hex).
 * @throws the file system's error (a full disk); the temp file is removed first
 */
export function writeSidecar(resultsPath: string, text: string): string {
  const sha = sha256Of(text);
  const key = integrityKey(true);
  if (!Buffer.isBuffer(key) && !keyWarned) {
    keyWarned = true;
    process.stderr.write(
      `jsonbench: warning: ${key.problem}: ${basename(sidecarPath(resultsPath))} holds the SHA-256 alone, unsigned; readers will say the file's integrity is unchecked\n`,
    );
  }
  const path = sidecarPath(resultsPath);
  const tmp = path + '.tmp-' + process.pid;
  const body = `${sha}  ${basename(resultsPath)}\n${Buffer.isBuffer(key) ? `${MAC_PREFIX}${macOf(key, text)}\n` : ''}`;
  try {
    pristine.rmSync(tmp, { force: true });
    pristine.writeFileSync(tmp, body, { flag: 'wx' });
    pristine.renameSync(tmp, path);
  } catch (e) {
    pristine.rmSync(tmp, { force: true });
    throw e;
  }
  return sha;
}

/**
 * One link of the chain that signs a killed run's partial files (run/partial-mac.ts): the HMAC-SHA256 under this
 * user's key of `previous` (the link before, '' for the first), a newline and `text`, lowercase hex. `make`: make the
 * key on first use (a writer) or not (a reader: without a key nothing was signed by it). Null when no key can be had.
 */
export function chainMac(previous: string, text: string, make: boolean): string | null {
  const key = integrityKey(make);
  return Buffer.isBuffer(key) ? macOf(key, `${previous}\n${text}`) : null;
}

/** The most a sidecar is read of: a `sha256sum` line is 64 hex digits, two spaces and a file name; the HMAC line is 89 characters. */
const SIDECAR_MAX_BYTES = 4096;

/** What a sidecar holds: the hash (its first 64 hex digits) and the HMAC of its `# jsonbench hmac-sha256` line, when it has one. */
interface SidecarRecord {
  sha: string;
  mac?: string;
}

/**
 * What a sidecar records: undefined when there is no sidecar; `{ unreadable }` when one is there but
 * cannot be what a run wrote — not a regular file (a FIFO would block the reader forever, /dev/zero
 * would fill memory: hx6), larger than {@link SIDECAR_MAX_BYTES}, or holding no hash. Opened
 * non-blocking, so a FIFO never waits for a writer.
 */
function readSidecar(resultsPath: string): SidecarRecord | { unreadable: string } | undefined {
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
    const text = buf.subarray(0, n).toString('utf8');
    const sha = /^([0-9a-f]{64})\b/.exec(text)?.[1];
    if (!sha) return { unreadable: 'it holds no SHA-256' };
    const mac = /^# jsonbench hmac-sha256 ([0-9a-f]{64})$/m.exec(text)?.[1];
    return mac ? { sha, mac } : { sha };
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

/**
 * What {@link checkIntegrity} found: `sidecar`, the sidecar matched and is signed with this user's key
 * (or `--accept-changed` read a changed file); `unsigned`, its hash matches but it was not signed with
 * this user's key (made by hand, by an older jsonbench, on another account or machine); `none`, there
 * is none.
 */
export type IntegrityState = 'sidecar' | 'unsigned' | 'none';

/**
 * `ResultsFile.unchecked` of a file read with no sidecar and no other record of its hash (hx7 F4:
 * a real results file with a serializer renamed, its sidecar left out, was believed silently).
 */
export const NO_SIDECAR = 'no sidecar';

/**
 * `ResultsFile.unchecked` of a file whose sidecar's hash matches but which this user's jsonbench did
 * not sign (hx8: `sha256sum results.json > results.json.sha256` made by hand), and that no ledger
 * vouches for.
 */
export const NOT_SIGNED = 'the sidecar was not written by jsonbench for this user';

/**
 * `ResultsFile.unchecked` of a killed run's results rebuilt from partial files that have no integrity record
 * (run/recover.ts; a run since 2026-12-06 signs them line by line: run/partial-mac.ts, `run.partial.mac`), so
 * nothing vouches for them (hx10 KF-forged-report: a launch log with every sample of one serializer
 * multiplied by 0.2 was reported "3.70× faster" with no integrity word, while a results.json without
 * a sidecar is said unchecked).
 */
export const REBUILT_UNCHECKED = "rebuilt from an unfinished run's partial files, which carry no integrity record";

/** Another record of the hash a run wrote its results file with (the ledger's `runs.results_sha256`), and where it is, in words. */
export interface IntegrityRecord {
  sha: string;
  /** e.g. `ledger .jsonbench/ledger.db (run 12)` */
  where: string;
}

/**
 * Checks `text`, read from `path`, against the sidecar's hash and its HMAC. Returns `'sidecar'` when
 * the hashes match and the HMAC is this user's key's (or, with {@link acceptChangedResults}, after a
 * warning), `'unsigned'` when the hashes match but the HMAC is missing or another key's, `'none'` when
 * there is no sidecar (for either the caller may check another record: {@link checkAgainstRecord}).
 * @throws ChangedResultsError naming the file, both hashes, and the flag that reads it anyway
 */
export function checkIntegrity(path: string, text: string): IntegrityState {
  const sidecar = readSidecar(path);
  if (sidecar === undefined) return 'none';
  const recorded = 'sha' in sidecar ? sidecar.sha : sidecar;
  const now = sha256Of(text);
  if (now === recorded) return signedBy(sidecar as SidecarRecord, text) ? 'sidecar' : 'unsigned';
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

/** Whether `sidecar`'s HMAC is `text`'s under this user's key (compared in constant time); false without a key. */
function signedBy(sidecar: SidecarRecord, text: string): boolean {
  if (!sidecar.mac) return false;
  const key = integrityKey(false);
  if (!Buffer.isBuffer(key)) return false;
  return pristine.timingSafeEqual(Buffer.from(macOf(key, text), 'hex'), Buffer.from(sidecar.mac, 'hex'));
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
