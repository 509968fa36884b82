import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs, scratchConfigs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * User code in jsonbench's own process (the host) that patches it (hostile tester hx1, 3.1): every
 * call into it runs under the host guard (config/host-guard.ts) and the watchdog. Before the fix a
 * notes() and a --schema module replaced JSON.stringify after the guarded steps, and results.json
 * said `measured` (`FORGED-measured`) for cases the terminal called incorrect.
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/hx1/${name}`, import.meta.url));
const { dir, config } = scratchConfigs('host-guard');
const quick = ['--policy', 'quick', '--no-probes', '--no-ledger'];

test("a notes() that replaces the host's JSON.stringify fails its own case, is put back, and results.json says failed (hx1 3.1: it said measured)", async () => {
  const out = join(dir, 'notes-forge');
  const ran = await cli(quickRunArgs(fixture('notes-forge.config.mjs'), 'forged-winner', 'serialize', out));
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stderr, /\[failed\] weather-station\/1\/single\/serialize\/forged-winner: notes\(\) changed/);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = results.cases.find((x) => x.serializer === 'forged-winner')!;
  assert.equal(c.status, 'failed');
  assert.match(
    c.reason!,
    /^notes\(\) changed jsonbench's own process: JSON\.stringify \(put back; patch built-ins inside prepare\(\)/,
  );
  assert.equal(results.cases.filter((x) => x.status === 'measured').length, 0);
});

test('a --schema module that patches JSON.stringify is refused with exit 2 naming --schema and the built-in; nothing is written (hx1 3.1: "FORGED-measured")', async () => {
  const out = join(dir, 'schema-forge');
  const ran = await cli([
    'run',
    '--payload',
    fixture('escaped-nul.json'),
    '--schema',
    fixture('schema-forge.mjs'),
    '--config',
    fixture('wrong.config.mjs'),
    '--serializer',
    'wrong',
    ...quick,
    '--out',
    out,
  ]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /error: --schema: the schema \S+schema-forge\.mjs changed jsonbench's own process: JSON\.stringify \(put back\): results\.json, the reports and the gate rely on them/,
  );
  assert.equal(existsSync(join(out, 'results.json')), false);
});

test("a config whose adapter reads as a getter that patches the host is refused with exit 2: the config's values are read under the guard", async () => {
  const file = config(
    'getter-forge.config.mjs',
    `const a = { family: 'builtin', directions: ['serialize'], supports: () => true, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) };
Object.defineProperty(a, 'id', { enumerable: true, get() { Object.prototype.toJSON = function () { return 'forged'; }; return 'getter-forge'; } });
export default { serializers: [a] };
`,
  );
  const ran = await cli([
    'run',
    '--config',
    file,
    '--workload',
    'weather-station',
    ...quick,
    '--out',
    join(dir, 'getter'),
  ]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /getter-forge\.config\.mjs: default export: reading its adapters and workloads \(a getter, a Proxy\) changed Object\.prototype\.toJSON \(added\)/,
  );
});

test('a config that arms a timer patching JSON.stringify after its guarded import: the run refuses to write results.json, exit 2, naming the change', async () => {
  const file = config(
    'timer-forge.config.mjs',
    `setTimeout(() => { const s = JSON.stringify; JSON.stringify = (v, ...a) => s(v, ...a)?.replace(/"incorrect"/g, '"measured"'); }, 200);
export default {};
`,
  );
  const out = join(dir, 'timer');
  const ran = await cli(quickRunArgs(file, 'json', 'serialize', out));
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /error: user code \(a timer or a promise armed by a config, a serializer or a schema module\) changed jsonbench's own process: JSON\.stringify \(put back\): the numbers this process handled after the change cannot be trusted, so results\.json and the reports were not written/,
  );
  assert.equal(existsSync(join(out, 'results.json')), false);
  // the group's table went to stdout before the change was found: withdrawn there too (hx26 T5)
  assert.match(ran.stdout, /Serializer/);
  assert.match(
    ran.stdout.replace(/\s+/g, ' '),
    /The tables above are withdrawn: user code changed jsonbench's own process during the run, so their numbers cannot be trusted/,
  );
});

test('a notes() that never returns ends the run with exit 2 naming notes() and the serializer (hx1: 643 s of silence)', async () => {
  const file = config(
    'notes-loop.config.mjs',
    "export default { serializers: [{ id: 'notes-loop', family: 'builtin', directions: ['serialize'], supports: () => true, notes: () => { for (;;); }, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) }] };\n",
  );
  const ran = await cli(
    [
      'run',
      '--config',
      file,
      '--serializer',
      'notes-loop',
      '--workload',
      'weather-station',
      ...quick,
      '--out',
      join(dir, 'loop'),
    ],
    { timeoutMs: 90_000 },
  );
  assert.equal(ran.signal, null, `killed by the test's own timeout: ${ran.stderr}`);
  assert.equal(ran.code, 2, ran.stderr);
  // the watchdog's line names the config file too (host/user-code.ts, whose callUserCode the host guard runs in)
  assert.match(
    ran.stderr,
    /notes\(\) of serializer "notes-loop" \(workload weather-station, serialize\) in \S+notes-loop\.config\.mjs did not return within 10 s/,
  );
});

