/**
 * The ledger's SQLite schema and its versioned migrations (better-sqlite3@12).
 *
 * Tables (version {@link LEDGER_SCHEMA_VERSION}):
 * - `runs`: one row per `jsonbench run` or imported results file: environment, policy, tool
 *   version, git commit, any other top-level field of the results file (`extra_json`, e.g. its
 *   targets); `finished_at` stays NULL for a run that was killed (or is still going: the
 *   `recorder_pid`, `recorder_host` and `recorder_start` of a `jsonbench run` tell which).
 * - `cases`: one row per finished case: workload, size, shape, serializer (the row's label, e.g.
 *   `fast-json-stringify@5.16.1`) and `adapter` (the adapter id without a version), serializer
 *   version, direction, class, target and target version, status, reason; `result_json` keeps
 *   the whole CaseResult except its raw samples, so an export gives back the file that came in.
 * - `estimates`: one row per case × metric (`time` ns/op, `alloc` bytes/op, `instructions`/op).
 * - `launches` and `samples`: the raw record of every launch and, per round and side, the raw
 *   samples (ns/op) as a JSON array.
 *
 * The schema version lives in `PRAGMA user_version`; each migration runs in its own transaction,
 * so a ledger is always at one whole version. Journal mode is WAL.
 */
import { onProcessEnd } from '../files/process-end.js';
import { makeFolder } from '../files/make-folder.js';
import { fileSizeLimit, fileSizeLimitSentence } from '../files/file-size-limit.js';
import { basename, dirname, join } from 'node:path';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';

/** An open ledger (a better-sqlite3 connection). */
export type Db = Database.Database;

/** One step of the schema: `up` moves a ledger from `version − 1` to `version`. */
export interface Migration {
  version: number;
  description: string;
  up: string;
}

/** Every migration, in order. Never edit a shipped one: add the next. */
// each migration and the list frozen (ledger/ may not import case/'s deepFreeze; test/architecture/frozen-exports.test.ts)
export const MIGRATIONS: readonly Migration[] = Object.freeze(
  (
    [
      {
        version: 1,
        description: 'runs, cases, estimates, launches, raw samples',
        up: `
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        tool_version TEXT NOT NULL,
        results_schema_version INTEGER NOT NULL,
        policy_name TEXT NOT NULL,
        policy_json TEXT NOT NULL,
        environment_json TEXT NOT NULL,
        git_commit TEXT,
        source TEXT NOT NULL CHECK (source IN ('run', 'import')),
        source_path TEXT
      );
      CREATE TABLE cases (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        case_id TEXT NOT NULL,
        workload TEXT NOT NULL, size INTEGER NOT NULL, shape TEXT NOT NULL,
        serializer TEXT NOT NULL, serializer_version TEXT NOT NULL, family TEXT NOT NULL,
        direction TEXT NOT NULL, class TEXT NOT NULL, baseline TEXT,
        status TEXT NOT NULL, reason TEXT,
        payload_bytes INTEGER, payload_sha256 TEXT,
        result_json TEXT NOT NULL,
        UNIQUE (run_id, case_id)
      );
      CREATE INDEX cases_by_key ON cases (workload, size, shape, direction, serializer);
      CREATE TABLE estimates (
        case_pk INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
        metric TEXT NOT NULL, unit TEXT NOT NULL,
        mean REAL NOT NULL, median REAL, error REAL, stddev REAL, min REAL, max REAL, n INTEGER,
        ratio REAL, ratio_error REAL,
        PRIMARY KEY (case_pk, metric)
      );
      CREATE TABLE launches (
        case_pk INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        record_json TEXT NOT NULL,
        PRIMARY KEY (case_pk, seq)
      );
      CREATE TABLE samples (
        case_pk INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('serializer', 'baseline')),
        values_json TEXT NOT NULL,
        PRIMARY KEY (case_pk, seq, round, side)
      );`,
      },
      {
        version: 2,
        description:
          'version matrix and targets: cases.adapter, cases.target, cases.target_version; runs.git_dirty, runs.extra_json',
        up: `
      ALTER TABLE runs ADD COLUMN git_dirty INTEGER;
      ALTER TABLE runs ADD COLUMN extra_json TEXT;
      ALTER TABLE cases ADD COLUMN adapter TEXT;
      ALTER TABLE cases ADD COLUMN target TEXT;
      ALTER TABLE cases ADD COLUMN target_version TEXT;
      UPDATE cases SET adapter = serializer, target = 'node',
        target_version = (SELECT json_extract(environment_json, '$.node') FROM runs WHERE runs.id = cases.run_id);
      CREATE INDEX cases_by_adapter ON cases (workload, size, direction, adapter);`,
      },
      {
        version: 3,
        description:
          'the process recording a run (runs.recorder_pid, recorder_host, recorder_start), so a run still going is told from a killed one; older runs keep NULL (unknown)',
        up: `
      ALTER TABLE runs ADD COLUMN recorder_pid INTEGER;
      ALTER TABLE runs ADD COLUMN recorder_host TEXT;
      ALTER TABLE runs ADD COLUMN recorder_start INTEGER;`,
      },
      {
        version: 4,
        description:
          "the SHA-256 of the results file a run wrote (runs.results_sha256; an import: the file's), so a file rewritten after the run is told from the run's own; older runs keep NULL (unknown)",
        up: `ALTER TABLE runs ADD COLUMN results_sha256 TEXT;`,
      },
    ] as Migration[]
  ).map((m) => Object.freeze(m)),
);

