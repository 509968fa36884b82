import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRunRequest } from '../../src/run/request.js';
import { UsageError } from '../../src/config/usage-error.js';

test('--out in a place no folder can be made (/proc) is a usage error naming --out and the path', async () => {
  await assert.rejects(
    resolveRunRequest({ out: '/proc/jsonbench-x', ledger: false, workload: ['weather-station'], serializer: ['json'] }),
    (e: unknown) =>
      e instanceof UsageError &&
      e.flag === '--out' &&
      /^--out: cannot make the folder \/proc\/jsonbench-x: ENOENT/.test(e.message),
  );
});

test('a usage error after --out was made takes the (still empty) folder away again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-out-'));
  try {
    const out = join(dir, 'new', 'results');
    await assert.rejects(
      resolveRunRequest({ cwd: dir, out, ledger: false, workload: ['no-such-workload'] }),
      (e: unknown) => e instanceof UsageError && e.flag === '--workload',
    );
    assert.equal(existsSync(join(dir, 'new')), false, 'neither the folder nor the parent made for it');
    assert.equal(existsSync(dir), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
