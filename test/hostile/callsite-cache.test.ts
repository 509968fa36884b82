import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx6 (false success ×8, "callsite-ser 5.71× faster", "callsite-par 47.0× faster"): a serializer and a
 * parser that read V8's call sites and answer from a cache only when called from the timed loop's
 * `op(i)` line in measure/timing.js, doing the real work for every check made from elsewhere (the
 * changed-in-place op at its own line, again(), the checks after the rounds, the gate). Every timed op,
 * the changed one included, is now called from one call site, and the one-before-last result is read
 * inside the timed loop: the serializer's output misses the change, the parser hands out one object
 * twice — both incorrect. Since hx24 (2026-12-07) the worker cuts jsonbench's frames from every trace user code
 * captures (src/worker/stack-screen.ts): the cheat never finds the timed loop's line, does the real work on every
 * call and is measured as what it is, slower than its baseline (it pays for the call sites it reads). Fixture:
 * test/fixtures/hostile/hx6/callsite-cache.config.mjs.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const configPath = join(root, 'test/fixtures/hostile/hx6/callsite-cache.config.mjs');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-callsite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const [direction, id] of [
  ['serialize', 'callsite-ser'],
  ['deserialize', 'callsite-par'],
] as const)
  test(`a ${direction === 'serialize' ? 'serializer' : 'parser'} that caches only calls from the timed loop's line never finds it: measured, not faster`, async () => {
    const out = join(dir, direction);
    const ran = await cli(quickRunArgs(configPath, `json,${id}`, direction, out), { timeoutMs: 300_000 });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
    const cheat = results.cases.find((c) => c.serializer === id)!;
    // incorrect (a check caught a cache) would do too; a ranked cache gain would not
    if (cheat.status !== 'incorrect') {
      assert.equal(cheat.status, 'measured', `${cheat.status}: ${cheat.reason ?? ''}\n${ran.stderr}`);
      assert.ok(cheat.ratio !== null && cheat.ratio > 0.9, `ratio ${cheat.ratio}: a cache's gain`);
    }
    const json = results.cases.find((c) => c.serializer === 'json' && c.direction === direction)!;
    assert.equal(json.status, 'measured', json.reason);
  });
