import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGroups } from '../../src/run/runner.js';
import { planCases } from '../../src/plan/plan.js';
import { expandTargets } from '../../src/plan/targets.js';
import { launchWorker } from '../../src/runtimes/launch.js';
import { writePayload, type PayloadFile } from '../../src/plan/payloads.js';
import { prepareConfig } from '../../src/config/compile-config.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { variantPathOf } from '../../src/case/coordinates.js';
import { firstMismatch } from '../../src/measure/verify.js';
import { readPartial } from '../../src/results/io.js';
import type { CaseResult } from '../../src/results/types.js';

/**
 * The shelf of misbehaving serializers (test/fixtures/misbehaving/jsonbench.config.mjs) run for
 * real — one worker process per launch — in a single run beside the `json` baseline: each must
 * end in its own outcome while the rest of the run completes. The run is wired as
 * src/cli/run.ts wires it (prepareConfig, planCases, writePayload, runGroups), with a short policy
 * built from `quick` so the hanging fixture costs 5 s instead of a minute.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/misbehaving/jsonbench.config.mjs', import.meta.url));
const SHELF = ['throws', 'hangs', 'crashes', 'prints', 'wrong', 'cached', 'allocates', 'prepare-throws'];
const SEED = 42;
/** The fixture `hangs` hangs at a known point only where it can watch its writes (Linux /proc). */
const hangsMidRun = existsSync('/proc/self/io');

/** quick, with a 5 s case timeout and a tiny measurement (timings are not under test here). */
const policy: RunPolicy = {
  ...policies.quick,
  caseTimeoutMs: 5000,
  measure: {
    ...policies.quick.measure,
    warmupMinMs: 20,
    timeCapMs: 200,
    minRounds: 2,
    samplesPerRound: 2,
    allocWindows: 3,
  },
};

let dir: string;
let payload: PayloadFile;
let partialPath: string;
let results: CaseResult[];
const byId = (id: string): CaseResult => {
  const c = results.find((r) => r.serializer === id);
  assert.ok(c, `no result for ${id}`);
  return c;
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jsonbench-misbehaving-'));
  const prepared = await prepareConfig(configPath, dir);
  const workload = await workloads.load('weather-station');
  const all = await serializers.loadAll(prepared.config.serializers);
  const chosen = all.filter((s) => s.id === 'json' || SHELF.includes(s.id));
  const groups = expandTargets(
    planCases({ workloads: [workload], serializers: chosen, directions: ['serialize'], policy }, all),
    [{ id: 'node', runtime: 'node', version: process.versions.node }],
    false,
  );
  payload = await writePayload(join(dir, 'payloads'), workload, 1, SEED);
  partialPath = join(dir, 'results.partial.jsonl');
  results = await runGroups({
    groups,
    payloads: new Map([[payload.key, payload]]),
    policy,
    configPath: prepared.modulePath,
    partialPath,
    launchFor: () => launchWorker,
  });
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the run completes with every fixture in its own outcome', () => {
  assert.deepEqual(Object.fromEntries(results.map((r) => [r.serializer, r.status])), {
    json: 'measured',
    throws: 'failed',
    hangs: 'timeout',
    crashes: 'crashed',
    prints: 'measured',
    wrong: 'incorrect',
    cached: 'incorrect',
    allocates: 'measured',
    'prepare-throws': 'failed',
  });
});

test('the json baseline is still measured in the same run, with a ratio of 1 and an allocation', () => {
  const json = byId('json');
  assert.equal(json.status, 'measured');
  assert.ok(json.time && json.time.mean > 0 && Number.isFinite(json.time.mean), 'json has a time');
  assert.equal(json.ratio, 1);
  assert.ok(json.allocated && (json.allocated.mean ?? 0) > 0, 'json has an allocation');
});

test('a serializer that throws fails in the verify stage with its message, and is never timed', () => {
  const c = byId('throws');
  assert.equal(c.reason, 'verify: Error: boom');
  assert.deepEqual(c.samples.launches, []);
});

test('a prepare that throws fails in the prepare stage with its message', () => {
  const c = byId('prepare-throws');
  assert.equal(c.reason, 'prepare: Error: cannot compile the schema');
  assert.deepEqual(c.samples.launches, []);
});

