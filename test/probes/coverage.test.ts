import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializers } from '../../src/serializers/index.js';
import { adapterVersion } from '../../src/serializers/version.js';
import { loadCatalog } from '../../src/probes/index.js';
import { readConformanceFolder } from '../../src/probes/catalog/conformance-folder.js';
import { COVERED } from './direct/covered.js';
import type { ProbeDirection } from '../../src/probes/types.js';

/**
 * Every failing verdict of the full probe matrix (every built-in serializer × every probe, the
 * 50 MiB document and the 100,000-deep nesting included, the conformance files of
 * ../shared/data/conformance) has a direct reproduction with the library alone (test/probes/direct/,
 * mapped in covered.ts), so it is the probe and not the harness that fails. The matrix itself takes
 * ~15 minutes, so its failing verdicts are kept in test/fixtures/probes/failing-verdicts.json
 * (scripts/probe-snapshot.mjs over a `jsonbench probe` results file); these tests hold the
 * snapshot to the reproductions, the catalog and the installed versions, and matrix.test.ts
 * (JSONBENCH_SLOW_TESTS=1) re-runs the matrix and holds it to the snapshot.
 */

interface Failing {
  serializer: string;
  direction: ProbeDirection;
  probe: string;
  mark: '✗' | '⚠';
  fault?: string;
}
interface Snapshot {
  node: string;
  probes: number;
  versions: Record<string, string>;
  failing: Failing[];
}

const builtins = await serializers.loadAll();
const snapshot = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../test/fixtures/probes/failing-verdicts.json', import.meta.url)), 'utf8'),
) as Snapshot;
const SHARED = fileURLToPath(new URL('../../../../shared/data/conformance', import.meta.url));
const covers = (f: Failing) =>
  COVERED.find(
    (c) => c.serializer === f.serializer && c.direction === f.direction && c.mark === f.mark && c.probes.test(f.probe),
  );
const name = (f: Failing) => `${f.serializer} ${f.direction} ${f.probe} ${f.mark}${f.fault ? ` ${f.fault}` : ''}`;

test('every failing verdict of the matrix has a direct reproduction with the library alone', () => {
  assert.ok(snapshot.failing.length > 100, `the snapshot holds ${snapshot.failing.length} failing verdicts`);
  assert.deepEqual(snapshot.failing.filter((f) => !covers(f)).map(name), []);
});

test('every direct reproduction still matches a failing verdict of the matrix (a reproduction of nothing is stale)', () => {
  const stale = COVERED.filter((c) => !snapshot.failing.some((f) => covers(f) === c));
  assert.deepEqual(
    stale.map((c) => `${c.serializer} ${c.direction} ${c.probes} ${c.mark} (${c.file})`),
    [],
  );
});

test('no verdict of the matrix is a crash or a hang of the process', () => {
  assert.deepEqual(snapshot.failing.filter((f) => f.fault === 'crash' || f.fault === 'hang').map(name), []);
});

test('the snapshot is of every built-in serializer at its installed version (a dependency bump asks for a new matrix)', () => {
  assert.deepEqual(Object.keys(snapshot.versions).sort(), [...serializers.ids].sort());
  for (const adapter of builtins) {
    const want = adapter.id === 'json' ? `node ${process.versions.node.split('.')[0]}` : adapterVersion(adapter);
    const got = adapter.id === 'json' ? snapshot.versions.json.split('.')[0] : snapshot.versions[adapter.id];
    assert.equal(
      got,
      want,
      `${adapter.id}: the matrix was run on ${snapshot.versions[adapter.id]}; re-run jsonbench probe and scripts/probe-snapshot.mjs`,
    );
  }
});

test('every probe of the snapshot but the conformance ones is in the catalog', () => {
  const ids = new Set(loadCatalog({}).map((p) => p.id));
  const missing = snapshot.failing.filter((f) => !ids.has(f.probe) && !f.probe.startsWith('conformance.')).map(name);
  assert.deepEqual(missing, []);
});

test('every conformance probe of the snapshot is in the catalog read from the shared conformance folder', (t) => {
  if (!existsSync(SHARED)) return t.skip(`${SHARED} is absent: the conformance probes cannot be read`);
  const conformance = readConformanceFolder(SHARED).set;
  const ids = new Set(loadCatalog({ conformance }).map((p) => p.id));
  assert.deepEqual(snapshot.failing.filter((f) => !ids.has(f.probe)).map(name), []);
  assert.equal(ids.size, snapshot.probes, 'the catalog has as many probes as the matrix had');
});
