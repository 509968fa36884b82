import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';
import { readResults } from '../../src/results/io.js';

/**
 * `jsonbench probe` of a serializer that hangs on every call (issue 25, hostile tester hx1, "hang"):
 * each of its 680 probe sides cost the 120 s timeout, about 22.7 h, where a timed run's probe pass
 * skips a serializer's other probes after its first hang and has a 15-minute budget. `probe` now
 * has both: the first side is ✗ hang, the rest skipped naming it; `--probe-budget` bounds the pass.
 */

const config = fileURLToPath(new URL('../../../test/fixtures/hostile/run-ends.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-probe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const verdictsOf = (out: string) => {
  const r = readResults(join(out, 'results.json'));
  return r.probes!.verdicts.map((v) => ({
    probe: `${v.probe} (${v.direction})`,
    mark: v.verdict.mark,
    text: 'reason' in v.verdict ? v.verdict.reason : JSON.stringify(v.verdict),
  }));
};

test('probe of a serializer hanging on every call ends within minutes: its first side ✗ hang, every other side skipped naming it', async () => {
  const out = join(dir, 'hang');
  const ran = await cli(
    ['probe', '--config', config, '--serializer', 'hangs-always', '--timeout', '3s', '--out', out],
    { timeoutMs: 240_000 },
  );
  assert.equal(ran.signal, null, `killed by the test's own timeout after ${Math.round(ran.ms / 1000)} s`);
  assert.equal(ran.code, 0, ran.stderr);
  const verdicts = verdictsOf(out);
  assert.ok(verdicts.length > 100, `${verdicts.length} verdicts`);
  const hung = verdicts.filter((v) => v.mark === '✗');
  assert.equal(hung.length, 1, JSON.stringify(hung));
  assert.match(hung[0].text, /"fault":"hang".*no answer within 3000 ms/);
  // the others: skipped naming the hang, or never sent to a worker (a probe the schema language cannot state: –)
  const judged = verdicts.filter((v) => v.mark === '✔' || v.mark === '⚠');
  assert.deepEqual(judged, [], 'no side was judged after the hang');
  const skipped = verdicts.filter((v) => v.text.startsWith('skipped: '));
  assert.ok(skipped.length > 100, `${skipped.length} skipped`);
  for (const v of skipped) assert.equal(v.text, `skipped: it hung on probe ${hung[0].probe}`, v.probe);
});

test('probe --probe-budget bounds the pass: the sides left are skipped naming the budget, and a note says how to raise it', async () => {
  const out = join(dir, 'budget');
  const ran = await cli(
    ['probe', '--config', config, '--serializer', 'hangs-always', '--probe-budget', '5s', '--out', out],
    { timeoutMs: 180_000 },
  );
  assert.equal(ran.signal, null, `killed by the test's own timeout after ${Math.round(ran.ms / 1000)} s`);
  assert.equal(ran.code, 0, ran.stderr);
  const skipped = verdictsOf(out).filter(
    (v) => v.text === "skipped: the probe pass's budget of 5 s ran out before this probe",
  );
  assert.ok(skipped.length > 100, `${skipped.length} sides skipped by the budget`);
  assert.match(
    ran.stderr,
    /\d+ probe sides were skipped: the pass's budget of 5 s ran out; raise it with --probe-budget/,
  );
});

test('probe --probe-budget with no duration is a usage error naming the flag', async () => {
  const ran = await cli(['probe', '--serializer', 'json', '--probe-budget', 'soon', '--out', join(dir, 'bad')]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /--probe-budget: "soon" is not a duration such as 15m, 1h or 1h30m, or off/);
});

test('probe says it is still probing while a side hangs: no silence as long as the timeout (hx9 PR9: 120 s without a line)', async () => {
  const out = join(dir, 'heartbeat');
  const ran = await cli(
    ['probe', '--config', config, '--serializer', 'hangs-always', '--filter', '^feature\\.nested$'].concat([
      '--direction',
      'serialize',
      '--timeout',
      '20s',
      '--out',
      out,
    ]),
    { timeoutMs: 120_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stderr,
    /\] probing hangs-always: no verdict for 1\d s \(0 so far; a probe side that does not answer/,
  );
  assert.match(ran.stderr, /hangs-always: feature\.nested serialize: ✗ hang: no answer within 20000 ms/);
  // no two lines more than the heartbeat (10 s) and its check (5 s) apart
  const at = [...ran.stderr.matchAll(/^\[(\d+) s\]/gm)].map((m) => Number(m[1]));
  const gaps = at.slice(1).map((t, i) => t - at[i]);
  assert.ok(Math.max(...gaps) <= 16, `seconds between lines: ${gaps.join(', ')}`);
});
