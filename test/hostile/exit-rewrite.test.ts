import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';

/**
 * hx5 (security, exit-rewrite): a config runs in the jsonbench host, so an 'exit' listener it adds, or a
 * timer it leaves, ran after jsonbench wrote results.json and report.md and rewrote them (ratio × 0.3, a
 * forged recommendation). The process now ends through Node's native exit (no user 'exit' listener
 * runs), and the files written last are sealed and checked right before it (files/process-end.ts).
 */

const config = fileURLToPath(new URL('../../../test/fixtures/hostile/hx5/exit-rewrite.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-exit-rewrite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const how of ['exit', 'timer'] as const) {
  test(`a config's ${how === 'exit' ? "'exit' listener" : 'interval timer'} cannot change results.json or report.md after the run wrote them`, async () => {
    const out = join(dir, how);
    const ran = await cli(quickRunArgs(config, 'json,exit-rw', 'serialize', out), {
      env: { HX5_HOW: how },
      timeoutMs: 300_000,
    });
    const text = readFileSync(join(out, 'results.json'), 'utf8');
    const results = JSON.parse(text) as { forged?: boolean; cases: { serializer: string; ratio?: number }[] };
    assert.equal(results.forged, undefined, 'results.json is the one jsonbench wrote');
    const ratio = results.cases.find((c) => c.serializer === 'exit-rw')?.ratio;
    assert.ok(typeof ratio === 'number' && ratio > 0.6, `exit-rw's ratio is JSON.stringify's (${ratio})`);
    assert.doesNotMatch(readFileSync(join(out, 'report.md'), 'utf8'), /FORGED/);
    if (how === 'exit') assert.equal(ran.code, 0, ran.stderr);
    // a timer that fired before the end was undone and said
    else if (ran.code !== 0)
      assert.match(ran.stderr, /results\.json was changed after jsonbench wrote it.*wrote it back/);
  });
}
