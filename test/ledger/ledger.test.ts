import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../../src/ledger/schema.js';
import {
  beginRun,
  DuplicateRunError,
  finishRun,
  recordCase,
  recordResults,
  runFingerprint,
} from '../../src/ledger/record.js';
import { caseHistory, listRuns, loadRun, resolveRunRef } from '../../src/ledger/queries.js';
import { makeResults, prng, roundsOf } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** What a results file holds once written as JSON (Infinity → null, undefined dropped). */
const asJson = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

const rand = prng(7);
const results = makeResults([
  { serializer: 'json', rounds: roundsOf(rand, 6, 5, 1950.5, 40) },
  {
    serializer: 'fast-json-stringify',
    version: '7.3.10',
    rounds: roundsOf(rand, 6, 5, 620.25, 15),
    allocWindows: [1760.5, 1761, 1760.25, 1760.5, 1759.75],
  },
  { serializer: 'typia', status: 'incorrect', reason: 'serializer output differs at $.temperature' },
  { serializer: 'zod', status: 'unsupported', reason: 'validator: deserialize only' },
]);

test('a run recorded case by case reads back as the same results file, raw samples included', () => {
  const db = openLedger(join(dir, 'roundtrip.db'));
  const { cases, ...header } = results;
  const runId = beginRun(
    db,
    { ...header, finishedAt: undefined },
    { source: 'run', sourcePath: '/tmp/out', git: { commit: 'a'.repeat(40), dirty: true } },
  );
  for (const c of cases) recordCase(db, runId, header, c);
  finishRun(db, runId, header);
  const back = loadRun(db, runId);
  assert.deepEqual(back, asJson(results));
  const samples = back.cases[1].samples.launches.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
  assert.equal(samples.length, 30);
  assert.equal(samples[0], results.cases[1].samples.launches[0].rounds[0].serializerNs[0]);
  const [run] = listRuns(db);
  assert.deepEqual(
    { id: run.id, cases: run.cases, measured: run.measured, gitDirty: run.gitDirty, finished: run.finishedAt },
    { id: runId, cases: 4, measured: 2, gitDirty: true, finished: results.finishedAt },
  );
  db.close();
});

test('history returns the recorded estimates of a case: mean ns/op, bytes/op, version and runtime', () => {
  const db = openLedger(join(dir, 'history.db'));
  recordResults(db, results, { source: 'import' });
  const later = makeResults(
    [{ serializer: 'fast-json-stringify', version: '7.4.0', rounds: [[600, 601, 599]] }],
    '2025-02-01T00:00:00.000Z',
    { node: '22.1.0' },
  );
  recordResults(db, later, { source: 'import' });
  const points = caseHistory(db, {
    workload: 'weather-station',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
  });
  assert.deepEqual(
    points.map((p) => [p.serializerVersion, p.targetVersion, p.meanNs, p.bytesPerOp]),
    [
      ['7.3.10', '20.20.2', results.cases[1].time!.mean, 1760.5],
      ['7.4.0', '22.1.0', 600, 640.25],
    ],
  );
  db.close();
});

test('a results file recorded twice is refused as a duplicate naming the first run', () => {
  const db = openLedger(join(dir, 'dup.db'));
  const first = recordResults(db, results, { source: 'import' });
  assert.throws(
    () => recordResults(db, results, { source: 'import' }),
    (e: unknown) => e instanceof DuplicateRunError && e.runId === first,
  );
  assert.equal(listRuns(db).length, 1);
  db.close();
});

test('an import that fails half-way records nothing (one transaction per file)', () => {
  const db = openLedger(join(dir, 'atomic.db'));
  const broken = makeResults([{ serializer: 'json' }, { serializer: 'json' }]);
  assert.throws(() => recordResults(db, broken, { source: 'import' }), /UNIQUE constraint failed/);
  assert.deepEqual(listRuns(db), []);
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM cases').get() as { n: number }).n, 0);
  db.close();
});

test('run references resolve: an id, latest, latest~1; unknown ones are undefined', () => {
  const db = openLedger(join(dir, 'refs.db'));
  const a = recordResults(db, makeResults([{ serializer: 'json' }], '2025-01-01T00:00:00.000Z'), { source: 'import' });
  const b = recordResults(db, makeResults([{ serializer: 'json' }], '2025-03-01T00:00:00.000Z'), { source: 'import' });
  assert.deepEqual(
    [
      resolveRunRef(db, 'latest'),
      resolveRunRef(db, 'latest~1'),
      resolveRunRef(db, String(a)),
      resolveRunRef(db, 'latest~2'),
      resolveRunRef(db, '99'),
      resolveRunRef(db, 'x'),
    ],
    [b, a, a, undefined, undefined, undefined],
  );
  db.close();
});

