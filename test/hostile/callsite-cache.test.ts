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
 * twice — both incorrect. Fixture: test/fixtures/hostile/hx6/callsite-cache.config.mjs.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const configPath = join(root, 'test/fixtures/hostile/hx6/callsite-cache.config.mjs');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-callsite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const [direction, id, reason] of [
  [
    'serialize',
    'callsite-ser',
    /^result cached between calls \(round \d+, sample \d+\): the output did not follow a change/,
  ],
  [
    'deserialize',
    'callsite-par',
    /^result shared between calls \(round \d+, sample \d+\): two timed calls in a row returned the same object/,
  ],
] as const)
  test(`a ${direction === 'serialize' ? 'serializer' : 'parser'} that caches only calls from the timed loop's line is incorrect`, async () => {
    const out = join(dir, direction);
    const ran = await cli(quickRunArgs(configPath, `json,${id}`, direction, out), { timeoutMs: 300_000 });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
    const cheat = results.cases.find((c) => c.serializer === id)!;
    assert.equal(cheat.status, 'incorrect', `${cheat.status}: ${cheat.reason ?? ''}\n${ran.stderr}`);
    assert.match(cheat.reason!, reason);
    const json = results.cases.find((c) => c.serializer === 'json' && c.direction === direction)!;
    assert.equal(json.status, 'measured', json.reason);
  });
