import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResults, writeResults } from '../../src/results/io.js';
import { compactVerdicts, expandVerdicts } from '../../src/results/verdict-groups.js';
import { ResultsFileError } from '../../src/results/errors.js';
import type { ProbeVerdictRecord, ResultsFile } from '../../src/results/types.js';
import { openLedger } from '../../src/ledger/schema.js';
import { recordResults } from '../../src/ledger/record.js';
import { loadRun } from '../../src/ledger/queries.js';
import { makeResults } from '../ledger/fixture.js';

/**
 * Probe verdicts are stored grouped by probe side (issue 24, new-user tryout: ~90% of a 0.9–1.6 MB
 * results.json, and of each run's ledger growth, were verdict records repeating their probe id,
 * serializer, version and target): results.json and the ledger's run record hold `verdictGroups`,
 * and every reader gets back the same `verdicts`, in the same order, with nothing lost.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-verdict-groups-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SERIALIZERS = ['json', 'fast-json-stringify', 'ajv-jtd', 'typia', 'zod', 'valibot', 'arktype', 'typebox'];
const PROBES = Array.from({ length: 60 }, (_, i) => `string.value.plain.sample-${i}.L40`);

function withProbes(): ResultsFile {
  const results = makeResults([{ serializer: 'json', status: 'unsupported', reason: 'not measured here' }]);
  const verdicts: ProbeVerdictRecord[] = [];
  // serializer-major, as a probe pass writes them; a few fail, some read from the cache
  for (const [si, serializer] of SERIALIZERS.entries())
    for (const [pi, probe] of PROBES.entries())
      for (const direction of ['serialize', 'deserialize'] as const)
        verdicts.push({
          probe,
          direction,
          serializer,
          serializerVersion: `1.${si}.0`,
          target: 'node',
          verdict:
            serializer === 'ajv-jtd' && direction === 'serialize'
              ? {
                  mark: '✗',
                  fault: 'ill-formed',
                  path: '$.s',
                  expected: 'valid JSON',
                  actual: 'a raw lone surrogate U+D800',
                }
              : pi % 7 === 3
                ? { mark: '✔', label: 'rejects: not a date-time' }
                : { mark: '✔' },
          ...(si % 2 ? { cached: true as const } : {}),
        });
  return {
    ...results,
    probes: {
      selection: 'relevant',
      families: ['string'],
      timeoutMs: 5000,
      elapsedMs: 1234,
      launches: 1,
      probes: PROBES.map((id) => ({ id, family: 'string' as const, title: `probe ${id}` })),
      verdicts,
      relevantTo: Object.fromEntries(PROBES.map((id) => [id, ['payload:api']])),
    },
  };
}

test('results.json holds the verdicts grouped by probe side, each outcome once, and reads back the same', () => {
  const results = withProbes();
  const file = join(dir, 'results.json');
  writeResults(file, results);
  const written = JSON.parse(readFileSync(file, 'utf8')) as { probes: Record<string, unknown> };
  assert.equal('verdicts' in written.probes, false);
  const groups = written.probes.verdictGroups as { outcomes: unknown[] }[];
  assert.equal(groups.length, PROBES.length * 2, 'one group per probe side');
  assert.equal((written.probes.verdictRows as unknown[]).length, SERIALIZERS.length, 'each serializer row once');
  // ajv-jtd's failure is one outcome of its group; the ✔ of the cached and the judged rows two more
  assert.equal(groups[0].outcomes.length, 3);
  assert.deepEqual(readResults(file), JSON.parse(JSON.stringify(results)));
  // the same key order too: a report is a pure function of the file
  assert.equal(JSON.stringify(readResults(file)), JSON.stringify(results));
  const expanded = join(dir, 'expanded.json');
  writeFileSync(expanded, JSON.stringify(results));
  assert.ok(
    statSync(file).size < statSync(expanded).size / 3,
    `${statSync(file).size} B grouped vs ${statSync(expanded).size} B as records`,
  );
});

test('a file written with verdict records (before the groups) still reads', () => {
  const results = withProbes();
  const file = join(dir, 'records.json');
  writeFileSync(file, JSON.stringify(results));
  assert.equal(JSON.stringify(readResults(file)), JSON.stringify(results));
});

test('the ledger records the groups and gives back the same verdicts', () => {
  const results = withProbes();
  const db = openLedger(join(dir, 'ledger.db'));
  const runId = recordResults(db, results, { source: 'import' });
  const extra = (db.prepare('SELECT extra_json FROM runs WHERE id = ?').get(runId) as { extra_json: string })
    .extra_json;
  assert.match(extra, /"verdictGroups":/);
  assert.doesNotMatch(extra, /"verdicts":/);
  assert.ok(extra.length < JSON.stringify(results.probes).length / 3, `${extra.length} B in the ledger`);
  assert.deepEqual(loadRun(db, runId).probes, JSON.parse(JSON.stringify(results.probes)));
  db.close();
});

test('a malformed group is named by its JSON path, never read as fewer verdicts', () => {
  const compact = JSON.parse(JSON.stringify(compactVerdicts(withProbes()))) as {
    probes: { verdictGroups: { outcomes: { at: number[] }[] }[] };
  };
  compact.probes.verdictGroups[1].outcomes[0].at[0] = 0; // a place given twice
  assert.throws(
    () => expandVerdicts(compact, 'f.json'),
    (e: unknown) => e instanceof ResultsFileError && e.path === '/probes/verdictGroups/1/outcomes/0/at/0',
  );
});
