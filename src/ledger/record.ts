/**
 * Writes runs and cases into the ledger. Every write is one transaction: a run killed at any
 * moment leaves whole cases (all of a case's rows or none) and a run row whose `finished_at` is
 * NULL.
 */
import { createHash } from 'node:crypto';
import type { CaseResult, ResultsFile } from '../results/types.js';
import { diskErrorOr, type Db } from './schema.js';
import { adapterIdOf } from '../versions/spec.js';
import type { Recorder } from './recorder.js';
import { compactVerdicts } from '../results/verdict-groups.js';

/** Where a run came from: measured here (`run`) or read from a results file (`import`). */
export interface RunSource {
  source: 'run' | 'import';
  /** the results file of an import, or the output folder of a run */
  sourcePath?: string;
  /** `git rev-parse HEAD` of the working directory, and whether it had uncommitted changes */
  git?: { commit: string; dirty: boolean } | null;
  /** the process recording a run as it goes (`jsonbench run`: {@link thisRecorder}); absent for an import */
  recorder?: Recorder;
}

/** The header of a results file: everything but its cases. */
export type RunHeader = Omit<ResultsFile, 'cases'>;

/** A run that is already in the ledger (same start time, machine, tool version, policy and seed). */
export class DuplicateRunError extends Error {
  readonly code = 'E_DUPLICATE_RUN';
  constructor(readonly runId: number) {
    super(`this run is already in the ledger as run ${runId}`);
  }
}

/**
 * A results file whose measurements are already in the ledger under another run (hostile tester
 * hx2: `ts-*.json`, copies of one run with only their start time changed, were each imported as a
 * run of their own, so history and site counted one measurement several times).
 */
export class CopiedRunError extends Error {
  readonly code = 'E_COPIED_RUN';
  constructor(
    readonly runId: number,
    caseId: string,
    startedAt: string,
    ownStart: string,
  ) {
    super(
      startedAt === ownStart
        ? `its samples are those of run ${runId} (case ${JSON.stringify(caseId)}, started ${startedAt} as it was): the same measurements under another machine, policy or version in its header, so it is not recorded`
        : `its samples are those of run ${runId} (case ${JSON.stringify(caseId)}, started ${startedAt}): the same measurements under another start time (startedAt ${ownStart}), so it is not recorded`,
    );
  }
}

/**
 * The run already holding `results`' first sample list (a measured case's first launch's first
 * round, at least 3 samples, one of them fractional, compared as the ledger stores it), or
 * undefined. Raw timings of a fresh run (a clock reading ÷ an op count) never repeat to the last
 * bit, so a match is a copy, under another start time or the same one with another header (hx35 l2: a copy with only
 * its cpuModel edited was recorded as a second run); whole numbers are left out, as hand-made
 * files (tests, examples) repeat `[100, 101, 99]`. A shard's
 * samples are its merged run's too (`jsonbench merge`; the merge starts when shard 1 did), so a
 * shard's run is not matched, nor is a file a shard itself. One scan of the samples table: for an
 * import only.
 */
function copiedRun(db: Db, results: ResultsFile): { runId: number; caseId: string; startedAt: string } | undefined {
  for (const c of results.cases) {
    const ns = c.samples?.launches[0]?.rounds[0]?.serializerNs;
    if (!ns || ns.length < 3 || ns.every((x) => Number.isInteger(x))) continue;
    return db
      .prepare(
        `SELECT cases.run_id AS runId, cases.case_id AS caseId, runs.started_at AS startedAt FROM samples
         JOIN cases ON cases.id = samples.case_pk JOIN runs ON runs.id = cases.run_id
         WHERE samples.side = 'serializer' AND samples.values_json = ?
           AND json_extract(coalesce(runs.extra_json, '{}'), '$.shard') IS NULL LIMIT 1`,
      )
      .get(JSON.stringify(ns)) as { runId: number; caseId: string; startedAt: string } | undefined;
  }
  return undefined;
}

/**
 * Identity of a run across machines and copies: sha256 of its start time, machine, Node, tool
 * version, policy and seed (hex, 64 chars). Stable while the run goes on (unlike the end load).
 */
