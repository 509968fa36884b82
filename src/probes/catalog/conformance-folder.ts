import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { conformanceKind, type ConformanceSet } from './conformance.js';

/**
 * Reads a folder of conformance files (any folder of JSONTestSuite `y_`/`n_`/`i_`, json.org checker
 * `pass`/`fail` and nativejson-benchmark `roundtrip` files, in subfolders or not) on the host.
 * Deserializers take a string, so each file is decoded as UTF-8 with a fatal decoder that keeps a
 * byte-order mark; a file that is not UTF-8 cannot be handed to any of them and is listed as
 * skipped with that reason (the decoder rejected it first). Host side only (it reads files).
 */

/** Every file under `dir` (recursively), sorted by path. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
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
  let files: string[];
  try {
    files = filesUnder(dir);
  } catch (e) {
    throw new Error(`conformance folder ${dir}: ${(e as Error).message}`);
  }
  const set: ConformanceSet = { root: basename(dir), files: [] };
  const skipped: SkippedFile[] = [];
  for (const file of files) {
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
