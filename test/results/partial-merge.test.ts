import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeRun, ShardMergeError } from '../../src/results/merge.js';
import { unreadSentences } from '../../src/report/rows.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * `jsonbench merge` of some shards only (hx3, issue 25: `merge t1 --out mt` with shard 1/2 alone
 * wrote "2 cases from 1 shards", exit 0): refused naming the missing shards, unless `--partial`,
 * whose results record what is missing and whose reports say it.
 */

const shard = (index: number, ids: string[], count = 2, plan = ['a', 'b', 'c']) =>
  ({
    schemaVersion: 1,
    tool: 'jsonbench',
    startedAt: `2026-12-06T00:00:0${index}.000Z`,
    environment: {},
    policy: { name: 'quick' },
    targets: [],
    cases: ids.map((id) => ({ id, status: 'unsupported', reason: 'r' })),
    shard: { index, count, plan },
  }) as unknown as ResultsFile;

test('one shard of two alone is refused, naming the missing shard and --partial', () => {
  assert.throws(
    () => mergeRun([shard(1, ['a', 'c'])], ['t1']),
    (e: unknown) =>
      e instanceof ShardMergeError &&
      /shard 2\/2 missing: give all 2 \(or --partial to merge only these, which the reports then say\)/.test(e.message),
  );
});

test('--partial merges the shards given and records the missing ones, which the reports then state', () => {
  const merged = mergeRun([shard(1, ['a', 'c'], 3)], ['t1'], true);
  assert.deepEqual(
    merged.cases.map((c) => c.id),
    ['a', 'c'],
  );
  assert.equal(merged.shard, undefined);
  assert.deepEqual(merged.partialMerge, { count: 3, missing: [2, 3], absentCases: 1 });
  assert.deepEqual(unreadSentences([merged]), [
    'Partial merge: shards 2/3, 3/3 missing, 1 planned case not in this run (jsonbench merge --partial).',
  ]);
});

test('all shards given: no partialMerge, with or without --partial', () => {
  for (const partial of [false, true]) {
    const merged = mergeRun([shard(2, ['b']), shard(1, ['a', 'c'])], [], partial);
    assert.deepEqual(
      merged.cases.map((c) => c.id),
      ['a', 'b', 'c'],
    );
    assert.equal(merged.partialMerge, undefined);
  }
});
