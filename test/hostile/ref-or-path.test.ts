import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';

/**
 * hx20 a35 (unclear): `compare base latest` in a folder holding a folder named `latest` compared it, where the user
 * may have meant the ledger's latest run, without a word. The path still wins, and compare says so.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ref-or-path-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fixture = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));

test('a compare argument that is both a path and a ledger reference is read as the path, saying so', async () => {
  mkdirSync(join(dir, 'latest'));
  copyFileSync(fixture, join(dir, 'latest', 'results.json'));
  copyFileSync(fixture.replace('single.json', 'default-suite.json'), join(dir, 'base.json'));
  const r = await cli(['compare', 'base.json', 'latest'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /jsonbench compare: <head> "latest" is read as the folder .*latest, not the ledger's run latest; for the ledger's, run compare from another folder/,
  );
  // a plain file name says nothing
  assert.doesNotMatch(r.stderr, /"base\.json" is read as/);
});
