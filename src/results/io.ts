// jStat sealed before any user code (a programmatic run imports this module statically)
import '../case/stats-seal.js';
import { readFileSync, writeFileSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import type { CaseResult, ResultsFile } from './types.js';
import { checkResults } from './validate.js';
import { compactVerdicts } from './verdict-groups.js';
import { ResultsFileError, type TextPosition } from './errors.js';
import {
  checkAgainstRecord,
  checkIntegrity,
  dropSidecar,
  NO_SIDECAR,
  NOT_SIGNED,
  writeSidecar,
  type IntegrityRecord,
} from './integrity.js';
import { parse as losslessParse } from 'lossless-json';
import jsoncParser from 'jsonc-parser';

/**
 * What {@link writeResults} calls, taken when this module loads: before any user code runs in the
 * host (cli/main.ts and a programmatic run import the results module statically; a config, a
 * `--schema` module and a serializer's `supports()`/`notes()` come later). A config that replaces
 * `JSON.stringify`, `globalThis.JSON`, `Object.entries`, `Array.prototype.map`, `fs.writeFileSync`
 * (and syncs fs's named exports) or anything else on the way cannot change the text written
 * (hostile3; the host guard, config/host-guard.ts, also puts such changes back and refuses the run).
 * The layout below uses only these and the language's own operators: no method looked up on a
 * prototype at write time.
 */
const pristine = {
  stringify: JSON.stringify,
  isArray: Array.isArray,
  keys: Object.keys,
  writeFileSync,
  renameSync,
  rmSync,
} as const;

/**
 * JSON text of `value` laid out `levels` deep: an object or array above that depth has one member
 * per line (indented one space per level), anything at it is written compact on its line. The same
 * JSON value as `JSON.stringify(value)`; `levels` 0 is exactly that text. Only {@link pristine}'s
 * functions are called.
 */
function layoutJson(value: unknown, levels: number, indent = ''): string {
  const { stringify, isArray, keys } = pristine;
  if (levels <= 0 || value === null || typeof value !== 'object') return stringify(value);
  const inner = indent + ' ';
  let out = '';
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out += (i ? ',\n' : '') + inner + layoutJson(v ?? null, levels - 1, inner);
    }
    return out ? '[\n' + out + '\n' + indent + ']' : '[]';
  }
  const record = value as Record<string, unknown>;
  const names = keys(record);
  for (let i = 0; i < names.length; i++) {
    const v = record[names[i]];
    if (v === undefined) continue;
    out += (out ? ',\n' : '') + inner + stringify(names[i]) + ': ' + layoutJson(v, levels - 1, inner);
  }
  return out ? '{\n' + out + '\n' + indent + '}' : '{}';
}

/**
 * Writes the results file atomically (temp file, then rename), so a reader never sees half a file;
 * on failure the temp file is removed and the error thrown as it is.
 * Laid out three levels deep ({@link layoutJson}): a line per top-level field, per case field, per
 * probe verdict group; each written compact. Fully indented JSON made indentation a third of a payload
 * run's 3.6 MB (new-user tryout, 2026-12-05); `jq .` shows it indented. Probe verdicts are stored
 * grouped by probe side (results/verdict-groups.ts), which {@link readResults} expands. The text is
 * made and written with functions taken before any user code ran ({@link pristine}).
 *
 * Returns the SHA-256 (hex) of the text written, which is also written beside it as `<path>.sha256`
 * with its HMAC under this user's key (results/integrity.ts; the old sidecar is removed first, so a
 * kill between the two leaves none, never a stale one): readers refuse a file that no longer matches
 * it, and read one whose sidecar this user's jsonbench did not sign as unchecked.
 */
export function writeResults(path: string, results: ResultsFile): string {
  const tmp = path + '.tmp-' + process.pid;
  const text = layoutJson(compactVerdicts(results), 3) + '\n';
  try {
    pristine.rmSync(tmp, { force: true });
    // exclusive: a symbolic link planted at the temp name is never followed (the rename replaces one at `path`)
    pristine.writeFileSync(tmp, text, { flag: 'wx' });
    dropSidecar(path);
    pristine.renameSync(tmp, path);
  } catch (e) {
    // a full disk leaves no half-written temp file behind (issue 25)
    pristine.rmSync(tmp, { force: true });
    throw e;
  }
  return writeSidecar(path, text);
}

