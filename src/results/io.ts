import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import type { CaseResult, ResultsFile } from './types.js';
import { checkResults } from './validate.js';
import { ResultsFileError } from './errors.js';
import { parse as losslessParse } from 'lossless-json';

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
  // a UTF-8 byte order mark (some Windows editors write one) is not part of the JSON
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) { throw new ResultsFileError(path, '', `not valid JSON${syntaxErrorAt(text)}: ${(e as Error).message}`); }
  return checkResults(value, path);
}

/**
 * Where `text` stops being JSON, as ` at line L, column C` (1-based; columns count UTF-16 code
 * units), or '' when that cannot be told. V8's JSON.parse (Node 20) names no position for most
 * errors, so the text is parsed again with lossless-json, whose errors end `at position N` (0-based).
 */
export function syntaxErrorAt(text: string): string {
  let at: number;
  try { losslessParse(text); return ''; } catch (e) {
    const m = /at position (\d+)\s*$/.exec((e as Error).message);
    if (!m) return '';
    at = Math.min(Number(m[1]), text.length);
  }
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return ` at line ${line}, column ${at - before.lastIndexOf('\n')}`;
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
