import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseCaseTimeout,
  parseMaxTime,
  parseResolve,
  policies,
  RESOLVE_MAX_LAUNCHES,
  withAdaptive,
} from '../../src/config/policies.js';
import { UsageError } from '../../src/config/usage-error.js';
import { unresolvedLines } from '../../src/cli/run.js';
import type { ResultsFile } from '../../src/results/types.js';

/** `--resolve` and `--max-time`: parsing, the policies' defaults, and what stderr says about unresolved cases. */

test('--resolve reads a percentage (with or without %) or off; anything else names the flag', () => {
  assert.equal(parseResolve('2%'), 0.02);
  assert.equal(parseResolve('0.5%'), 0.005);
  assert.equal(parseResolve(' 1 '), 0.01);
  assert.equal(parseResolve('off'), null);
  for (const bad of ['0%', '-1%', '60%', 'two', '2%%', ''])
    assert.throws(
      () => parseResolve(bad),
      (e: unknown) => e instanceof UsageError && e.flag === '--resolve',
      bad,
    );
});

test('--max-time reads per-case and per-run durations; a bare duration is per case', () => {
  assert.deepEqual(parseMaxTime(['20s']), { maxCaseMs: 20_000 });
  assert.deepEqual(parseMaxTime(['case=1m30s', 'run=4m']), { maxCaseMs: 90_000, maxRunMs: 240_000 });
  assert.deepEqual(parseMaxTime(['run=500ms', '2']), { maxRunMs: 500, maxCaseMs: 2000 });
  assert.deepEqual(parseMaxTime([]), {});
  for (const bad of ['0s', 'run=', 'soon', '5 min', 'total=3m'])
    assert.throws(
      () => parseMaxTime([bad]),
      (e: unknown) => e instanceof UsageError && e.flag === '--max-time',
      bad,
    );
});

test("the policies' bands: quick off, default ±2%, long ±1%; flags override, and a given band lifts quick's launch cap", () => {
  assert.equal(policies.quick.adaptive.resolve, null);
  assert.equal(policies.default.adaptive.resolve, 0.02);
  assert.equal(policies.long.adaptive.resolve, 0.01);
  const q = withAdaptive(policies.quick, { resolve: 0.05, maxRunMs: 30_000 });
  assert.deepEqual(q.adaptive, { resolve: 0.05, maxCaseMs: policies.quick.adaptive.maxCaseMs, maxRunMs: 30_000 });
  assert.equal(q.maxLaunches, RESOLVE_MAX_LAUNCHES);
  assert.equal(withAdaptive(policies.long, { resolve: 0.05 }).maxLaunches, policies.long.maxLaunches, 'never lowered');
  const off = withAdaptive(policies.default, { resolve: null });
  assert.equal(off.adaptive.resolve, null);
  assert.equal(off.maxLaunches, policies.default.maxLaunches);
  assert.deepEqual(withAdaptive(policies.default, {}), policies.default);
});

test('stderr names each unresolved case with its line, at most ten, and says nothing when all are resolved', () => {
  const c = (id: string, state: 'differs' | 'unresolved') =>
    ({
      id,
      status: 'measured',
      resolution: { resolve: 0.02, state, interval: [0.97, 1.04], launches: 5, spentMs: 20_000, text: `${state}: …` },
    }) as unknown as ResultsFile['cases'][number];
  assert.deepEqual(unresolvedLines({ cases: [c('x', 'differs')] }), []);
  const lines = unresolvedLines({
    cases: [c('x', 'differs'), ...Array.from({ length: 12 }, (_, i) => c(`u${i}`, 'unresolved'))],
  });
  assert.match(lines[0], /^jsonbench: 12 cases unresolved/);
  assert.equal(lines[1], '  ~ u0 unresolved: …');
  assert.equal(lines.length, 1 + 10 + 1);
  assert.equal(lines.at(-1), '  … and 2 more');
});

test("--case-timeout reads a duration (the tryout could not extend quick's 60 s); anything else names the flag", () => {
  assert.equal(parseCaseTimeout('300s'), 300_000);
  assert.equal(parseCaseTimeout('5m'), 300_000);
  assert.equal(parseCaseTimeout('1m30s'), 90_000);
  assert.deepEqual(
    [policies.quick.caseTimeoutMs, policies.default.caseTimeoutMs, policies.long.caseTimeoutMs],
    [60_000, 120_000, 300_000],
    'the defaults --help names',
  );
  for (const bad of ['0s', '-5m', 'soon', ''])
    assert.throws(
      () => parseCaseTimeout(bad),
      (e: unknown) => e instanceof UsageError && e.flag === '--case-timeout',
      bad,
    );
});
