import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from '../../src/index.js';
import { RUN_OPTION_KEYS } from '../../src/run/request.js';

/**
 * The programmatic API (issue 28 item 5): run() refuses unknown option keys, takes serializers
 * as values (loaded in the workers from the module that exports them) and a payload as a value,
 * exports its error classes, and its shipped types compile without @types/node.
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(repo, 'bin/jsonbench.js');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-api-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('run() refuses an unknown option key, naming it (a typo type-checks no more, and raises at run time)', async () => {
  await assert.rejects(
    api.run({ polcy: 'quick' } as unknown as api.RunApiOptions),
    (e: unknown) => e instanceof api.UsageError && e.flag === 'polcy' && /is not an option of run\(\)/.test(e.message),
  );
});

test("run()'s option keys are the CLI's run flags (less its output flags) and cwd", () => {
  const help = execFileSync(process.execPath, [bin, 'run', '--help'], { encoding: 'utf8' });
  const flags = [...help.matchAll(/^ {2}--([a-z-]+)/gm)]
    .map((m) => m[1].replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()))
    .filter((f) => !['json', 'printSchema', 'failOn', 'help', 'resolve', 'maxTime', 'verbose'].includes(f));
  assert.deepEqual([...new Set(flags)].sort(), RUN_OPTION_KEYS.filter((k) => k !== 'cwd').sort());
});

test('inline serializers need the module they come from', async () => {
  const ours = api.defineSerializer({
    id: 'ours',
    family: 'builtin',
    directions: ['serialize'],
    deserializeClass: 'parse',
    supports: () => true,
    prepare: () => ({ serialize: (v) => JSON.stringify(v) }),
  });
  await assert.rejects(
    api.run({ serializers: [ours], payload: { value: { a: 1 } } }),
    (e: unknown) => e instanceof api.UsageError && e.flag === 'serializers' && /give `from`/.test(e.message),
  );
  await assert.rejects(
    api.run({ payload: { value: () => 1 } }),
    (e: unknown) => e instanceof api.UsageError && e.flag === 'payload',
  );
});

test('run() measures a serializer given as a value on a payload given as a value', async () => {
  const from = new URL('../../../test/fixtures/api/serializers.mjs', import.meta.url);
  const { ours } = (await import(from.href)) as { ours: api.SerializerAdapter };
  const results = await api.run({
    payload: { value: { station: 'KSEA', temperature: 7.5, tags: ['rain', 'fog'] }, name: 'inline' },
    serializers: [ours],
    from,
    serializer: ['json'],
    direction: ['serialize'],
    policy: 'quick',
    ledger: false,
    probes: false,
    out: join(dir, 'inline'),
  });
  assert.deepEqual(
    results.cases.map((c) => [c.serializer, c.status]),
    [
      ['json', 'measured'],
      ['ours', 'measured'],
    ],
  );
  assert.match(results.payloads![0].file, /inline\.json$/);
  assert.equal(
    results.payloads![0].bytes,
    JSON.stringify({ station: 'KSEA', temperature: 7.5, tags: ['rain', 'fog'] }).length,
  );
});

test('the error classes are exported', () => {
  for (const E of [api.UsageError, api.ConfigError, api.WorkloadError, api.PayloadError, api.ResultsFileError])
    assert.equal(typeof E, 'function');
});

test('the shipped types compile in a project without @types/node', () => {
  const project = join(dir, 'types');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(repo, join(project, 'node_modules', 'jsonbench'));
  writeFileSync(
    join(project, 'check.ts'),
    [
      "import { run, defineSerializer, recommend, UsageError, type RunApiOptions } from 'jsonbench';",
      "const ours = defineSerializer({ id: 'ours', family: 'builtin', directions: ['serialize'], deserializeClass: 'parse', supports: () => true, prepare: () => ({ serialize: (v: unknown) => JSON.stringify(v) }) });",
      "const options: RunApiOptions = { policy: 'quick', direction: ['serialize'], serializers: [ours], from: 'x.mjs' };",
      'export async function main(): Promise<void> { const r = await run(options); console.log(recommend(r), UsageError); }',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        skipLibCheck: false,
      },
      files: ['check.ts'],
    }),
  );
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  /** tsc's report on the project: '' when it compiles */
  const check = () => {
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
      return '';
    } catch (e) {
      return (e as { stdout?: string }).stdout ?? String(e);
    }
  };
  assert.equal(check(), '', 'no type error');
  // and a typo in an option is a type error
  writeFileSync(join(project, 'check.ts'), "import { run } from 'jsonbench';\nvoid run({ polcy: 'quick' });\n");
  assert.match(check(), /'polcy' does not exist in type 'RunApiOptions'/);
});