test('a config that replaces globalThis.JSON with a look-alike is refused and put back; results.json is not forged (hostile3: it said measured for an incorrect case)', async () => {
  const out = join(dir, 'global-json');
  const realJson = JSON;
  const ran = await cli(
    quickRunArgs(
      fileURLToPath(new URL('../../../test/fixtures/hostile/hostile3/global-json.config.mjs', import.meta.url)),
      'wrong-one',
      'serialize',
      out,
    ),
  );
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /global-json\.config\.mjs: import: changed globalThis\.JSON while loading/);
  assert.equal(existsSync(join(out, 'results.json')), false, 'nothing written');
  assert.equal(JSON, realJson);
});

/**
 * hx12 (main 38e8a23): a config's top level changed how the host starts, ends and prints its workers, none of it
 * watched — `process.execPath` set to a script starting node with a `--require` that slowed JSON.stringify in every
 * worker ("use fairjson (faster by 1.47×)", an honest JSON.stringify), `child_process.spawn` replaced (with
 * syncBuiltinESMExports) to the same end, `process.kill` made a no-op (a hanging worker was never killed),
 * `execFileSync` wrapped (a forged git commit in results.json), `process.stdout.write` wrapped (the recommendation
 * rewritten). Each is now refused at the import, exit 2, naming what it changed.
 */
for (const [name, top, changed] of [
  ['exec-path', `process.execPath = '/bin/true';`, 'process.execPath'],
  [
    'spawn',
    `import cp from 'node:child_process'; import { syncBuiltinESMExports } from 'node:module';
const spawn = cp.spawn; cp.spawn = (...a) => spawn(...a); syncBuiltinESMExports();`,
    'child_process.spawn',
  ],
  ['kill', `process.kill = () => true;`, 'process.kill'],
  [
    'exec-file-sync',
    `import cp from 'node:child_process'; const e = cp.execFileSync; cp.execFileSync = (...a) => e(...a);`,
    'child_process.execFileSync',
  ],
  [
    'stdout-write',
    `const w = process.stdout.write.bind(process.stdout); process.stdout.write = (c, ...a) => w(c, ...a);`,
    'process.stdout.write',
  ],
  // hx13 (main 02b15bf): the channel key taken as the start message left, a round line rewritten, a forged
  // recommendation when stdout is a file, the case timeout's kill and timers made no-ops
  [
    'writable-end',
    `import { Writable } from 'node:stream'; const end = Writable.prototype.end; Writable.prototype.end = function (...a) { return end.apply(this, a); };`,
    'Writable.prototype.end',
  ],
  [
    'line-emit',
    `import readline from 'node:readline'; const p = Object.getPrototypeOf(readline.Interface.prototype); const o = p.emit; p.emit = function (...a) { return (o ?? Function.prototype).apply(this, a); };`,
    'readline.Interface.prototype (its base).emit (added)',
  ],
  [
    'stdout-proto',
    `const P = Object.getPrototypeOf(process.stdout); const w = P._write; P._write = function (...a) { return w.apply(this, a); };`,
    // a pipe here: net.Socket's (a file: fs's SyncWriteStream, watched as process.stdout's prototype)
    'Socket.prototype._write',
  ],
  ['underscore-kill', `process._kill = () => 0;`, 'process._kill'],
  [
    'timeout-proto',
    `const T = Object.getPrototypeOf(setTimeout(() => {}, 0)); Object.defineProperty(T, '_onTimeout', { get() { return () => {}; }, set() {}, configurable: true });`,
    'Timeout.prototype._onTimeout (added)',
  ],
  // hx15 (main 81d3791): the native handles reached through `_handle`, no process.binding (a pipe's writes and the
  // worker's spawn: the start message rewritten, each channel key taken, every worker started with a --require)
  [
    'pipe-handle',
    `const P = Object.getPrototypeOf(Object.getPrototypeOf(process.stdout._handle)); const w = P.writeUtf8String; P.writeUtf8String = function (...a) { return w.apply(this, a); };`,
    'Pipe.prototype (its base).writeUtf8String (not put back)',
  ],
  [
    'process-handle',
    `import { ChildProcess } from 'node:child_process'; const P = Object.getPrototypeOf(new ChildProcess()._handle); const s = P.spawn; P.spawn = function (...a) { return s.apply(this, a); };`,
    'process_wrap.Process.prototype.spawn (not put back)',
  ],
  // hx16 (main ce0a29e): handles reached as they are made (a diagnostics channel's subscriber gets every new
  // ChildProcess); an own _writeGeneric on stdout rewrote the recommendation
  [
    'channel',
    `import dc from 'node:diagnostics_channel'; dc.channel('child_process').subscribe(() => {});`,
    "diagnostics_channel 'child_process'._subscribers",
  ],
  [
    'write-generic',
    `const w = process.stdout._writeGeneric; process.stdout._writeGeneric = function (...a) { return w.apply(this, a); };`,
    'process.stdout._writeGeneric (added)',
  ],
  // hx17 (main ae86d80): getters that throw where jsonbench's own callbacks read them stopped a run with exit 0
  ['env-proxy', `process.env = new Proxy({}, { get() { throw new Error('no env'); } });`, 'process.env'],
  [
    'is-tty',
    `Object.defineProperty(process.stderr, 'isTTY', { get() { throw new Error('no tty'); }, configurable: true });`,
    'process.stderr.isTTY (added)',
  ],
  [
    'platform',
    `Object.defineProperty(process, 'platform', { get() { throw new Error('no platform'); }, configurable: true });`,
    'process.platform',
  ],
] as const)
  test(`a config whose top level changes ${changed} is refused, exit 2, naming it (hx12, hx13, hx15, hx16, hx17)`, async () => {
    const file = config(`${name}.config.mjs`, `${top}\nexport default {};\n`);
    const out = join(dir, name);
    const ran = await cli(quickRunArgs(file, 'json', 'serialize', out));
    assert.equal(ran.code, 2, ran.stderr);
    assert.ok(
      new RegExp(
        `${name}\\.config\\.mjs: import: changed (.*, )?\\S*${changed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(, .*)? while loading`,
      ).test(ran.stderr),
      `stderr: ${ran.stderr}`,
    );
    assert.equal(existsSync(join(out, 'results.json')), false);
  });

