import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import type { CaseResult, ResultsFile } from './types.js';
import { checkResults } from './validate.js';
import { ResultsFileError, type TextPosition } from './errors.js';
import { parse as losslessParse } from 'lossless-json';
import jsonSourceMap from 'json-source-map';

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
  try { return checkResults(value, path); } catch (e) { throw positioned(e, text); }
}

/**
 * `e` with the line and column of its JSON pointer in `text` (the house rule: bad input is named by
 * file and position), when `e` is a {@link ResultsFileError} whose pointer is found there; else `e`.
 * A pointer to a value the text lacks (a required property left out) gets the position of the
 * nearest value that holds it. Parses the text again with json-source-map, so only on the error path.
 */
export function positioned(e: unknown, text: string): unknown {
  if (!(e instanceof ResultsFileError) || e.position || !e.path.startsWith('/')) return e;
  const at = pointerPosition(text, e.path);
  return at ? new ResultsFileError(e.where, e.path, e.problem, at) : e;
}

/**
 * The 1-based line and column where the value at JSON pointer `pointer` (RFC 6901) starts in the
 * JSON `text`, or at its nearest ancestor the text has; undefined when `text` is not JSON.
 */
export function pointerPosition(text: string, pointer: string): TextPosition | undefined {
  let pointers: ReturnType<typeof jsonSourceMap.parse>['pointers'];
  try { pointers = jsonSourceMap.parse(text).pointers; } catch { return undefined; }
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const found = Object.hasOwn(pointers, p) ? pointers[p] : undefined;
    if (found) {
      // json-source-map counts a tab as 4 columns: count characters from the line's start instead
      const before = text.slice(0, found.value.pos);
      return { line: found.value.line + 1, column: found.value.pos - before.lastIndexOf('\n') };
    }
    if (!p) return undefined;
  }
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
