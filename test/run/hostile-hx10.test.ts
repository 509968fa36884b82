import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx10's false successes (main 23d8b4e) run for real (`jsonbench run`, quick policy); fixtures in
 * test/fixtures/hostile/hx10/:
 *
 * - lazy-validator: validates its first 200 calls (the gate's invalid texts are rejected), then is JSON.parse —
 *   hx10's lazyajv was "faster by 1.27×" than typebox. Now the invalid texts are given again after the rounds.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-hx10-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a validator that stops validating after the gate is incorrect: the invalid payloads are given again after the rounds', async () => {
  const out = join(dir, 'lazy');
  const ran = await cli(
    ['run', '--config', join(root, 'test/fixtures/hostile/hx10/lazy-validator.config.mjs')].concat(
      ['--workload', 'weather-station', '--serializer', 'typebox,lazy-validator', '--direction', 'deserialize'],
      ['--policy', 'quick', '--no-probes', '--no-ledger', '--out', out],
    ),
    { timeoutMs: 300_000 },
  );
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const lazy = results.cases.find((x) => x.serializer === 'lazy-validator')!;
  assert.equal(lazy.status, 'incorrect', `${lazy.status}: ${lazy.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    lazy.reason!,
    /^after the timed rounds, does not validate: accepted a payload with .* \(it rejected such payloads at the gate: it stopped validating once timed\)/,
  );
  assert.equal(results.cases.find((x) => x.serializer === 'typebox')?.status, 'measured');
});
