import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AllocStats, CaseResult } from '../../src/results/types.js';
import { allocRatioRange, allocWindowRange } from '../../src/results/alloc.js';
import { runColumns } from '../../src/report/rows.js';
import { formatAllocated } from '../../src/report/target-columns.js';
import { fixture } from '../report/support.js';

const exact = (windows: number[]): AllocStats => ({
  method: 'exact',
  mean: [...windows].sort((a, b) => a - b)[Math.floor(windows.length / 2)],
  unit: 'bytes/op',
  gcPerOp: 0,
  windows,
});
// windows of a quick run (new-user tryout, load 7.3): zod's deserialize and json's serialize
const ZOD = exact([3662.9375, 2662.1875, 3663.625]);
const JSON_SER = exact([1166.0703125, 1165.875, 1165.8046875]);

test('windows that disagree beyond 1% give their range; windows that agree, or no figure, give none', () => {
  assert.deepEqual(allocWindowRange(ZOD), [2662.1875, 3663.625]);
  assert.equal(allocWindowRange(JSON_SER), null);
  assert.equal(allocWindowRange({ method: 'n/a', unit: 'bytes/op', note: 'no counter' }), null);
  assert.equal(allocWindowRange(undefined), null);
});

test('an allocation figure whose windows disagree is never printed as one exact number: its range, in the run table and the target tables', () => {
  const r = fixture('single');
  const cases = structuredClone(r.cases.filter((c) => c.status === 'measured' && c.direction === 'serialize'));
  const base = cases.find((c) => c.serializer === c.baseline)!;
  const c = cases.find((x) => x.serializer !== x.baseline)! as CaseResult & { allocated: AllocStats };
  base.allocated = exact([1000, 1000.5, 1000.2]);
  c.allocated = ZOD;
  c.allocRatio = ZOD.mean! / base.allocated.mean!;
  const cols = runColumns({ cases });
  const cell = (id: string, x: CaseResult) => cols.find((k) => k.id === id)!.cell(x);
  assert.equal(cell('allocated', c), '2.60 KiB–3.58 KiB');
  assert.equal(formatAllocated(c.allocated), '2.60 KiB–3.58 KiB');
  // the ratio's range: lowest ÷ the baseline's highest, highest ÷ its lowest (the baseline's windows agree: its one figure, 1000.2 B)
  const range = allocRatioRange(c, base)!;
  assert.ok(Math.abs(range[0] - 2662.1875 / 1000.2) < 1e-9 && Math.abs(range[1] - 3663.625 / 1000.2) < 1e-9);
  const wobbly = structuredClone(base);
  wobbly.allocated = exact([900, 1000, 1100]);
  assert.deepEqual(allocRatioRange(c, wobbly), [2662.1875 / 1100, 3663.625 / 900]);
  assert.equal(cell('alloc-ratio', c), '2.66–3.66');
  // agreeing windows keep one figure
  assert.equal(cell('allocated', base), '1000 B');
  assert.equal(cell('alloc-ratio', base), '1.00');
});
