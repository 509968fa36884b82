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
 * - leafcache-off: an identity cache that switches itself off for good after 20 inputs it has never seen (the cost
 *   check's), so new and repeated inputs cost the same there — "4.23× faster" on users · 1000 · list. Now a call on
 *   the timed input in the check may not cost over 3× its time in the rounds (cache-checks.ts slowerThanTimed).
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

test('a cache that switches itself off when the cost check shows it new inputs is incorrect: the timed input got slower than in the rounds', async () => {
  const out = join(dir, 'off');
  const ran = await cli(
    ['run', '--config', join(root, 'test/fixtures/hostile/hx10/leafcache-off.config.mjs')].concat(
      ['--workload', 'users', '--size', '1000', '--shape', 'list', '--serializer', 'leafoff'],
      ['--direction', 'serialize', '--policy', 'quick', '--no-probes', '--no-ledger', '--out', out],
    ),
    { timeoutMs: 300_000 },
  );
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const off = results.cases.find((x) => x.serializer === 'leafoff')!;
  assert.equal(off.status, 'incorrect', `${off.status}: ${off.reason ?? ''}\n${ran.stderr}`);
  // switched off, the repeated and the new inputs cost about the same: the greater of the two is said
  assert.match(
    off.reason!,
    /on the very input its rounds were timed on, a call cost \d+\.\d× its time in the rounds|an input it had never seen \(every value changed, same schema\) cost \d+\.\d× its time per op in the rounds/,
  );
  assert.equal(results.cases.find((x) => x.serializer === 'json')?.status, 'measured');
});

test('a cache that pads its hits to sit under the new-versus-repeated bound is incorrect: new inputs cost over 3× the rounds (hx11 leafpad)', async () => {
  const out = join(dir, 'pad');
  const ran = await cli(
    ['run', '--config', join(root, 'test/fixtures/hostile/hx10/leafcache-pad.config.mjs')].concat(
      ['--workload', 'users', '--size', '1000', '--shape', 'list', '--serializer', 'leafpad'],
      ['--direction', 'serialize', '--policy', 'quick', '--no-probes', '--no-ledger', '--out', out],
    ),
    { timeoutMs: 300_000 },
  );
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const pad = results.cases.find((x) => x.serializer === 'leafpad')!;
  assert.equal(pad.status, 'incorrect', `${pad.status}: ${pad.reason ?? ''}\n${ran.stderr}`);
  assert.match(
    pad.reason!,
    /an input it had never seen \(every value changed, same schema\) cost \d+\.\d× its time per op in the rounds/,
  );
});
