import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import type { CaseResult } from '../../src/results/types.js';

/**
 * The shelf of hostile serializers (test/fixtures/hostile/serializers.config.mjs) run for real —
 * one worker process per launch — beside the json baseline, wired as src/cli/run.ts wires a run.
 * Each tried to get a wrong or forged number past the lab (issue 9); each must end in its own
 * status with a reason that says what happened, and never be ranked.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/hostile/serializers.config.mjs', import.meta.url));
const SEED = 42;
const policy: RunPolicy = {
  ...policies.quick,
  caseTimeoutMs: 8000,
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
let pidDir: string;
let results: CaseResult[];
let runMs: number;
const byId = (id: string): CaseResult => {
  const found = results.filter((r) => r.serializer === id);
  assert.equal(found.length, 1, `one result for ${id}`);
  return found[0];
};
const pidsOf = (id: string) =>
  readdirSync(pidDir)
    .filter((f) => f.startsWith(`${id}.`))
    .map((f) => Number(readFileSync(join(pidDir, f), 'utf8')));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-'));
  pidDir = join(dir, 'pids');
  mkdirSync(pidDir);
  process.env.JSONBENCH_TEST_PID_DIR = pidDir;
  const prepared = await prepareConfig(configPath, dir);
  const ws = [await workloads.load('weather-station'), ...prepared.config.workloads];
  const all = await serializers.loadAll(prepared.config.serializers);
  const chosen = all.filter((s) => s.id === 'json' || prepared.config.serializers.some((h) => h.id === s.id));
  const groups = expandTargets(
    planCases({ workloads: ws, serializers: chosen, directions: ['serialize'], policy }, all),
    [{ id: 'node', runtime: 'node', version: process.versions.node }],
    false,
  );
  const payloads = new Map<string, PayloadFile>();
  for (const w of ws) {
    const p = await writePayload(join(dir, 'payloads'), w, 1, SEED, { configPath: prepared.modulePath });
    payloads.set(p.key, p);
  }
  const t0 = performance.now();
  results = (
    await runGroups({
      groups,
      payloads,
      policy,
      configPath: prepared.modulePath,
      partialPath: join(dir, 'results.partial.jsonl'),
      launchFor: () => launchWorker,
    })
  ).filter((r) => r.status !== 'unsupported');
  runMs = performance.now() - t0;
});

after(() => {
  for (const pid of pidDir ? pidsOf('leaves-session') : []) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  delete process.env.JSONBENCH_TEST_PID_DIR;
  rmSync(dir, { recursive: true, force: true });
});

test('a serializer that forges rounds of 1 ns/op and a done on the channel is crashed, never measured', () => {
  const c = byId('forges-unsigned');
  assert.equal(c.status, 'crashed');
  assert.match(
    c.reason ?? '',
    /^protocol: an unsigned line on the channel \(not written by this launch's worker; forged by the code being measured\?\): \{"protocol":2,"type":"setup"/,
  );
  assert.equal(c.time, undefined);
});

test('a line with a made-up signature is rejected as forged', () => {
  const c = byId('forges-bad-mac');
  assert.equal(c.status, 'crashed');
  assert.match(c.reason ?? '', /^protocol: a line whose signature does not match this launch's key \(forged\)/);
});

test("a serializer right for the gate's calls and wrong afterwards is incorrect, caught at the end of warmup", () => {
  const c = byId('wrong-after-gate');
  assert.equal(c.status, 'incorrect');
  assert.match(c.reason ?? '', /^result changed after the gate \(end of warmup\): output differs at \$\./);
  assert.equal(c.mismatch?.side, 'serializer');
  assert.equal(c.mismatch?.when, 'timing', 'the results say it was seen while timing, not by the gate');
  assert.equal(c.time, undefined);
});

test('a serializer wrong only after 500 calls is incorrect, caught in warmup or while timing', () => {
  const c = byId('wrong-later');
  assert.equal(c.status, 'incorrect');
  assert.match(
    c.reason ?? '',
    /^result changed after the gate \((end of warmup|pilot|round \d+, sample \d+)\): output differs at \$\./,
  );
});

test('a serializer that changes its input in the gate is incorrect (its output matched the changed input)', () => {
  const c = byId('mutates-at-gate');
  assert.equal(c.status, 'incorrect');
  assert.equal(
    c.reason,
    "input changed during the correctness gate: differs from the payload at $.sensors[0].data[0].wind_dir_last: the serializer changes the value it is handed (a serializer must leave the caller's objects as they were)",
  );
  assert.equal(c.mismatch?.when, undefined, 'the gate saw it');
});

test('a serializer that writes its input and then changes it is said to change its input, not to write the payload wrong (hx31 a12)', () => {
  const c = byId('mutates-after');
  assert.equal(c.status, 'incorrect');
  assert.match(
    c.reason ?? '',
    /^input changed during the correctness gate: differs from the payload at \$\.\w+: the serializer changes the value it is handed/,
  );
});

test("a serializer that reorders its input's keys after the gate is incorrect (the baseline would write another text)", () => {
  const c = byId('reorders-input');
  assert.equal(c.status, 'incorrect');
  assert.equal(c.reason, 'input changed (after warmup): its keys were reordered');
  assert.equal(c.mismatch?.when, 'timing');
});

test('a serializer that gives its input another prototype (a toJSON slowing the baseline) or adds a toJSON after the gate is incorrect', () => {
  const swapped = byId('swaps-prototype');
  assert.equal(swapped.status, 'incorrect');
  assert.equal(swapped.reason, 'input changed (after warmup): its prototype was replaced at $[0]');
  assert.equal(swapped.mismatch?.when, 'timing');
  const added = byId('adds-tojson');
  assert.equal(added.status, 'incorrect');
  assert.equal(
    added.reason,
    'input changed (after warmup): a toJSON function was added at $[0] (own or along its prototype chain)',
  );
});

test('a serializer that throws a 5 MB message fails with its reason cut to 16 KB at record time, saying how long it was', () => {
  const c = byId('throws-huge');
  assert.equal(c.status, 'failed');
  assert.ok(c.reason!.length < 16_384 + 100, `${c.reason!.length} characters recorded`);
  assert.match(c.reason!, /^verify: Error: A{100}/);
  assert.match(c.reason!, /A… \(cut: \d{7} characters in all\)$/);
});

test('a serializer that replaces JSON.parse cannot make the gate see its output as right', () => {
  const c = byId('patches-json-parse');
  assert.equal(c.status, 'incorrect');
  assert.match(c.reason ?? '', /^output differs at \$\./);
});

test('an extra "constructor" key and a dropped "__proto__" key are incorrect', () => {
  assert.equal(byId('adds-constructor').reason, 'output differs at $.constructor');
  assert.equal(byId('drops-proto').reason, 'output differs at $.__proto__');
});

test('a raw lone surrogate in the output is incorrect although JSON.parse accepts it', () => {
  const c = byId('raw-surrogate');
  assert.equal(c.status, 'incorrect');
  assert.match(c.reason ?? '', /^output is not well-formed Unicode: a lone surrogate U\+D800 at index \d+/);
});

for (const id of ['leaves-child', 'leaves-session']) {
  test(`a worker whose child (${id}) keeps the pipes open is measured at once, its numbers kept`, () => {
    const c = byId(id);
    assert.equal(c.status, 'measured', c.reason);
    assert.ok(c.time && c.time.mean > 0);
    assert.ok(
      c.samples.launches.every((l) => l.elapsedMs < policy.caseTimeoutMs),
      c.samples.launches.map((l) => l.elapsedMs).join(', '),
    );
  });
}

test("the child left behind in the worker's process group is killed with it", () => {
  const pids = pidsOf('leaves-child');
  assert.ok(pids.length >= 1, "the fixture wrote its child's pid");
  assert.deepEqual(pids.filter(alive), []);
});

test('a prepare() whose Promise never settles fails at once, naming prepare', () => {
  const c = byId('prepare-never-settles');
  assert.equal(c.status, 'failed');
  assert.equal(
    c.reason,
    'prepare: prepare (serializer) never settled: the worker ran out of work while waiting on a Promise that never resolves',
  );
});

test('a prepare() that loops forever times out, and the reason names prepare', () => {
  const c = byId('prepare-loops');
  assert.equal(c.status, 'timeout');
  assert.equal(c.reason, 'no result after 8 s; worker killed (stage reached: prepare of the serializer)');
});

test('the json baseline of every group is measured with a ratio of 1', () => {
  const json = results.filter((r) => r.serializer === 'json' && !r.workload.startsWith('deep-'));
  assert.equal(json.length, 3);
  for (const j of json) {
    assert.equal(j.status, 'measured', `${j.id}: ${j.reason}`);
    assert.equal(j.ratio, 1);
  }
});

test('a payload nested 4,000 deep is gated and measured (no recursive check of jsonbench overflows)', () => {
  const c = results.find((r) => r.serializer === 'json' && r.workload === 'deep-4000');
  assert.equal(c?.status, 'measured', c?.reason);
});

test('a payload nested deeper than JSON.stringify can follow on a worker fails that case alone, saying so', () => {
  const c = results.find((r) => r.serializer === 'json' && r.workload === 'deep-9000');
  assert.equal(c?.status, 'failed');
  assert.equal(
    c?.reason,
    "verify: RangeError: Maximum call stack size exceeded (the payload or schema is nested deeper than this code's recursion can follow)",
  );
});

test('no hostile serializer is ranked but the two that leave a child behind (their output is right), and no launch outlived its timeout', () => {
  const ranked = results
    .filter((r) => r.status === 'measured' && r.serializer !== 'json')
    .map((r) => r.serializer)
    .sort();
  assert.deepEqual(ranked, ['leaves-child', 'leaves-session']);
  // a hang bound, not a speed target: the timeout kills a launch, and 1 s after its worker exits a launch ends whatever holds its pipes
  for (const r of results)
    for (const l of r.samples.launches)
      assert.ok(
        l.elapsedMs < policy.caseTimeoutMs + 5000,
        `${r.id}: a launch took ${(l.elapsedMs / 1000).toFixed(0)} s (whole shelf: ${(runMs / 1000).toFixed(0)} s)`,
      );
});

test('a serializer that memoizes its text per input object is incorrect, saying its result follows the input object', () => {
  const c = byId('memoizes');
  assert.equal(c.status, 'incorrect');
  assert.equal(c.mismatch?.when, 'timing');
  assert.match(
    c.reason ?? '',
    // caught between two timed calls (hostile5: measure/timed-check.ts roundChange), else after the rounds
    /^(?:result cached between calls \(round \d+, sample \d+\): the output did not follow a change made in place to its input \(\$\.\S+\) between two timed calls: .* — what a result cached by the input object, or by part of its contents, gives$|the result follows the input object, not its contents \(a fresh object with the same contents got the right result\) \(the input it was timed on, changed in place to the variant payload\): )/,
  );
});

test('a serializer that leaves a throwing timer or an unhandled rejection behind fails, saying it happened outside any call', () => {
  for (const [id, what] of [
    ['throws-later', /^\w+: an exception was thrown outside any call .*: Error: late boom$/],
    ['rejects-later', /^\w+: a Promise rejection was left unhandled outside any call .*: Error: late rejection$/],
  ] as const) {
    const c = byId(id);
    assert.equal(c.status, 'failed', `${id}: ${c.reason}`);
    assert.match(c.reason ?? '', what);
  }
});

test('a serializer that throws null, an object whose message getter throws, or a Proxy whose traps throw, fails at verify with a reason that says so', () => {
  assert.equal(byId('throws-null').status, 'failed');
  assert.equal(byId('throws-null').reason, 'verify: threw null, not an Error');
  assert.equal(byId('throws-getter').status, 'failed');
  assert.equal(byId('throws-getter').reason, 'verify: threw an object whose properties throw when read, not an Error');
  // hx18 A04: a Proxy whose traps throw: never its trap's own text ("failed: measure: trap2")
  assert.equal(byId('throws-proxy').status, 'failed');
  assert.equal(byId('throws-proxy').reason, 'verify: threw an object whose properties throw when read, not an Error');
});
