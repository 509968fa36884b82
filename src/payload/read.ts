import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse as parseLossless } from 'lossless-json';
import type { Sample } from './refine.js';
import type { Shape } from '../case/coordinates.js';
import { ndjsonLines } from '../workloads/unit.js';
import { duplicateKeyWarnings } from './duplicate-keys.js';
import { lineColumn } from './position.js';
import { DEFAULT_MAX_PAYLOAD_BYTES, readPayloadText } from './bytes.js';
import { PayloadError } from './errors.js';

/**
 * Reading a user's payload exactly as given (issue 10, "the user's bytes"): the text of each
 * unit is kept byte for byte (indentation, key order, escapes, number spelling), so deserialize
 * cases parse the file's own text, and the parsed values are what serialize cases are given.
 *
 * - a `.json` file is one document (shape `single`);
 * - a `.ndjson` / `.jsonl` file (or a `.json` file whose lines are each a JSON value) holds one
 *   record per line (shapes `list` and `many`); blank lines are skipped;
 * - a folder holds several samples of one endpoint, its `.json` files in name order: one payload
 *   of records (shape `many`: one op handles every sample once, in name order), one schema
 *   inferred from all of them. Its payload file is NDJSON, one sample per line, each sample's text
 *   with the whitespace outside its strings removed ({@link minifyJsonText}; every other byte
 *   kept: escapes, number spelling, key order): the one format every target's worker reads for
 *   several values, and the text a service writes (compact), whatever tool saved the samples indented.
 */

export type PayloadKind = 'document' | 'ndjson' | 'samples';

/** One unit of a payload: its exact text and its parsed value. */
export interface PayloadUnit {
  text: string;
  value: unknown;
  /** `file` or `file:line` */
  source: string;
}

export interface PayloadSource {
  kind: PayloadKind;
  /** the path given */
  path: string;
  /** documents (document, samples) or records (ndjson), in order */
  units: PayloadUnit[];
  /** shapes the payload can be measured in: `single` for documents, `list` and `many` for records */
  shapes: Shape[];
  /**
   * The payload file: an NDJSON file's whole text, byte for byte (blank lines and line ends
   * included); a folder's samples as NDJSON, one minified sample per line ({@link samplesNdjson})
   */
  text?: string;
  /** what a person should know before the run: duplicate keys (duplicate-keys.ts), `file:line:column: …` */
  warnings?: string[];
}

export { PayloadError } from './errors.js';

/**
 * Parses one JSON text, naming `source` and the line:column of the problem on failure.
 * @throws PayloadError
 */
export function parseJsonText(text: string, source: string, lineOffset = 0): unknown {
  if (text.charCodeAt(0) === 0xfeff)
    throw new PayloadError(
      `${source}: starts with a byte order mark (U+FEFF), which JSON text must not (RFC 8259 §8.1); remove it`,
    );
  try {
    return JSON.parse(text);
  } catch {
    // V8's messages do not always carry a position; lossless-json's parser names one for every error
    let message = 'not valid JSON';
    try {
      parseLossless(text);
    } catch (e) {
      message = (e as Error).message;
    }
    const at = /at position (\d+)/.exec(message);
    const where = at ? lineColumn(text, Number(at[1])) : null;
    const loc = where ? `:${where.line + lineOffset}:${where.column}` : lineOffset ? `:${lineOffset + 1}` : '';
    throw new PayloadError(`${source}${loc}: not valid JSON: ${message.replace(/ at position \d+$/, '')}`);
  }
}

/** Says a line about a long step (reading a large payload), at most every {@link PROGRESS_EVERY_MS}. */
export type PayloadProgress = (line: string) => void;

/** How often a long step of reading a payload says how far it is (ms). */
export const PROGRESS_EVERY_MS = 3_000;

/**
 * A throttle for `say`: the returned function calls it with `line()` when {@link PROGRESS_EVERY_MS}
 * passed since the last line (or since it was made); `line` is only evaluated then.
 */
