import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FileReadError, readDataFile } from '../../src/files/read-file.js';

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));

test('a loop of symbolic links is named as one, as a file read and as a --payload, not "no such file" or a raw ELOOP (hx35 p14, p15)', () => {
  const root = mkdtempSync(join(tmpdir(), 'jsonbench-loop-'));
  const dir = join(root, 'samples');
  mkdirSync(dir);
  try {
    const one = join(dir, 'loop1.json');
    symlinkSync(join(dir, 'loop2.json'), one);
    symlinkSync(one, join(dir, 'loop2.json'));
    writeFileSync(join(dir, 'ok.json'), '{"a":1}\n');
    assert.throws(
      () => readDataFile(one, 1024),
      (e: Error) => e instanceof FileReadError && /a loop of symbolic links/.test(e.message),
    );
    assert.throws(
      () => readDataFile(join(dir, 'missing.json'), 1024),
      (e: Error) => e instanceof FileReadError && /no such file/.test(e.message),
    );
    for (const payload of [one, dir]) {
      const r = spawnSync(
        process.execPath,
        [bin, 'run', '--payload', payload, '--policy', 'quick', '--no-ledger', '--out', join(root, 'out')],
        {
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, COLUMNS: '300' },
        },
      );
      assert.equal(r.status, 2, r.stderr);
      assert.match(
        r.stderr,
        /--payload: \S*loop1\.json: a loop of symbolic links \(each points on to the next, none to a file\)/,
      );
      assert.doesNotMatch(r.stderr, /ELOOP/);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a file stat calls regular that fails to read (/proc/self/mem: EIO) names the file and the error (hx37 f02)', () => {
  assert.throws(
    () => readDataFile('/proc/self/mem', 1024),
    (e: Error) =>
      e instanceof FileReadError && /^\/proc\/self\/mem: cannot be read \(EIO: i\/o error, read\)$/.test(e.message),
  );
});
