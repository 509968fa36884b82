/**
 * Rebuilding what a killed run measured (issue 9, "nothing finished is lost"). Launches are
 * interleaved across a group's serializers, so a case finishes only when its whole group ends; a
 * host killed with SIGKILL mid-group used to lose every launch that group had measured. While a run
 * goes on, its folder holds:
 *
 * - `run.partial.json` — the results file's header (environment, policy, targets) with no cases,
 *   the planned groups and the payload files, written before the first launch;
 * - `results.partial.jsonl` — every finished case, one JSON line each, as it finishes;
 * - `launches.partial.jsonl` — every finished launch's raw record `{ caseId, record }`, as it ends.
 *
 * {@link recoverRun} turns these back into a results file: finished cases as they were written;
 * cases with launches but no end are assembled from those launches by the same code a finished group
 * uses (run/assemble.ts), marked with an `interrupted` finding (no allocation pass, fewer launches
 * than the policy asks); cases never measured are `not-run` with the reason. The session removes the
 * files once results.json is written. The partial files are signed line by line (run/partial-mac.ts,
 * `run.partial.mac`): a rebuild they match is checked; one they do not match, or a folder without the
 * record (results/integrity.ts REBUILT_UNCHECKED), is marked `unchecked`, which the reports say in their
 * header and `report`/`compare` on stderr.
 */
import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  statSync,
  statfsSync,
} from 'node:fs';
import { writeFileNamed } from '../files/write-file.js';
import { makeFolder } from '../files/make-folder.js';
import { liveOwner } from '../files/run-lock.js';
import { basename, join, resolve, sep } from 'node:path';
import type { CaseGroup } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import { Value } from '@sinclair/typebox/value';
import { LaunchRecordSchema, type CaseResult, type LaunchRecord, type ResultsFile } from '../results/types.js';
import { checkResults } from '../results/validate.js';
import { ResultsFileError, type TextPosition } from '../results/errors.js';
import { pointerPosition, readResultsText, syntaxErrorAt } from '../results/io.js';
import { REBUILT_UNCHECKED } from '../results/integrity.js';
import { medianOf } from '../stats/median.js';
import { assembleGroup, groupLaunchSpread, runPriorsInOrder, type CaseRecord } from './assemble.js';
import { deepFreeze } from '../case/frozen.js';
import { PARTIAL_MAC, partialFilesProblem } from './partial-mac.js';

/** The reason of a case the killed run never measured (status `not-run`, never `failed`: nothing went wrong with it). */
export const NOT_RUN_REASON = 'not measured: the run was killed before this case';
/** A case whose launch had started (a `launching` line in launches.partial.jsonl) but none finished (hx5 U4). */
export const KILLED_WHILE_REASON = 'not measured: the run was killed while measuring this case';
/** {@link NOT_RUN_REASON} of a run whose partial files end mid-record (`how`: what the files show, e.g. a full disk; hx10 FD-40k-report). */
const stoppedBeforeReason = (how: string) => `not measured: the run stopped before this case (${how})`;
/** {@link KILLED_WHILE_REASON} of a run whose partial files end mid-record (see {@link stoppedBeforeReason}). */
const stoppedWhileReason = (how: string) => `not measured: the run stopped while measuring this case (${how})`;
/** {@link NOT_RUN_REASON} of a run still going (its lock's pid alive: `live`, e.g. `pid 123, since …`). */
const goingBeforeReason = (live: string) => `not measured yet: the run is still going (${live})`;
/** {@link KILLED_WHILE_REASON} of a run still going. */
const goingWhileReason = (live: string) => `not measured yet: the run is still going (${live}) and measuring this case`;

/** File names of a run in progress, inside its output folder. */
export const RUN_PARTIAL = deepFreeze({
  header: 'run.partial.json',
  cases: 'results.partial.jsonl',
  launches: 'launches.partial.jsonl',
  /** the integrity record of the three (run/partial-mac.ts) */
  mac: PARTIAL_MAC,
} as const);

/** What `run.partial.json` holds: the header of the results file to be, and the plan it runs. */
export interface RunSnapshot {
  results: ResultsFile;
  groups: CaseGroup[];
  payloads: PayloadFile[];
}

