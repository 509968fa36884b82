import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';

/**
 * A config workload at fault (hostile tester hx1 1.3): its build() disagrees with its own schema. Before
 * the fix the run exited 0 and fast-json-stringify, ajv-jtd and typia were `incorrect`, typebox, zod,
 * typia `failed`, with nothing saying the workload was at fault — and those verdicts went into
 * results.json and the ledger against the libraries' versions. Now the run refuses the workload before
 * measuring (exit 2), naming the workload, the path and the value.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/hostile/hx1/wl-mismatch.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-workload-schema-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const runOn = (workload: string, config = configPath) => {
  const out = join(dir, workload);
  return cli([
    'run',
    '--config',
    config,
    '--workload',
    workload,
    '--serializer',
    'json,fast-json-stringify,typebox',
    '--policy',
    'quick',
    '--no-probes',
    '--no-ledger',
    '--out',
    out,
  ]).then((ran) => ({ ran, out }));
};

test('a workload whose build() does not fit its own schema is refused before any case: exit 2, the workload, the path and the value; no results.json', async () => {
  const { ran, out } = await runOn('wl-mismatch');
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /error: workload wl-mismatch: build\(1, 42\) does not fit the workload's own schema at \$\.a: must be string \(got 42\)\. Every serializer that reads the schema would be called incorrect or failed for it, so nothing was measured: fix the workload's build\(\) or its schema/,
  );
  assert.doesNotMatch(ran.stderr + ran.stdout, /\[incorrect\]|\[failed\]/);
  assert.equal(existsSync(join(out, 'results.json')), false);
});

test('a records workload: the record that does not fit is named', async () => {
  const { ran } = await runOn('wl-records');
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /workload wl-records: build\(3, 42\) does not fit the workload's own schema in record 2 at \$\.n: must be integer \(got "two"\)/,
  );
});

test('a workload whose schema is not a jsonbench schema is refused with exit 2 saying so, not an internal error', async () => {
  // refused when the config is loaded (workloads/check-schema.ts), before the run's own check (run/session.ts) is reached
  const { ran } = await runOn(
    'wl-malformed',
    fileURLToPath(new URL('../../../test/fixtures/hostile/hx1/wl-malformed.config.mjs', import.meta.url)),
  );
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /wl-malformed\.config\.mjs: workloads\[0\]\.schema: has no "type" \(its keys: kind, fields\); a schema node's type is one of string/,
  );
  assert.doesNotMatch(ran.stderr, /internal error/);
});
