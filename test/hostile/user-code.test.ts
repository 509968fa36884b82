import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * User code in jsonbench's own process (issue 25, hostile tester hx1, "hang" and "crash"): a
 * notes() that never returns hung `run` silently (643 s); a `--schema` module whose top level
 * loops, the same (200 s); a timer supports() left behind threw a raw Node stack trace from the
 * host. Every call into user code in the host now goes through host/user-code.ts: a watchdog
 * naming the hook and the file, and what the hook leaves running attributed to it.
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/${name}`, import.meta.url));
const hooks = fixture('host-hooks.config.mjs');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-user-code-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const quick = ['--policy', 'quick', '--workload', 'weather-station', '--direction', 'serialize', '--no-probes'];

test('a notes() that never returns ends run with exit 2 within seconds, naming notes(), the serializer and the config file', async () => {
  const ran = await cli(
    ['run', ...quick, '--config', hooks, '--serializer', 'notes-loop', '--out', join(dir, 'notes')],
    {
      timeoutMs: 90_000,
    },
  );
  assert.equal(ran.signal, null, `killed by the test's own timeout: ${ran.stderr}`);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(
      `notes\\(\\) of serializer "notes-loop" \\(workload weather-station, serialize\\) in ${escape(hooks)} did not return within 10 s`,
    ),
  );
  assert.doesNotMatch(ran.stderr, /Assertion failed|Native stack trace/);
});

test('a --schema module whose top level never ends is stopped with exit 2, naming the module', async () => {
  const schema = fixture('schema/loop.mjs');
  const payload = join(dir, 'payload.json');
  writeFileSync(payload, '{"a":1}');
  const ran = await cli(['run', '--payload', payload, '--schema', schema, '--print-schema'], { timeoutMs: 120_000 });
  assert.equal(ran.signal, null, `killed by the test's own timeout: ${ran.stderr}`);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(`the --schema module's top level in ${escape(schema)} did not return within 35 s`),
  );
  assert.equal(ran.stdout, '');
});

test('a timer supports() left behind that throws fails that serializer’s case naming supports(), with a warning naming the config; no host stack trace', async () => {
  const out = join(dir, 'timer');
  const ran = await cli(['run', ...quick, '--config', hooks, '--serializer', 'json,timer-throws', '--out', out], {
    timeoutMs: 300_000,
  });
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(
      `warning: ${escape(hooks)}: an exception from code supports\\(\\) of serializer "timer-throws" .* after it returned: Error: thrown by a timer supports\\(\\) left behind; the cases of timer-throws are failed`,
    ),
  );
  assert.doesNotMatch(ran.stderr, /^\s+at /m, 'a stack trace reached the terminal');
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = r.cases.find((x) => x.serializer === 'timer-throws')!;
  assert.equal(c.status, 'failed');
  assert.match(
    (c as { reason: string }).reason,
    /^supports\(\) \(workload weather-station, serialize\) left code running in jsonbench's own process that threw after it returned \(an exception: Error: thrown by a timer/,
  );
  assert.equal(r.cases.find((x) => x.serializer === 'json')!.status, 'measured');
});

/** Config shapes that reached "an internal error … please report it" or were taken as a config. */
const shapes: [string, string[], RegExp][] = [
  [
    'a config whose serializers getter throws',
    ['--config', fixture('configs/getter-throws.config.mjs')],
    /getter-throws\.config\.mjs: serializers: reading it threw: Error: getter throws \(a getter that throws, or a Proxy\?\)/,
  ],
  [
    'a config exporting a Proxy whose traps throw',
    ['--config', fixture('configs/proxy.config.mjs')],
    /proxy\.config\.mjs: default export: reading it threw: Error: proxy ownKeys/,
  ],
  [
    'a config exporting an array',
    ['--config', fixture('configs/array.config.mjs')],
    /array\.config\.mjs: default export: must be an object \{ serializers\?: \[adapters\], workloads\?: \[workloads\], ledger\? \}; it is an array/,
  ],
  [
    'a .json config',
    ['--config', fixture('configs/config.json')],
    /config\.json: file: a config is a JavaScript\/TypeScript module \(jsonbench\.config\.mjs\|ts\)/,
  ],
  ['--config ""', ['--config', ''], /--config: is empty: give the config file/],
  [
    'a workload schema that is not a schema node',
    ['--config', fixture('configs/bad-schema.config.mjs')],
    /bad-schema\.config\.mjs: workloads\[0\]\.schema\.properties\.b: has no "type" \(its keys: kind\); a schema node's type is one of string, number/,
  ],
];
for (const [what, args, message] of shapes)
  test(`${what} is refused with exit 2 and a message naming it, never an internal error`, async () => {
    const ran = await cli(['list', ...args]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, message);
    assert.doesNotMatch(ran.stderr, /internal error|import attribute/);
    assert.equal(ran.stdout, '');
  });
