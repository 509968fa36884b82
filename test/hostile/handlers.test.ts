import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeThrown } from '../../src/host/describe-thrown.js';
import { judgeLaunch } from '../../src/run/runner.js';
import { timed } from '../run/fake-launch.js';
import type { ResultsFile } from '../../src/results/types.js';
import { cli } from './support.js';

/**
 * The worker's last resort (issue 25, class 6): its uncaught-exception handler built its message
 * with `String(e)`, which throws on an object of no prototype, so a late throw of one ended the
 * launch without its error and the host kept its numbers (✓ measured). Now any thrown value is
 * described safely, and a launch whose worker exits non-zero after `done` is not kept.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-handlers-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config = fileURLToPath(new URL('../../../test/fixtures/hostile/run-ends.config.mjs', import.meta.url));

test('describeThrown describes every thrown value without throwing: no prototype, hostile Proxy, throwing getters, symbols', () => {
  const proxy = new Proxy(
    {},
    {
      get: () => {
        throw new Error('trap');
      },
      getPrototypeOf: () => {
        throw new Error('trap');
      },
    },
  );
  const getter = new Error('x');
  Object.defineProperty(getter, 'message', {
    get: () => {
      throw new Error('getter');
    },
  });
  const cases: [unknown, RegExp][] = [
    [Object.create(null), /^a value of no prototype \(not an Error\)$/],
    [proxy, /^a value that cannot be described \(its properties throw\)$/],
    [getter, /^a value that cannot be described \(its properties throw\)$/],
    [Symbol('s'), /^Symbol\(s\)$/],
    [null, /^null$/],
    [new RangeError('deep'), /^RangeError: deep$/],
    [{ toString: () => 'x' }, /^a value of type object \(not an Error\)$/],
  ];
  for (const [value, expected] of cases) assert.match(describeThrown(value), expected);
});

test('a launch whose worker exited with code 7 after sending done is not kept: crashed, naming the exit', () => {
  const o = { ...timed([[100, 101, 102]], [[200, 201, 202]]), exitCode: 7, stderrTail: 'TypeError: boom\n' };
  const v = judgeLaunch(o, 1, 60_000);
  assert.equal(v.kind, 'bad');
  assert.equal(v.kind === 'bad' && v.status, 'crashed');
  assert.match(
    v.kind === 'bad' ? v.reason : '',
    /^worker exited with code 7 after sending its results; the launch is not kept: TypeError: boom$/,
  );
  assert.equal(judgeLaunch({ ...o, exitCode: 0 }, 1, 60_000).kind, 'ok', 'exit 0 after done is kept');
});

test('a serializer whose every call leaves a timer throwing an object of no prototype fails its case (never measured ✓), naming the value', async () => {
  const out = join(dir, 'late');
  const ran = await cli(
    [
      'run',
      '--policy',
      'quick',
      '--workload',
      'weather-station',
      '--direction',
      'serialize',
      '--serializer',
      'json,late-null-throw',
      '--config',
      config,
      '--no-probes',
      '--out',
      out,
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = r.cases.find((x) => x.serializer === 'late-null-throw')!;
  assert.equal(c.status, 'failed', c.reason);
  assert.match(
    c.reason ?? '',
    /an exception was thrown outside any call .*: a value of no prototype \(not an Error\)$/,
  );
  assert.equal(r.cases.find((x) => x.serializer === 'json')?.status, 'measured');
});