/**
 * Where a parsed `run.partial.json` departs from the shape the rebuild reads (the hostile tester's
 * null groups, cases and payloads and a null policy crashed it as an internal error): the JSON
 * pointer and what is wrong, or null. Checks only what the rebuild dereferences; the rebuilt file
 * is then checked against the results schema as a whole.
 */
export function snapshotProblem(s: RunSnapshot): { pointer: string; message: string } | null {
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!s?.results || !Array.isArray(s.groups) || !Array.isArray(s.payloads))
    return { pointer: '', message: 'expected results, groups and payloads' };
  const policy = (s.results as { policy?: unknown }).policy;
  if (!isObject(policy) || !isObject(policy.measure))
    return { pointer: '/results/policy', message: "expected the run's policy with its measure settings" };
  const planned = new Map<string, string>();
  for (const [i, g] of s.groups.entries()) {
    if (!Array.isArray(g)) return { pointer: `/groups/${i}`, message: 'expected a group: an array of planned cases' };
    for (const [j, c] of (g as unknown[]).entries()) {
      // a case planned twice (a duplicated group) is this file's fault, not the finished cases' file's
      const id = isObject(c) && typeof c.id === 'string' ? c.id : undefined;
      const twin = id !== undefined ? planned.get(id) : undefined;
      if (twin)
        return {
          pointer: `/groups/${i}/${j}/id`,
          message: `case ${JSON.stringify(id)} is planned twice (also at ${twin}): every planned case has its own id`,
        };
      if (id !== undefined) planned.set(id, `/groups/${i}/${j}`);
      if (
        !isObject(c) ||
        typeof c.id !== 'string' ||
        typeof c.serializer !== 'string' ||
        typeof c.payloadKey !== 'string' ||
        typeof c.status !== 'string'
      )
        return {
          pointer: `/groups/${i}/${j}`,
          message: 'expected a planned case (id, serializer, payloadKey and status as strings)',
        };
    }
  }
  for (const [i, p] of s.payloads.entries())
    if (!isObject(p) || typeof p.key !== 'string')
      return { pointer: `/payloads/${i}`, message: 'expected a payload with its key' };
  return null;
}

/** Writes `run.partial.json` (before the first launch); returns its path and the text written (what run/partial-mac.ts signs). */
export function writeRunSnapshot(outDir: string, snapshot: RunSnapshot): { path: string; text: string } {
  const path = join(outDir, RUN_PARTIAL.header);
  const text = JSON.stringify(snapshot);
  writeFileNamed(path, text);
  return { path, text };
}

/** True when `dir` holds a run that did not finish (its snapshot is there). */
export function isUnfinishedRun(dir: string): boolean {
  return existsSync(join(dir, RUN_PARTIAL.header));
}

/**
 * Whether `dir` holds what `jsonbench report <dir>` rebuilds a run from: a header that is whole JSON
 * and at least one kept case line. False for a header a full disk cut short (hx3, issue 25: the
 * advice to rebuild then failed with "not valid JSON at line 1, column 1") or no case kept yet.
 */
