import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restoreSealed, sealWritten } from '../../src/files/process-end.js';

/** files/process-end.ts: a sealed file changed (or removed) before the end is written back and named. */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-process-end-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a sealed file is left alone while unchanged, and written back with a line naming it once changed or removed', () => {
  const path = join(dir, 'results.json');
  writeFileSync(path, '{"ratio":1.02}\n');
  sealWritten(path);
  assert.deepEqual(restoreSealed(), []);
  writeFileSync(path, '{"ratio":0.3}\n');
  const lines = restoreSealed();
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    /results\.json was changed after jsonbench wrote it, by code running in this process.*wrote it back/,
  );
  assert.equal(readFileSync(path, 'utf8'), '{"ratio":1.02}\n');
  rmSync(path);
  assert.match(restoreSealed()[0], /was removed after jsonbench wrote it/);
  assert.equal(readFileSync(path, 'utf8'), '{"ratio":1.02}\n');
  assert.deepEqual(restoreSealed(), []);
});
