import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../src/report/model.js';
import { fixture } from './support.js';

test('cases without a target are labelled with the host runtime; targets keep their id and version', () => {
  assert.deepEqual(buildModel([fixture('single')]).targets, ['node 20.20.2']);
  assert.deepEqual(buildModel([fixture('two-targets')]).targets, ['node 20.20.2', 'bun 1.1.30']);
});

test('merging files concatenates every case and keeps every provenance', () => {
  const a = fixture('single');
  const b = fixture('scaling');
  const m = buildModel([a, b]);
  assert.equal(m.cases.length, a.cases.length + b.cases.length);
  assert.equal(m.runs.length, 2);
  assert.deepEqual([...new Set(m.cases.map((c) => c.source))], [0, 1]);
  assert.deepEqual(m.targets, ['node 20.20.2'], 'same machine and runtime, different cases: one target');
});

test('the same cases from two machines are tagged with their file, never mixed', () => {
  const a = fixture('single');
  const b = structuredClone(fixture('single'));
  b.environment.cpuModel = 'Other CPU';
  const m = buildModel([a, b]);
  assert.deepEqual(m.targets, ['node 20.20.2 · #1', 'node 20.20.2 · #2']);
  const again = buildModel([a, structuredClone(a)]);
  assert.deepEqual(
    again.targets,
    ['node 20.20.2 · #1', 'node 20.20.2 · #2'],
    'same machine, same case ids: still two measurements',
  );
});

test('an empty list of results is an error', () => {
  assert.throws(() => buildModel([]), /no results/);
});
