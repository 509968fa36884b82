import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdtempSync, rmSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFolder } from '../../src/case/make-folder.js';

/**
 * case/make-folder.ts makeFolder's mode and its fs functions taken at load (what results/integrity.ts needs of it
 * for the integrity key's folder, mode 0700); the rest of its behaviour: test/files/make-folder.test.ts.
 */

const root = mkdtempSync(join(tmpdir(), 'jsonbench-case-make-folder-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('every level makeFolder makes gets the mode asked for; a folder that exists keeps its own', () => {
  const old = process.umask(0o022);
  try {
    makeFolder(join(root, 'open'));
    makeFolder(join(root, 'open', 'a', 'b'), 0o700);
    const mode = (p: string) => statSync(p).mode & 0o777;
    assert.equal(mode(join(root, 'open')), 0o755, 'default: 0o777 less the umask');
    assert.equal(mode(join(root, 'open', 'a')), 0o700);
    assert.equal(mode(join(root, 'open', 'a', 'b')), 0o700);
  } finally {
    process.umask(old);
  }
});

test('makeFolder uses the fs functions of its load, not fs patched afterwards', () => {
  const saved = fs.mkdirSync;
  let patchedCalls = 0;
  try {
    fs.mkdirSync = ((...a: Parameters<typeof saved>) => {
      patchedCalls++;
      return saved(...a);
    }) as typeof fs.mkdirSync;
    syncBuiltinESMExports();
    makeFolder(join(root, 'patched', 'x'));
  } finally {
    fs.mkdirSync = saved;
    syncBuiltinESMExports();
  }
  assert.ok(statSync(join(root, 'patched', 'x')).isDirectory());
  assert.equal(patchedCalls, 0);
});
