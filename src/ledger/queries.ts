/**
 * Reads the ledger: the runs, one run back as a results file, and the history of a case across
 * serializer versions, runtime versions and time.
 */
import { UNRANKING_CODES } from '../results/unranked.js';
import type { CaseResult, LaunchRecord, ResultsFile } from '../results/types.js';
import type { Db } from './schema.js';
import { checkResults } from '../results/validate.js';
import { ResultsFileError } from '../results/errors.js';
import type { HistoryPoint } from '../results/history.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import { unfinishedRunState, wroteItsResults, type Recorder, type RunState } from './recorder.js';

/** A run as `jsonbench ledger list` shows it. */
export interface RunSummary {
  id: number;
  startedAt: string;
  /** null: the run was killed (or is still going: see `state`) */
  finishedAt: string | null;
  /** finished; running (its recorder is alive on this host); killed (its recorder is gone); cut-short (its recorder is gone, its results.json was written: a ledger write failed); unknown (recorded elsewhere, or before recorders were noted) */
  state: RunState;
  /** the process that recorded it as it went (`jsonbench run`); null for an import or an older ledger row */
  recorder: Recorder | null;
  toolVersion: string;
  policy: string;
  gitCommit: string | null;
  gitDirty: boolean | null;
  source: 'run' | 'import';
  sourcePath: string | null;
  cpuModel: string;
  node: string;
  cases: number;
  measured: number;
  /** the workloads its cases measured (a `--payload` run: `payload:<name>`), in the order first recorded */
  workloads: string[];
  /** how many serializers its cases measured (baselines included) */
  serializers: number;
  /** why its results file was read unchecked when it was imported (results/integrity.ts: no sidecar, one not signed by this user's jsonbench); null: checked, or recorded by its run */
  unchecked: string | null;
}

interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  tool_version: string;
  policy_name: string;
  policy_json: string;
  environment_json: string;
  git_commit: string | null;
  git_dirty: number | null;
  source: 'run' | 'import';
  source_path: string | null;
  results_schema_version: number;
  cases: number;
  measured: number;
  workloads: string | null;
  serializers: number;
  extra_json: string | null;
  recorder_pid: number | null;
  recorder_host: string | null;
  recorder_start: number | null;
}

/**
 * Says that a row of the ledger was skipped, and why (`run 3, case 12: result_json is not JSON`).
 * Readers skip a damaged row and go on (issue 25: one corrupted result_json made history, site and
 * compare die with "malformed JSON / please report it", so one bad row blocked the whole site); the
 * default writes one line to stderr.
 */
export type SkipRow = (problem: string) => void;

const warnSkip: SkipRow = (problem) =>
  process.stderr.write(`jsonbench: warning: ledger ${problem}; skipped (the rest of the ledger is read)\n`);

