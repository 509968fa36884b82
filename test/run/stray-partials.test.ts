import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepStrayPartials } from '../../src/run/recover.js';

const root = mkdtempSync(join(tmpdir(), 'jsonbench-stray-partials-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a launch log left without its run header is moved aside, never emptied (hx4: 58,902 bytes lost silently)', () => {
  const dir = mkdtempSync(join(root, 'orphan-'));
  writeFileSync(join(dir, 'launches.partial.jsonl'), '{"launch":1}\n');
  writeFileSync(join(dir, 'results.partial.jsonl'), '');
  const kept = keepStrayPartials(dir);
  assert.ok(kept);
  assert.deepEqual(kept.files, ['launches.partial.jsonl']);
  assert.equal(readFileSync(join(kept.to, 'launches.partial.jsonl'), 'utf8'), '{"launch":1}\n');
  assert.equal(existsSync(join(dir, 'launches.partial.jsonl')), false);
  // an empty partial file holds nothing to keep
  assert.equal(existsSync(join(kept.to, 'results.partial.jsonl')), false);
});

test('a folder without partial files keeps nothing aside', () => {
  assert.equal(keepStrayPartials(mkdtempSync(join(root, 'clean-'))), undefined);
});
