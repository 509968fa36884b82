import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recoverRun, RUN_PARTIAL, writeRunSnapshot } from '../../src/run/recover.js';
import { planCases } from '../../src/plan/plan.js';
import { expandTargets } from '../../src/plan/targets.js';
import { policies } from '../../src/config/policies.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runExit } from '../../src/cli/run.js';
import type { ResultsFile } from '../../src/results/types.js';

const fixture = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));

/** A killed run's folder before any case finished: json and typia on weather-station serialize planned, the snapshot written, no case finished. */
async function killedRun(dir: string): Promise<ReturnType<typeof expandTargets>> {
  const { cases: _, ...header } = JSON.parse(readFileSync(fixture, 'utf8')) as ResultsFile;
  const workload = await workloads.load('weather-station');
  const all = await serializers.loadAll([]);
  const chosen = all.filter((s) => s.id === 'json' || s.id === 'typia');
  const groups = expandTargets(planCases({ workloads: [workload], serializers: chosen, directions: ['serialize'], policy: policies.quick }, all), [{ id: 'node', runtime: 'node', version: '20.20.2' }], false);
  writeRunSnapshot(dir, { results: { ...header, cases: [] } as ResultsFile, groups, payloads: [] });
  writeFileSync(join(dir, RUN_PARTIAL.cases), '');
  return groups;
}

test('a run killed before its cases were launched rebuilds them as not-run (not failed), and the report says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const planned = groups.flat().filter((c) => c.status === 'planned');
    assert.ok(planned.length >= 2, 'json and typia are planned');
    const r = recoverRun(dir);
    assert.equal(r.lost, planned.length);
    for (const c of r.results.cases.filter((x) => planned.some((p) => p.id === x.id))) {
      assert.equal(c.status, 'not-run', `${c.id}`);
      assert.equal(c.reason, 'not measured: the run was killed before this case');
    }
    assert.equal(runExit(r.results, ['failed']).lines.some((l) => l.includes('failed')), false, '--fail-on failed does not count a case that never ran');
    const md = renderMarkdown([r.results]);
    assert.match(md, /⏹ not measured: the run was killed before this case/);
    assert.match(md, new RegExp(`${planned.length} not-run`));
    assert.doesNotMatch(md, /\d+ failed/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a damaged launch record in launches.partial.jsonl is refused with the file, the record and the field, never an internal error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const typia = groups.flat().find((c) => c.serializer === 'typia' && c.status === 'planned')!;
    // the hostile tester's record: a round without baselineNs (report said "Cannot read properties of undefined")
    const record = { launch: 1, opsPerSample: { serializer: 10, baseline: 10 }, warmup: { serializerOps: 1, serializerMs: 1, baselineOps: 1, baselineMs: 1 }, emptyNsPerOp: 1, rounds: [{ serializerNs: [100] }], noisy: false, elapsedMs: 5 };
    writeFileSync(join(dir, RUN_PARTIAL.launches), `${JSON.stringify({ caseId: typia.id, record })}\n`);
    assert.throws(() => recoverRun(dir), (e: Error) => {
      assert.match(e.message, new RegExp(`launches\\.partial\\.jsonl: at record 1 \\(case ${typia.id.replace(/[/.]/g, '\\$&')}\\), /rounds/0/baselineNs: not a launch record: `));
      return (e as { code?: string }).code === 'E_RESULTS';
    });
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
