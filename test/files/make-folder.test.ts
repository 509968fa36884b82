import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFolder } from '../../src/files/make-folder.js';

/** Output folders: made with their parents; a path the kernel refuses (under /proc) fails at once instead of spinning. */

const root = mkdtempSync(join(tmpdir(), 'jsonbench-out-dir-'));
after(() => rmSync(root, { recursive: true, force: true }));
const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));

test('makeFolder makes missing parents and accepts an existing folder', () => {
  const deep = join(root, 'a', 'b', 'c');
  makeFolder(deep);
  assert.ok(statSync(deep).isDirectory());
  makeFolder(deep);
  makeFolder(root);
});

test('makeFolder refuses a file in the way, naming it', () => {
  const file = join(root, 'file');
  writeFileSync(file, '');
  assert.throws(
    () => makeFolder(join(file, 'sub')),
    (e: NodeJS.ErrnoException) => (e.code === 'ENOTDIR' || e.code === 'EEXIST') && e.message.includes(file),
  );
});

const procUsable = existsSync('/proc/self');
test(
  'makeFolder under /proc fails with ENOENT at once (recursive mkdirSync spins there forever)',
  { skip: procUsable ? false : 'no /proc on this system' },
  () => {
    assert.throws(
      () => makeFolder('/proc/jsonbench-nope/x'),
      (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
    );
  },
);

test(
  'jsonbench run --out under /proc exits 2 naming --out, the path and the file-system error, within seconds',
  { skip: procUsable ? false : 'no /proc on this system', timeout: 60_000 },
  async () => {
    const t0 = performance.now();
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          bin,
          'run',
          '--policy',
          'quick',
          '--workload',
          'weather-station',
          '--serializer',
          'json',
          '--out',
          '/proc/jsonbench-nope/out',
        ],
        { cwd: root, env: { ...process.env, JSONBENCH_LEDGER: 'off', COLUMNS: '1000' }, timeout: 50_000 },
        (error, _o, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
      );
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^jsonbench: error: --out: cannot make the folder \/proc\/jsonbench-nope\/out: ENOENT: no such file or directory, mkdir '\/proc\/jsonbench-nope'/m,
    );
    assert.ok(performance.now() - t0 < 30_000);
  },
);
