import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, quickRunArgs, scratchConfigs } from './support.js';

/**
 * Config files that attack the host process itself (issue 9, "false success" and "internal
 * crashes"): one that replaces a built-in jsonbench's own code uses, one that ends the process with
 * exit 0 before the command is done, and a folder given as the config.
 */

const { dir, config } = scratchConfigs('hostile-configs');

test('a config that replaces JSON.stringify at its top level is refused with exit 2, naming the file and the built-in', async () => {
  const file = config('patches.config.mjs', 'JSON.stringify = () => "{}";\nexport default {};\n');
  const ran = await cli(['list', '--config', file]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: import: changed JSON\\.stringify while loading`),
  );
  assert.equal(ran.stderr.includes('internal error'), false);
});

test('a config that calls process.exit(0) while loading makes the command exit 1 and say so, never a silent 0', async () => {
  const file = config('exits.config.mjs', 'process.exit(0);\nexport default {};\n');
  const ran = await cli(['list', '--config', file]);
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stderr, /the process was ended \(process\.exit\(0\)\) before the command\s+finished/);
  assert.equal(ran.stdout, '');
});

test('a config whose timer calls process.reallyExit(0) mid-command makes it exit 1 and say so (hx19 A03: a silent 0)', async () => {
  const file = config(
    'really-exits.config.mjs',
    "setTimeout(() => process.reallyExit(0), 300);\nexport default { serializers: [{ id: 'slowlist', family: 'builtin', directions: ['serialize'], supports: () => { const t = Date.now(); while (Date.now() - t < 50); return true; }, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) }] };\n",
  );
  const ran = await cli(quickRunArgs(file, 'slowlist', 'serialize', join(dir, 'really-exits')));
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stderr, /the process was ended \(process\.reallyExit\(0\)\) before the\s+command finished/);
});

test('a folder given as --config is refused with exit 2, saying it is a folder', async () => {
  const ran = await cli(['list', '--config', dir]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /is a folder; give the config file itself/);
});

test('a serializer whose supports() never returns ends list with exit 2 naming supports() and the serializer, never a hang', async () => {
  const file = config(
    'supports-loop.config.mjs',
    "export default { serializers: [{ id: 'supports-loop', family: 'builtin', directions: ['serialize'], supports: () => { for (;;); }, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) }] };\n",
  );
  const ran = await cli(['list', '--config', file], { timeoutMs: 60_000 });
  assert.equal(ran.signal, null, `killed by the test's own timeout: ${ran.stderr}`);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /supports\(\) of serializer "supports-loop" \(workload [\w-]+, serialize\) in \S+supports-loop\.config\.mjs did not return within 10 s/,
  );
  assert.equal(
    ran.stderr.includes('Waiting for the debugger'),
    false,
    "the watchdog's inspector session was left open",
  );
});

test('a .mjs config with a syntax error is refused with exit 2 naming its line and column', async () => {
  const file = config(
    'syntax.config.mjs',
    "export default {\n  serializers: [ { id: 'x', family: 'builtin', supports: () => true, prepare: () => ({}) , }, ] ;\n",
  );
  const ran = await cli(['list', '--config', file]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: syntax: `));
});

test('a config that replaces JSON.stringify only in worker processes cannot touch the built-in json case: it is measured on the real JSON.stringify', async () => {
  const file = config(
    'patches-in-workers.config.mjs',
    'if (process.argv.some((a) => /worker[\\\\/]main\\.js$/.test(a))) JSON.stringify = () => \'{"wrong":1}\';\nexport default {};\n',
  );
  const out = join(dir, 'patches-in-workers');
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
      'json',
      '--config',
      file,
      '--out',
      out,
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    cases: { serializer: string; status: string; reason?: string }[];
  };
  const json = r.cases.filter((c) => c.serializer === 'json');
  assert.ok(json.length > 0);
  for (const c of json) assert.equal(c.status, 'measured', c.reason);
});

test("a config's exit listener cannot turn a failed run into exit 0 (hostile tester hx2: process.exitCode = 0 on 'exit')", async () => {
  const config = new URL('../../../test/fixtures/hostile/exit-hook.config.mjs', import.meta.url).pathname;
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-exit-'));
  try {
    const ran = await cli(
      [
        'run',
        '--config',
        config,
        '--serializer',
        'wrong-one',
        '--workload',
        'weather-station',
        '--direction',
        'serialize',
        '--policy',
        'quick',
        '--no-probes',
        '--out',
        join(out, 'r'),
      ],
      { timeoutMs: 240_000 },
    );
    assert.equal(ran.code, 1, ran.stderr);
    assert.match(ran.stderr, /gave a number/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a config whose default export is a Promise is refused with exit 2 saying so (hx2: read as an empty config, its serializers "unknown")', async () => {
  const file = config(
    'promise.config.mjs',
    "export default Promise.resolve({ serializers: [{ id: 'mine', family: 'builtin', directions: ['serialize'], supports: () => true, prepare: () => ({ serialize: JSON.stringify }) }] });\n",
  );
  for (const args of [
    ['list'],
    [
      'run',
      '--serializer',
      'mine',
      '--workload',
      'weather-station',
      '--policy',
      'quick',
      '--no-ledger',
      '--out',
      join(dir, 'promise-out'),
    ],
  ]) {
    const ran = await cli([...args, '--config', file]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /promise\.config\.mjs: default export: is a Promise \(or another thenable\): export the config object itself/,
    );
    assert.doesNotMatch(ran.stderr, /unknown "mine"/);
  }
});
