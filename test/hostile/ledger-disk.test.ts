import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diskErrorOr, LedgerFileError } from '../../src/ledger/schema.js';
import { cli } from './support.js';

/**
 * The ledger on a full disk (hostile tester hx2, crash): `ledger list`, `history` and `ledger import`
 * said "disk I/O error (an internal error: … please report it)". SQLite's disk errors now name the
 * ledger, say the disk is full (statfs) and that nothing was lost (ledger/schema.ts diskErrorOr).
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-full-'));
const mounts: string[] = [];
after(() => {
  for (const m of mounts) execFileSync('umount', [m]);
  rmSync(dir, { recursive: true, force: true });
});

test('diskErrorOr: SQLITE_FULL names the ledger, a full disk and that nothing was lost; an I/O error where there is space says the disk refused; other errors pass', () => {
  const full = diskErrorOr(
    '/x/ledger.db',
    Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
  );
  assert.ok(full instanceof LedgerFileError);
  assert.equal(
    full.message,
    'ledger /x/ledger.db: the disk holding it is full (SQLite: database or disk is full, SQLITE_FULL); nothing in it was lost (a write that fails is rolled back); free some space there, or pass --ledger with a file on another disk (or --no-ledger for a run)',
  );
  const io = diskErrorOr(join(dir, 'l.db'), Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }));
  assert.match(
    (io as Error).message,
    /: the disk refused a read or write \(SQLite: disk I\/O error, SQLITE_IOERR_WRITE\); nothing in it was lost/,
  );
  const other = Object.assign(new Error('no such table'), { code: 'SQLITE_ERROR' });
  assert.equal(diskErrorOr('/x/ledger.db', other), other);
});

/** Mounts a tmpfs of `size` at `mnt` (root only); returns why not, or false. */
function mountTmpfs(mnt: string, size: string): string | false {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root on Linux to mount a small tmpfs';
  mkdirSync(mnt);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt], { stdio: 'ignore' });
  } catch {
    return 'mount -t tmpfs is not permitted here';
  }
  mounts.push(mnt);
  return false;
}

test('ledger list, history and ledger import on a full disk: exit 2 naming the ledger, "the disk holding it is full", "nothing in it was lost"', async (t) => {
  const mnt = join(dir, 'tiny');
  const why = mountTmpfs(mnt, '120k');
  if (why) return t.skip(why);
  const ledger = join(mnt, 'l.db');
  // the 4 KiB ledger a full disk left (hx2 ledgers/half-initialised.db), then the disk filled
  copyFileSync(
    fileURLToPath(new URL('../../../test/fixtures/hostile/hostile3/half-initialised.db', import.meta.url)),
    ledger,
  );
  try {
    writeFileSync(join(mnt, 'fill'), Buffer.alloc(1024 * 1024));
  } catch {
    /* full */
  }
  const results = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));
  for (const args of [['ledger', 'list'], ['history'], ['ledger', 'import', results]]) {
    const ran = await cli([...args, '--ledger', ledger]);
    assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
    assert.match(
      ran.stderr,
      new RegExp(`ledger ${ledger.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the disk holding it is full \\(SQLite: `),
    );
    assert.match(ran.stderr, /nothing in it was lost/);
    assert.doesNotMatch(ran.stderr, /internal error/);
  }
});

test('ledger list, history and ledger export read a ledger on a read-only disk (from a private copy), leaving it as it was (hx2: "a place this user cannot write")', async (t) => {
  const mnt = join(dir, 'ro');
  const why = mountTmpfs(mnt, '2m');
  if (why) return t.skip(why);
  const ledger = join(mnt, 'l.db');
  const results = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));
  const imported = await cli(['ledger', 'import', results, '--ledger', ledger]);
  assert.equal(imported.code, 0, imported.stderr);
  execFileSync('mount', ['-o', 'remount,ro', mnt]);
  const before = readdirSync(mnt).sort();
  const list = await cli(['ledger', 'list', '--ledger', ledger]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^│ +1 │ /m);
  const history = await cli(['history', '--ledger', ledger]);
  assert.equal(history.code, 0, history.stderr);
  assert.match(history.stdout, /from 1 run/);
  const out = join(dir, 'exported.json');
  const exported = await cli(['ledger', 'export', '1', '--ledger', ledger, '--out', out]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).startedAt, JSON.parse(readFileSync(results, 'utf8')).startedAt);
  assert.deepEqual(readdirSync(mnt).sort(), before, 'nothing written beside the ledger');
});
