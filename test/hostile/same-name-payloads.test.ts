import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, quickPayloadRunArgs } from './support.js';

/**
 * hx24 CM2 (unclear): `report a/results.json b/results.json` of two runs whose payload files shared a name
 * (payload:small) but not their bytes showed them as one case on two targets, exit 0, no word (`merge` refuses
 * them; `compare` says the case times other bytes). report now warns, naming both files and hashes.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-same-name-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function quickRun(name: string, text: string): Promise<string> {
  mkdirSync(join(dir, name));
  const payload = join(dir, name, 'small.json');
  writeFileSync(payload, text);
  const out = join(dir, `${name}-out`);
  const ran = await cli(quickPayloadRunArgs(payload, 'json', 'serialize', out), { timeoutMs: 120_000 });
  assert.equal(ran.code, 0, ran.stderr);
  return join(out, 'results.json');
}

test('report of two runs of different payloads under one name warns that they are two payloads', async () => {
  const a = await quickRun('a', '{"id":1,"name":"a"}\n');
  const b = await quickRun('b', '{"id":2,"name":"bb","tags":["x","y","z"]}\n');
  const r = await cli(['report', a, b, '--format', 'md', '--out', join(dir, 'merged.md')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /warning: .* measured payload payload:small on different bytes \(sha256 [0-9a-f]{12}… and [0-9a-f]{12}…\): their rows are two payloads under one name/,
  );
});
