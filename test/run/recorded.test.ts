import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../src/results/io.js';
import { isMeasured, type MeasuredCase } from '../../src/results/types.js';
import { caseRecordOf, reassembleGroups, recordedGroups, type RecordedCase } from '../../src/run/recorded.js';

/**
 * One helper builds the runner's records from recorded cases for every re-assembly (bench/coverage.ts
 * `--reassemble`, studies/interval-coverage/prior-df.ts, test/run/quiet-run.test.ts and
 * run-prior.test.ts each had a near-copy of it): a results file's cases and a fixture's slimmed ones.
 */
const RECORDED = fileURLToPath(new URL('../../../test/analysers/fixtures/recorded-launches.json', import.meta.url));

test('caseRecordOf reads a results case and a slimmed fixture case alike: launches, pairing, coordinates', () => {
  const r = readResults(RECORDED);
  const c = r.cases.find((x): x is MeasuredCase => isMeasured(x) && x.serializer !== x.baseline && x.ratio !== null)!;
  const rec = caseRecordOf(c);
  assert.equal(rec.launches, c.samples.launches);
  assert.equal(rec.relaunches, c.samples.relaunches);
  assert.equal(rec.paired, true);
  assert.deepEqual(
    [rec.planned.id, rec.planned.caseClass, rec.planned.serializer, rec.planned.baseline, rec.planned.target],
    [c.id, c.class, c.serializer, c.baseline, c.target],
  );
  assert.equal(rec.planned.serializerVersion, c.serializerVersion);
  assert.equal(rec.planned.family, c.family);
  assert.deepEqual([rec.payload.bytes, rec.payload.sha256], [c.payload.bytes, c.payload.sha256]);
  // the slimmed form: launches at the top, no samples, version, family, platform or payload
  const slim: RecordedCase = {
    id: c.id,
    workload: c.workload,
    size: c.size,
    shape: c.shape,
    direction: c.direction,
    class: c.class,
    serializer: c.serializer,
    baseline: c.baseline,
    target: c.target,
    ratio: c.ratio,
    launches: c.samples.launches,
  };
  const s = caseRecordOf(slim);
  assert.equal(s.launches, c.samples.launches);
  assert.deepEqual([s.relaunches, s.planned.family, s.planned.platform], [0, 'builtin', 'javascript']);
  // a baseline, or a case without a ratio, is not paired
  assert.equal(caseRecordOf({ ...slim, serializer: c.baseline! }).paired, false);
  assert.equal(caseRecordOf({ ...slim, ratio: null }).paired, false);
});

test('recordedGroups: one group per workload × size × shape × direction × class × target, measured cases only, in order', () => {
  const r = readResults(RECORDED);
  const measured = r.cases.filter(isMeasured);
  const groups = recordedGroups(r.cases);
  assert.equal(groups.length, 4);
  assert.deepEqual(
    groups.flat().map((g) => g.planned.id),
    measured.map((c) => c.id),
  );
  for (const g of groups) assert.equal(new Set(g.map((x) => `${x.planned.direction}/${x.planned.caseClass}`)).size, 1);
  // the same cases on a second target are groups of their own, never pooled with the first's
  const other = measured.map((c) => ({ ...c, target: { ...c.target, id: 'bun' } }));
  const both = recordedGroups([...measured, ...other]);
  assert.equal(both.length, 8);
  assert.ok(both.every((g) => new Set(g.map((x) => x.planned.target.id)).size === 1));
  // a case that was not measured is left out
  const failed = { ...measured[0], id: 'x/failed', status: 'failed' };
  assert.equal(recordedGroups([failed, ...measured]).flat().length, measured.length);
});

test('reassembleGroups recomputes every measured case from its launches, with the run prior as the runner lends it', () => {
  const r = readResults(RECORDED);
  const out = reassembleGroups(recordedGroups(r.cases), r.policy.measure);
  assert.deepEqual(
    out.map((g) => g.length),
    recordedGroups(r.cases).map((g) => g.length),
  );
  const flat = out.flat().filter(isMeasured);
  assert.equal(flat.length, 16);
  // time intervals of this build: log scale, recorded, holding the mean
  assert.ok(flat.every((c) => c.time.interval && c.time.interval[0] < c.time.mean && c.time.mean < c.time.interval[1]));
  // a group alone borrows nothing from the run: its intervals differ from the run-prior ones
  const alone = reassembleGroups([recordedGroups(r.cases)[0]], r.policy.measure)[0].filter(isMeasured);
  assert.ok(
    alone.some((c, i) => c.time.interval![1] !== (out[0][i] as MeasuredCase).time.interval![1]),
    'the run prior moved at least one interval',
  );
});
