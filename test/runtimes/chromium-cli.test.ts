import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTarget } from '../../src/runtimes/index.js';
import { ensureInstalled } from './helpers.js';
import { cli } from '../hostile/support.js';

/**
 * The chromium target through the CLI, the whole session: the host's seal (config/host-guard.ts) is taken before
 * playwright-core loads, and graceful-fs inside it wraps fs.close and fs.closeSync as it loads. From 07695bf on,
 * every chromium run ended "user code … changed jsonbench's own process: fs.close, fs.closeSync" with exit 2 and no
 * results.json (targets.test and run-on-targets run the runner without a seal and never saw it). Hidden behind it:
 * typia's prepare called import.meta.resolve, which the browser bundle does not have.
 */
test('a chromium run through the CLI writes results.json and exits 0, typia measured too', async (t) => {
  const skip = await ensureInstalled(parseTarget('chromium'));
  if (skip) {
    t.skip(skip);
    return;
  }
  const out = join(mkdtempSync(join(tmpdir(), 'jsonbench-chromium-cli-')), 'res');
  const r = await cli(
    [
      'run',
      '--target',
      'chromium',
      '--serializer',
      'json,typia',
      '--workload',
      'weather-station',
      '--size',
      '1',
    ].concat([
      '--shape',
      'single',
      '--direction',
      'serialize',
      '--policy',
      'quick',
      '--no-probes',
      '--no-ledger',
      '--out',
      out,
    ]),
  );
  assert.doesNotMatch(r.stderr, /changed jsonbench's own process/);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(out, 'results.json')));
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    cases: { status: string; target: { runtime: string } }[];
  };
  assert.deepEqual(
    results.cases.map((c) => [c.target.runtime, c.status]),
    [
      ['chromium', 'measured'],
      ['chromium', 'measured'],
    ],
    'json and typia (typia failed in the browser bundle: "import_meta2.resolve is not a function")',
  );
});
