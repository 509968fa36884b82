import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, quickRunArgs, scratchConfigs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A serializer whose prepare() freezes `performance.now` in its worker (hx24 PG2): the pilot read every sample as
 * lasting nothing and doubled its ops until the 60 s case timeout ("no result after 60 s; worker killed"). A timed
 * sample whose wall clock stands still while the CPU clock reads a millisecond or more now fails its case, saying so
 * (measure/clock.ts WallClockStopped).
 */

const { dir, config } = scratchConfigs('frozen-clock');

test('a serializer that freezes performance.now fails its own case at once, saying the clock stood still (hx24 PG2: a 60 s timeout)', async () => {
  const file = config(
    'frozen.config.mjs',
    `export default { serializers: [{ id: 'frozen-clock', family: 'builtin', directions: ['serialize'], supports: () => true,
  prepare: () => { performance.now = () => 0; return { serialize: (v) => JSON.stringify(v) }; } }], workloads: [] };
`,
  );
  const out = join(dir, 'out');
  const t0 = Date.now();
  const ran = await cli(quickRunArgs(file, 'json,frozen-clock', 'serialize', out), { timeoutMs: 120_000 });
  assert.ok(Date.now() - t0 < 45_000, `took ${Date.now() - t0} ms: the case timeout is 60 s`);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = results.cases.find((x) => x.serializer === 'frozen-clock')!;
  assert.equal(c.status, 'failed', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    c.reason!,
    /performance\.now\(\) did not move over a timed sample that took \d+\.\d ms of CPU: code in the worker replaced or froze it/,
  );
  assert.equal(results.cases.find((x) => x.serializer === 'json')!.status, 'measured');
});
