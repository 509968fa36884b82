import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_DURATION_MS,
  parseCaseTimeout,
  parseMaxTime,
  parseProbeBudget,
  parseProbeTimeout,
  parseResolve,
  policies,
  RESOLVE_MAX_LAUNCHES,
  withAdaptive,
} from '../../src/config/policies.js';
import { UsageError } from '../../src/config/usage-error.js';
import { unresolvedLines } from '../../src/cli/run.js';
import type { ResultsFile } from '../../src/results/types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
  // zero is said as zero, not as "not a duration such as … case=20s" (hx32 G-6)
  assert.throws(
    () => parseMaxTime(['case=0s']),
    /^UsageError: --max-time: "case=0s" is no time at all: give a duration above zero, such as 20s, case=20s, run=4m or run=1m30s$/,
  );
  assert.throws(() => parseMaxTime(['run=soon']), /"run=soon" is not a duration such as 20s/);
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

test('the unresolved heading advises what would give more launches: --max-time for a budget, --policy long for the cap', () => {
  const c = (id: string, stoppedBy: string) =>
    ({
      id,
      serializer: id,
      status: 'measured',
      resolution: {
        resolve: 0.02,
        state: 'unresolved',
        interval: [0.94, 1.06],
        launches: 10,
        spentMs: 6_000,
        stoppedBy,
      },
    }) as unknown as ResultsFile['cases'][number];
  const capped = unresolvedLines({ cases: [c('a', 'launch cap')] })[0];
  assert.match(capped, /; --policy long gives it more launches \(up to 20; the launch cap stopped it, not time\),/);
  assert.doesNotMatch(capped, /--max-time/);
  const mixed = unresolvedLines({ cases: [c('a', 'launch cap'), c('b', 'run budget')] })[0];
  assert.match(
    mixed,
    /a longer --max-time \(for those a budget stopped\) or --policy long \(up to 20 launches, for those the launch cap stopped\) gives them more launches/,
  );
  assert.match(unresolvedLines({ cases: [c('b', 'run budget')] })[0], /; a longer --max-time gives it more launches,/);
});

test('stderr says an unresolved case is too close to call, in words, at most ten; report.md keeps the exact figures', () => {
  const c = (id: string, state: 'differs' | 'unresolved') =>
    ({
      id,
      serializer: id,
      status: 'measured',
      resolution: {
        resolve: 0.02,
        state,
        interval: [0.97, 1.04],
        launches: 5,
        spentMs: 20_000,
        ...(state === 'unresolved' ? { stoppedBy: 'case budget' } : {}),
        text: `${state}: interval [0.970–1.040] straddles ±2% (case budget: 20.0 s spent)`,
      },
    }) as unknown as ResultsFile['cases'][number];
  assert.deepEqual(unresolvedLines({ cases: [c('x', 'differs')] }), []);
  const lines = unresolvedLines({
    cases: [c('x', 'differs'), ...Array.from({ length: 12 }, (_, i) => c(`u${i}`, 'unresolved'))],
  });
  assert.equal(
    lines[0],
    'jsonbench: 12 ratios unsettled at ±2% (each interval reaches both inside and outside ±2% of the baseline: a difference that matters is neither shown nor ruled out); a longer --max-time gives them more launches, report.md has the exact intervals:',
  );
  assert.equal(lines[1], '  ~ u0: 0.97–1.04 when the case budget left no room for another launch after 20.0 s');
  assert.equal(lines.length, 1 + 10 + 1);
  assert.equal(lines.at(-1), '  … and 2 more');
  assert.ok(!lines.some((l) => /straddle|unresolved/.test(l)), 'no jargon on the terminal');

  // report.md: the exact interval, band, launches and what stopped them, under the case's table
  const fixture = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url)), 'utf8'),
  ) as ResultsFile;
  const typia = fixture.cases.find((k) => k.id === 'weather-station/1/single/serialize/typia')!;
  if (typia.status !== 'measured') throw new Error('fixture: typia serialize is measured');
  typia.resolution = {
    resolve: 0.02,
    state: 'unresolved',
    interval: [0.9712, 1.0412],
    launches: 4,
    spentMs: 61_234,
    stoppedBy: 'launch cap',
    text: 'unresolved: interval [0.971–1.041] straddles ±2% (launch cap: 61.2 s spent)',
  };
  const md = renderMarkdown(fixture);
  assert.match(
    md,
    /\nUnsettled \(the launches stopped before the ratio's interval cleared the band or fell inside it\):\n\n- \*\*typia\*\* \(serialize\): interval \[0\.971–1\.041\] reaches both inside and outside ±2%; the launch cap \(4 launches\) was reached after 61\.2 s\n/,
  );
  assert.equal(md.match(/Unsettled \(/g)?.length, 1, 'once, under the table of its case');
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

test('durations past what a Node timer can wait are refused, naming the flag (hx13 FL-ct600h: 600h killed every case at once)', () => {
  assert.equal(MAX_DURATION_MS, 2 ** 31 - 1);
  for (const [flag, parse, text] of [
    ['--case-timeout', () => parseCaseTimeout('600h'), '600h'],
    ['--case-timeout', () => parseCaseTimeout('99999999999999999999h'), '99999999999999999999h'],
    ['--probe-budget', () => parseProbeBudget('1000h'), '1000h'],
    ['--timeout', () => parseProbeTimeout('1000h'), '1000h'],
    ['--max-time', () => parseMaxTime(['run=1000h']), 'run=1000h'],
  ] as const)
    assert.throws(parse, {
      message: `${flag}: "${text}" is longer than jsonbench can wait: Node's timers hold at most 2^31 − 1 ms (24 days 20 h)`,
    });
  assert.equal(parseCaseTimeout('596h'), 596 * 3_600_000);
});
