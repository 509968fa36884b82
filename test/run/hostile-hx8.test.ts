import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx8's false successes of sections 5–7, run for real (`jsonbench run`, quick policy); fixtures in
 * test/fixtures/hostile/hx8/ (copies of hx8's cfg7/cfg8 configs; the throttled cache at 0.85× by default):
 *
 * - sometimes-wrong (hx7 F3, section 5): JSON.stringify with one digit changed on every 17th call, beside typia:
 *   "within noise" and exit 0 under `--fail-on incorrect` — now the calls drawn at random in every sample
 *   (src/measure/check-schedule.ts) catch it.
 * - fewcheck (section 6): a "validator" checking the first object's keys and one leaf's type: tabled as a validator
 *   on users · 1000 — now it is given a wrong type at every field, each at a random item (src/measure/rejects.ts).
 * - tsparse (section 7): a cache keyed by the input object validated at the first, middle and last leaf (±8), its
 *   hit spun to 0.85× of a miss: "looks 1.26× faster" — now changes in place at random leaves between timed calls
 *   (src/measure/in-place.ts roundChanges) see its stale text.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-hx8-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A quick `jsonbench run` (test/hostile/support.ts quickRunArgs: no probes, no ledger) of `serializers` from the hx8
 * config `fixture` on users at `size` (and `shape`, absent: every shape) in one direction, `extra` flags added, into
 * `<dir>/<name>`; the process (bounded to 300 s) and its results.json. Throws when it wrote no results.json.
 */
async function run(
  name: string,
  fixture: string,
  serializers: string,
  direction: 'serialize' | 'deserialize',
  matrix: { size: number; shape?: 'list' },
  extra: string[] = [],
) {
  const out = join(dir, name);
  const config = join(root, 'test/fixtures/hostile/hx8', fixture);
  const args = quickRunArgs(config, serializers, direction, out, { workload: 'users', ...matrix });
  const ran = await cli([...args, ...extra], { timeoutMs: 300_000 });
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  return { ran, results };
}

test('hx7 F3 beside typia: wrong on every 17th call is incorrect, and --fail-on incorrect exits 1', async () => {
  const { ran, results } = await run(
    'sw',
    'sometimes-wrong.config.mjs',
    'typia,sometimes-wrong',
    'serialize',
    { size: 100, shape: 'list' },
    ['--fail-on', 'incorrect'],
  );
  const c = results.cases.find((x) => x.serializer === 'sometimes-wrong')!;
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  // caught by a call drawn at random, or by the sample's last op when the 17th call falls there (pilot or round)
  assert.match(c.reason!, /^result changed after the gate \([^)]*\): output differs at \$\[\d+\]\.\w+/);
  assert.equal(ran.code, 1, ran.stderr);
  for (const id of ['json', 'typia'])
    assert.equal(results.cases.find((x) => x.serializer === id)?.status, 'measured', id);
});

test('hx8 fewcheck is incorrect on users · 1000 · list and many ("does not validate")', async () => {
  const { ran, results } = await run('fewcheck', 'fewcheck.config.mjs', 'fewcheck', 'deserialize', { size: 1000 });
  const mine = results.cases.filter((x) => x.serializer === 'fewcheck');
  assert.equal(mine.length, 2, ran.stderr);
  for (const c of mine) {
    assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}`);
    assert.match(c.reason!, /does not validate: accepted a payload with (a wrong type at|no) \$/);
  }
});

test('hx8 tsparse at 0.85× of a miss is incorrect on users · 1000 · list (a change at a random leaf)', async () => {
  const { ran, results } = await run('tsparse', 'throttled-sparsecache.config.mjs', 'tsparse', 'serialize', {
    size: 1000,
    shape: 'list',
  });
  const c = results.cases.find((x) => x.serializer === 'tsparse')!;
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(c.reason!, /the output did not follow a change made in place to its input/);
  assert.equal(results.cases.find((x) => x.serializer === 'json')?.status, 'measured');
});
