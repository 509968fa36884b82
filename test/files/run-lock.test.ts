import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockRunFolder, RunLockError } from '../../src/files/run-lock.js';

const root = mkdtempSync(join(tmpdir(), 'jsonbench-run-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a lock another run has just created but not yet written (empty) is refused as being written, never taken over', () => {
  // the race CI met: two runs started together; the second read the first's lock while it was still empty
  const folder = mkdtempSync(join(root, 'fresh-'));
  writeFileSync(join(folder, '.jsonbench-run.lock'), '');
  assert.throws(
    () => lockRunFolder(folder),
    (e: unknown) => e instanceof RunLockError && /its lock is being written/.test((e as Error).message),
  );
});

test('an empty lock left long ago (a run killed while writing it) is taken over', () => {
  const folder = mkdtempSync(join(root, 'stale-'));
  const path = join(folder, '.jsonbench-run.lock');
  writeFileSync(path, '');
  const longAgo = new Date(Date.now() - 60_000);
  utimesSync(path, longAgo, longAgo);
  const lock = lockRunFolder(folder);
  assert.deepEqual(lock.tookOver, {});
  assert.equal(lock.owner.pid, process.pid);
  lock.release();
});

test('a folder where the lock file cannot be made is named as --out (hx17 OUT-proc)', () => {
  // a path under a regular file: ENOTDIR, whoever runs the test (root writes through read-only modes)
  const file = join(root, 'not-a-folder');
  writeFileSync(file, 'x');
  assert.throws(
    () => lockRunFolder(join(file, 'out')),
    (e: NodeJS.ErrnoException) =>
      /^--out .*not-a-folder\/out: jsonbench cannot create its lock file there \(ENOTDIR: not a directory, open '[^']*\.jsonbench-run\.lock'\); give --out a folder/.test(
        e.message,
      ) && e.code === 'ENOTDIR',
  );
});