test('a serializer that exits the process is crashed, with its exit code', () => {
  const c = byId('crashes');
  assert.equal(c.reason, 'worker exited with code 7 before finishing');
  assert.deepEqual(c.samples.launches, []);
});

test('a serializer that hangs is killed at the case timeout, keeping the round it streamed first', (t) => {
  const c = byId('hangs');
  const reached = hangsMidRun ? '1 round measured' : 'before measuring';
  assert.equal(c.reason, `no result after 5 s; worker killed (stage reached: ${reached})`);
  if (!hangsMidRun) {
    t.skip('no /proc/self/io here: the fixture cannot hang after its first round, so no streamed round to check');
    return;
  }
  assert.equal(c.samples.launches.length, 1);
  const [round, ...more] = c.samples.launches[0].rounds;
  assert.equal(more.length, 0);
  assert.equal(round.serializerNs.length, 2, 'samplesPerRound serializer samples');
  assert.equal(round.baselineNs.length, 2, 'and as many of the json baseline, paired');
  assert.ok(
    [...round.serializerNs, ...round.baselineNs].every((ns) => ns > 0 && Number.isFinite(ns)),
    JSON.stringify(round),
  );
  assert.equal(c.time, undefined, 'partial samples are kept raw, never turned into a time');
  assert.equal(c.ratio, undefined);
});

test('a serializer that prints to stdout, even a line that looks like a protocol message, is measured', () => {
  const c = byId('prints');
  assert.ok(c.time && c.time.mean > 0 && Number.isFinite(c.time.mean));
  assert.ok(typeof c.ratio === 'number' && c.ratio > 0 && Number.isFinite(c.ratio), `ratio ${c.ratio}`);
  assert.equal(c.samples.launches.length, 1);
  assert.ok(c.samples.launches[0].rounds.length >= policy.measure.minRounds);
});

test('a serializer that changes one value is incorrect, naming the JSON path, the expected and the actual value', () => {
  const c = byId('wrong');
  const windDir = (
    JSON.parse(readFileSync(payload.path, 'utf8')) as { sensors: { data: { wind_dir_last: number }[] }[] }
  ).sensors[0].data[0].wind_dir_last;
  assert.equal(c.reason, 'output differs at $.sensors[0].data[0].wind_dir_last');
  assert.deepEqual(c.mismatch, {
    side: 'serializer',
    path: '$.sensors[0].data[0].wind_dir_last',
    expected: String(windDir),
    actual: String(windDir + 1),
  });
  assert.equal(c.time, undefined);
  assert.equal(c.ratio, undefined);
});

test('a serializer that returns a cached string is incorrect, caught on the variant payload', () => {
  const c = byId('cached');
  const main = JSON.parse(readFileSync(payload.path, 'utf8')) as unknown;
  const variant = JSON.parse(readFileSync(variantPathOf(payload.path), 'utf8')) as unknown;
  const first = firstMismatch(variant, main);
  assert.ok(first, 'the variant payload differs from the main one');
  assert.equal(c.reason, `output differs at ${first.path}`);
  assert.deepEqual(c.mismatch, { side: 'serializer', ...first, on: 'variant' });
  assert.equal(c.time, undefined);
});

test('a serializer that retains memory without bound is measured in a short run, with at least 1 KiB/op more allocated than json', () => {
  const c = byId('allocates');
  const json = byId('json');
  assert.ok(c.time && c.time.mean > 0);
  assert.ok(c.allocated && json.allocated, 'both have an allocation');
  const extra = (c.allocated.mean ?? NaN) - (json.allocated.mean ?? NaN);
  assert.ok(
    extra >= 1024,
    `allocates retains 128 doubles (1 KiB) per call, but measured only ${extra.toFixed(0)} bytes/op above json`,
  );
  assert.ok(c.allocRatio! > 1, `allocRatio ${c.allocRatio}`);
});

test('no case but a measured one carries a time, a ratio or an allocation', () => {
  for (const c of results.filter((r) => r.status !== 'measured')) {
    assert.deepEqual([c.time, c.ratio, c.allocated, c.allocRatio], [undefined, undefined, undefined, undefined], c.id);
  }
});

test('every finished case was appended to the partial file, exactly as returned', () => {
  const partial = readPartial(partialPath);
  assert.equal(partial.length, 1 + SHELF.length);
  assert.deepEqual(partial, JSON.parse(JSON.stringify(results)));
});
