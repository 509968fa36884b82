import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, quickPayloadRunArgs } from './support.js';

/**
 * hx20 a05 (unclear): a run.partial.json in --out that was a symbolic link (to a user's file) was announced as
 * "held a killed run's measured cases". It is moved aside as before (the file it points to untouched), said as what
 * it is.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-linked-partial-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a partial file that is a symbolic link is moved aside as a link, not announced as a killed run', async () => {
  const victim = join(dir, 'notes.json');
  writeFileSync(victim, '{"mine":true}\n');
  const out = join(dir, 'out');
  mkdirSync(out);
  symlinkSync(victim, join(out, 'run.partial.json'));
  const payload = join(dir, 'small.json');
  writeFileSync(payload, '{"id":1,"name":"a"}\n');
  const ran = await cli(quickPayloadRunArgs(payload, 'json', 'serialize', out), { timeoutMs: 120_000 });
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stderr, /held run\.partial\.json as symbolic link, not files a run writes: moved to .*killed-/);
  assert.doesNotMatch(ran.stderr, /held a killed run's measured cases/);
  assert.equal(readFileSync(victim, 'utf8'), '{"mine":true}\n');
});