/** The schema version this build writes. */
export const LEDGER_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * A ledger file jsonbench cannot use: not an SQLite database (or a damaged one), or one written by
 * a newer jsonbench. Names the file and says what to do; commands exit 2 on it (cli/main.ts).
 */
export class LedgerFileError extends Error {
  readonly code = 'E_LEDGER';
  constructor(
    readonly path: string,
    problem: string,
    advice: string,
  ) {
    super(`ledger ${path}: ${problem}; ${advice}`);
  }
}

/** SQLite's error codes for a file that is not a database, or a damaged one. */
const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/** The ledger's schema version (0 for an empty database). */
export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations above the ledger's version, up to `target` (default: the latest), each
 * in one transaction. Returns the versions applied.
 * @throws Error when the ledger is newer than this build (written by a later jsonbench).
 */
export function migrate(db: Db, target: number = LEDGER_SCHEMA_VERSION): number[] {
  const current = schemaVersion(db);
  if (current > LEDGER_SCHEMA_VERSION)
    throw new LedgerFileError(
      db.name,
      `written by a newer jsonbench (ledger schema version ${current}; this one reads up to ${LEDGER_SCHEMA_VERSION})`,
      'upgrade jsonbench, or pass --ledger with another file',
    );
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}

/**
 * Opens (creating its folder and file if needed) and migrates a ledger: WAL journal,
 * `synchronous = NORMAL` (in WAL mode a committed transaction survives the process being killed;
 * only a power loss can drop the last ones), foreign keys on, a 5 s busy timeout for a second
 * writer. @throws LedgerFileError for a file that is not a ledger (or a damaged one) and one from
 * a newer jsonbench or one that cannot be opened (a folder); other errors from SQLite.
 */
export function openLedger(path: string, options: { migrateTo?: number; create?: boolean } = {}): Db {
  if (path !== ':memory:') makeFolder(dirname(path));
  const kind = path === ':memory:' ? undefined : specialFile(path);
  // hx3 (issue 25): a FIFO as --ledger gave SQLite's "disk I/O error", which does not say what is wrong
  if (kind)
    throw new LedgerFileError(
      path,
      `is a ${kind}, not a file: a ledger is an SQLite database file`,
      'pass --ledger with a file path, or --no-ledger',
    );
  let db: Db;
  try {
    db = new Database(path);
  } catch (e) {
    throw corruptOr(path, e);
  }
  try {
    const foreign = notALedger(db, options.create ?? true);
    if (foreign)
      throw new LedgerFileError(
        path,
        foreign,
        'jsonbench writes nothing into it; pass --ledger with a ledger of its own (or a new path), or --no-ledger',
      );
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrateTo);
    return db;
  } catch (e) {
    db.close();
    throw corruptOr(path, e);
  }
}

/** The tables every jsonbench ledger has had since schema version 1. */
const LEDGER_TABLES: readonly string[] = Object.freeze(['runs', 'cases', 'estimates', 'launches', 'samples']);

/**
 * Why the database `db` is not a jsonbench ledger, or undefined when it is one (schema version ≥ 1
 * with the ledger's tables) or, with `create`, an empty database (no table: a new ledger). hx22
 * L1/L2: `ledger list --ledger app.db` created the ledger's tables in an application's database
 * (user_version 0) and set WAL; `history` on one at user_version 3 with a `runs` table of its own
 * ran migration 4 on it (adding a column, user_version 4), then failed "no such table: cases".
 */
function notALedger(db: Db, create: boolean): string | undefined {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const version = schemaVersion(db);
  if (!tables.length && version === 0)
    return create ? undefined : 'is an empty SQLite database, not a jsonbench ledger (it holds no run)';
  // a newer jsonbench's ledger: migrate() refuses it saying so
  if (version > LEDGER_SCHEMA_VERSION) return undefined;
  if (version >= 1 && LEDGER_TABLES.every((t) => tables.includes(t))) return undefined;
  const shown = tables.slice(0, 5).map((t) => JSON.stringify(t));
  return `is an SQLite database but not a jsonbench ledger (its tables: ${shown.join(', ') || 'none'}${tables.length > 5 ? ` and ${tables.length - 5} more` : ''}; user_version ${version})`;
}

/**
 * Opens a ledger for a command that only reads it (`ledger list`, `ledger export`, `history`,
 * `site`, `compare` of a ledger run): {@link openLedger}, and when that fails because the file or
 * its folder cannot be written (a read-only mount, a file of another user: SQLite in WAL mode must
 * write its index beside the file even to read), a private copy of it (with its `-wal` file, if
 * any) in a temporary folder removed when the process exits, opened in its place and migrated
 * there: the ledger itself is never written (hostile tester hx2, unclear: `ledger list` of a
 * read-only ledger said "a place this user cannot write; pass --ledger with a file path").
 * @throws LedgerFileError as openLedger does, when the file cannot be read at all
 */
