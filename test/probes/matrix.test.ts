import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProbeSession } from '../../src/run/probe-session.js';
import { serializers } from '../../src/serializers/index.js';
import { readResults } from '../../src/results/io.js';
import { COVERED } from './direct/covered.js';
import type { ProbeVerdictRecord, ResultsFile } from '../../src/results/types.js';

/**
 * The probe matrix of every built-in serializer, run as `jsonbench probe` runs it (a worker per
 * serializer, the per-probe timeout, relaunches), on a representative cut of the catalog so the
 * suite stays within its time: every feature, edge-value, structure and safety probe but the 50 MB
 * document and the 100,000-deep nesting, string probes at 41 and 5,000 characters and six single
 * characters, and the conformance files of ../shared/data/conformance when that folder exists
 * (else the fixture folder). Every failing verdict must have a direct reproduction
 * (test/probes/direct/, listed in covered.ts), and every reproduction must still match a failing verdict.
 */

const SHARED = fileURLToPath(new URL('../../../../shared/data/conformance', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/probes/conformance', import.meta.url));
const conformanceDir = existsSync(SHARED) ? SHARED : FIXTURES;
const CUT = '^(?!structure\\.large\\.)(?!structure\\.depth\\.\\w+\\.100000)(?!string\\.)|^string\\.[\\w-]+\\.[\\w-]+\\.([\\w-]+\\.L(41|5000)|[\\w-]+\\.U\\+(0000|0022|005C|D800|DC00|2028)\\.L1)$';

let results: ResultsFile | undefined;

test('the probe matrix covers every built-in serializer × every probe side of the cut, through the workers, into a results file that reads back', { timeout: 30 * 60_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-matrix-'));
  try {
    const t0 = performance.now();
    const run = await runProbeSession({ conformance: conformanceDir, filter: CUT, timeout: 60_000, out, cwd: out });
    const section = run.results.probes!;
    const sides = section.probes.reduce((n, p) => n + (p.serialize ? 1 : 0) + (p.deserialize ? 1 : 0), 0);
    assert.deepEqual([...new Set(section.verdicts.map((v) => v.serializer))], [...serializers.ids]);
    assert.equal(section.verdicts.length, sides * serializers.ids.length);
    for (const family of ['feature', 'edge', 'string', 'structure', 'safety', 'conformance']) {
      assert.ok(section.probes.some((p) => p.family === family), `no ${family} probe in the cut`);
    }
    assert.deepEqual(readResults(run.resultsPath).probes, section, 'the results file holds the matrix and passes the schema on reading');
    process.stderr.write(`# probe matrix cut: ${section.probes.length} probes, ${section.verdicts.length} verdicts, ${section.launches} launches in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    results = run.results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

const failing = (r: ProbeVerdictRecord) => r.verdict.mark === '✗' || r.verdict.mark === '⚠';
const covers = (r: ProbeVerdictRecord) => COVERED.find((c) => c.serializer === r.serializer && c.direction === r.direction && c.mark === r.verdict.mark && c.probes.test(r.probe));

test('every failing verdict has a direct reproduction with the library alone', (t) => {
  if (!results) return t.skip('the matrix did not run');
  const uncovered = results.probes!.verdicts.filter((r) => failing(r) && !covers(r));
  assert.deepEqual(uncovered.map((r) => `${r.serializer} ${r.direction} ${r.probe} ${JSON.stringify(r.verdict)}`), []);
});

test('every direct reproduction still matches a failing verdict (a library that changed is noticed)', (t) => {
  if (!results) return t.skip('the matrix did not run');
  if (conformanceDir === FIXTURES) return t.skip(`${SHARED} is absent: the roundtrip entries cannot be checked against the fixture folder`);
  const stale = COVERED.filter((c) => !results!.probes!.verdicts.some((r) => failing(r) && covers(r) === c) && !/100000|large/.test(String(c.probes)));
  assert.deepEqual(stale.map((c) => `${c.serializer} ${c.direction} ${c.probes} ${c.mark}`), []);
});

test('no verdict is a crash or a hang of the process', (t) => {
  if (!results) return t.skip('the matrix did not run');
  const faults = results.probes!.verdicts.filter((r) => r.verdict.mark === '✗' && (r.verdict.fault === 'crash' || r.verdict.fault === 'hang'));
  assert.deepEqual(faults.map((r) => `${r.serializer} ${r.probe}`), []);
});
