import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';

/**
 * hx5 U4: a worker that SIGKILLs jsonbench left a run whose rebuilt report said the case was "not
 * measured: the run was killed before this case", though the run was killed while measuring it. Each
 * launch now writes a `launching` line to launches.partial.jsonl as it begins (run/runner.ts), and the
 * rebuild says "killed while measuring this case" (run/recover.ts).
 */

const config = fileURLToPath(new URL('../../../test/fixtures/hostile/hx5/kill-parent.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-kill-parent-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the report rebuilt after a worker killed jsonbench names the case being measured as the one the run was killed in', async () => {
  const out = join(dir, 'killed');
  const ran = await cli(quickRunArgs(config, 'parent-killer', 'serialize', out), { timeoutMs: 120_000 });
  assert.equal(ran.signal, 'SIGKILL', ran.stderr);
  const report = await cli(['report', out, '--format', 'md']);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /parent-killer[^\n]*not measured: the run was killed while measuring this case/);
  assert.doesNotMatch(report.stdout, /parent-killer[^\n]*killed before this case/);
});