test('a config that makes process.kill a no-op after its import (setImmediate, an interval): the hanging case still times out, and the run refuses to write results (hx13 LK2-hang: it never ended)', async () => {
  const file = config(
    'late-kill.config.mjs',
    `import { setInterval as si } from 'node:timers';
const patch = () => { if (process.kill.name !== 'nokill') process.kill = function nokill() { return true; }; };
setImmediate(patch); si(patch, 200).unref?.();
let n = 0;
export default { serializers: [{ id: 'hangs', family: 'builtin', directions: ['serialize'], supports: () => true,
  prepare: () => ({ serialize: (v) => { if (++n === 100) for (;;); return JSON.stringify(v); } }) }] };
`,
  );
  const out = join(dir, 'late-kill');
  const ran = await cli([...quickRunArgs(file, 'hangs', 'serialize', out), '--case-timeout', '5s'], {
    timeoutMs: 90_000,
  });
  assert.equal(ran.signal, null, 'ended by itself');
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /\[timeout\] weather-station\/1\/single\/serialize\/hangs: no result after 5 s; worker killed/,
  );
  assert.match(ran.stderr, /changed jsonbench's own process: process\.kill \(put back\)/);
  assert.equal(existsSync(join(out, 'results.json')), false);
});

test('process.binding and process._linkedBinding throw in the host: a config reaching the native pipe handles is refused at import, naming it (hx14: the channel key taken from pipe_wrap, "faster by 3.17×")', async () => {
  for (const [name, call] of [
    ['pipe-wrap', `process.binding('pipe_wrap');`],
    ['linked', `process._linkedBinding('fs');`],
  ] as const) {
    const file = config(`${name}.config.mjs`, `${call}\nexport default {};\n`);
    const out = join(dir, name);
    const ran = await cli(quickRunArgs(file, 'json', 'serialize', out));
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      new RegExp(
        `${name}\\.config\\.mjs: import: process\\.(binding|_linkedBinding) is not available to code in jsonbench's own process`,
      ),
    );
    assert.equal(existsSync(join(out, 'results.json')), false);
  }
});

test('async_hooks.createHook throws in the host: a config hooking every new handle is refused at import (hx16: "faster by 2.51×" for a serializer writing \'{}\')', async () => {
  const file = config(
    'async-hook.config.mjs',
    `import { createHook } from 'node:async_hooks';\ncreateHook({ init() {} }).enable();\nexport default {};\n`,
  );
  const out = join(dir, 'async-hook');
  const ran = await cli(quickRunArgs(file, 'json', 'serialize', out));
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /async-hook\.config\.mjs: import: async_hooks\.createHook is not available to code in jsonbench's own process/,
  );
  assert.equal(existsSync(join(out, 'results.json')), false);
});