test('the ledger runs in WAL mode with foreign keys on', () => {
  const db = openLedger(join(dir, 'wal.db'));
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  db.close();
});

test('a run fingerprint depends on start time and machine, not on the end load', () => {
  const { cases: _c, ...h } = results;
  const fp = runFingerprint(h);
  assert.equal(
    runFingerprint({
      ...h,
      environment: { ...h.environment, loadAverage: { start: h.environment.loadAverage.start, end: [9, 9, 9] } },
    }),
    fp,
  );
  assert.notEqual(runFingerprint({ ...h, startedAt: '2030-01-01T00:00:00.000Z' }), fp);
  assert.match(fp, /^[0-9a-f]{64}$/);
});

test('a --target run keeps its targets list and files each case under its runtime and version', () => {
  const db = openLedger(join(dir, 'targets.db'));
  const r = makeResults([{ serializer: 'json' }, { serializer: 'json' }], '2025-07-07T00:00:00.000Z');
  const targets = [
    { id: 'node', runtime: 'node', version: '20.20.2' },
    { id: 'bun', runtime: 'bun', version: '1.2.3' },
  ];
  r.cases.forEach((c, i) => {
    c.target = targets[i];
    c.id += `@${targets[i].id}`;
  });
  const withTargets = {
    ...r,
    targets: targets.map((t) => ({ ...t, kind: t.runtime, engine: 'V8', engineVersion: '11', flags: [], probe: {} })),
  };
  const runId = recordResults(db, withTargets, { source: 'import' });
  assert.deepEqual(loadRun(db, runId), asJson(withTargets));
  assert.deepEqual(
    caseHistory(db, { serializer: 'json' }).map((p) => [p.target, p.targetVersion]),
    [
      ['node', '20.20.2'],
      ['bun', '1.2.3'],
    ],
  );
  assert.deepEqual(
    caseHistory(db, { target: 'bun' }).map((p) => p.caseId),
    ['weather-station/1/single/serialize/json@bun'],
  );
  db.close();
});

test("history points carry the ratio's interval (recorded, or derived from its error in older files) and the noisy flag, and the tables show both", async () => {
  const { renderHistoryMarkdown } = await import('../../src/report/history.js');
  const db = openLedger(join(dir, 'history-interval.db'));
  try {
    const older = makeResults([{ serializer: 'json' }], '2025-01-01T00:00:00.000Z');
    const newer = makeResults([{ serializer: 'json' }], '2025-02-01T00:00:00.000Z');
    const c = newer.cases[0] as (typeof newer.cases)[0] & { ratioInterval?: [number, number] };
    c.ratioInterval = [1.1, 1.4];
    c.findings.push({ code: 'noisy', message: '1 of 2 launch(es) reached the time cap before the error target' });
    recordResults(db, older, { source: 'import' });
    recordResults(db, newer, { source: 'import' });
    const points = caseHistory(db, { serializer: 'json' });
    assert.deepEqual(
      points.map((p) => [p.ratio, p.ratioInterval?.map((x) => Number(x.toFixed(4))), p.noisy]),
      [
        [1.25, [1.2204, 1.2804], false], // 1.25 · e^(∓0.03/1.25)
        [1.25, [1.1, 1.4], true],
      ],
    );
    const md = renderHistoryMarkdown(points);
    assert.match(md, /\| 1\.25 \[1\.22–1\.28\] \| 640 B \|/);
    assert.match(md, /\| 1\.25 \[1\.10–1\.40\] ⚠ noisy \| 640 B \|/);
    assert.match(md, /\[low–high\] its 99\.9% interval/);
  } finally {
    db.close();
  }
});

