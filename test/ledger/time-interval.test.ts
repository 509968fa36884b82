import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../../src/ledger/schema.js';
import { recordResults } from '../../src/ledger/record.js';
import { caseHistory } from '../../src/ledger/queries.js';
import { pointTimeInterval } from '../../src/results/history.js';
import { makeResults } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-interval-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a history point carries the case record’s time.interval (log scale, asymmetric), else mean ± error of an older run', () => {
  const db = openLedger(join(dir, 'l.db'));
  try {
    const r = makeResults([{ serializer: 'json' }, { serializer: 'zod' }], '2026-12-06T10:00:00.000Z');
    const [a, b] = r.cases;
    // a run of branch stats5 or later: 63.2 µs [16.0–250 µs], error = mean × ln(250/63.2)
    if (a.status === 'measured')
      a.time = { ...a.time, mean: 63_200, error: 63_200 * Math.log(250 / 63.2), interval: [16_000, 250_000] };
    // an older run: no interval
    if (b.status === 'measured') b.time = { ...b.time, mean: 1000, error: 100 };
    recordResults(db, r, { source: 'import' });
    const points = caseHistory(db, {}, () => {});
    const pa = points.find((p) => p.serializer === 'json')!;
    const pb = points.find((p) => p.serializer === 'zod')!;
    assert.deepEqual(pa.timeInterval, [16_000, 250_000]);
    assert.deepEqual(pointTimeInterval(pa), [16_000, 250_000]);
    assert.deepEqual(pb.timeInterval, [900, 1100]);
  } finally {
    db.close();
  }
});
