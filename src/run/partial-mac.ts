import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { appendFileNamed, writeFileNamed } from '../files/write-file.js';
import { chainMac } from '../results/integrity.js';

/**
 * The integrity record of a run's partial files (run/recover.ts: `run.partial.json`, `results.partial.jsonl`,
 * `launches.partial.jsonl`), so that `jsonbench report <folder>` of a killed run can tell its own files from forged
 * or edited ones (hx10 KF-forged-report: a launch log with one serializer's samples × 0.2 was reported "3.70×
 * faster"; since then every rebuilt run read "integrity unchecked", an honest killed run's too).
 *
 * `run.partial.mac` holds, as JSON, the HMAC (results/integrity.ts chainMac, this user's key) of the header's text,
 * and for each partial file the number of lines written and the last link of a chain over them: link₀ = the
 * header's HMAC, linkᵢ = HMAC(linkᵢ₋₁ ⏎ lineᵢ). It is rewritten (atomically) after every line appended, so it
 * covers every line but one being written when the host was killed. A reader recomputes the chains
 * ({@link partialFilesProblem}): the rebuilt results are checked only when the header and every line match.
 * What it cannot prove: code that runs as you can read the key (docs/limits.md).
 */
export const PARTIAL_MAC = 'run.partial.mac';

interface MacRecord {
  header: string;
  files: Record<string, { lines: number; mac: string }>;
}

/** Appends the lines of a run's partial files and keeps {@link PARTIAL_MAC} up to date; without a key it only appends. */
export class PartialSigner {
  private readonly record: MacRecord | null;
  constructor(
    private readonly dir: string,
    headerText: string,
  ) {
    const header = chainMac('', headerText, true);
    this.record = header === null ? null : { header, files: {} };
    this.save();
  }

  /** Appends `line` (one JSON text, no line break) and a newline to `path`, then the record. @throws FileWriteError */
  append(path: string, line: string): void {
    appendFileNamed(path, `${line}\n`);
    if (!this.record) return;
    const name = basename(path);
    const before = this.record.files[name] ?? { lines: 0, mac: this.record.header };
    this.record.files[name] = { lines: before.lines + 1, mac: chainMac(before.mac, line, true) ?? '' };
    this.save();
  }

  private save(): void {
    if (this.record) writeFileNamed(join(this.dir, PARTIAL_MAC), JSON.stringify(this.record));
  }
}

/** The most of {@link PARTIAL_MAC} read: a few hundred bytes when written. */
const RECORD_MAX_BYTES = 64 * 1024;

/**
 * Why the partial files in `dir` cannot be vouched for, or null when they are the ones this user's jsonbench wrote:
 * the header's text `headerText` and every line of `files` (names in `dir`) match {@link PARTIAL_MAC}'s chains.
 * Never throws: an unreadable record is a reason.
 */
export function partialFilesProblem(dir: string, headerText: string, files: readonly string[]): string | null {
  const path = join(dir, PARTIAL_MAC);
  let record: MacRecord;
  try {
    if (!statSync(path).isFile() || statSync(path).size > RECORD_MAX_BYTES) return `${PARTIAL_MAC} is not a record`;
    record = JSON.parse(readFileSync(path, 'utf8')) as MacRecord;
  } catch {
    return `no readable integrity record (${PARTIAL_MAC})`;
  }
  if (!record || typeof record.header !== 'string' || typeof record.files !== 'object' || record.files === null)
    return `${PARTIAL_MAC} is not a record`;
  const header = chainMac('', headerText, false);
  if (header === null) return 'no integrity key to check it with';
  if (header !== record.header) return `run.partial.json does not match its record in ${PARTIAL_MAC}`;
  for (const name of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8');
    } catch {
      text = '';
    }
    const lines = text === '' ? [] : text.split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    const want = record.files[name] ?? { lines: 0, mac: record.header };
    if (lines.length !== want.lines)
      return `${name} holds ${lines.length} line${lines.length === 1 ? '' : 's'}, its record in ${PARTIAL_MAC} ${want.lines}`;
    let mac = record.header;
    for (const l of lines) mac = chainMac(mac, l, false) ?? '';
    if (mac !== want.mac) return `${name} does not match its record in ${PARTIAL_MAC} (a line was changed)`;
  }
  return null;
}
