import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConformanceFolder } from '../../src/probes/catalog/conformance-folder.js';

/**
 * hx22 CF2 (security): a `--conformance` folder from someone else held `y_key.json ->
 * ~/.ssh/id_ed25519`; `probe --conformance` read the key and wrote its text into report.md,
 * report.html and results.json, exit 0. A link whose real path lies outside the folder is now
 * listed as skipped, never read; a link within the folder is read as before.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-conformance-links-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a link out of the conformance folder is skipped and never read; a link within it is read', () => {
  const secret = join(dir, 'secret');
  mkdirSync(secret);
  writeFileSync(join(secret, 'id_ed25519'), '"-----BEGIN OPENSSH PRIVATE KEY----- FAKEKEYMATERIAL"');
  writeFileSync(join(secret, 'y_private.json'), '"FAKEKEYMATERIAL"');
  const suite = join(dir, 'suite');
  mkdirSync(join(suite, 'sub'), { recursive: true });
  writeFileSync(join(suite, 'y_ok.json'), '[1]');
  symlinkSync(join(secret, 'id_ed25519'), join(suite, 'y_key.json'));
  symlinkSync(secret, join(suite, 'sub', 'away'));
  symlinkSync(join(suite, 'y_ok.json'), join(suite, 'sub', 'y_again.json'));
  const { set, skipped } = readConformanceFolder(suite);
  const read = set.files.map((f) => f.path).sort();
  assert.deepEqual(read, ['sub/y_again.json', 'y_ok.json']);
  assert.ok(set.files.every((f) => !f.text.includes('FAKEKEYMATERIAL')));
  const why = new Map(skipped.map((s) => [s.file, s.reason]));
  assert.match(why.get('y_key.json') ?? '', /^is a link to a file outside the folder: not read/);
  assert.match(why.get('sub/away') ?? '', /^is a link to a folder outside the folder: not read/);
});
