import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';

/**
 * hx5 (security, analyser-off): a config runs in the jsonbench host and can import jsonbench's own
 * modules; it assigned `.analyse = () => []` on the exported analyser objects (tooFast, noisy,
 * meanRatio, …) and the findings that keep a case out of the ranking vanished. What jsonbench
 * registers (each analyser, their list, the workload and serializer registries and the built-in
 * entries they load) is frozen when its module loads: such an assignment throws.
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/hx5/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-frozen-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a config assigning an analyser's analyse() is refused: the run stops with exit 2 naming the config and the read-only property", async () => {
  const ran = await cli(quickRunArgs(fixture('analyser-off.config.mjs'), 'json', 'serialize', join(dir, 'off')), {
    timeoutMs: 120_000,
  });
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /analyser-off\.config\.mjs/);
  assert.match(ran.stderr, /read[- ]only property 'analyse'/);
});

test('no change a config makes to the analysers, their list, the serializer registry or a built-in adapter goes through', async () => {
  const record = join(dir, 'went.json');
  const ran = await cli(quickRunArgs(fixture('registry-off.config.mjs'), 'json', 'serialize', join(dir, 'reg')), {
    env: { JSONBENCH_TEST_OUT: record },
    timeoutMs: 120_000,
  });
  assert.deepEqual(JSON.parse(readFileSync(record, 'utf8')), [], ran.stderr);
});
