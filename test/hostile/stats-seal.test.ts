import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';

/**
 * jsonbench's statistics library is sealed before user code loads (hostile tester hx4, security: a
 * config set `jStat.studentt.inv = () => 0.001` through the require cache and every interval in
 * results.json collapsed). case/stats-seal.ts freezes it; a config assigning to it is refused.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-stats-seal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the quantiles jsonbench uses are frozen and right', async () => {
  const { statisticsIntact } = await import('../../src/case/stats-seal.js');
  const { createRequire } = await import('node:module');
  const m = createRequire(import.meta.url)('jstat') as { jStat: { studentt: { inv: unknown } } };
  assert.ok(Object.isFrozen(m.jStat.studentt));
  assert.throws(() => {
    m.jStat.studentt.inv = () => 0.001;
  }, TypeError);
  assert.equal(statisticsIntact(), true);
});

test('a config that patches jStat.studentt.inv is refused before anything is measured, naming the config', async () => {
  const config = fileURLToPath(
    new URL('../../../test/fixtures/hostile/hostile5/jstat-patch.config.mjs', import.meta.url),
  );
  const out = join(dir, 'run');
  const ran = await cli(quickRunArgs(config, 'plain3', 'serialize', out), { timeoutMs: 300_000 });
  assert.equal(ran.code, 2, ran.stdout);
  assert.match(ran.stderr, /jstat-patch\.config\.mjs: import:\s+Cannot assign to read only property 'inv'/);
  assert.doesNotMatch(ran.stdout, /plain3/);
});