export function openLedgerToRead(path: string): Db {
  try {
    return openLedger(path, { create: false });
  } catch (e) {
    const cause = (e as { cause?: { code?: unknown } }).cause;
    const code = (e as { code?: unknown }).code;
    const readOnly =
      code === 'SQLITE_READONLY' ||
      (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) ||
      (e instanceof LedgerFileError && cause?.code === 'SQLITE_CANTOPEN');
    if (!readOnly) throw e;
    let copy: string;
    try {
      const tmp = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-'));
      onProcessEnd(() => rmSync(tmp, { recursive: true, force: true }));
      copy = join(tmp, basename(path));
      copyFileSync(path, copy);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    } catch {
      throw e;
    }
    return openLedger(copy, { create: false });
  }
}

/**
 * SQLite's error for a write the disk refused (`SQLITE_FULL`, `SQLITE_IOERR_*`: making the WAL
 * index on a full disk is `SQLITE_IOERR_SHMSIZE`, "disk I/O error") as a {@link LedgerFileError}
 * that names the file, says whether the disk holding it is full (statfs: no block left), and that
 * nothing recorded was lost: a write that fails rolls its transaction back, and the runs committed
 * before stay (hostile tester hx2, crash: `ledger list` on a full disk said "disk I/O error (an
 * internal error…)"). Any other error is returned as it is.
 */
export function diskErrorOr(path: string, e: unknown): unknown {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== 'string' || !/^SQLITE_(FULL|IOERR)/.test(code)) return e;
  let full = code === 'SQLITE_FULL';
  let diskFull = false;
  try {
    diskFull = statfsSync(dirname(path)).bavail === 0;
    full ||= diskFull;
  } catch {
    /* unknown: said as an I/O error */
  }
  // a write past the process's file-size limit (ulimit -f: EFBIG, which SQLite reports as
  // SQLITE_IOERR_* or SQLITE_FULL) is not the disk's fault (hx7 U2: "check the disk")
  const limited = !diskFull && nearFileSizeLimit(path);
  if (limited)
    return new LedgerFileError(
      path,
      `${limited} (SQLite: ${(e as Error).message}, ${code})`,
      'nothing in it was lost (a write that fails is rolled back); raise the limit (ulimit -f unlimited) or run where it is larger, or pass --no-ledger for a run',
    );
  return new LedgerFileError(
    path,
    full
      ? `the disk holding it is full (SQLite: ${(e as Error).message}, ${code})`
      : `the disk refused a read or write (SQLite: ${(e as Error).message}, ${code})`,
    `nothing in it was lost (a write that fails is rolled back); ${full ? 'free some space there' : 'check the disk'}, or pass --ledger with a file on another disk (or --no-ledger for a run)`,
  );
}

/**
 * The sentence naming the process's file-size limit (files/file-size-limit.ts) when one is set and
 * the ledger `path` or its `-wal`/`-shm` files come within 1 MiB of it (or it is under 1 MiB: the
 * WAL index alone is 32 KiB), so a write of SQLite's may have stopped there; else undefined.
 */
function nearFileSizeLimit(path: string): string | undefined {
  const limit = fileSizeLimit();
  if (limit === undefined) return undefined;
  const slack = 1024 * 1024;
  const near =
    limit < slack ||
    [path, `${path}-wal`, `${path}-shm`].some(
      (f) => (statSync(f, { throwIfNoEntry: false })?.size ?? 0) + slack >= limit,
    );
  return near ? fileSizeLimitSentence(limit) : undefined;
}

/** What `path` is when it exists and is neither a regular file nor a folder (a FIFO, a socket, a device): its name; else undefined. */
function specialFile(path: string): string | undefined {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return undefined;
  if (s.isFIFO()) return 'FIFO (named pipe)';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice()) return 'character device';
  if (s.isBlockDevice()) return 'block device';
  return undefined;
}

/** A corrupt-database error from SQLite as a {@link LedgerFileError}; any other error as it is. */
function corruptOr(path: string, e: unknown): unknown {
  const disk = diskErrorOr(path, e);
  if (disk !== e) return disk;
  const code = (e as { code?: unknown })?.code;
  if (code === 'SQLITE_CANTOPEN')
    return Object.assign(
      new LedgerFileError(
        path,
        `cannot be opened as a database file (${(e as Error).message}: a folder, or a place this user cannot write)`,
        'pass --ledger with a file path, or --no-ledger',
      ),
      { cause: e },
    );
  if (typeof code !== 'string' || !CORRUPT_CODES.has(code)) return e;
  return new LedgerFileError(
    path,
    `not a readable SQLite database (${(e as Error).message})`,
    `move it aside (mv ${path} ${path}.bad) to start a new ledger with the next run, or restore it from a copy (\`jsonbench ledger export\` makes one)`,
  );
}