/** `JSON.parse(text)`, or undefined when `text` is not JSON. */
function parseOr(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const RUN_SELECT = `SELECT r.*, (SELECT COUNT(*) FROM cases c WHERE c.run_id = r.id) AS cases,
  (SELECT COUNT(*) FROM cases c WHERE c.run_id = r.id AND c.status = 'measured') AS measured,
  (SELECT json_group_array(w) FROM (SELECT c.workload AS w FROM cases c WHERE c.run_id = r.id GROUP BY c.workload ORDER BY MIN(c.id))) AS workloads,
  (SELECT COUNT(DISTINCT c.serializer) FROM cases c WHERE c.run_id = r.id) AS serializers FROM runs r`;

function summary(r: RunRow): RunSummary {
  const env = parseOr(r.environment_json) as ResultsFile['environment'];
  const recorder =
    r.recorder_pid !== null && r.recorder_host !== null
      ? { pid: r.recorder_pid, host: r.recorder_host, startTicks: r.recorder_start }
      : null;
  return {
    id: r.id,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    state: r.finished_at ? 'finished' : endedState(r, recorder),
    recorder,
    toolVersion: r.tool_version,
    policy: r.policy_name,
    gitCommit: r.git_commit,
    gitDirty: r.git_dirty === null ? null : r.git_dirty === 1,
    source: r.source,
    sourcePath: r.source_path,
    cpuModel: env.cpuModel,
    node: env.node,
    cases: r.cases,
    measured: r.measured,
    workloads: r.workloads ? (JSON.parse(r.workloads) as string[]) : [],
    serializers: r.serializers,
    unchecked: uncheckedOf(r.extra_json),
  };
}

/** The state of a run with no end time: a dead recorder's run that wrote its results.json was cut short, not killed. */
function endedState(r: RunRow, recorder: Recorder | null): RunState {
  const state = unfinishedRunState(recorder);
  return state === 'killed' && r.source === 'run' && wroteItsResults(r.source_path, r.started_at) ? 'cut-short' : state;
}

/** The `unchecked` mark a run's extra_json records (an import read unchecked), or null. */
function uncheckedOf(extra: string | null): string | null {
  const v = parseOr(extra);
  return isObject(v) && typeof v.unchecked === 'string' ? v.unchecked : null;
}

/** Every run, oldest first; a run whose environment is not a JSON object is skipped through `skip`. */
export function listRuns(db: Db, skip: SkipRow = warnSkip): RunSummary[] {
  const rows = db.prepare(`${RUN_SELECT} ORDER BY r.started_at, r.id`).all() as RunRow[];
  return rows.flatMap((r) => summaryOrSkip(r, skip) ?? []);
}

/** The row's summary, or undefined (said through `skip`) when its environment_json is not a JSON object. */
function summaryOrSkip(r: RunRow, skip: SkipRow): RunSummary | undefined {
  if (isObject(parseOr(r.environment_json))) return summary(r);
  skip(`run ${r.id}: its environment_json is not a JSON object`);
  return undefined;
}

/** One run's summary by id (as {@link listRuns} gives it), or undefined when there is none or its environment_json is not an object. */
export function runSummary(db: Db, runId: number, skip: SkipRow = warnSkip): RunSummary | undefined {
  const r = db.prepare(`${RUN_SELECT} WHERE r.id = ?`).get(runId) as RunRow | undefined;
  return r && summaryOrSkip(r, skip);
}

/**
 * Resolves a run reference: a run id (`12`), `latest`, or `latest~N` (N runs before the latest,
 * by start time). Returns undefined when there is no such run.
 */
export function resolveRunRef(db: Db, ref: string): number | undefined {
  const m = /^latest(?:~(\d+))?$/.exec(ref);
  if (m) {
    const row = db
      .prepare('SELECT id FROM runs ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET ?')
      .get(Number(m[1] ?? 0)) as { id: number } | undefined;
    return row?.id;
  }
  if (!/^\d+$/.test(ref)) return undefined;
  const row = db.prepare('SELECT id FROM runs WHERE id = ?').get(Number(ref)) as { id: number } | undefined;
  return row?.id;
}

/**
 * The run's recorded cases with their raw samples, in the order they finished. A case whose
 * result_json, launch record or samples are not JSON is skipped through `skip`.
 */
export function loadCases(db: Db, runId: number, skip: SkipRow = warnSkip): CaseResult[] {
  const rows = db.prepare('SELECT id, case_id, result_json FROM cases WHERE run_id = ? ORDER BY id').all(runId) as {
    id: number;
    case_id: string;
    result_json: string;
  }[];
  const launchesOf = db.prepare('SELECT seq, record_json FROM launches WHERE case_pk = ? ORDER BY seq');
  const samplesOf = db.prepare(
    'SELECT seq, round, side, values_json FROM samples WHERE case_pk = ? ORDER BY seq, round',
  );
  return rows.flatMap((row) => {
    try {
      return [caseOf(row)];
    } catch (e) {
      skip(`run ${runId}, case ${row.case_id}: ${(e as Error).message}`);
      return [];
    }
  });

  /** One case row back as a CaseResult. @throws Error naming the column that is not JSON */
  function caseOf(row: { id: number; result_json: string }): CaseResult {
    const json = (text: string, what: string): unknown => {
      const v = parseOr(text);
      if (v === undefined) throw new Error(`its ${what} is not JSON`);
      return v;
    };
    const c = json(row.result_json, 'result_json') as CaseResult;
    if (!isObject(c)) throw new Error('its result_json is not a JSON object');
    const launches = (launchesOf.all(row.id) as { seq: number; record_json: string }[]).map((l) => ({
      ...(json(l.record_json, `launch ${l.seq}`) as Omit<LaunchRecord, 'rounds'>),
      rounds: [] as LaunchRecord['rounds'],
    }));
    for (const s of samplesOf.all(row.id) as {
      seq: number;
      round: number;
      side: 'serializer' | 'baseline';
      values_json: string;
    }[]) {
      const rounds = launches[s.seq]?.rounds;
      if (!rounds) throw new Error(`its samples name launch ${s.seq}, which it does not have`);
      rounds[s.round] ??= { serializerNs: [], baselineNs: [] };
      rounds[s.round][s.side === 'serializer' ? 'serializerNs' : 'baselineNs'] = json(
        s.values_json,
        `samples of launch ${s.seq}, round ${s.round}`,
      ) as number[];
    }
    for (const l of launches as (LaunchRecord & {
      roundsWallNs?: [number[], number[]][];
      roundsExtra?: Record<string, unknown>[];
    })[]) {
      // older ledgers: the wall times alone
      l.roundsWallNs?.forEach(([s, b], k) => {
        if (l.rounds[k]) Object.assign(l.rounds[k], { serializerWallNs: s, baselineWallNs: b });
      });
      l.roundsExtra?.forEach((extra, k) => {
        if (l.rounds[k] && isObject(extra)) Object.assign(l.rounds[k], extra);
      });
      delete l.roundsWallNs;
      delete l.roundsExtra;
    }
    // Restore the key order of a LaunchRecord as the runner writes it.
    c.samples = {
      launches: launches.map(({ launch, opsPerSample, warmup, emptyNsPerOp, rounds, ...more }) => ({
        launch,
        opsPerSample,
        warmup,
        emptyNsPerOp,
        rounds,
        ...more,
      })),
      relaunches: c.samples?.relaunches ?? 0,
    };
    return c;
  }
}

/**
 * A run back as a results file (the same JSON that was recorded), upgraded to the current layout
 * and checked against the results schema. @throws Error when there is no such run;
 * ResultsFileError (naming `ledger run <id>` and the path) when what was recorded does not check.
 */
export function loadRun(db: Db, runId: number, skip: SkipRow = warnSkip): ResultsFile {
  const r = db.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
  if (!r) throw new Error(`no run ${runId} in the ledger`);
  const where = `ledger run ${runId}`;
  const header = (text: string | null, column: string): unknown => {
    const v = parseOr(text);
    if (text !== null && !isObject(v)) throw new ResultsFileError(where, '', `its ${column} is not a JSON object`);
    return v;
  };
  const file = {
    schemaVersion: r.results_schema_version,
    tool: 'jsonbench',
    startedAt: r.started_at,
    ...(r.finished_at ? { finishedAt: r.finished_at } : {}),
    environment: header(r.environment_json, 'environment_json'),
    policy: header(r.policy_json, 'policy_json'),
    ...((header(r.extra_json, 'extra_json') as object | undefined) ?? {}),
    cases: loadCases(db, runId, skip),
  };
  // a recorded case that does not check (a damaged row) is skipped, the rest of the run is read
  for (;;) {
    try {
      return checkResults(file, where);
    } catch (e) {
      if (!(e instanceof ResultsFileError)) throw e;
      const bad = /^\/cases\/(\d+)(\/|$)/.exec(e.path);
      if (!bad || Number(bad[1]) >= file.cases.length) throw e;
      const [c] = file.cases.splice(Number(bad[1]), 1);
      skip(
        `run ${runId}, case ${(c as { id?: unknown })?.id ?? `#${bad[1]}`}: ${e.problem}${e.path ? ` (at ${e.path})` : ''}`,
      );
    }
  }
}

/** Which cases `history` follows; every field is optional (all runs, all cases). */
export interface HistoryFilter {
  workload?: string;
  size?: number;
  shape?: string;
  direction?: string;
  serializer?: string;
  target?: string;
}

/**
 * The history of the cases matching `filter`, ordered by case, then adapter, then start time.
 * `serializer` matches the adapter id or the exact row label. Each point carries its ratio's
 * interval (recorded, or derived from the ratio's error for older runs), its mean's (the case
 * record's `time.interval`, or mean ± error for runs before branch `stats5`) and its `noisy` finding.
 */
export function caseHistory(db: Db, filter: HistoryFilter, skip: SkipRow = warnSkip): HistoryPoint[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const eq = (col: string, v: string | number | undefined) => {
    if (v !== undefined) {
      where.push(`${col} = ?`);
      args.push(v);
    }
  };
  eq('c.workload', filter.workload);
  eq('c.size', filter.size);
  eq('c.shape', filter.shape);
  eq('c.direction', filter.direction);
  eq('c.target', filter.target);
  if (filter.serializer !== undefined) {
    where.push('(c.adapter = ? OR c.serializer = ?)');
    args.push(filter.serializer, filter.serializer);
  }
  const rows = db
    .prepare(
      `SELECT r.id AS run_id, r.started_at, r.tool_version, r.git_commit, c.case_id, c.workload, c.size, c.shape, c.direction,
      c.serializer, c.adapter, c.serializer_version, c.target, c.target_version, c.status, c.reason,
      t.mean AS mean, t.error AS error, t.ratio AS ratio, t.ratio_error AS ratio_error, a.mean AS alloc, i.mean AS instr,
      json_valid(c.result_json) AS valid,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.ratio') END AS recorded_ratio,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.time.mean') END AS recorded_mean,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.allocated.mean') END AS recorded_alloc,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.instructions.perOp') END AS recorded_instr,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.ratioInterval') END AS ratio_interval,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.time.interval') END AS time_interval,
      CASE WHEN json_valid(c.result_json) THEN json_extract(c.result_json, '$.payload.sha256') END AS payload_sha256,
      CASE WHEN json_valid(r.policy_json) THEN json_extract(r.policy_json, '$.measure.serializeTo') END AS serialize_to,
      r.policy_name AS policy_name,
      CASE WHEN json_valid(r.extra_json) THEN json_extract(r.extra_json, '$.unchecked') END AS unchecked,
      CASE WHEN json_valid(r.extra_json) THEN (SELECT json_extract(p.value, '$.schema') FROM json_each(r.extra_json, '$.payloads') p WHERE json_extract(p.value, '$.workload') = c.workload LIMIT 1) END AS payload_schema,
      CASE WHEN json_valid(c.result_json) THEN EXISTS (SELECT 1 FROM json_each(c.result_json, '$.findings') f WHERE json_extract(f.value, '$.code') = 'noisy') ELSE 0 END AS noisy,
      CASE WHEN json_valid(c.result_json) THEN EXISTS (SELECT 1 FROM json_each(c.result_json, '$.findings') f WHERE json_extract(f.value, '$.code') IN (${UNRANKING_CODES.map((code) => `'${code}'`).join(', ')})) ELSE 0 END AS unranked
    FROM cases c JOIN runs r ON r.id = c.run_id
    LEFT JOIN estimates t ON t.case_pk = c.id AND t.metric = 'time'
    LEFT JOIN estimates a ON a.case_pk = c.id AND a.metric = 'alloc'
    LEFT JOIN estimates i ON i.case_pk = c.id AND i.metric = 'instructions'
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY c.workload, c.size, c.shape, c.direction, c.adapter, r.started_at, r.id, c.serializer, c.id`,
    )
    .all(...args) as Record<string, never>[];
  // a case whose result_json is not JSON (a damaged row) is left out, the rest of the history is read
  const readable = rows.filter((r) => {
    if (r.valid === 1) return true;
    skip(`run ${r.run_id}, case ${r.case_id}: its result_json is not JSON`);
    return false;
  });
  return readable.map((r) => ({
    runId: r.run_id,
    startedAt: r.started_at,
    toolVersion: r.tool_version,
    gitCommit: r.git_commit,
    caseId: r.case_id,
    workload: r.workload,
    size: r.size,
    shape: r.shape,
    direction: r.direction,
    serializer: r.serializer,
    adapter: r.adapter,
    serializerVersion: r.serializer_version,
    target: r.target,
    targetVersion: r.target_version,
    status: r.status,
    reason: r.reason,
    meanNs: r.mean,
    errorNs: r.error,
    timeInterval: timeIntervalOfRow(r.mean, r.error, r.time_interval),
    ratio: r.ratio,
    bytesPerOp: r.alloc,
    instructionsPerOp: r.instr,
    ratioInterval: ratioIntervalOf({
      ratio: r.ratio,
      ratioError: r.ratio_error,
      ...(r.ratio_interval !== null ? { ratioInterval: JSON.parse(r.ratio_interval) as [number, number] | null } : {}),
    }),
    // a policy without the key predates --serialize-to: its serialize op was the string alone (as compare reads it)
    serializeTo: r.serialize_to === 'bytes' ? ('bytes' as const) : ('string' as const),
    noisy: r.noisy === 1,
    // hx37 l02: a run that refused to rank the case (its baseline slowed beside it) was a clean point
    ...(r.unranked === 1 ? { unranked: true } : {}),
    policy: r.policy_name,
    schema: schemaOf(r.payload_schema),
    ...(typeof r.payload_sha256 === 'string' ? { payloadSha256: r.payload_sha256 } : {}),
    ...(typeof r.unchecked === 'string' ? { unchecked: true } : {}),
    // the case record `ledger export` reads, where the estimates row disagrees with it (hx5 F3: an edited ratio)
    ...editedRow(r),
  }));
}

/**
 * What the case record (result_json, which `ledger export` reads) says, where the estimates rows
 * disagree with it on the ratio, the mean, the allocated bytes/op or the instructions/op: a ledger
 * edited after the run (hx5 F3, hx21 L02). Empty when they agree.
 */
function editedRow(r: Record<string, never>): Pick<HistoryPoint, 'recorded'> {
  const edited =
    differs(r.ratio, r.recorded_ratio) ||
    differs(r.mean, r.recorded_mean) ||
    differs(r.alloc, r.recorded_alloc) ||
    differs(r.instr, r.recorded_instr);
  if (!edited) return {};
  return {
    recorded: {
      ratio: r.recorded_ratio,
      meanNs: r.recorded_mean,
      bytesPerOp: r.recorded_alloc,
      instructionsPerOp: r.recorded_instr,
    },
  };
}

/**
 * A history point's time interval [low, high] (ns/op): the case record's `time.interval` (JSON text,
 * log scale since branch `stats5`), else mean ± error as that error meant then (results/ratio.ts
 * timeIntervalOf); null without a mean or an error.
 */
function timeIntervalOfRow(
  mean: number | null,
  error: number | null,
  interval: string | null,
): [number, number] | null {
  if (mean === null) return null;
  if (interval !== null) return JSON.parse(interval) as [number, number];
  return error === null ? null : timeIntervalOf({ mean, error });
}

/** A run's payload record's `schema` (JSON text from the ledger) as a history point keeps it; null: none (a built-in workload), or unreadable. */
function schemaOf(json: string | null): HistoryPoint['schema'] {
  if (json === null) return null;
  const s = JSON.parse(json) as Record<string, unknown>;
  if (typeof s.source !== 'string') return null;
  return {
    source: s.source,
    ...(typeof s.file === 'string' ? { file: s.file } : {}),
    ...(typeof s.sha256 === 'string' ? { sha256: s.sha256 } : {}),
  };
}

/**
 * Whether two recorded numbers differ (beyond a relative 1e-9; a missing one is not compared). A
 * number that is not finite differs from any other (hx21 L01: an estimates row edited to Infinity
 * read as equal to its finite case record, Infinity > 1e-9 · Infinity being false).
 */
function differs(a: number | null, b: number | null): boolean {
  if (typeof a !== 'number' || typeof b !== 'number') return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return !Object.is(a, b);
  return Math.abs(a - b) > 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}