export function hasMeasuredCases(dir: string): boolean {
  try {
    JSON.parse(readFileSync(join(dir, RUN_PARTIAL.header), 'utf8'));
    return readFileSync(join(dir, RUN_PARTIAL.cases), 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

/** Moves `files` of `dir` into a new `dir/<prefix>-<time>/` and returns that folder. */
function moveAside(dir: string, prefix: string, files: readonly string[]): string {
  const to = join(dir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  makeFolder(to);
  for (const f of files) renameSync(join(dir, f), join(to, f));
  return to;
}

/**
 * Moves a killed run's files out of `dir` (its header, kept cases and launch log: what `jsonbench
 * report` rebuilds it from; and its payloads/ when no results.json stands beside them) into `dir/killed-<time>/`, so a new run into the same folder does not
 * overwrite them. Returns that folder, or undefined when `dir` held no killed run.
 */
export function keepKilledRun(dir: string): string | undefined {
  if (!isUnfinishedRun(dir)) return undefined;
  // the payloads it measured go with it (hx38: a killed run's payloads/ went to previous-<time>/, the rest to killed-<time>/)
  const payloads = (() => {
    try {
      return !existsSync(join(dir, 'results.json')) && lstatSync(join(dir, 'payloads')).isDirectory();
    } catch {
      return false;
    }
  })();
  return moveAside(dir, 'killed', [
    ...Object.values(RUN_PARTIAL).filter((f) => existsSync(join(dir, f))),
    ...(payloads ? ['payloads'] : []),
  ]);
}

/**
 * Moves partial files left without their run's header (`results.partial.jsonl`,
 * `launches.partial.jsonl`: a header removed by hand, or a user's own files of those names) out of
 * `dir` into `dir/partial-<time>/` instead of truncating them (hostile tester hx4, issue 25, "data
 * lost": a 58,902-byte launch log of a killed run was emptied without a word). Call after
 * {@link keepKilledRun}, which moves them with their header. Returns that folder and the files
 * moved, or undefined when there were none (or only empty ones).
 */
export function keepStrayPartials(dir: string): { to: string; files: string[] } | undefined {
  const files = [RUN_PARTIAL.cases, RUN_PARTIAL.launches].filter((f) => {
    try {
      return statSync(join(dir, f)).size > 0;
    } catch {
      return false;
    }
  });
  if (!files.length) return undefined;
  return { to: moveAside(dir, 'partial', files), files };
}

/**
 * The files of a finished run in a folder: results.json, its sidecar and the reports rendered from it
 * (`report.md`, `report.html`, `report.csv`, …: every `report.*` file), and its `payloads/` folder;
 * each one that is there, a results.json or not (a user's own files of those names are moved too).
 */
function finishedRunFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  // every name a run writes, whether or not a results.json stands beside it (hx31 e01/e01b/e01c: a user's own
  // report.html, report.md and payloads/ file in --out, with no results.json, were overwritten without a word)
  const file = (f: string) => statSync(join(dir, f)).isFile();
  return [
    ...(names.includes('results.json') ? ['results.json'] : []),
    // its signed sidecar (hx20 a19: left behind and replaced by the next run's, the moved run read "unchecked")
    ...(names.includes('results.json.sha256') ? ['results.json.sha256'] : []),
    ...names.filter((f) => /^report\./.test(f) && file(f)).sort(),
    // the payloads it measured (hx29 O-payclob: left behind, a second run's payload of the same name replaced the
    // bytes the moved results.json records by hash; O-clobber: a user's own payloads/ file overwritten)
    ...(names.includes('payloads') && lstatSync(join(dir, 'payloads')).isDirectory() ? ['payloads'] : []),
  ];
}

/**
 * Which of `inputs` (flag → path: the files a run reads) {@link keepFinishedRun} would move out of
 * `dir`: one of its files, or inside its payloads/ (hx30 out-userfiles: `--payload dir/results.json
 * --out dir` moved the user's payload aside, gone from its path). Paths compared after resolving links.
 * @returns the first such input's flag and path, or undefined
 */
export function inputMovedAside(
  dir: string,
  inputs: Readonly<Record<string, string | undefined>>,
): { flag: string; path: string; file: string } | undefined {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const moved = finishedRunFiles(dir).map((f) => ({ file: f, at: real(join(dir, f)) }));
  for (const [flag, path] of Object.entries(inputs)) {
    if (path === undefined) continue;
    const at = real(path);
    const hit = moved.find((m) => at === m.at || at.startsWith(m.at + sep));
    if (hit) return { flag, path, file: hit.file };
  }
  return undefined;
}

/**
 * Moves a finished run's files out of `dir` (its results.json and reports) into
 * `dir/previous-<time>/`, so a new run or merge into the same folder never overwrites measured
 * results (issue 25, "data lost": `run --out` onto a finished run's folder replaced its 26 cases
 * with 1; with --no-ledger, as the Action runs, they were gone). Returns that folder, or undefined
 * when `dir` held none of those files. `jsonbench report <that folder>` renders a run's again.
 */
export function keepFinishedRun(dir: string): string | undefined {
  const files = finishedRunFiles(dir);
  if (!files.length) return undefined;
  return moveAside(dir, 'previous', files);
}

/**
 * The sentence saying what {@link keepFinishedRun} moved from `dir` to `previous`: a jsonbench run's
 * results (its results.json has `tool: "jsonbench"`), renderable again; else the files named, as
 * what they are (hx3, issue 25: `--out .` over a user's own results.json and report.md called them "a
 * finished run's results").
 */
export function keptRunSentence(dir: string, previous: string): string {
  const files = readdirSync(previous).sort();
  let tool: unknown;
  try {
    tool = (JSON.parse(readFileSync(join(previous, 'results.json'), 'utf8')) as { tool?: unknown } | null)?.tool;
  } catch {
    tool = undefined;
  }
  return tool === 'jsonbench'
    ? `${dir} held a finished run's results (${files.join(', ')}): moved to ${previous} (\`jsonbench report ${previous}\` renders it)`
    : `${dir} held ${files.join(', ')}, named as jsonbench's outputs but not a jsonbench run's results: moved to ${previous}, nothing overwritten`;
}

/** What {@link recoverRun} found: the rebuilt results and counts for the note printed beside them. */
export interface Recovered {
  results: ResultsFile;
  /** cases written as finished before the kill */
  finished: number;
  /** cases rebuilt from their launches */
  rebuilt: number;
  /** cases never measured (`not-run`, with the reason) */
  lost: number;
  /**
   * When a partial file ends mid-record (its last line dropped): what the files show of how the run
   * stopped (`how`, e.g. "launches.partial.jsonl ends mid-record; the disk holding the folder is
   * full") and one line per dropped line, for stderr. Undefined after a kill between two records.
   */
  stopped?: { how: string; notes: string[] };
  /** the run is still going (its lock's pid alive on this host): `pid N, since …` */
  live?: string;
}

/** A line of a JSONL file that parsed: its value, its 1-based line number and its text. */
interface JsonLine {
  value: unknown;
  line: number;
  text: string;
}

/** The last line of a JSONL file that does not parse, dropped: its 1-based number and its length in bytes. */
interface CutLine {
  file: string;
  line: number;
  bytes: number;
}

/**
 * Lines of a JSONL file that parse, in order, and its last line when that one does not (cut short
 * by a kill or a full disk mid-record: dropped, and returned as `cut` so the rebuild says so; hx10
 * FD-40k-report: a launches.partial.jsonl cut at 8,192 bytes mid-line was rebuilt without a word).
 * A bad line before the last is an error.
 * @throws ResultsFileError naming the file and the line
 */
function readJsonLines(path: string): { lines: JsonLine[]; cut?: CutLine } {
  if (!existsSync(path)) return { lines: [] };
  if (!statSync(path).isFile())
    throw new ResultsFileError(
      path,
      '',
      'is not a file (a folder?): it should hold one JSON line per finished case or launch; move it away to rebuild the rest',
    );
  // a byte order mark (an editor's) is not part of the first line: without this its line failed to parse and, when it was the only one, was dropped as cut short
  const lines = readResultsText(path)
    .replace(/^\uFEFF/, '')
    .split('\n');
  const out: JsonLine[] = [];
  for (const [i, text] of lines.entries()) {
    if (!text.trim()) continue;
    try {
      out.push({ value: JSON.parse(text), line: i + 1, text });
    } catch (e) {
      if (lines.slice(i + 1).every((l) => !l.trim()))
        return { lines: out, cut: { file: basename(path), line: i + 1, bytes: Buffer.byteLength(text) } };
      throw new ResultsFileError(path, '', `not JSON (${(e as Error).message})`, { line: i + 1, column: 1 });
    }
  }
  return { lines: out };
}

/** Below this many bytes free, the disk holding a run's folder is said to be full. */
const FULL_DISK_BYTES = 64 * 1024;

/** Whether the file system holding `dir` has less than {@link FULL_DISK_BYTES} free for this user now (false when it cannot be told). */
function diskFullNow(dir: string): boolean {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize < FULL_DISK_BYTES;
  } catch {
    return false;
  }
}

/**
 * How a run whose partial files end mid-record stopped, as far as the files tell: `cut`, the lines
 * dropped; `how`, words for the reasons ("the run stopped … (launches.partial.jsonl ends mid-record;
 * the disk holding it is full)"); when every file ends with a whole record, the full disk alone where the
 * folder's disk is full now, else undefined (a kill between two records: the reasons keep saying "killed").
 */
function stopOf(dir: string, cuts: readonly (CutLine | undefined)[]): { cut: CutLine[]; how: string } | undefined {
  const cut = cuts.filter((c): c is CutLine => c !== undefined);
  // every record whole, on a disk that is full now: the run most likely stopped on it, not killed (hx22 FD1: a run
  // on a full 64 KiB disk stopped itself saying so, and its report read "the run was killed before this case")
  if (!cut.length) return diskFullNow(dir) ? { cut, how: 'the disk holding the folder is full' } : undefined;
  const files = cut.map((c) => c.file).join(' and ');
  return {
    cut,
    how: `${files} ${cut.length === 1 ? 'ends' : 'end'} mid-record${diskFullNow(dir) ? '; the disk holding the folder is full' : ': a full disk, or a kill while writing'}`,
  };
}

/** Where JSON pointer `pointer` stands in file line `at` (its text, one JSON value), as a position in the file. */
function lineAt(at: JsonLine, pointer: string): TextPosition {
  return { line: at.line, column: pointerPosition(at.text, pointer)?.column ?? 1 };
}

/**
 * Why a launch record cannot be rebuilt from, with the JSON pointer of the value in it, or undefined:
 * it does not match the schema (a round without baselineNs crashed `report`; a sample above
 * MAX_RAW_FIGURE would make a computed time NaN), or a round's baseline samples have median 0, which
 * would make that round's ratio infinite (a worker's sample lasts the policy's sampleTargetMs, so no
 * measured median is 0).
 */
function launchRecordProblem(record: unknown): { pointer: string; message: string } | undefined {
  if (!Value.Check(LaunchRecordSchema, record)) {
    const first = [...Value.Errors(LaunchRecordSchema, record)][0];
    return {
      pointer: first?.path ?? '',
      message: `${first?.message ?? 'does not match the schema'}${first && typeof first.value === 'number' ? ` (found ${first.value})` : ''}`,
    };
  }
  for (const [i, r] of record.rounds.entries()) {
    if (r.serializerNs.length && r.baselineNs.length && !(medianOf(r.baselineNs) > 0)) {
      return {
        pointer: `/rounds/${i}/baselineNs`,
        message:
          "the baseline's samples in this round have median 0 ns/op: no ratio can be drawn against them (a measured sample lasts the policy's sampleTargetMs, so it is never 0)",
      };
    }
  }
  return undefined;
}

/** A group's planned cases as the runner's records, with the launches a killed run finished (not-run where none). */
function recordsOf(
  group: RunSnapshot['groups'][number],
  launches: ReadonlyMap<string, LaunchRecord[]>,
  payloads: ReadonlyMap<string, RunSnapshot['payloads'][number]>,
  started: ReadonlySet<string> = new Set(),
  how?: string,
  live?: string,
): CaseRecord[] {
  return group.map((planned): CaseRecord => {
    const mine = launches.get(planned.id) ?? [];
    const payload = payloads.get(planned.payloadKey) ?? { key: planned.payloadKey, path: '', bytes: 0, sha256: '' };
    const base = {
      planned,
      payload,
      launches: mine,
      relaunches: mine.filter((l) => l.discarded).length,
      paired: Boolean(planned.baseline && planned.baseline !== planned.serializer),
    };
    if (planned.status !== 'planned') return { ...base, end: { status: planned.status, reason: planned.reason } };
    if (!mine.some((l) => !l.discarded && l.rounds.length))
      return {
        ...base,
        end: {
          status: 'not-run',
          reason: started.has(planned.id)
            ? live
              ? goingWhileReason(live)
              : how
                ? stoppedWhileReason(how)
                : KILLED_WHILE_REASON
            : live
              ? goingBeforeReason(live)
              : how
                ? stoppedBeforeReason(how)
                : NOT_RUN_REASON,
        },
      };
    return { ...base, end: { status: 'measured' } };
  });
}

/**
 * The launch records of launches.partial.jsonl by case id, with their lines, the cases a launch had
 * started for (runner.ts writes `{ caseId, launching }` as each launch begins) and the last line
 * when it was cut mid-record (dropped).
 * @throws ResultsFileError naming the line and field of a record that is not a launch record
 */
function readLaunches(launchesPath: string): {
  launches: Map<string, LaunchRecord[]>;
  launchLines: Map<string, JsonLine[]>;
  started: Set<string>;
  cut?: CutLine;
} {
  const launches = new Map<string, LaunchRecord[]>();
  const launchLines = new Map<string, JsonLine[]>();
  const started = new Set<string>();
  const launchRead = readJsonLines(launchesPath);
  for (const at of launchRead.lines) {
    const { caseId, record, launching } = (at.value ?? {}) as {
      caseId?: unknown;
      record?: unknown;
      launching?: unknown;
    };
    if (typeof caseId === 'string' && typeof launching === 'number') started.add(caseId);
    if (typeof caseId !== 'string' || !record) continue;
    // a hand-edited or damaged record must not reach the statistics: name its line and field, not the figure it would spoil
    const bad = launchRecordProblem(record);
    if (bad)
      throw new ResultsFileError(
        launchesPath,
        `/record${bad.pointer}`,
        `not a launch record of case ${JSON.stringify(caseId)}: ${bad.message}`,
        lineAt(at, `/record${bad.pointer}`),
      );
    launches.set(caseId, [...(launches.get(caseId) ?? []), record as LaunchRecord]);
    launchLines.set(caseId, [...(launchLines.get(caseId) ?? []), at]);
  }
  return { launches, launchLines, started, ...(launchRead.cut ? { cut: launchRead.cut } : {}) };
}

/**
 * Rebuilds the results of the unfinished run in `dir` (see the module comment).
 * @throws ResultsFileError when the snapshot is missing or unreadable, or the rebuilt file does not match the results schema
 */
export function recoverRun(dir: string): Recovered {
  const headerPath = join(dir, RUN_PARTIAL.header);
  let snapshot: RunSnapshot;
  let text = '';
  try {
    text = readResultsText(headerPath);
    snapshot = JSON.parse(text) as RunSnapshot;
  } catch (e) {
    if (e instanceof ResultsFileError) throw e;
    // a snapshot cut short (the run was killed while writing it) is named with the place it stops
    throw new ResultsFileError(
      headerPath,
      '',
      `cannot rebuild the run: ${e instanceof SyntaxError ? `not valid JSON${syntaxErrorAt(text)}: ` : ''}${(e as Error).message}`,
    );
  }
  const shape = snapshotProblem(snapshot);
  if (shape) throw new ResultsFileError(headerPath, shape.pointer, `not a jsonbench run snapshot: ${shape.message}`);
  const casesPath = join(dir, RUN_PARTIAL.cases);
  const doneLines = new Map<string, JsonLine>();
  const doneRead = readJsonLines(casesPath);
  for (const l of doneRead.lines) {
    const id = (l.value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') doneLines.set(id, l);
  }
  const launchesPath = join(dir, RUN_PARTIAL.launches);
  const { launches, launchLines, started, cut } = readLaunches(launchesPath);
  const stop = stopOf(dir, [doneRead.cut, cut]);
  const payloads = new Map(snapshot.payloads.map((p) => [p.key, p]));
  const policy = snapshot.results.policy;
  // the integrity record of the partial files: true, they are this user's jsonbench's as written; false, there is
  // none (written before it, or with no key); else `mismatch` says what differs
  const problem = existsSync(join(dir, RUN_PARTIAL.mac))
    ? partialFilesProblem(dir, text, [RUN_PARTIAL.cases, RUN_PARTIAL.launches])
    : 'none';
  const vouched = problem === null ? true : problem === 'none' ? false : undefined;
  const mismatch = `rebuilt from an unfinished run's partial files that do not match their integrity record: ${problem}`;
  const cases: CaseResult[] = [];
  let rebuilt = 0;
  let lost = 0;
  // a run still writing this folder (its lock's pid alive on this host) is said to be going, not killed (hx20 a15)
  const owner = liveOwner(dir);
  const live = owner ? `pid ${owner.pid}, since ${owner.startedAt ?? '?'}` : undefined;
  const recsOf = snapshot.groups.map((group) => recordsOf(group, launches, payloads, started, stop?.how, live));
  // the run's prior as a finished run lends it (run/assemble.ts runPriorsInOrder over the groups in
  // the plan's order, their launches so far): a rebuilt group of 2 launches gets t(≈5), not t(≈1)
  const priors = runPriorsInOrder(recsOf.map(groupLaunchSpread));
  for (const [g, group] of snapshot.groups.entries()) {
    if (group.every((p) => doneLines.has(p.id))) {
      cases.push(...group.map((p) => doneLines.get(p.id)!.value as CaseResult));
      continue;
    }
    const recs = recsOf[g];
    const out = assembleGroup(recs, policy.measure, priors[g]);
    for (const [i, c] of out.entries()) {
      if (doneLines.has(c.id)) {
        cases.push(doneLines.get(c.id)!.value as CaseResult);
        continue;
      }
      if (c.status === 'measured') {
        const kept = recs[i].launches.filter((l) => !l.discarded && l.rounds.length).length;
        const planned =
          policy.maxLaunches && policy.maxLaunches > policy.launches
            ? `${policy.launches} to ${policy.maxLaunches}`
            : `${policy.launches}`;
        c.findings.push({
          code: 'interrupted',
          message: `${live ? `the run is still going (${live})` : stop ? `the run stopped (${stop.how})` : 'the run was killed'}: rebuilt from ${kept} finished launch${kept === 1 ? '' : 'es'} (the policy makes ${planned}), without the allocation pass`,
        });
        rebuilt++;
      } else if (recs[i].planned.status === 'planned') lost++;
      cases.push(c);
    }
  }
  let results: ResultsFile;
  try {
    results = checkResults(
      // checked only when run.partial.mac vouches for the header and every line (run/partial-mac.ts); else the reports
      // and commands say the rebuilt numbers are unchecked
      {
        ...snapshot.results,
        cases,
        ...(vouched ? {} : { unchecked: vouched === false ? REBUILT_UNCHECKED : mismatch }),
      },
      `${dir} (rebuilt from ${RUN_PARTIAL.header}, ${RUN_PARTIAL.cases} and ${RUN_PARTIAL.launches})`,
    );
  } catch (e) {
    throw inputOf(e, cases, doneLines, launchLines, { cases: casesPath, launches: launchesPath });
  }
  const stopped = stop && {
    how: stop.how,
    notes: stop.cut.map(
      (c) =>
        `${c.file}: its last line (line ${c.line}, ${c.bytes.toLocaleString('en-US')} bytes) ends mid-record: dropped (${stop.how})`,
    ),
  };
  return {
    results,
    finished: doneLines.size,
    rebuilt,
    lost,
    ...(stopped ? { stopped } : {}),
    ...(live ? { live } : {}),
  };
}

/**
 * The refusal of a rebuilt file, pointed at the input it came from: a case kept as finished is named
 * by its line of results.partial.jsonl and the field in it; a case computed from its launches by the
 * lines of launches.partial.jsonl that hold them (the computed field, e.g. `/cases/0/time/mean`, is
 * no place the user can look at). Anything else is returned as it is.
 */
function inputOf(
  e: unknown,
  cases: readonly CaseResult[],
  doneLines: Map<string, JsonLine>,
  launchLines: Map<string, JsonLine[]>,
  files: { cases: string; launches: string },
): unknown {
  const m = e instanceof ResultsFileError ? /^\/cases\/(\d+)(\/.*)?$/.exec(e.path) : null;
  const c = m ? cases[Number(m[1])] : undefined;
  if (!(e instanceof ResultsFileError) || !m || !c) return e;
  const inCase = m[2] ?? '';
  const kept = doneLines.get(c.id);
  if (kept)
    return new ResultsFileError(
      files.cases,
      inCase,
      `case ${JSON.stringify(c.id)}: ${e.problem}`,
      lineAt(kept, inCase),
    );
  const from = launchLines.get(c.id);
  if (!from?.length) return e;
  const lines = from.map((l) => l.line);
  return new ResultsFileError(
    files.launches,
    '',
    `case ${JSON.stringify(c.id)} rebuilt from its launch record${lines.length === 1 ? '' : 's'} on line${lines.length === 1 ? '' : 's'} ${lines.join(', ')} comes out with ${inCase.slice(1) || 'its result'} refused: ${e.problem}`,
    { line: lines[0], column: 1 },
  );
}
