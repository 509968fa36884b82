import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A parser that caches its result only while calls come less than 20 µs apart (hx3, issue 25,
 * fixture hx3/gapcache.config.mjs): the timed calls run back to back and hit it, the cache checks
 * after the rounds are spaced out and never see it ("faster by 25.5×"). At the end of each round the
 * sample's last op runs once more right after the timed loop (measure/timing.ts timeSample): the
 * same object twice is a cache, and the case is incorrect.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const configPath = join(root, 'test/fixtures/hostile/hx3/gapcache.config.mjs');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-gap-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a parser whose cache forgets itself when calls are spaced out is incorrect: two calls in a row returned the same object', async () => {
  const out = join(dir, 'gap');
  const ran = await cli(quickRunArgs(configPath, 'json,gap-cache', 'deserialize', out), { timeoutMs: 300_000 });
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const gap = results.cases.find((c) => c.serializer === 'gap-cache' && c.direction === 'deserialize')!;
  assert.equal(gap.status, 'incorrect', `${gap.status}: ${gap.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    gap.reason!,
    /^result shared between calls \(round \d+, sample \d+\): two (timed calls in a row|calls in a row on the same text) returned the same object \(a cache of results\)$/,
  );
  const json = results.cases.find((c) => c.serializer === 'json' && c.direction === 'deserialize')!;
  assert.equal(json.status, 'measured', json.reason);
});
