import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProbeSession } from '../../src/run/probe-session.js';
import { serializers } from '../../src/serializers/index.js';
import { readResults } from '../../src/results/io.js';

/**
 * The full probe matrix — every built-in serializer × every probe, the 50 MiB document and the
 * 100,000-deep nesting included, the conformance files of ../shared/data/conformance — run as
 * `jsonbench probe` runs it (a worker per serializer, the per-probe timeout, relaunches), held to
 * the snapshot of failing verdicts that coverage.test.ts holds to the direct reproductions. About
 * 15 minutes on a loaded 2-core machine, so it runs only with JSONBENCH_SLOW_TESTS=1; after a
 * dependency bump, run `jsonbench probe --conformance ../shared/data/conformance --out DIR` and
 * `node scripts/probe-snapshot.mjs DIR/results.json` instead, and update the reproductions.
 */

const SHARED = fileURLToPath(new URL('../../../../shared/data/conformance', import.meta.url));
const SNAPSHOT = fileURLToPath(new URL('../../../test/fixtures/probes/failing-verdicts.json', import.meta.url));
const slow = process.env.JSONBENCH_SLOW_TESTS === '1';
const skip = !slow
  ? 'the full probe matrix takes ~15 min: set JSONBENCH_SLOW_TESTS=1 to run it (coverage.test.ts checks its snapshot every time)'
  : !existsSync(SHARED)
    ? `${SHARED} is absent: the snapshot was made with its conformance files`
    : false;

test(
  'the full matrix covers every built-in × every probe side, writes a results file that reads back, and fails exactly the verdicts of the snapshot',
  { skip, timeout: 60 * 60_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-matrix-'));
    try {
      const run = await runProbeSession({ conformance: SHARED, out, cwd: out, probeBudget: 'off' });
      const section = run.results.probes!;
      const sides = section.probes.reduce((n, p) => n + (p.serialize ? 1 : 0) + (p.deserialize ? 1 : 0), 0);
      assert.deepEqual([...new Set(section.verdicts.map((v) => v.serializer))], [...serializers.ids]);
      assert.equal(section.verdicts.length, sides * serializers.ids.length);
      assert.ok(
        section.probes.some((p) => p.id === 'structure.large.50MB') &&
          section.probes.some((p) => /^structure\.depth\.\w+\.100000$/.test(p.id)),
        'the slow probes ran',
      );
      assert.deepEqual(
        readResults(run.resultsPath).probes,
        section,
        'the results file holds the matrix and passes the schema on reading',
      );
      const key = (f: { serializer: string; direction: string; probe: string; mark: string; fault?: string }) =>
        `${f.serializer} ${f.direction} ${f.probe} ${f.mark}${f.fault ? ` ${f.fault}` : ''}`;
      const now = section.verdicts
        .filter((v) => v.verdict.mark === '✗' || v.verdict.mark === '⚠')
        .map((v) => key({ ...v, mark: v.verdict.mark, ...(v.verdict.mark === '✗' ? { fault: v.verdict.fault } : {}) }));
      const then = (JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as { failing: Parameters<typeof key>[0][] }).failing.map(
        key,
      );
      assert.deepEqual(
        now.filter((k) => !then.includes(k)),
        [],
        'failing now, not in the snapshot',
      );
      assert.deepEqual(
        then.filter((k) => !now.includes(k)),
        [],
        'in the snapshot, no longer failing',
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);
