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
 * three files once results.json is written.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import type { CaseGroup } from '../plan/plan.js';
import type { PayloadFile } from '../plan/payloads.js';
import { Value } from '@sinclair/typebox/value';
import { LaunchRecordSchema, type CaseResult, type LaunchRecord, type ResultsFile } from '../results/types.js';
import { checkResults } from '../results/validate.js';
import { ResultsFileError } from '../results/errors.js';
import { assembleGroup, type CaseRecord } from './assemble.js';

/** The reason of a case the killed run never measured (status `not-run`, never `failed`: nothing went wrong with it). */
export const NOT_RUN_REASON = 'not measured: the run was killed before this case';

/** File names of a run in progress, inside its output folder. */
export const RUN_PARTIAL = { header: 'run.partial.json', cases: 'results.partial.jsonl', launches: 'launches.partial.jsonl' } as const;

/** What `run.partial.json` holds: the header of the results file to be, and the plan it runs. */
export interface RunSnapshot {
  results: ResultsFile;
  groups: CaseGroup[];
  payloads: PayloadFile[];
}

/** Writes `run.partial.json` (before the first launch). */
export function writeRunSnapshot(outDir: string, snapshot: RunSnapshot): string {
  const path = join(outDir, RUN_PARTIAL.header);
  writeFileSync(path, JSON.stringify(snapshot));
  return path;
}

/** True when `dir` holds a run that did not finish (its snapshot is there). */
export function isUnfinishedRun(dir: string): boolean {
  return existsSync(join(dir, RUN_PARTIAL.header));
}

/**
 * Moves a killed run's files out of `dir` (its header, kept cases and launch log: what `jsonbench
 * report` rebuilds it from) into `dir/killed-<time>/`, so a new run into the same folder does not
 * overwrite them. Returns that folder, or undefined when `dir` held no killed run.
 */
export function keepKilledRun(dir: string): string | undefined {
  if (!isUnfinishedRun(dir)) return undefined;
  const to = join(dir, `killed-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  makeFolder(to);
  for (const f of Object.values(RUN_PARTIAL)) if (existsSync(join(dir, f))) renameSync(join(dir, f), join(to, f));
  return to;
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
}

/**
 * Lines of a JSONL file that parse, in order. The last line may be cut short by the kill: it is
 * dropped; a bad line before the last is an error.
 * @throws ResultsFileError naming the file and the line
 */
function readJsonLines<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  const out: T[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    try { out.push(JSON.parse(line) as T); } catch (e) {
      if (lines.slice(i + 1).every((l) => !l.trim())) break;
      throw new ResultsFileError(path, `line ${i + 1}`, `not JSON (${(e as Error).message})`);
    }
  }
  return out;
}

/**
 * Rebuilds the results of the unfinished run in `dir` (see the module comment).
 * @throws ResultsFileError when the snapshot is missing or unreadable, or the rebuilt file does not match the results schema
 */
export function recoverRun(dir: string): Recovered {
  const headerPath = join(dir, RUN_PARTIAL.header);
  let snapshot: RunSnapshot;
  try { snapshot = JSON.parse(readFileSync(headerPath, 'utf8')) as RunSnapshot; } catch (e) {
    throw new ResultsFileError(headerPath, '', `cannot rebuild the run: ${(e as Error).message}`);
  }
  if (!snapshot?.results || !Array.isArray(snapshot.groups) || !Array.isArray(snapshot.payloads)) throw new ResultsFileError(headerPath, '', 'not a jsonbench run snapshot (expected results, groups and payloads)');
  const done = new Map(readJsonLines<CaseResult>(join(dir, RUN_PARTIAL.cases)).map((c) => [c.id, c]));
  const launches = new Map<string, LaunchRecord[]>();
  const launchesPath = join(dir, RUN_PARTIAL.launches);
  for (const [n, { caseId, record }] of readJsonLines<{ caseId: string; record: LaunchRecord }>(launchesPath).entries()) {
    if (typeof caseId !== 'string' || !record) continue;
    // a hand-edited or damaged record must not reach the statistics (a round without baselineNs crashed `report`)
    if (!Value.Check(LaunchRecordSchema, record)) {
      const first = [...Value.Errors(LaunchRecordSchema, record)][0];
      throw new ResultsFileError(launchesPath, `record ${n + 1} (case ${caseId})${first ? `, ${first.path || '/'}` : ''}`, `not a launch record: ${first?.message ?? 'does not match the schema'}`);
    }
    launches.set(caseId, [...(launches.get(caseId) ?? []), record]);
  }
  const payloads = new Map(snapshot.payloads.map((p) => [p.key, p]));
  const policy = snapshot.results.policy;
  const cases: CaseResult[] = [];
  let rebuilt = 0; let lost = 0;
  for (const group of snapshot.groups) {
    if (group.every((p) => done.has(p.id))) { cases.push(...group.map((p) => done.get(p.id)!)); continue; }
    const recs: CaseRecord[] = group.map((planned) => {
      const mine = launches.get(planned.id) ?? [];
      const payload = payloads.get(planned.payloadKey) ?? { key: planned.payloadKey, path: '', bytes: 0, sha256: '' };
      const base = { planned, payload, launches: mine, relaunches: mine.filter((l) => l.discarded).length, paired: Boolean(planned.baseline && planned.baseline !== planned.serializer) };
      if (planned.status !== 'planned') return { ...base, end: { status: planned.status, reason: planned.reason } };
      if (!mine.some((l) => !l.discarded && l.rounds.length)) return { ...base, end: { status: 'not-run', reason: NOT_RUN_REASON } };
      return { ...base, end: { status: 'measured' } };
    });
    const out = assembleGroup(recs, policy.measure);
    for (const [i, c] of out.entries()) {
      if (done.has(c.id)) { cases.push(done.get(c.id)!); continue; }
      if (c.status === 'measured') {
        const kept = recs[i].launches.filter((l) => !l.discarded && l.rounds.length).length;
        const planned = policy.maxLaunches && policy.maxLaunches > policy.launches ? `${policy.launches} to ${policy.maxLaunches}` : `${policy.launches}`;
        c.findings.push({ code: 'interrupted', message: `the run was killed: rebuilt from ${kept} finished launch${kept === 1 ? '' : 'es'} (the policy makes ${planned}), without the allocation pass` });
        rebuilt++;
      } else if (recs[i].planned.status === 'planned') lost++;
      cases.push(c);
    }
  }
  const results = checkResults({ ...snapshot.results, cases }, `${dir} (rebuilt from ${RUN_PARTIAL.header}, ${RUN_PARTIAL.cases} and ${RUN_PARTIAL.launches})`);
  return { results, finished: done.size, rebuilt, lost };
}
