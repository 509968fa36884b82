import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runProbes, type ProbeRun } from '../../src/probes/runner.js';
import { serializers } from '../../src/serializers/index.js';
import { COVERED } from './direct/covered.js';
import type { ProbeResult } from '../../src/probes/types.js';

/**
 * The probe matrix of every built-in serializer, run as `npm run probes` runs it (a child process
 * per serializer), on a representative cut of the catalog so the suite stays within its time:
 * every feature, edge-value, structure and safety probe but the 50 MB document, string probes at
 * 41 and 5,000 characters and six single characters, and the conformance files of
 * ../shared/data/conformance when that folder exists. Every failing verdict must have a direct
 * reproduction (test/probes/direct/, listed in covered.ts), and every reproduction must still
 * match a failing verdict.
 */

const SHARED = fileURLToPath(new URL('../../../../shared/data/conformance', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/probes/conformance', import.meta.url));
const conformanceDir = existsSync(SHARED) ? SHARED : FIXTURES;
const CUT = /^(?!structure\.large\.)(?!string\.)|^string\.[\w-]+\.[\w-]+\.([\w-]+\.L(41|5000)|[\w-]+\.U\+(0000|0022|005C|D800|DC00|2028)\.L1)$/;

let run: ProbeRun;

test('the probe matrix covers every built-in serializer × every probe side of the cut', { timeout: 20 * 60_000 }, async () => {
  run = await runProbes({ conformanceDir, filter: CUT, timeoutMs: 60_000 });
  const sides = run.probes.reduce((n, p) => n + (p.serialize ? 1 : 0) + (p.deserialize ? 1 : 0), 0);
  assert.deepEqual(run.serializers, [...serializers.ids]);
  assert.equal(run.results.length, sides * serializers.ids.length);
  for (const family of ['feature', 'edge', 'string', 'structure', 'safety', 'conformance']) {
    assert.ok(run.probes.some((p) => p.family === family), `no ${family} probe in the cut`);
  }
});

const failing = (r: ProbeResult) => r.verdict.mark === '✗' || r.verdict.mark === '⚠';
const covers = (r: ProbeResult) => COVERED.find((c) => c.serializer === r.serializer && c.direction === r.direction && c.mark === r.verdict.mark && c.probes.test(r.probe));

test('every failing verdict has a direct reproduction with the library alone', (t) => {
  if (!run) return t.skip('the matrix did not run');
  const uncovered = run.results.filter((r) => failing(r) && !covers(r));
  assert.deepEqual(uncovered.map((r) => `${r.serializer} ${r.direction} ${r.probe} ${JSON.stringify(r.verdict)}`), []);
});

test('every direct reproduction still matches a failing verdict (a library that changed is noticed)', (t) => {
  if (!run) return t.skip('the matrix did not run');
  if (conformanceDir === FIXTURES) return t.skip(`${SHARED} is absent: the roundtrip entries cannot be checked against the fixture folder`);
  const stale = COVERED.filter((c) => !run.results.some((r) => failing(r) && covers(r) === c));
  assert.deepEqual(stale.map((c) => `${c.serializer} ${c.direction} ${c.probes} ${c.mark}`), []);
});

test('no verdict is a crash or a hang of the process', (t) => {
  if (!run) return t.skip('the matrix did not run');
  const faults = run.results.filter((r) => r.verdict.mark === '✗' && (r.verdict.fault === 'crash' || r.verdict.fault === 'hang'));
  assert.deepEqual(faults.map((r) => `${r.serializer} ${r.probe}`), []);
});