export function progressTicker(say: PayloadProgress | undefined): (line: () => string) => void {
  if (!say) return () => {};
  let last = performance.now();
  return (line) => {
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    say(line());
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * A line of an NDJSON file that did not parse, with what the file is when it is not NDJSON (issue
 * 25: pretty-printed records gave `1:2: not valid JSON…` without a word about lines): one JSON
 * document across lines (pass it as a .json file), or records written across lines (one per line:
 * `jq -c`). `e` as it is otherwise.
 */
function ndjsonHint(e: unknown, text: string, line: string): unknown {
  if (!(e instanceof PayloadError)) return e;
  let document = false;
  try {
    JSON.parse(text);
    document = true;
  } catch {
    /* not one document */
  }
  const cut = /end of (input|JSON input|data)/i.test(e.message) || /^\s*[[{]\s*$/.test(line);
  if (document)
    return new PayloadError(
      `${e.message}; NDJSON needs one record per line, and this file is one JSON document written across lines: pass it as a .json file (rename it, or copy it to a .json name)`,
    );
  if (cut)
    return new PayloadError(
      `${e.message}; NDJSON needs one record per line, and this line is not a whole JSON value (records written across lines, pretty-printed?): put each record on one line (jq -c . FILE > FILE.ndjson), or pass a single document as a .json file`,
    );
  return e;
}

/** The records of an NDJSON text, each line's exact text kept. @throws PayloadError naming file:line:column */
export function readNdjson(text: string, file: string, onProgress?: PayloadProgress): PayloadUnit[] {
  // the same lines a worker reads from the payload file (workloads/unit.ts)
  const lines = ndjsonLines(text);
  const tick = progressTicker(onProgress);
  const units = lines.map(({ text: line, line: n }, i) => {
    tick(() => `${file}: parsed ${count(i)} of ${count(lines.length)} records…`);
    try {
      return { text: line, value: parseJsonText(line, file, n - 1), source: `${file}:${n}` };
    } catch (e) {
      throw ndjsonHint(e, text, line);
    }
  });
  if (units.length === 0) throw new PayloadError(`${file}: no records (every line is blank)`);
  return units;
}

function looksLikeNdjson(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    lines.forEach((l) => JSON.parse(l));
    return true;
  } catch {
    return false;
  }
}

/** Options of {@link readPayload}. */
export interface ReadPayloadOptions {
  /** the largest payload read, bytes: a file's, or a folder's files together (default {@link DEFAULT_MAX_PAYLOAD_BYTES}, 500 MiB) */
  maxBytes?: number;
  /** a line every few seconds while a large payload is parsed and checked */
  onProgress?: PayloadProgress;
}

/**
 * Reads a payload file or folder (see the module comment). Only regular files are read, up to
 * `maxBytes` (payload/bytes.ts): a device (`/dev/zero`) or a pipe is refused at once.
 * @throws PayloadError when the path is missing, empty, not a regular file, beyond the cap, or
 * holds invalid JSON (file:line:column)
 */
export function readPayload(path: string, options: ReadPayloadOptions = {}): PayloadSource {
  const source = readPayloadUnits(path, options);
  const header = source.kind === 'ndjson' ? headerRowWarning(source.units) : null;
  const tick = progressTicker(options.onProgress);
  const warnings = [
    ...(source.warnings ?? []),
    ...(header ? [header] : []),
    ...source.units.flatMap((u, i) => {
      tick(() => `${path}: checked ${count(i)} of ${count(source.units.length)} units for duplicate keys…`);
      return duplicateKeyWarnings(u.text, u.source);
    }),
  ];
  return warnings.length ? { ...source, warnings } : source;
}

/**
 * What an entry of a samples folder is when it is not a regular file (`is a pipe (FIFO)`, `is a
 * folder`…), or undefined for a regular file (or one that cannot be stat'ed: reading it says why).
 * Never opens it: opening a FIFO waits for a writer.
 */
function notASample(file: string): string | undefined {
  let st;
  try {
    st = statSync(file);
  } catch {
    return undefined;
  }
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'is a folder';
  if (st.isFIFO()) return 'is a pipe (FIFO)';
  if (st.isSocket()) return 'is a socket';
  return 'is a device';
}

function readPayloadUnits(
  path: string,
  { maxBytes = DEFAULT_MAX_PAYLOAD_BYTES, onProgress }: ReadPayloadOptions,
): PayloadSource {
  let stat;
  try {
    stat = statSync(path);
  } catch (e) {
    // hx5: a symbolic link loop was called "no such file or folder"
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new PayloadError(`${path}: a loop of symbolic links (each points on to the next, none to a file)`);
    if (code === 'EACCES') throw new PayloadError(`${path}: permission denied`);
    throw new PayloadError(`${path}: no such file or folder`);
  }
  if (stat.isDirectory()) {
    const names = readdirSync(path)
      .filter((f) => f.endsWith('.json'))
      .sort();
    // only its regular files are samples: a FIFO, a socket, a device or a folder named *.json is skipped and named (hx8)
    const skipped = names.flatMap((f) => {
      const kind = notASample(join(path, f));
      return kind ? [`${join(path, f)}: ${kind}, not a sample file: skipped`] : [];
    });
    const files = names.filter((f) => !notASample(join(path, f)));
    if (files.length === 0)
      throw new PayloadError(
        `${path}: the folder has no .json files${skipped.length ? ` that are regular files (${skipped.length} skipped: ${skipped[0]})` : ''}`,
      );
    let left = maxBytes;
    const units = files.map((f) => {
      const file = join(path, f);
      // the folder's files together within the cap: each is read with what the ones before it left
      const text = readPayloadText(file, left);
      left -= Buffer.byteLength(text);
      return { text, value: parseJsonText(text, file), source: file };
    });
    return {
      kind: 'samples',
      path,
      units,
      shapes: ['many', 'list'],
      text: samplesNdjson(units),
      ...(skipped.length ? { warnings: skipped } : {}),
    };
  }
  const text = readPayloadText(path, maxBytes);
  if (text.trim() === '')
    throw new PayloadError(
      text === ''
        ? `${path}: the file is empty`
        : `${path}: the file holds only whitespace (${Buffer.byteLength(text)} bytes), no JSON value`,
    );
  const ext = extname(path).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl' || (ext !== '.json' && looksLikeNdjson(text))) {
    return { kind: 'ndjson', path, units: readNdjson(text, path, onProgress), shapes: ['list', 'many'], text };
  }
  try {
    return {
      kind: 'document',
      path,
      units: [{ text, value: parseJsonText(text, path), source: basename(path) }],
      shapes: ['single'],
    };
  } catch (e) {
    if (looksLikeNdjson(text))
      return { kind: 'ndjson', path, units: readNdjson(text, path), shapes: ['list', 'many'], text };
    throw e;
  }
}

/**
 * A warning when the first record of an NDJSON file of arrays looks like a header row (a CSV
 * turned into NDJSON: `["id","name","price"]` then `[1,"pen",2.5]`…): every cell of it is a
 * string, and some column of the other rows is not, so inference types that column
 * `string | number` and every serializer is measured on a record the service may never send.
 * Null when the file's records are not arrays, or the first row is like the others.
 */
export function headerRowWarning(units: readonly PayloadUnit[]): string | null {
  if (units.length < 2 || !units.every((u) => Array.isArray(u.value))) return null;
  const [head, ...rows] = units.map((u) => u.value as unknown[]);
  if (!head.length || !head.every((c) => typeof c === 'string')) return null;
  const columns = head
    .map((name, i) => ({ name: name as string, i }))
    .filter(({ i }) => rows.some((r) => r[i] !== undefined && r[i] !== null && typeof r[i] !== 'string'));
  if (!columns.length) return null;
  const shown = JSON.stringify(head).slice(0, 60);
  return `${units[0].source}: the first line looks like a header row (${shown}${shown.length === 60 ? '…' : ''}): its cells are all strings, while the other rows hold ${columns.length === 1 ? 'a column' : `${columns.length} columns`} of other values (${columns
    .slice(0, 3)
    .map((c) => JSON.stringify(c.name))
    .join(
      ', ',
    )}); it is measured as a record like the others, so ${columns.length === 1 ? 'that column is' : 'those columns are'} typed string | number. If your service never sends it, remove it (tail -n +2 FILE)`;
}

/**
 * A JSON text without the whitespace outside its strings (space, tab, line feed, carriage return:
 * RFC 8259's insignificant whitespace); every other character is kept as written, so escapes,
 * number spelling (`129.0`, an integer beyond 2^53) and duplicate keys survive. The text must be
 * valid JSON (it is not checked here).
 */
export function minifyJsonText(text: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/** A folder's samples as one NDJSON text: each sample minified ({@link minifyJsonText}) on its own line, in name order. */
function samplesNdjson(units: readonly PayloadUnit[]): string {
  return units.map((u) => minifyJsonText(u.text)).join('\n') + '\n';
}

/** The samples inference reads from a payload: every unit, with its text. */
export function samplesOf(source: PayloadSource): Sample[] {
  return source.units.map((u) => ({ value: u.value, text: u.text, source: u.source }));
}

/**
 * The exact texts one op parses for a shape: `single` → each document as given; `many` → each
 * record's line as given (a folder's sample minified: {@link minifyJsonText}); `list` → one JSON
 * array made of those texts joined by commas (NDJSON has no array; its records' bytes are kept inside it).
 */
export function unitTexts(source: PayloadSource, shape: Shape): string[] {
  const texts = source.units.map((u) => (source.kind === 'samples' ? minifyJsonText(u.text) : u.text));
  if (shape === 'list') return [`[${texts.join(',')}]`];
  return texts;
}
