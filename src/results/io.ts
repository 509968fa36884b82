import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { RESULTS_SCHEMA_VERSION, type CaseResult, type ResultsFile } from './types.js';

/** Writes the results file atomically (temp file, then rename), so a reader never sees half a file. */
export function writeResults(path: string, results: ResultsFile): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(results, null, 2) + '\n');
  renameSync(tmp, path);
}

/**
 * Reads and checks a results file. @throws Error naming the file: unreadable, not JSON (with the
 * position), not a jsonbench results file, or of another schema version.
 */
export function readResults(path: string): ResultsFile {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (e) { throw new Error(`${path}: cannot read: ${(e as Error).message}`); }
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) { throw new Error(`${path}: not valid JSON: ${(e as Error).message}`); }
  const r = value as Partial<ResultsFile>;
  if (!r || typeof r !== 'object' || r.tool !== 'jsonbench' || !Array.isArray(r.cases)) throw new Error(`${path}: not a jsonbench results file (expected "tool": "jsonbench" and "cases")`);
  if (r.schemaVersion !== RESULTS_SCHEMA_VERSION) throw new Error(`${path}: results schemaVersion ${String(r.schemaVersion)}; this jsonbench reads version ${RESULTS_SCHEMA_VERSION}`);
  return r as ResultsFile;
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
