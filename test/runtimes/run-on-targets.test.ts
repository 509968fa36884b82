import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTarget } from '../../src/runtimes/index.js';
import { cacheDir, ensureInstalled, runOnTargets, TINY } from './helpers.js';
import { workloads } from '../../src/workloads/index.js';
import { writePayload } from '../../src/plan/payloads.js';
import type { WorkerJob } from '../../src/worker/protocol.js';

/**
 * Every target kind runs the weather-station json case for real under a tiny policy, with the
 * same payload bytes, and labels its allocation figure honestly. A runtime that is missing is
 * installed from the npm registry first; where that cannot be done the test is skipped with the
 * reason (Chromium comes from apt: `apt-get install -y chromium`).
 */

const expectations: { id: string; runtime: string; alloc: 'exact' | 'estimate' | 'n/a'; engine: string }[] = [
  { id: 'node', runtime: 'node', alloc: 'exact', engine: 'V8' },
  { id: 'node@22', runtime: 'node', alloc: 'exact', engine: 'V8' },
  { id: 'bun', runtime: 'bun', alloc: 'n/a', engine: 'JavaScriptCore' },
  { id: 'deno', runtime: 'deno', alloc: 'estimate', engine: 'V8' },
  { id: 'chromium', runtime: 'chromium', alloc: 'estimate', engine: 'V8' },
  { id: 'quickjs', runtime: 'quickjs', alloc: 'n/a', engine: 'QuickJS-ng' },
];

const hostSha = { value: '' };

for (const e of expectations) {
  test(`the json case runs on ${e.id}, gated and timed, with ${e.alloc} allocation`, async (t) => {
    const target = parseTarget(e.id);
    const skip = await ensureInstalled(target);
    if (skip) {
      t.skip(skip);
      return;
    }
    const { cases, targets, payload } = await runOnTargets([target]);
    assert.equal(cases.length, 1);
    const c = cases[0];
    assert.equal(c.status, 'measured', `${c.status}: ${c.reason ?? ''}`);
    assert.equal(c.id, `weather-station/1/single/serialize/json@${e.id}`);
    assert.equal(c.target?.runtime, e.runtime);
    assert.equal(c.target?.version, targets[0].version);
    assert.match(c.target!.version, /^\d+\.\d+/);
    assert.equal(c.serializerVersion, `${e.runtime} ${targets[0].version}`);
    assert.equal(targets[0].engine, e.engine);
    assert.ok(targets[0].engineVersion && targets[0].engineVersion !== 'unknown', 'engine version recorded');
    assert.ok(c.time && c.time.mean > 0 && c.time.n >= 4, 'timed: at least 2 rounds × 2 samples');
    assert.equal(c.allocated?.method, e.alloc);
    if (e.alloc === 'exact')
      assert.ok(
        c.allocated!.mean! > 100 && c.allocated!.mean! < 10_000,
        `json of one station allocates some hundred bytes, got ${c.allocated!.mean}`,
      );
    if (e.alloc !== 'exact') assert.ok((c.allocated?.note ?? '').length > 20, 'an estimate or n/a says how or why');
    if (e.alloc === 'n/a') assert.equal(c.allocated!.windows, undefined, 'n/a has no windows');
    assert.equal(c.payload.sha256, payload.sha256);
    if (!hostSha.value) hostSha.value = targets[0].workerSha256 ?? '';
  });
}

test('several targets in one run: each case on its own runtime, ratios drawn inside one runtime', async (t) => {
  const targets = ['node', 'quickjs'].map(parseTarget);
  for (const tg of targets) {
    const skip = await ensureInstalled(tg);
    if (skip) {
      t.skip(skip);
      return;
    }
  }
  const { cases } = await runOnTargets(targets, { serializers: ['json', 'safe-stable-stringify'] });
  assert.deepEqual(
    cases.map((c) => [c.id.split('/').pop(), c.status, c.baseline]),
    [
      ['json@node', 'measured', 'json'],
      ['safe-stable-stringify@node', 'measured', 'json'],
      ['json@quickjs', 'measured', 'json'],
      ['safe-stable-stringify@quickjs', 'measured', 'json'],
    ],
  );
  for (const c of cases)
    if (c.serializer !== 'json')
      assert.ok(typeof c.ratio === 'number' && c.ratio > 0, 'paired with the json of its own runtime');
});

