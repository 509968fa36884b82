import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, quickPayloadRunArgs, scratchConfigs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A config's supports() runs in jsonbench's own process and was handed the payload's workload itself (hx28 C3): one
 * that renamed it (`w.id = 'payload:evil…'`) ended the run with "an internal error", exit 1, nothing written. It is
 * handed a frozen copy now (plan/plan.ts userView): the assignment throws in strict code, and the run is untouched.
 */

const { dir, config } = scratchConfigs('workload-view');

test("a supports() that rewrites the workload it is handed cannot reach the run's (hx28 C3: an internal error)", async () => {
  const payload = join(dir, 'mid.json');
  writeFileSync(payload, '{"id":1,"name":"a","tags":["x","y"]}\n');
  const file = config(
    'rename.config.mjs',
    `export default { serializers: [
  { id: 'renames', family: 'builtin', directions: ['serialize'],
    supports: (w) => { try { w.id = 'payload:evil'; w.sizes = [1, 1000000]; w.schema.type = 'string'; } catch {} return true; },
    prepare: () => ({ serialize: (v) => JSON.stringify(v) }) },
  { id: 'renames-loudly', family: 'builtin', directions: ['serialize'],
    supports: (w) => { w.id = 'payload:evil'; return true; },
    prepare: () => ({ serialize: (v) => JSON.stringify(v) }) },
], workloads: [] };
`,
  );
  const out = join(dir, 'out');
  const ran = await cli(quickPayloadRunArgs(payload, 'json,renames,renames-loudly', 'serialize', out, file), {
    timeoutMs: 120_000,
  });
  assert.equal(ran.code, 0, ran.stderr);
  assert.doesNotMatch(ran.stderr, /internal error/);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const status = (s: string) => results.cases.find((c) => c.serializer === s);
  assert.equal(status('json')?.status, 'measured');
  assert.equal(status('renames')?.status, 'measured');
  assert.equal(status('renames')?.workload, 'payload:mid');
  assert.equal(status('renames-loudly')?.status, 'failed');
  assert.match(status('renames-loudly')!.reason!, /supports\(\) threw: .*read.only property 'id'/);
});

test("a prepare() that changes the workload's wire options cannot reach the baseline's (hx34 s17: JSON.stringify indented beside it, 'faster by 1.17×')", async () => {
  const payload = join(dir, 'wire.json');
  writeFileSync(payload, '{"id":1,"name":"a","tags":["x","y"]}\n');
  const marks = join(dir, 'wire-marks.txt');
  const file = config(
    'wire.config.mjs',
    `import { appendFileSync } from 'node:fs';
export default { serializers: [
  { id: 'rewires', family: 'builtin', directions: ['serialize'], supports: () => true,
    prepare(w) {
      for (const change of [() => { w.wire = { indent: 8 }; }, () => { w.schema.type = 'string'; }, () => { w.sizes.push(7); }])
        try { change(); appendFileSync(${JSON.stringify(marks)}, 'changed\\n'); } catch { appendFileSync(${JSON.stringify(marks)}, 'refused\\n'); }
      return { serialize: (v) => JSON.stringify(v) };
    } },
  { id: 'rewires-loudly', family: 'builtin', directions: ['serialize'], supports: () => true,
    prepare(w) { w.wire = { indent: 8 }; return { serialize: (v) => JSON.stringify(v) }; } },
], workloads: [] };
`,
  );
  const out = join(dir, 'wire-out');
  const ran = await cli(quickPayloadRunArgs(payload, 'json,rewires,rewires-loudly', 'serialize', out, file), {
    timeoutMs: 120_000,
  });
  assert.equal(ran.code, 0, ran.stderr);
  const seen = readFileSync(marks, 'utf8').trim().split('\n');
  assert.ok(seen.length >= 3, seen.join(','));
  assert.deepEqual([...new Set(seen)], ['refused']);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = (s: string) => results.cases.find((x) => x.serializer === s);
  assert.equal(c('json')?.status, 'measured');
  assert.equal(c('rewires')?.status, 'measured');
  assert.equal(c('rewires-loudly')?.status, 'failed');
  assert.match(c('rewires-loudly')!.reason!, /read.only|not extensible|Cannot (assign|add)/);
});