export function runFingerprint(h: RunHeader): string {
  const e = h.environment;
  const key = [
    h.startedAt,
    e.cpuModel,
    e.cores,
    e.os,
    e.arch,
    e.node,
    e.jsonbenchVersion,
    h.policy.name,
    h.policy.seed,
    // a shard is not its merged run, which starts when its first shard did (hostile tester: the merge
    // was skipped as a duplicate of shard 1); absent for a whole run, so older fingerprints stay
    ...(h.shard ? [`shard ${h.shard.index}/${h.shard.count}`] : []),
  ].join('\u0000');
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Inserts a run row and returns its id. @throws DuplicateRunError when a run with the same
 * fingerprint is already there.
 */
export function beginRun(db: Db, header: RunHeader, from: RunSource): number {
  const fingerprint = runFingerprint(header);
  const existing = db.prepare('SELECT id FROM runs WHERE fingerprint = ?').get(fingerprint) as
    { id: number } | undefined;
  if (existing) throw new DuplicateRunError(existing.id);
  const extra = extraOf(header);
  // where the run was measured, else what its results file says (an import of a file written in a checkout)
  const git = from.git ?? header.git ?? null;
  const info = db
    .prepare(
      `INSERT INTO runs (fingerprint, started_at, finished_at, tool_version, results_schema_version, policy_name, policy_json, environment_json, git_commit, git_dirty, source, source_path, extra_json, recorder_pid, recorder_host, recorder_start)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      fingerprint,
      header.startedAt,
      header.finishedAt ?? null,
      header.environment.jsonbenchVersion,
      header.schemaVersion,
      header.policy.name,
      JSON.stringify(header.policy),
      JSON.stringify(header.environment),
      git?.commit ?? null,
      git ? Number(git.dirty) : null,
      from.source,
      from.sourcePath ?? null,
      extra,
      from.recorder?.pid ?? null,
      from.recorder?.host ?? null,
      from.recorder?.startTicks ?? null,
    );
  return Number(info.lastInsertRowid);
}

/** The header's fields beyond the ones with columns of their own (e.g. `targets`), as JSON; null when none. */
function extraOf(header: RunHeader): string | null {
  const {
    schemaVersion: _v,
    tool: _t,
    startedAt: _s,
    finishedAt: _f,
    environment: _e,
    policy: _p,
    ...extra
  } = header as RunHeader & { cases?: unknown };
  delete extra.cases;
  // probe verdicts grouped as in results.json (results/verdict-groups.ts); loadRun's checkResults expands them
  return Object.keys(extra).length ? JSON.stringify(compactVerdicts(extra as Pick<ResultsFile, 'probes'>)) : null;
}

/** The runtime a case ran on: its `target` (a `--target` run), else the run's own Node. */
function targetOf(c: CaseResult, header: RunHeader): { target: string; version: string } {
  return c.target
    ? { target: c.target.runtime, version: c.target.version }
    : { target: 'node', version: header.environment.node };
}

/**
 * Records one finished case (its row, estimates, launches and raw samples) in one transaction.
 * @throws Error from SQLite, e.g. when the case id is already recorded for this run.
 */
export function recordCase(db: Db, runId: number, header: RunHeader, c: CaseResult): void {
  const { samples, ...rest } = c;
  const target = targetOf(c, header);
  db.transaction(() => {
    const info = db
      .prepare(
        `INSERT INTO cases (run_id, case_id, workload, size, shape, serializer, adapter, serializer_version, family, direction, class, baseline, target, target_version, status, reason, payload_bytes, payload_sha256, result_json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        c.id,
        c.workload,
        c.size,
        c.shape,
        c.serializer,
        adapterIdOf(c.serializer),
        c.serializerVersion,
        c.family,
        c.direction,
        c.class,
        c.baseline,
        target.target,
        target.version,
        c.status,
        c.reason ?? null,
        c.payload.bytes,
        c.payload.sha256,
        JSON.stringify({ ...rest, samples: { launches: [], relaunches: samples.relaunches } }),
      );
    const pk = Number(info.lastInsertRowid);
    const est = db.prepare(
      'INSERT INTO estimates (case_pk, metric, unit, mean, median, error, stddev, min, max, n, ratio, ratio_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    if (c.time)
      est.run(
        pk,
        'time',
        c.time.unit,
        c.time.mean,
        c.time.median,
        finite(c.time.error),
        c.time.stddev,
        c.time.min,
        c.time.max,
        c.time.n,
        c.ratio ?? null,
        finite(c.ratioError),
      );
    if (c.allocated && c.allocated.method !== 'n/a')
      est.run(
        pk,
        'alloc',
        c.allocated.unit,
        c.allocated.mean,
        null,
        null,
        null,
        Math.min(...c.allocated.windows),
        Math.max(...c.allocated.windows),
        c.allocated.windows.length,
        c.allocRatio ?? null,
        null,
      );
    if (c.instructions)
      est.run(
        pk,
        'instructions',
        'instructions/op',
        c.instructions.perOp,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      );
    const launch = db.prepare('INSERT INTO launches (case_pk, seq, record_json) VALUES (?, ?, ?)');
    const sample = db.prepare('INSERT INTO samples (case_pk, seq, round, side, values_json) VALUES (?, ?, ?, ?, ?)');
    samples.launches.forEach(({ rounds, ...record }, seq) => {
      // what a round holds besides the reported clock's samples (wall times, the CPU spans of the other-threads
      // check, GC counts…) rides in the launch's JSON as `roundsExtra` (the samples table holds the reported clock's);
      // ledgers written before it hold `roundsWallNs` (queries.ts reads both)
      const extra = rounds.map(({ serializerNs: _s, baselineNs: _b, ...rest }) => rest);
      const more = extra.some((r) => Object.keys(r).length) ? { roundsExtra: extra } : {};
      launch.run(pk, seq, JSON.stringify({ ...record, ...more }));
      rounds.forEach((r, round) => {
        sample.run(pk, seq, round, 'serializer', JSON.stringify(r.serializerNs));
        sample.run(pk, seq, round, 'baseline', JSON.stringify(r.baselineNs));
      });
    });
  })();
}

/**
 * Adds a recorded case's instruction count (measured after the case was recorded) in one
 * transaction: its estimate row and the `instructions` field of its stored result.
 * @throws Error when the case is not recorded in this run.
 */
export function recordInstructions(db: Db, runId: number, c: CaseResult): void {
  if (!c.instructions) return;
  db.transaction(() => {
    const row = db.prepare('SELECT id FROM cases WHERE run_id = ? AND case_id = ?').get(runId, c.id) as
      { id: number } | undefined;
    if (!row) throw new Error(`case ${c.id} is not recorded in run ${runId}`);
    db.prepare("UPDATE cases SET result_json = json_set(result_json, '$.instructions', json(?)) WHERE id = ?").run(
      JSON.stringify(c.instructions),
      row.id,
    );
    db.prepare(
      "INSERT OR REPLACE INTO estimates (case_pk, metric, unit, mean) VALUES (?, 'instructions', 'instructions/op', ?)",
    ).run(row.id, c.instructions!.perOp);
  })();
}

function finite(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : x;
}

/**
 * Marks a run finished: its end time, final environment (end load averages), final extra fields (the
 * targets' wall times) and, when given, the SHA-256 (hex) of the results file written for it
 * (results/integrity.ts).
 */
export function finishRun(db: Db, runId: number, header: RunHeader, resultsSha256?: string): void {
  db.prepare(
    'UPDATE runs SET finished_at = ?, environment_json = ?, extra_json = ?, results_sha256 = coalesce(?, results_sha256) WHERE id = ?',
  ).run(
    header.finishedAt ?? new Date().toISOString(),
    JSON.stringify(header.environment),
    extraOf(header),
    resultsSha256 ?? null,
    runId,
  );
}

/** The SHA-256 (hex) of the results file recorded for run `runId` (written by the run, or the file imported), or undefined. */
export function recordedResultsSha(db: Db, runId: number): string | undefined {
  const row = db.prepare('SELECT results_sha256 AS sha FROM runs WHERE id = ?').get(runId) as
    { sha: string | null } | undefined;
  return row?.sha ?? undefined;
}

/**
 * The SHA-256 (hex) the ledger holds for the results file of the run `header` describes (found by
 * {@link runFingerprint}): written by the run itself, or by an import of a file that was itself
 * checked (`jsonbench ledger import` records no hash for a file it read unchecked: that file's own
 * hash would prove nothing; imports made before it did record one). Undefined when there is none.
 */
export function vouchedResultsSha(db: Db, header: RunHeader): { runId: number; sha: string } | undefined {
  return db
    .prepare('SELECT id AS runId, results_sha256 AS sha FROM runs WHERE fingerprint = ? AND results_sha256 IS NOT NULL')
    .get(runFingerprint(header)) as { runId: number; sha: string } | undefined;
}

/**
 * Records a whole results file (an import) in one transaction: all of it or nothing.
 * Returns the new run id. @throws DuplicateRunError when it is already in the ledger;
 * CopiedRunError when its samples are (a copy with another start time).
 */
export function recordResults(db: Db, results: ResultsFile, from: RunSource, resultsSha256?: string): number {
  try {
    return recordAll(db, results, from, resultsSha256);
  } catch (e) {
    // a full disk: the transaction is rolled back; say so, naming the ledger (schema.ts diskErrorOr)
    throw diskErrorOr(db.name, e);
  }
}

/** {@link recordResults}'s transaction. */
function recordAll(db: Db, results: ResultsFile, from: RunSource, resultsSha256?: string): number {
  return db.transaction(() => {
    const { cases, ...header } = results;
    const runId = beginRun(db, header, from);
    const copy = results.shard ? undefined : copiedRun(db, results);
    if (copy) throw new CopiedRunError(copy.runId, copy.caseId, copy.startedAt, results.startedAt);
    for (const c of cases) recordCase(db, runId, header, c);
    if (results.finishedAt) finishRun(db, runId, header, resultsSha256);
    return runId;
  })();
}