/**
 * The largest results file jsonbench reads: 256 MiB (a results file of the long policy on every
 * workload is under 20 MB; V8 cannot hold a string of more than 512 MiB). `JSONBENCH_MAX_RESULTS_BYTES`
 * sets another (bytes). Issue 25: `report /dev/zero` died of std::bad_alloc at 16.8 GB.
 */
export const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

/** The cap in force: `JSONBENCH_MAX_RESULTS_BYTES` when it is a positive whole number, else {@link MAX_RESULTS_BYTES}. */
function resultsCap(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.JSONBENCH_MAX_RESULTS_BYTES);
  return Number.isSafeInteger(n) && n > 0 ? n : MAX_RESULTS_BYTES;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;

/**
 * The text of a results file (or a run's partial file) when it is a regular file within the cap;
 * a device, a pipe or a socket is refused before a byte is read (`/dev/zero` has no end).
 * @throws ResultsFileError naming the file and why
 */
export function readResultsText(path: string): string {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (e) {
    throw new ResultsFileError(path, '', `cannot read: ${(e as Error).message}`);
  }
  if (!stat.isFile())
    throw new ResultsFileError(
      path,
      '',
      `is ${stat.isDirectory() ? 'a folder' : stat.isFIFO() ? 'a pipe (FIFO)' : stat.isSocket() ? 'a socket' : 'a device (such as /dev/zero)'}, not a results file: give the results.json a run wrote (or its folder)`,
    );
  const cap = resultsCap();
  if (stat.size > cap)
    throw new ResultsFileError(
      path,
      '',
      `is ${mib(stat.size)}, beyond the ${mib(cap)} a results file may be (set JSONBENCH_MAX_RESULTS_BYTES to read a larger one)`,
    );
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ResultsFileError(path, '', `cannot read: ${(e as Error).message}`);
  }
}

/**
 * Reads and checks a results file (older layouts are upgraded, see results/upgrade.ts).
 * @throws ResultsFileError naming the file: unreadable, not a regular file (a device, a pipe), beyond
 * the cap ({@link MAX_RESULTS_BYTES}), not JSON (with the position), not a
 * jsonbench results file, of a newer schema version, or not matching the schema (with the path of
 * the first problem); ChangedResultsError (results/integrity.ts) when its sidecar (or, without one,
 * `options.recordOf`'s record) holds another SHA-256 than its text has (rewritten after the run),
 * unless `--accept-changed` was given. With `options.recordOf`, a file with no record of its hash
 * at all is read with `unchecked: 'no sidecar'`, and one whose sidecar this user's jsonbench did not
 * sign (and no ledger vouches for) with `unchecked` NOT_SIGNED (the callers say so).
 */
export function readResults(path: string, options: ReadResultsOptions = {}): ResultsFile {
  let text = readResultsText(path);
  const raw = text;
  const integrity = checkIntegrity(path, text);
  // a UTF-8 byte order mark (some Windows editors write one) is not part of the JSON
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ResultsFileError(path, '', `not valid JSON${syntaxErrorAt(text)}: ${(e as Error).message}`);
  }
  const deep = tooDeep(value);
  // no line and column: finding them walks the text's paths, quadratic in a depth like this one
  if (deep)
    throw new ResultsFileError(
      path,
      deep,
      `holds a value nested more than ${MAX_RESULTS_DEPTH} levels deep (a results file is about 10 deep): not a jsonbench results file`,
    );
  // `jsonbench report --format json` writes the reports' merged view, not a run (hx11: read as results, it was
  // "at /startedAt: Expected required property")
  if (value !== null && typeof value === 'object' && (value as { kind?: unknown }).kind === 'report')
    throw new ResultsFileError(
      path,
      '/kind',
      "is a report (`jsonbench report --format json` writes it: several runs merged, without their raw samples), not a run's results.json: give the results files it was made from",
    );
  let results: ResultsFile;
  try {
    results = checkResults(value, path);
  } catch (e) {
    throw positioned(e, text);
  }
  if (integrity !== 'sidecar' && options.recordOf) {
    // no sidecar, or one this user's jsonbench did not sign: the ledger's record of the run, else read as it is and marked (hx7 F4, hx8)
    const record = options.recordOf(results);
    if (record) checkAgainstRecord(path, raw, record);
    else results.unchecked = integrity === 'none' ? NO_SIDECAR : NOT_SIGNED;
  }
  return results;
}

