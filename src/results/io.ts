import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import type { CaseResult, ResultsFile } from './types.js';
import { checkResults } from './validate.js';
import { ResultsFileError } from './errors.js';

/** Writes the results file atomically (temp file, then rename), so a reader never sees half a file. */
export function writeResults(path: string, results: ResultsFile): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(results, null, 2) + '\n');
  renameSync(tmp, path);
}

/**
 * Reads and checks a results file (older layouts are upgraded, see results/upgrade.ts).
 * @throws ResultsFileError naming the file: unreadable, not JSON (with the position), not a
 * jsonbench results file, of a newer schema version, or not matching the schema (with the path of
 * the first problem)
 */
export function readResults(path: string): ResultsFile {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (e) { throw new ResultsFileError(path, '', `cannot read: ${(e as Error).message}`); }
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) { throw new ResultsFileError(path, '', `not valid JSON: ${(e as Error).message}`); }
  return checkResults(value, path);
}

/** Reads the partial file of an interrupted run (one case per line; a torn last line is skipped). */
export function readPartial(path: string): CaseResult[] {
  const out: CaseResult[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try { out.push(JSON.parse(line) as CaseResult); } catch { /* torn line from a killed run */ }
  }
  return out;
}