test("a library printing to stdout cannot corrupt Deno's channel (stdout there)", async (t) => {
  const target = parseTarget('deno');
  const skip = await ensureInstalled(target);
  if (skip) {
    t.skip(skip);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-noisy-'));
  const config = join(dir, 'noisy.config.mjs');
  writeFileSync(
    config,
    `export default { serializers: [{ id: 'noisy', family: 'builtin', supports: () => true,
    prepare: () => { console.log('{"protocol":1,"type":"done"} printed by a library'); process.stdout.write('raw stdout\\n'); return { serialize: (v) => JSON.stringify(v) }; } }] };\n`,
  );
  const noisy = {
    id: 'noisy',
    family: 'builtin' as const,
    directions: ['serialize' as const],
    supports: () => true as const,
    prepare: () => ({ serialize: (v: unknown) => JSON.stringify(v) }),
  };
  const { cases } = await runOnTargets([target], {
    serializers: ['noisy'],
    configPath: config,
    userSerializers: [noisy],
  });
  assert.deepEqual(
    cases.map((c) => [c.serializer, c.status, c.reason]),
    [
      ['json', 'measured', undefined],
      ['noisy', 'measured', undefined],
    ],
  );
});

test('an adapter needing a global QuickJS lacks is unsupported there, with the reason; the others run', async (t) => {
  const target = parseTarget('quickjs');
  const skip = await ensureInstalled(target);
  if (skip) {
    t.skip(skip);
    return;
  }
  const { cases } = await runOnTargets([target], { serializers: ['json', 'fast-json-stringify'] });
  const fjs = cases.find((c) => c.serializer === 'fast-json-stringify')!;
  assert.equal(fjs.status, 'unsupported');
  assert.match(fjs.reason ?? '', /needs the global `process`, which this runtime does not have/);
  assert.equal(cases.find((c) => c.serializer === 'json')!.status, 'measured');
  const transform = await runOnTargets([target], { serializers: ['zod', 'arktype'], direction: 'deserialize' });
  assert.deepEqual(
    transform.cases.map((c) => [c.serializer, c.status]),
    [
      ['zod', 'measured'],
      ['arktype', 'unsupported'],
    ],
    'the transform gate runs on QuickJS; arktype needs Blob',
  );
  assert.match(transform.cases[1].reason ?? '', /needs the global `Blob`/);
});

test('a Chromium worker still running at its timeout is stopped and reported as timed out', async (t) => {
  const target = parseTarget('chromium');
  const skip = await ensureInstalled(target);
  if (skip) {
    t.skip(skip);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-chromium-timeout-'));
  const w = await workloads.load('weather-station');
  const payload = await writePayload(join(dir, 'payloads'), w, 1, 42);
  const prepared = await target.prepare({ cacheDir, bundleDir: join(dir, 'worker'), payloadPaths: [payload.path] });
  const job: WorkerJob = {
    mode: 'time',
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    caseClass: 'serialize',
    serializer: 'json',
    payloadPath: payload.path,
    policy: { ...TINY.measure, warmupMinMs: 120_000, warmupMaxMs: 120_000 },
  };
  const t0 = performance.now();
  // 20 s: the page must get to the job's warmup inside the timeout even on a heavily loaded 2-core
  // machine (4 s was too short at load 4; 10 s was known to fail at load 25 and more)
  const outcome = await prepared.launch(job, 20_000);
  assert.equal(outcome.timedOut, true);
  assert.ok(performance.now() - t0 < 60_000, 'the browser was closed at the timeout, not after the 120 s warmup');
  assert.deepEqual(
    outcome.messages.map((m) => (m.type === 'stage' ? `stage ${m.stage}` : m.type)),
    ['hello', 'stage load', 'stage prepare', 'stage verify', 'stage warmup'],
    'it had started the job and was warming up',
  );
});
