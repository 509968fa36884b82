import { readFileSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { conformanceKind, type ConformanceSet } from './conformance.js';

/**
 * Reads a folder of conformance files (any folder of JSONTestSuite `y_`/`n_`/`i_`, json.org checker
 * `pass`/`fail` and nativejson-benchmark `roundtrip` files, in subfolders or not) on the host.
 * Deserializers take a string, so each file is decoded as UTF-8 with a fatal decoder that keeps a
 * byte-order mark; a file that is not UTF-8 cannot be handed to any of them and is listed as
 * skipped with that reason (the decoder rejected it first). Host side only (it reads files).
 */

/** The largest conformance file read (JSONTestSuite's largest is under 1 MiB; each text is held and sent to every worker). */
export const CONFORMANCE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Every entry under `dir` (recursively, following symbolic links to folders once each: a link back
 * to a folder above is not walked again), sorted by path: its regular files and, apart, the entries
 * that are not read, with why: neither a file nor a folder (a FIFO, a socket, a device), beyond
 * {@link CONFORMANCE_FILE_MAX_BYTES}, a link that leads nowhere, or a link that leads outside the
 * folder (`root`, real path: hx22 CF2, a link to a private key put its text in the reports). Opening a
 * FIFO waits for a writer (issue 25, hostile tester hx8: a `y_fifo.json` in the folder hung `probe
 * --conformance` with no output), so only regular files are ever read.
 */
function entriesUnder(
  dir: string,
  root = realpathSync(dir),
  seen = new Set<string>([root]),
): { files: string[]; special: SkippedFile[] } {
  const files: string[] = [];
  const special: SkippedFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    let st: Stats;
    try {
      st = statSync(p);
    } catch (e) {
      // a dangling link, or a loop of links: listed as what it is, never read
      special.push({ file: p, reason: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    const real = realpathSync(p);
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      // hx22 CF2: a link to ~/.ssh/id_ed25519 in a folder from someone else put the key's text in the reports
      special.push({
        file: p,
        reason: `is a link to ${st.isDirectory() ? 'a folder' : 'a file'} outside the folder: not read (a folder from someone else could put any file you can read in your reports)`,
      });
      continue;
    }
    if (st.isDirectory()) {
      if (seen.has(real)) continue;
      seen.add(real);
      const under = entriesUnder(p, root, seen);
      files.push(...under.files);
      special.push(...under.special);
    } else if (st.isFile()) {
      if (st.size > CONFORMANCE_FILE_MAX_BYTES)
        special.push({
          file: p,
          reason: `is ${Math.ceil(st.size / 1024 / 1024)} MiB, beyond the 64 MiB a conformance file may be: not read`,
        });
      else files.push(p);
    } else
      special.push({ file: p, reason: `is ${specialKind(st)}, not a file: not read (opening it could wait forever)` });
  }
  return { files, special };
}

/** What a stat that is neither a file nor a folder is, in words. */
function specialKind(st: Stats): string {
  if (st.isFIFO()) return 'a pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A conformance file the folder holds that cannot become a probe, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/**
 * The conformance files under `dir` with their texts, and the files skipped.
 * @throws Error naming `dir` when it cannot be read or holds no conformance file
 */
export function readConformanceFolder(dir: string): { set: ConformanceSet; skipped: SkippedFile[] } {
  let entries: { files: string[]; special: SkippedFile[] };
  try {
    entries = entriesUnder(dir);
  } catch (e) {
    throw new Error(`conformance folder ${dir}: ${(e as Error).message}`);
  }
  const set: ConformanceSet = { root: basename(dir), files: [] };
  const skipped: SkippedFile[] = entries.special
    .filter((s) => conformanceKind(basename(s.file)) || s.reason.startsWith('is a link to a folder outside'))
    .map((s) => ({ file: relative(dir, s.file).split(sep).join('/'), reason: s.reason }));
  for (const file of entries.files) {
    if (!conformanceKind(basename(file))) continue;
    const path = relative(dir, file).split(sep).join('/');
    try {
      set.files.push({ path, text: decoder.decode(readFileSync(file)) });
    } catch {
      skipped.push({
        file: path,
        reason: 'not valid UTF-8: a string-input deserializer cannot be handed it (the decoder rejects it first)',
      });
    }
  }
  if (set.files.length === 0 && skipped.length === 0)
    throw new Error(`conformance folder ${dir}: no y_/n_/i_, pass/fail or roundtrip *.json files in it`);
  return { set, skipped };
}
