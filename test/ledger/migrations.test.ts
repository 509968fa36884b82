import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  LEDGER_SCHEMA_VERSION,
  LedgerFileError,
  MIGRATIONS,
  migrate,
  openLedger,
  schemaVersion,
} from '../../src/ledger/schema.js';
import { recordResults } from '../../src/ledger/record.js';
import { caseHistory, loadRun } from '../../src/ledger/queries.js';
import { makeResults } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-migrate-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const columns = (db: Database.Database, table: string) =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

test('an empty database migrates to the latest schema version, every table in place', () => {
  const db = openLedger(join(dir, 'empty.db'));
  assert.equal(schemaVersion(db), LEDGER_SCHEMA_VERSION);
  assert.equal(LEDGER_SCHEMA_VERSION, 4);
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
  ).map((t) => t.name);
  assert.deepEqual(tables, ['cases', 'estimates', 'launches', 'runs', 'samples']);
  assert.ok(columns(db, 'cases').includes('target_version'));
  assert.ok(columns(db, 'runs').includes('results_sha256'));
  db.close();
});

test('migrations are numbered 1, 2, … without gaps', () => {
  assert.deepEqual(
    MIGRATIONS.map((m) => m.version),
    MIGRATIONS.map((_, i) => i + 1),
  );
});

test('a ledger at schema 1 migrates to the latest keeping its runs, with adapter and target filled in', () => {
  const path = join(dir, 'v1.db');
  const v1 = new Database(path);
  assert.deepEqual(migrate(v1, 1), [1]);
  assert.equal(columns(v1, 'cases').includes('adapter'), false);
  // A row as jsonbench with schema 1 wrote it (no adapter/target columns yet).
  const r = makeResults([{ serializer: 'json', rounds: [[1000, 1010, 990]] }]);
  const c = r.cases[0];
  v1.prepare(
    `INSERT INTO runs (id, fingerprint, started_at, finished_at, tool_version, results_schema_version, policy_name, policy_json, environment_json, source)
    VALUES (1, 'fp', ?, ?, '0.1.0', 1, 'quick', ?, ?, 'run')`,
  ).run(r.startedAt, r.finishedAt, JSON.stringify(r.policy), JSON.stringify(r.environment));
  v1.prepare(
    `INSERT INTO cases (id, run_id, case_id, workload, size, shape, serializer, serializer_version, family, direction, class, baseline, status, result_json)
    VALUES (1, 1, ?, 'weather-station', 1, 'single', 'json', 'node 20.20.2', 'builtin', 'serialize', 'serialize', 'json', 'measured', ?)`,
  ).run(c.id, JSON.stringify({ ...c, samples: { launches: [], relaunches: 0 } }));
  v1.prepare("INSERT INTO estimates (case_pk, metric, unit, mean) VALUES (1, 'time', 'ns/op', 1000)").run();
  v1.close();

  const db = openLedger(path);
  assert.equal(schemaVersion(db), LEDGER_SCHEMA_VERSION);
  assert.deepEqual(db.prepare('SELECT adapter, target, target_version FROM cases WHERE id = 1').get(), {
    adapter: 'json',
    target: 'node',
    target_version: '20.20.2',
  });
  assert.deepEqual(
    caseHistory(db, { serializer: 'json' }).map((p) => [p.runId, p.meanNs]),
    [[1, 1000]],
  );
  assert.equal(loadRun(db, 1).cases[0].id, c.id);
  // and the migrated ledger takes new runs
  recordResults(db, makeResults([{ serializer: 'json' }], '2025-06-01T00:00:00.000Z'), { source: 'import' });
  assert.equal(caseHistory(db, { serializer: 'json' }).length, 2);
  db.close();
});

test('opening a ledger twice migrates once (the second open applies nothing)', () => {
  const path = join(dir, 'twice.db');
  openLedger(path).close();
  const db = new Database(path);
  assert.deepEqual(migrate(db), []);
  db.close();
});

test('a ledger from a newer jsonbench is refused with a message saying so', () => {
  const path = join(dir, 'newer.db');
  const db = new Database(path);
  db.pragma('user_version = 99');
  db.close();
  assert.throws(
    () => openLedger(path),
    (e: Error) =>
      e instanceof LedgerFileError &&
      e.path === path &&
      /written by a newer jsonbench \(ledger schema version 99; this one reads up to 4\); upgrade jsonbench/.test(
        e.message,
      ),
  );
});

test('a ledger at schema 2 migrates to 3: its unfinished runs read as unknown (killed or running), its finished ones as finished, and new runs note their recorder', async () => {
  const { finishedCell } = await import('../../src/cli/ledger.js');
  const { thisRecorder } = await import('../../src/ledger/recorder.js');
  const { listRuns } = await import('../../src/ledger/queries.js');
  const path = join(dir, 'v2.db');
  const v2 = new Database(path);
  assert.deepEqual(migrate(v2, 2), [1, 2]);
  // runs as jsonbench with schema 2 wrote them: one finished, one not (killed, or still going: schema 2 cannot tell)
  const r = makeResults([]);
  const insert =
    v2.prepare(`INSERT INTO runs (id, fingerprint, started_at, finished_at, tool_version, results_schema_version, policy_name, policy_json, environment_json, source)
    VALUES (?, ?, ?, ?, '0.1.0', 2, 'quick', ?, ?, 'run')`);
  insert.run(
    1,
    'fp1',
    '2025-01-01T00:00:00.000Z',
    '2025-01-01T00:01:00.000Z',
    JSON.stringify(r.policy),
    JSON.stringify(r.environment),
  );
  insert.run(2, 'fp2', '2025-02-01T00:00:00.000Z', null, JSON.stringify(r.policy), JSON.stringify(r.environment));
  v2.close();
  const { finishedAt: _f, ...unfinished } = makeResults([{ serializer: 'json' }], '2025-02-01T00:00:00.000Z');
  const db = openLedger(path, { migrateTo: 3 });
  assert.equal(schemaVersion(db), 3);
  assert.ok(columns(db, 'runs').includes('recorder_pid'));
  recordResults(
    db,
    { ...unfinished, startedAt: '2025-03-01T00:00:00.000Z' },
    { source: 'run', recorder: thisRecorder() },
  );
  const runs = listRuns(db);
  assert.deepEqual(
    runs.map((r) => r.state),
    ['finished', 'unknown', 'running'],
  );
  assert.deepEqual(runs.map(finishedCell), [
    'yes',
    'no: killed, or still running (recorded by a jsonbench that did not note its process)',
    `no: running (pid ${process.pid})`,
  ]);
  db.close();
});