/** Options of {@link readResults}. */
export interface ReadResultsOptions {
  /**
   * Another record of the hash the run wrote this file with (the ledger's `runs.results_sha256`,
   * found by the run's header: cli/ledger-source.ts), asked only when the file has no sidecar or one
   * this user's jsonbench did not sign; undefined when there is none. Given (the commands pass it), a
   * file with neither is read with `unchecked` set ({@link NO_SIDECAR}, {@link NOT_SIGNED}); not given
   * (the library, a test's fixture), such a file is read as it is, unmarked.
   */
  recordOf?: (results: ResultsFile) => IntegrityRecord | undefined;
}

/**
 * The deepest nesting a results file may have: 256 levels (jsonbench writes about 10). A deeper
 * value (hostile tester hx2's deep-1m.json: 1,000,000 arrays in `environment`) passed the schema,
 * whose extra keys are free, then overflowed the stack of `ledger import` ("Maximum call stack
 * size exceeded", no file named).
 */
export const MAX_RESULTS_DEPTH = 256;

/** The JSON pointer (two levels down) of the first value holding one deeper than {@link MAX_RESULTS_DEPTH} (walked without recursion), or undefined. */
function tooDeep(value: unknown): string | undefined {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  while (stack.length) {
    const [v, depth, at] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    // named by its ancestor two levels down (`/environment/deep`): the full pointer would be 256 levels long
    if (depth >= MAX_RESULTS_DEPTH) return at.split('/').slice(0, 3).join('/');
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push([v[i], depth + 1, `${at}/${i}`]);
    else
      for (const k of Object.keys(v))
        stack.push([
          (v as Record<string, unknown>)[k],
          depth + 1,
          `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        ]);
  }
  return undefined;
}

/**
 * `e` with the line and column of its JSON pointer in `text` (the house rule: bad input is named by
 * file and position), when `e` is a {@link ResultsFileError} whose pointer is found there; else `e`.
 * A pointer to a value the text lacks (a required property left out) gets the position of the
 * nearest value that holds it. Scans the text again, so only on the error path.
 */
export function positioned(e: unknown, text: string): unknown {
  if (!(e instanceof ResultsFileError) || e.position || !e.path.startsWith('/')) return e;
  const at = pointerPosition(text, e.path);
  return at ? new ResultsFileError(e.where, e.path, e.problem, at) : e;
}

/**
 * The 1-based line and column (UTF-16 code units) where the value at JSON pointer `pointer` (RFC
 * 6901) starts in the JSON `text`, or its nearest ancestor the text has; undefined when `text` has
 * no value there. Uses jsonc-parser's scanner (`visit`), skipping every object and array off the
 * pointer's way: an 18 MB results file in 0.6 s at load 9–11 (2026-12-02), where building a
 * position for every value (json-source-map) took 11 s.
 */
export function pointerPosition(text: string, pointer: string): TextPosition | undefined {
  const want = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let best: { depth: number; at: TextPosition } | undefined;
  // each value's path (keys, indices) as the scanner reports it: true when it lies on the pointer's way
  const onWay = (line: number, character: number, path: (string | number)[]): boolean => {
    if (path.length > want.length || path.some((k, i) => String(k) !== want[i])) return false;
    if (!best || path.length > best.depth) best = { depth: path.length, at: { line: line + 1, column: character + 1 } };
    return true;
  };
  jsoncParser.visit(
    text,
    {
      onObjectBegin: (_o, _l, line, character, path) => onWay(line, character, path()),
      onArrayBegin: (_o, _l, line, character, path) => onWay(line, character, path()),
      onLiteralValue: (_v, _o, _l, line, character, path) => {
        onWay(line, character, path());
      },
      // jsonc-parser 3.3.1 ends a skipped object or array only when these are given
      onObjectEnd: () => undefined,
      onArrayEnd: () => undefined,
    },
    { disallowComments: true },
  );
  return best?.at;
}

/**
 * Where `text` stops being JSON, as ` at line L, column C` (1-based; columns count UTF-16 code
 * units), or '' when that cannot be told. V8's JSON.parse (Node 20) names no position for most
 * errors, so the text is parsed again with lossless-json, whose errors end `at position N` (0-based).
 */
export function syntaxErrorAt(text: string): string {
  let at: number;
  try {
    losslessParse(text);
    return '';
  } catch (e) {
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
  for (const line of readResultsText(path).split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as CaseResult);
    } catch {
      /* torn line from a killed run */
    }
  }
  return out;
}
