import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx12 RW-997 (and every attacker since): JSON.stringify and JSON.parse wrong on every 997th call only, one digit
 * changed, were measured and ranked "within noise": the calls drawn at random while timing check a few hundred calls
 * of a quick case, 1 − (1 − 1/997)^C. Now a run of calls back to back after the rounds (up to 2,000; every result
 * compared: src/measure/timed-check.ts runStreak) holds a wrong one whatever the serializer counts. Fixture:
 * test/fixtures/hostile/hx12/rarely-wrong.config.mjs; weather-station (a small payload: the run is 2,000 calls).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-rarely-wrong-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config = join(root, 'test/fixtures/hostile/hx12/rarely-wrong.config.mjs');

for (const direction of ['serialize', 'deserialize'] as const)
  test(`wrong on every 997th call (${direction}) is incorrect and --fail-on incorrect exits 1`, async () => {
    const out = join(dir, direction);
    const ran = await cli(
      [...quickRunArgs(config, 'rarely-wrong', direction, out, { shape: 'single' }), '--fail-on', 'incorrect'],
      { timeoutMs: 300_000 },
    );
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
    const c = results.cases.find((x) => x.serializer === 'rarely-wrong')!;
    assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
    assert.match(c.reason!, /^result changed after the gate \([^)]*\): (output|result) differs at \$/);
    assert.equal(ran.code, 1, ran.stderr);
    assert.equal(results.cases.find((x) => x.serializer === 'json')?.status, 'measured');
  });
