import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  countInstructions,
  iterationsFor,
  parseCallgrindTotal,
  valgrindVersion,
} from '../../src/instructions/callgrind.js';
import type { InstructionStats } from '../../src/case/measurements.js';
import { runInstructionsPass } from '../../src/instructions/pass.js';
import { renderInstructions, INSTRUCTIONS_LABEL } from '../../src/report/instructions.js';
import { writePayload } from '../../src/plan/payloads.js';
import { workloads } from '../../src/workloads/index.js';
import { makeResults } from '../ledger/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-instr-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test("the total is read from callgrind's summary line (or totals when there is none)", () => {
  assert.equal(
    parseCallgrindTotal('# callgrind format\nversion: 1\ncmd: node x\nevents: Ir\nsummary: 573776031\ntotals: 1\n'),
    573776031,
  );
  assert.equal(parseCallgrindTotal('events: Ir\ntotals: 42\n'), 42);
  assert.throws(() => parseCallgrindTotal('events: Ir\n'), /no summary/);
});

test('iteration counts depend only on the payload size, within [100, 20 000]', () => {
  assert.deepEqual(
    [iterationsFor(393), iterationsFor(393), iterationsFor(10), iterationsFor(10 * 1024 * 1024)],
    [10178, 10178, 20000, 100],
  );
});

const fake = (perOp: number): InstructionStats => ({
  perOp,
  iterations: [2, 4],
  totals: [10, 10 + 2 * perOp],
  method: 'callgrind',
  tool: 'valgrind-test',
  flags: [],
});

test('the pass counts measured host cases only, keeps going after a failure, and reports each count', async () => {
  const r = makeResults([
    { serializer: 'json' },
    { serializer: 'broken' },
    { serializer: 'typia', status: 'failed' },
    { serializer: 'other' },
  ]);
  r.cases[3].target = { id: 'bun', runtime: 'bun', version: '1.2.3' };
  const counted: string[] = [];
  const out = await runInstructionsPass(
    {
      cases: r.cases,
      payloadOf: () => ({ path: '/payload.json' }),
      log: () => {},
      onCounted: (c) => counted.push(c.serializer),
      count: async (job) => {
        if (job.serializer === 'broken') throw new Error('exited 3');
        return fake(1234.5);
      },
    },
    'valgrind-test',
  );
  assert.deepEqual(
    [out.counted, [...out.failed], counted],
    [1, [['weather-station/1/single/serialize/broken', 'exited 3']], ['json']],
  );
  assert.equal(r.cases[0].instructions?.perOp, 1234.5);
  assert.equal(r.cases[3].instructions, undefined, 'a bun case is not counted (callgrind runs the host Node)');
});

test('with jobs 2 the pass counts two cases at once (counts are deterministic: only the wall time changes)', async () => {
  const r = makeResults([{ serializer: 'a' }, { serializer: 'b' }, { serializer: 'c' }]);
  let inFlight = 0;
  let most = 0;
  const out = await runInstructionsPass(
    {
      cases: r.cases,
      payloadOf: () => ({ path: '/payload.json' }),
      log: () => {},
      jobs: 2,
      count: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((res) => setTimeout(res, 20));
        inFlight--;
        return fake(10);
      },
    },
    'valgrind-test',
  );
  assert.equal(out.counted, 3);
  assert.equal(most, 2);
});

test("the instructions table is labelled as a CI gate, not a ranking, and keeps the run's order", () => {
  const r = makeResults([{ serializer: 'slow' }, { serializer: 'fast' }]);
  r.cases[0].instructions = fake(9000);
  r.cases[1].instructions = fake(100);
  const md = renderInstructions(r, true);
  assert.ok(md.startsWith(`### ${INSTRUCTIONS_LABEL}`));
  assert.ok(md.indexOf('| slow |') < md.indexOf('| fast |'));
  assert.match(md, /\| 9,000 \| 2 \/ 4 \|/);
  assert.equal(renderInstructions(makeResults([{ serializer: 'json' }])), '');
});

const valgrind = valgrindVersion();
test(
  'the same case counted three times under callgrind: the same iterations, every count within 5%',
  { skip: valgrind ? false : 'valgrind is not installed (apt-get install -y valgrind)', timeout: 900_000 },
  async () => {
    const w = await workloads.load('weather-station');
    const payload = await writePayload(join(dir, 'payloads'), w, 1, 42);
    const job = {
      workload: 'weather-station',
      size: 1,
      shape: 'single' as const,
      direction: 'serialize' as const,
      caseClass: 'serialize' as const,
      serializer: 'json',
      payloadPath: payload.path,
    };
    // three counts, every one within 5% of the others. Two used to have to agree within 0.1%, and did not under
    // load: the count is a difference of two totals, each the mean of two processes agreeing within 0.05%
    // (callgrind.ts AGREEMENT), and V8's background compilation and GC, timed by the wall clock, move it: fresh
    // clones' full runs, 2026-12-06: 20,343 vs 19,870; 19,878 vs 20,663 vs 20,267 (load 8); 19,871 vs 19,894 vs
    // 19,848 (load 6). A time, not a count, spreads far wider at such loads (docs/limits.md)
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push(await countInstructions(job, payload.bytes, valgrind!));
    for (const c of counts) assert.deepEqual(c.iterations, counts[0].iterations);
    const perOp = counts.map((c) => c.perOp);
    assert.ok(perOp[0] > 1000 && perOp[0] < 1e6, `JSON.stringify of a 393-byte record: ${perOp[0]} instructions/op`);
    assert.ok(Math.max(...perOp) / Math.min(...perOp) < 1.05, `every count within 5%: ${perOp.join(', ')}`);
  },
);
