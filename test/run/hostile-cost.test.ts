import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx7's caches that every check of behaviour let through, run for real (`jsonbench run`, quick policy): each is
 * `incorrect` by the cost checks made after the rounds (src/measure/cache-checks.ts), its baseline measured.
 * Fixtures: test/fixtures/hostile/hostile8/.
 *
 * - leafcache (F1): a serializer cache keyed by the input object, validated by a `===` walk over every key and
 *   leaf: "leafcache on users · 1000 · list (4.71× faster)" at the default policy.
 * - tcopy (F2): a parser caching by the whole text, its hit spun to 0.55× of a parse: "1.86× faster" on
 *   users · 100 · list, under the old 2.5× text cost threshold.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-cost-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(fixture: string, serializer: string, direction: 'serialize' | 'deserialize', size: number) {
  const out = join(dir, serializer);
  const config = join(root, 'test/fixtures/hostile/hostile8', fixture);
  const ran = await cli(quickRunArgs(config, serializer, direction, out, { workload: 'users', size, shape: 'list' }), {
    timeoutMs: 300_000,
  });
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = results.cases.find((x) => x.serializer === serializer)!;
  const baseline = results.cases.find((x) => x.serializer === 'json')!;
  return { ran, c, baseline };
}

test('a serializer caching by input object behind a === walk (hx7 leafcache) is incorrect on users · 1000 · list', async () => {
  const { ran, c, baseline } = await run('leafcache.config.mjs', 'leafcache', 'serialize', 1000);
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    c.reason!,
    /an input object it had never seen \(every value changed, same schema\) cost \d+\.\d× the input it was timed on/,
  );
  assert.equal(baseline.status, 'measured', baseline.reason);
});

test('a whole-text copy cache throttled to 0.55× of a parse (hx7 tcopy) is incorrect on users · 100 · list', async () => {
  const { ran, c, baseline } = await run('throttled-copycache.config.mjs', 'tcopy', 'deserialize', 100);
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(c.reason!, /a text it had never seen cost \d+\.\d× the repeated timed text per call/);
  assert.equal(baseline.status, 'measured', baseline.reason);
});
