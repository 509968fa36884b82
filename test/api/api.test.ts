import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as api from '../../src/index.js';
import { RUN_OPTION_KEYS } from '../../src/run/request.js';

/**
 * The programmatic API (issue 28 item 5): run() refuses unknown option keys, takes serializers
 * as values (loaded in the workers from the module that exports them) and a payload as a value,
 * exports its error classes, refuses at once the script that awaits it as the module of its
 * serializers, and its shipped types compile with lib ES2022 alone (no DOM, no @types/node).
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
    .filter(
      (f) => !['json', 'printSchema', 'failOn', 'help', 'resolve', 'maxTime', 'caseTimeout', 'verbose'].includes(f),
    );
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

test('`from` may be a TypeScript module: bundled beside it for the workers, removed after the run', async () => {
  const project = join(dir, 'ts-from');
  mkdirSync(project, { recursive: true });
  const from = join(project, 'serializers.ts');
  writeFileSync(
    from,
    [
      'interface Typed { serialize(v: unknown): string }',
      "export const typed = { id: 'typed', family: 'builtin', directions: ['serialize'], deserializeClass: 'parse',",
      '  supports: (): true => true,',
      '  prepare: (): Typed => ({ serialize: (v: unknown): string => String(JSON.stringify(v)) }) };',
      '',
    ].join('\n'),
  );
  const results = await api.run({
    payload: { value: { a: 1 } },
    serializers: [{ id: 'typed' }],
    from: pathToFileURL(from),
    direction: ['serialize'],
    policy: 'quick',
    ledger: false,
    probes: false,
    out: join(dir, 'ts-from-out'),
  });
  assert.deepEqual(
    results.cases.filter((c) => c.serializer === 'typed').map((c) => [c.status, c.reason ?? '']),
    [['measured', '']],
  );
  assert.deepEqual(readdirSync(project), ['serializers.ts'], 'the bundle beside it is removed');
});

test('the error classes are exported', () => {
  for (const E of [api.UsageError, api.ConfigError, api.WorkloadError, api.PayloadError, api.ResultsFileError])
    assert.equal(typeof E, 'function');
});

test('the script that awaits run() at its top level as `from` fails at once, saying to move the serializers', async () => {
  const project = join(dir, 'same-script');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(repo, join(project, 'node_modules', 'jsonbench'));
  writeFileSync(
    join(project, 'bench.mjs'),
    [
      "import { run, defineSerializer } from 'jsonbench';",
      "export const ours = defineSerializer({ id: 'ours', family: 'builtin', directions: ['serialize'], deserializeClass: 'parse', supports: () => true, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) });",
      'const t0 = Date.now();',
      'try {',
      "  await run({ payload: { value: { a: 1 } }, serializers: [ours], from: import.meta.url, direction: ['serialize'], policy: 'quick', ledger: false, probes: false });",
      "  console.log('ran');",
      '} catch (e) {',
      '  console.log(JSON.stringify({ name: e.constructor.name, flag: e.flag, message: e.message, ms: Date.now() - t0 }));',
      '}',
      '',
    ].join('\n'),
  );
  const out = execFileSync(process.execPath, ['bench.mjs'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
  const e = JSON.parse(out) as { name: string; flag: string; message: string; ms: number };
  assert.deepEqual([e.name, e.flag], ['UsageError', 'from']);
  assert.match(e.message, /bench\.mjs is the script that calls run\(\) at its top level \(top-level await\)/);
  assert.match(e.message, /Put the serializers in a module of their own \(serializers\.mjs\) and give that as `from`/);
  // it hung for the config's 30 s load timeout before; a second for the check, and the modules' load
  assert.ok(e.ms < 15_000, `fails at once: ${e.ms} ms`);
});

test('the shipped types compile in a project with lib ES2022 alone: no DOM, no @types/node', () => {
  const project = join(dir, 'types');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(repo, join(project, 'node_modules', 'jsonbench'));
  writeFileSync(
    join(project, 'check.ts'),
    [
      "import { run, defineSerializer, recommend, renderRecommendations, UsageError, type RunApiOptions } from 'jsonbench';",
      "const ours = defineSerializer({ id: 'ours', family: 'builtin', directions: ['serialize'], deserializeClass: 'parse', supports: () => true, prepare: () => ({ serialize: (v: unknown) => JSON.stringify(v) }) });",
      "const options: RunApiOptions = { policy: 'quick', direction: ['serialize'], serializers: [ours], from: 'x.mjs' };",
      "const viaUrl: RunApiOptions = { serializers: [{ id: 'ours' }], from: { href: 'file:///x/serializers.ts' } };",
      'export async function main(): Promise<string> {',
      '  const r = await run(options, (e) => void (e.type === "case-done" && e.result.status));',
      '  await run(viaUrl);',
      "  return `${recommend(r).length} ${renderRecommendations(r, 'markdown')} ${new UsageError('x', 'y').flag}`;",
      '}',
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
        lib: ['es2022'],
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
