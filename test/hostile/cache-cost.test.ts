import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickPayloadRunArgs, quickRunArgs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Caches the cache checks after the rounds could not see (hostile tester hx4, fixtures in
 * test/fixtures/hostile/hostile5/):
 *
 * - gap2-cache: a serializer caching by input object, forgetting after any 5 µs pause ("faster by
 *   10.5×"). The last op of each checked round runs on an input changed in place between two timed
 *   calls (measure/timed-check.ts roundChange): its output must follow the change.
 * - copy-cache: a parser caching by the whole text and handing out a deep copy ("3.90× faster"):
 *   every behaviour check passes; calls on texts it never saw cost far more than on the repeated
 *   one (measure/cache-checks.ts textCacheCost).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-cache-cost-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A quick run of `serializer` from `fixture`: its case and the baseline's. gap2-cache forgets itself after any 5 µs
 * pause, a preemption between two timed calls included: under load the call after the change made in place can find
 * its cache forgotten and do the work, so a run that does not find it is repeated, up to `attempts` runs in all (as
 * test/run/hostile-hx10.test.ts does); the last run's case is returned, so a cache never found still fails.
 */
async function run(fixture: string, serializer: string, direction: 'serialize' | 'deserialize', attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const out = join(dir, `${serializer}-${attempt}`);
    const config = join(root, 'test/fixtures/hostile/hostile5', fixture);
    const ran = await cli(quickRunArgs(config, serializer, direction, out), { timeoutMs: 300_000 });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
    const c = results.cases.find((x) => x.serializer === serializer)!;
    const baseline = results.cases.find((x) => x.serializer === 'json')!;
    if (c.status === 'incorrect' || attempt >= attempts) return { ran, c, baseline };
  }
}

test('a serializer whose cache of the input objects forgets itself after a 5 µs pause is incorrect', async () => {
  const { ran, c, baseline } = await run('gap2cache.config.mjs', 'gap2-cache', 'serialize');
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    c.reason!,
    /^result cached between calls \(round \d+, sample \d+\): the output did not follow a change made in place to its input \(\$\.[\w.[\]]+\) between two timed calls: /,
  );
  assert.equal(baseline.status, 'measured', baseline.reason);
});

test('a parser caching by the whole text and copying its result out is incorrect: new texts cost far more', async () => {
  const { ran, c, baseline } = await run('copycache.config.mjs', 'copy-cache', 'deserialize');
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    c.reason!,
    /a text it had never seen cost \d+\.\d× the repeated timed text per call \(same length and schema, one value changed; twice in a row\): results cached by the whole text/,
  );
  assert.equal(baseline.status, 'measured', baseline.reason);
});

/**
 * hx26 T1 (test/fixtures/hostile/hx26/const-cheat.config.mjs): answers made at load whenever the input is the payload's
 * own, the work otherwise, on a 67-byte payload (~0.2 µs per call against ~0.9 µs): the cost checks' blocks of 32
 * calls lasted a few µs, and the thread clock's read (10–35 µs) compressed their ratio to 1.0–1.9 ("faster by 5.38×").
 * Blocks that short are now timed on the wall clock (cache-checks.ts CostClocks).
 */
for (const direction of ['serialize', 'deserialize'] as const)
  test(`a ${direction === 'serialize' ? 'serializer' : 'parser'} answering the tiny payload's own input from load is incorrect`, async () => {
    const fixtures = join(root, 'test/fixtures/hostile/hx26');
    const out = join(dir, `const-cheat-${direction}`);
    const ran = await cli(
      quickPayloadRunArgs(
        join(fixtures, 'small.json'),
        'json,const-cheat',
        direction,
        out,
        join(fixtures, 'const-cheat.config.mjs'),
      ),
      { timeoutMs: 300_000 },
    );
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
    const c = results.cases.find((x) => x.serializer === 'const-cheat')!;
    const baseline = results.cases.find((x) => x.serializer === 'json')!;
    assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
    assert.match(
      c.reason!,
      direction === 'serialize' ? /an input object it had never seen/ : /a text it had never seen/,
    );
    assert.equal(baseline.status, 'measured', baseline.reason);
    assert.doesNotMatch(ran.stdout, /use const-cheat/);
  });
