import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cli } from './support.js';

/**
 * hx22 L1 (false success): `ledger list --ledger app.db` on an application's SQLite database
 * (user_version 0, a table of its own) printed an empty table, exit 0, having created the ledger's
 * five tables in it and switched it to WAL. L2 (crash): `history` on one at user_version 3 with a
 * `runs` table of its own ran migration 4 on it (a column added, user_version 4), then failed
 * "no such table: cases (an internal error …)". A database that is not a ledger is refused,
 * named, and left byte for byte as it was; an empty one is refused by the commands that only read.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-foreign-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function appDatabase(name: string, sql: string): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.exec(sql);
  db.close();
  return path;
}

test('ledger list of an application database (user_version 0) is refused and the file left as it was', async () => {
  const app = appDatabase(
    'app0.db',
    "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('ada')",
  );
  const before = sha(app);
  const r = await cli(['ledger', 'list', '--ledger', app]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /is an SQLite database but not a jsonbench ledger \(its tables: "customers"; user_version 0\)/,
  );
  assert.equal(sha(app), before, 'the database is unchanged');
});

test('history of a database at user_version 3 with its own runs table is refused before any migration', async () => {
  const app = appDatabase(
    'app3.db',
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, route TEXT); INSERT INTO runs (route) VALUES ('/home'); PRAGMA user_version = 3",
  );
  const before = sha(app);
  const r = await cli(['history', '--ledger', app]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /not a jsonbench ledger \(its tables: "runs"; user_version 3\)/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(sha(app), before, 'the database is unchanged');
});

test('an empty file as the ledger of a read is refused and stays empty', async () => {
  const empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  const r = await cli(['ledger', 'list', '--ledger', empty]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /is an empty SQLite database, not a jsonbench ledger/);
  assert.equal(readFileSync(empty).length, 0);
});
