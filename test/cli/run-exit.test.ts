import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runExit } from '../../src/cli/run.js';
import type { CaseResult } from '../../src/results/types.js';

/** Cases with only what runExit reads: id, serializer (the id's fifth part), status, reason. */
const cases = (...xs: [string, string, string?][]) => ({
  cases: xs.map(
    ([id, status, reason]) =>
      ({ id, serializer: id.split('/')[4], status, ...(reason ? { reason } : {}) }) as unknown as CaseResult,
  ),
});

test("a run that measured and wrote its results exits 0, and lists each case without a number (the README's first command: ajv-jtd incorrect)", () => {
  const r = runExit(
    cases(
      ['p/1/single/serialize/json', 'measured'],
      ['p/1/single/serialize/ajv-jtd', 'incorrect', 'serializer output differs at $.s:\n lone surrogate'],
    ),
    [],
  );
  assert.equal(r.code, 0);
  assert.deepEqual(r.lines, [
    'jsonbench: 1 case gave no numbers (never ranked; the reasons are in report.md):',
    '  ✗ p/1/single/serialize/ajv-jtd incorrect: serializer output differs at $.s: lone surrogate',
    'jsonbench: the run measured and wrote its results: exit 0 (--fail-on incorrect would make these cases fail it)',
  ]);
  assert.deepEqual(runExit(cases(['a', 'measured'], ['b', 'unsupported', 'parses only']), []), { code: 0, lines: [] });
});

test('--fail-on makes the named statuses fail the exit code; nothing measured exits 1 whatever it asks', () => {
  const mixed = cases(['a', 'measured'], ['b', 'incorrect', 'x'], ['c', 'timeout', 'y']);
  assert.equal(runExit(mixed, ['incorrect']).code, 1);
  assert.match(
    runExit(mixed, ['incorrect', 'failed']).lines.at(-1)!,
    /^jsonbench: failing \(--fail-on incorrect,failed\): 1 case incorrect$/,
  );
  assert.equal(runExit(mixed, ['failed', 'crashed']).code, 0, 'no case ended failed or crashed');
  const none = runExit(cases(['a', 'failed', 'boom'], ['b', 'unsupported', 'n/a']), []);
  assert.equal(none.code, 1);
  assert.match(none.lines.at(-1)!, /^jsonbench: nothing was measured \(2 cases, none with a number\): exit 1$/);
});

test('a run where none of the serializers asked for with --serializer gave a number exits 1, though the baseline added beside them was measured (hostile tester: --serializer broken exited 0)', () => {
  const r = runExit(
    cases(['p/1/single/serialize/json', 'measured'], ['p/1/single/serialize/broken', 'failed', 'boom']),
    [],
    ['broken'],
  );
  assert.equal(r.code, 1);
  assert.equal(
    r.lines.at(-1),
    'jsonbench: none of the serializers asked for (--serializer broken) gave a number; only json, added as the baseline, was measured: exit 1',
  );
  assert.equal(
    runExit(
      cases(
        ['p/1/single/serialize/json', 'measured'],
        ['p/1/single/serialize/good', 'measured'],
        ['p/2/single/serialize/broken', 'failed', 'boom'],
      ),
      [],
      ['good', 'broken'],
    ).code,
    0,
    'one asked-for serializer measured: exit 0',
  );
  assert.equal(
    runExit(cases(['p/1/single/serialize/json', 'measured'], ['p/1/single/serialize/broken', 'failed', 'boom']), [])
      .code,
    0,
    'without --serializer every serializer was asked for: json measured, exit 0',
  );
  assert.equal(
    runExit(cases(['p/1/single/serialize/json', 'measured']), [], ['json']).code,
    0,
    'asking for the baseline itself',
  );
});

test('a shard with no case, or only unsupported ones, exits 0: nothing failed (a CI matrix job must not fail)', () => {
  const shard = { index: 2, count: 2, plan: ['a', 'b'] };
  const empty = runExit({ cases: [], shard }, []);
  assert.equal(empty.code, 0);
  assert.match(empty.lines.join('\n'), /shard 2\/2 holds no case of this plan: nothing to measure, nothing failed/);
  const whole = runExit({ cases: [] }, []);
  assert.equal(whole.code, 1, 'a whole run that measured nothing still exits 1');
});