test('a point its run did not rank is marked ⊘ not ranked in history, and the legend says why (hx37 l02: a refused ratio read as a clean point)', async () => {
  const { renderHistoryMarkdown } = await import('../../src/report/history.js');
  const db = openLedger(join(dir, 'history-unranked.db'));
  try {
    const clean = makeResults([{ serializer: 'json' }], '2025-01-01T00:00:00.000Z');
    const refused = makeResults([{ serializer: 'json' }], '2025-02-01T00:00:00.000Z');
    refused.cases[0].findings.push({
      code: 'baseline-slowed',
      message: 'its paired baseline json was charged CPU other threads burnt beside it: 41.6%',
    });
    recordResults(db, clean, { source: 'import' });
    recordResults(db, refused, { source: 'import' });
    const points = caseHistory(db, { serializer: 'json' });
    assert.deepEqual(
      points.map((p) => p.unranked ?? false),
      [false, true],
    );
    const md = renderHistoryMarkdown(points);
    assert.equal((md.match(/⊘ not ranked \|/g) ?? []).length, 1);
    assert.match(md, /⊘ not ranked: that run refused to rank the case/);
  } finally {
    db.close();
  }
});

test('history keeps runs measured with --serialize-to string apart from runs with the default bytes: separate series, as compare refuses to mix them', async () => {
  const { historySeries, renderHistoryMarkdown } = await import('../../src/report/history.js');
  const db = openLedger(join(dir, 'history-serialize-to.db'));
  try {
    const bytes = makeResults(
      [{ serializer: 'fast-json-stringify', version: '7.3.10', rounds: [[600, 601, 599]] }],
      '2025-01-01T00:00:00.000Z',
    );
    bytes.policy.measure = { ...bytes.policy.measure, serializeTo: 'bytes' };
    const string = makeResults(
      [{ serializer: 'fast-json-stringify', version: '7.3.10', rounds: [[400, 401, 399]] }],
      '2025-02-01T00:00:00.000Z',
    );
    string.policy.measure = { ...string.policy.measure, serializeTo: 'string' };
    // a run recorded before the option existed timed the string alone
    const older = makeResults(
      [{ serializer: 'fast-json-stringify', version: '7.3.10', rounds: [[410, 411, 409]] }],
      '2024-12-01T00:00:00.000Z',
    );
    delete (older.policy.measure as { serializeTo?: string }).serializeTo;
    for (const r of [bytes, string, older]) recordResults(db, r, { source: 'import' });
    const points = caseHistory(db, { serializer: 'fast-json-stringify' });
    assert.deepEqual(
      points.map((p) => [p.startedAt.slice(0, 7), p.serializeTo, p.meanNs]),
      [
        ['2024-12', 'string', 410],
        ['2025-01', 'bytes', 600],
        ['2025-02', 'string', 400],
      ],
    );
    const series = historySeries(points);
    assert.deepEqual(
      series.map((s) => [s.title, s.points.map((p) => p.meanNs)]),
      [
        [
          'weather-station · 1 · single · serialize · fast-json-stringify · op: value → string (--serialize-to string)',
          [410, 400],
        ],
        ['weather-station · 1 · single · serialize · fast-json-stringify', [600]],
      ],
    );
    assert.equal(
      renderHistoryMarkdown(points)
        .split('\n')
        .filter((l) => l.startsWith('## ')).length,
      2,
    );
  } finally {
    db.close();
  }
});

test("history reads each point's policy name and, for a user's payload, the schema its run recorded (null for a built-in workload)", () => {
  const db = openLedger(join(dir, 'setup.db'));
  recordResults(db, results, { source: 'import' });
  const later = makeResults(
    [{ serializer: 'fast-json-stringify', version: '7.3.10', rounds: [[600, 601, 599]] }],
    '2025-02-01T00:00:00.000Z',
  );
  const schema = { source: 'json-schema', file: 'orders.flat.schema.json', sha256: 'b'.repeat(64), unconverted: [] };
  recordResults(
    db,
    {
      ...later,
      policy: { ...later.policy, name: 'default' },
      payloads: [
        {
          workload: 'weather-station',
          file: 'w.json',
          kind: 'document',
          bytes: 10,
          sha256: 'a'.repeat(64),
          units: 1,
          payloads: [],
          schema,
          findings: [],
        },
      ],
    },
    { source: 'import' },
  );
  const points = caseHistory(db, { serializer: 'fast-json-stringify' });
  assert.deepEqual(
    points.map((p) => [p.policy, p.schema]),
    [
      ['quick', null],
      ['default', { source: 'json-schema', file: 'orders.flat.schema.json', sha256: 'b'.repeat(64) }],
    ],
  );
  db.close();
});
