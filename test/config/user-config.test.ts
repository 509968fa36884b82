import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadUserConfig } from '../../src/config/user-config.js';
import { checkNotEmpty, UsageError } from '../../src/config/usage-error.js';
import { prepareConfig } from '../../src/config/compile-config.js';

/** Config loading is bounded: a top-level await that never settles fails naming the file, never exits 0. */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/${name}`, import.meta.url));
const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));

test('a config whose top-level await keeps the process busy is stopped at the timeout, naming the file', async () => {
  const file = fixture('tla-slow.config.mjs');
  try {
    await assert.rejects(
      loadUserConfig(file, 'tla-slow.config.mjs', 1000),
      (e: Error) =>
        e instanceof ConfigError && e.message === 'tla-slow.config.mjs: import: loading it did not finish within 1 s',
    );
  } finally {
    clearInterval((globalThis as { __jsonbenchTlaSlowTimer?: ReturnType<typeof setInterval> }).__jsonbenchTlaSlowTimer);
  }
});

// A Promise nothing can settle is seen when the process runs out of work, which node:test also
// watches in its own process: those cases run the CLI in a child process.
for (const [command, name] of [
  ['list', 'tla-never.config.mjs'],
  ['run', 'tla-never.config.mjs'],
] as const) {
  test(
    `jsonbench ${command} with ${name} exits 2 naming the file, not 0 with no output`,
    { timeout: 90_000 },
    async () => {
      const args =
        command === 'run'
          ? ['run', '--policy', 'quick', '--workload', 'weather-station', '--out', '/tmp/jsonbench-never-written']
          : [command];
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [bin, ...args, '--config', fixture(name)],
          { env: { ...process.env, JSONBENCH_LEDGER: 'off', COLUMNS: '1000' }, timeout: 80_000 },
          (error, _stdout, stderr) => {
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
          },
        );
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `^jsonbench: error: .*${name.replace(/\./g, '\\.')}: import: loading it never settled: the process ran out of work while waiting`,
          'm',
        ),
      );
    },
  );
}

test('a list flag given empty (--fail-on "" from an unset CI variable) is a usage error, not a gate switched off', () => {
  assert.throws(
    () => checkNotEmpty('--fail-on', '', [], ['incorrect', 'failed']),
    (e: Error) => e instanceof UsageError && /--fail-on.*give at least one of incorrect, failed/.test(e.message),
  );
  assert.throws(() => checkNotEmpty('--fail-on', [','], [], ['slower']), UsageError);
  assert.doesNotThrow(() => checkNotEmpty('--fail-on', undefined, [], ['slower']));
  assert.doesNotThrow(() => checkNotEmpty('--fail-on', 'slower', ['slower'], ['slower']));
});

test('a serializer id longer than 64 characters is refused naming its length (hx9 C9-longid: 535-character table rows)', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-longid-'));
  try {
    const make = (id: string) => {
      const file = join(dir, `c${id.length}.config.mjs`);
      writeFileSync(
        file,
        `export default { serializers: [{ id: ${JSON.stringify(id)}, family: 'builtin', directions: ['serialize'], supports: () => true, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) }] };\n`,
      );
      return file;
    };
    await assert.rejects(
      loadUserConfig(make('x'.repeat(65)), 'c65.config.mjs', 10_000),
      (e: Error) =>
        e instanceof ConfigError &&
        /serializers\[0\]\.id: must be a string of 1–64 letters, digits, @ \. - _ \/ \(it has 65 characters\)/.test(
          e.message,
        ),
    );
    const ok = await loadUserConfig(make('y'.repeat(64)), 'c64.config.mjs', 10_000);
    assert.equal(ok.serializers?.[0]?.id, 'y'.repeat(64));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs `fn` with a maker of one-entry configs (a serializer, or a workload, of the id given) in a fresh folder, then removes it. */
/** The folder of `file` (a config written by {@link withIdConfigs}): where prepareConfig may write. */
const tmpdirOf = (file: string) => file.slice(0, file.lastIndexOf('/'));

async function withIdConfigs(
  kind: 'serializers' | 'workloads',
  fn: (make: (name: string, id: string) => string) => Promise<void>,
): Promise<void> {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), `jsonbench-${kind}-ids-`));
  const entry =
    kind === 'serializers'
      ? `family: 'builtin', directions: ['serialize'], supports: () => true, prepare: () => ({ serialize: (v) => JSON.stringify(v) })`
      : `description: 'x', sizes: [3], shapes: ['list'], schema: { type: 'object', properties: { id: { type: 'number', integer: true } } }, build: (n) => Array.from({ length: n }, (_, i) => ({ id: i }))`;
  try {
    await fn((name, id) => {
      const file = join(dir, `${name}.config.mjs`);
      writeFileSync(file, `export default { ${kind}: [{ id: ${JSON.stringify(id)}, ${entry} }] };\n`);
      return file;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a workload id that is, or reads as, a built-in one is refused naming it (hx33 w7: "users" ran the built-in\'s sizes with the config\'s build())', async () => {
  await withIdConfigs('workloads', async (make) => {
    await assert.rejects(
      loadUserConfig(make('users', 'users'), 'users.config.mjs', 10_000),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.includes('workloads[0].id: "users" is a built-in workload; give yours another id'),
    );
    await assert.rejects(
      loadUserConfig(make('ws', 'Weather_Station'), 'ws.config.mjs', 10_000),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.includes('workloads[0].id: "Weather_Station" reads as the built-in workload "weather-station"'),
    );
    const ok = await loadUserConfig(make('own', 'my-users'), 'own.config.mjs', 10_000);
    assert.equal(ok.workloads?.[0]?.id, 'my-users');
  });
});

test('a config of yours naming a serializer with an "@" after its first character is refused: history files it as a version row (hx35 c20)', async () => {
  await withIdConfigs('serializers', async (make) => {
    for (const id of ['superjson@2.2.7', 'json@node', 'mine@2']) {
      const file = make(id.replace(/\W/g, ''), id);
      await assert.rejects(
        prepareConfig(file, tmpdirOf(file)),
        (e: Error) =>
          e instanceof ConfigError &&
          e.message.includes(`serializers[0].id: "${id}": an "@" after the first character marks a version row`),
        id,
      );
      // the version matrix's generated module (ids typia@11.0.3) is loaded without the check
      assert.equal((await loadUserConfig(file, 'generated.config.mjs', 10_000)).serializers[0].id, id);
    }
    const scoped = make('scoped', '@acme/json');
    assert.equal((await prepareConfig(scoped, tmpdirOf(scoped))).config.serializers[0].id, '@acme/json');
  });
});

test('a serializer id that reads as a built-in one (hx18 A33: "fast-json-stringify.") is refused naming the built-in', async () => {
  await withIdConfigs('serializers', async (make) => {
    for (const id of ['fast-json-stringify.', 'Fast_Json_Stringify', 'TYPIA'])
      await assert.rejects(
        loadUserConfig(make(id.replace(/\W/g, ''), id), 'alike.config.mjs', 10_000),
        (e: Error) =>
          e instanceof ConfigError &&
          e.message.includes(`serializers[0].id: "${id}" reads as the built-in serializer "`) &&
          e.message.includes('(they differ only in case or punctuation); give yours an id of its own'),
        id,
      );
    const ok = await loadUserConfig(make('own', 'fast-json-stringify-v6'), 'own.config.mjs', 10_000);
    assert.equal(ok.serializers?.[0]?.id, 'fast-json-stringify-v6');
  });
});
