import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx19 E03/E04: a serializer that blocks (Atomics.wait) costs no CPU while a caller waits for it; timed on the process
 * CPU clock it read "Mean 26.0 µs" against 584 µs of wall time, and fast-json-stringify plus a 1 ms wait
 * "1.13 [0.37–3.46]". The `waits` finding (src/analysers/waits.ts) compares its wall over CPU time with its paired
 * baseline's in the same rounds: not ranked, not recommended. Fixture: test/fixtures/hostile/hx19/waits.config.mjs.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-waits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a serializer that waits 0.2 ms a call is found waiting, not ranked, and the table marks it ⌛', async () => {
  const out = join(dir, 'sleeper');
  const config = join(root, 'test/fixtures/hostile/hx19/waits.config.mjs');
  const ran = await cli(quickRunArgs(config, 'sleeper', 'serialize', out), { timeoutMs: 300_000 });
  assert.equal(ran.code, 0, ran.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = results.cases.find((x) => x.serializer === 'sleeper')!;
  assert.equal(c.status, 'measured', c.reason);
  const f = c.findings.find((x) => x.code === 'waits');
  assert.ok(f, JSON.stringify(c.findings));
  assert.match(
    f.message,
    /^it waits: its wall time per op is [\d.]+× its CPU time, its paired baseline's [\d.]+× in the same rounds/,
  );
  assert.match(ran.stdout, /sleeper .*⌛ waits/);
  // the baseline's own case: no such finding
  assert.ok(!results.cases.find((x) => x.serializer === 'json')!.findings.some((x) => x.code === 'waits'));
});
