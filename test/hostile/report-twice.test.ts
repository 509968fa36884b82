import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, results } from './support.js';

/** `report a.json a.json` showed one run twice, as two runs side by side (hostile tester hx4): refused, naming the file. */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-report-twice-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('report refuses one results file given twice, by name or as its folder', async () => {
  const folder = join(dir, 'run');
  mkdirSync(folder);
  const file = join(folder, 'results.json');
  writeFileSync(file, JSON.stringify(results()));
  const twice = await cli(['report', file, file, '--format', 'md', '--out', '-']);
  assert.equal(twice.code, 2, twice.stdout);
  assert.match(twice.stderr, /results\.json is given twice: each results file is read once/);
  const asFolder = await cli(['report', folder, file, '--format', 'md', '--out', '-']);
  assert.equal(asFolder.code, 2, asFolder.stdout);
  assert.match(
    asFolder.stderr,
    /run and .*results\.json are the same file \(.*results\.json\): each results file is read once/,
  );
});

test('report refuses two copies of one run (hx6: "Recommendation (#1)" and "(#2)" alike, never said to be one run)', async () => {
  const a = join(dir, 'copyA.json');
  const b = join(dir, 'copyB.json');
  writeFileSync(a, JSON.stringify(results()));
  writeFileSync(b, JSON.stringify(results()));
  const r = await cli(['report', a, b, '--format', 'md', '--out', '-']);
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /copyA\.json and .*copyB\.json hold the same run \(started .*\): each run is shown once/);
  // two different runs still report side by side
  const other = results();
  other.startedAt = new Date(Date.parse(other.startedAt) - 3_600_000).toISOString();
  other.finishedAt = new Date(Date.parse(other.finishedAt!) - 3_600_000).toISOString();
  const c = join(dir, 'copyC.json');
  writeFileSync(c, JSON.stringify(other));
  const two = await cli(['report', a, c, '--format', 'md', '--out', '-']);
  assert.equal(two.code, 0, two.stderr);
});
