import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../src/results/io.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { dotnetSerializers } from '../../src/serializers/dotnet/index.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * The command line end to end: `node bin/jsonbench.js` spawned with piped output (run
 * `npm run build` first), in a temporary working directory so nothing (results, a ledger) lands
 * in the repository. Measurements use `--policy quick` on the one-document workload.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const misbehaving = fileURLToPath(new URL('../../../test/fixtures/misbehaving/jsonbench.config.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jsonbench-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

const ESC = '\u001b';
let dirs = 0;
/** A fresh empty folder under the test's temporary root. */
function freshDir(name: string): string {
  const d = join(root, `${++dirs}-${name}`);
  mkdirSync(d);
  return d;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with piped stdio; never rejects. Colour is left to the CLI: no FORCE_COLOR, and NO_COLOR only if `env` sets it. */
function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  const { FORCE_COLOR: _f, NO_COLOR: _n, ...inherited } = process.env;
  // messages are matched whole: a width they never wrap at, unless a test sets COLUMNS (the widths: width.test.ts)
  const env = { ...inherited, JSONBENCH_LEDGER: 'off', COLUMNS: '1000', ...opts.env };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: opts.cwd ?? root, env, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `text` as a literal inside a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const quick = ['run', '--policy', 'quick', '--workload', 'weather-station'];

test('an unknown flag exits 2 and stderr names it', async () => {
  for (const args of [['run', '--bogus-flag'], ['--bogus-flag'], ['list', '--bogus-flag']]) {
    const r = await cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /unknown option '--bogus-flag'/);
    assert.equal(r.stdout, '');
  }
});

for (const [flag, value] of [
  ['--policy', 'nope'],
  ['--workload', 'nope'],
  ['--size', 'abc'],
  ['--serializer', 'nope'],
  ['--direction', 'sideways'],
]) {
  test(`a bad ${flag} value exits 2, naming the flag and the value, before anything runs`, async () => {
    const out = join(root, `never-${flag.slice(2)}`);
    const r = await cli(['run', flag, value, '--out', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^jsonbench: error: ${flag}: .*"${value}"`, 'm'));
    assert.match(r.stderr, /Run 'jsonbench run --help' for usage/);
    assert.equal(r.stdout, '');
    assert.equal(existsSync(out), false, 'no output folder is made for a usage error');
  });
}

test('list prints every registered workload and serializer id whole, without colour when piped', async () => {
  const r = await cli(['list']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.includes(ESC), false, 'ANSI escapes in piped output');
  // open tables (nu9: 163 lines at 80 columns boxed): an id starts its row, two spaces in, and is followed by a gap
  const cell = (id: string) => new RegExp(`^ {2}${literal(id)} {2,}\\S`, 'm');
  for (const id of [...workloads.ids, ...serializers.ids, ...dotnetSerializers.ids])
    assert.match(r.stdout, cell(id), `${id} is missing or cut`);
});

test('list --json lists exactly the registered workloads and serializers', async () => {
  const r = await cli(['list', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const listed = JSON.parse(r.stdout) as { workloads: { id: string }[]; serializers: { id: string; family: string }[] };
  assert.deepEqual(
    listed.workloads.map((w) => w.id),
    [...workloads.ids],
  );
  assert.deepEqual(
    listed.serializers.map((s) => s.id),
    [...serializers.ids, ...dotnetSerializers.ids],
  );
});

test('NO_COLOR keeps escapes out of the output', async () => {
  const r = await cli(['list'], { env: { NO_COLOR: '1' } });
  assert.equal(r.code, 0);
  assert.equal((r.stdout + r.stderr).includes(ESC), false);
});

test('run --policy quick writes a valid results.json and report.md, prints the table, and exits 0', async () => {
  const out = join(freshDir('run'), 'out');
  const r = await cli([...quick, '--serializer', 'json,secure-json-parse', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const results: ResultsFile = readResults(join(out, 'results.json'));
  assert.equal(results.schemaVersion, 2);
  assert.equal(results.tool, 'jsonbench');
  assert.equal(results.policy.name, 'quick');
  assert.equal(results.policy.seed, 42);
  const env = results.environment;
  assert.equal(env.node, process.versions.node);
  assert.equal(env.v8, process.versions.v8);
  assert.equal(env.arch, process.arch);
  assert.ok(env.cpuModel.length > 0 && env.os.length > 0 && env.runtime.startsWith('node '), JSON.stringify(env));
  assert.ok(env.cores >= 1 && env.totalMemoryBytes > 0 && env.timerResolutionNs > 0);
  assert.ok(env.flags.includes('--expose-gc'));
  // the default profile runs V8 as a user's process does: no --single-threaded-gc (that is `--profile steady`)
  assert.equal(results.policy.profile, 'default');
  assert.ok(!env.flags.includes('--single-threaded-gc'), JSON.stringify(env.flags));
  assert.ok(
    results.targets.every((t) => t.flags.includes('--expose-gc') && !t.flags.includes('--single-threaded-gc')),
    JSON.stringify(results.targets.map((t) => t.flags)),
  );
  assert.equal(env.loadAverage.start.length, 3);
  assert.equal(env.loadAverage.end?.length, 3);
  assert.equal(typeof env.pointerCompression, 'boolean');
  assert.match(env.jsonbenchVersion, /^\d+\.\d+\.\d+/);
  assert.deepEqual(Object.fromEntries(results.cases.map((c) => [c.id, c.status])), {
    'weather-station/1/single/serialize/json': 'measured',
    'weather-station/1/single/serialize/secure-json-parse': 'unsupported',
    'weather-station/1/single/deserialize/json': 'measured',
    'weather-station/1/single/deserialize/secure-json-parse': 'measured',
  });
  assert.equal(
    existsSync(join(out, 'results.partial.jsonl')),
    false,
    'the partial file is removed once results.json is written',
  );
  const report = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(report, /secure-json-parse/);
  assert.match(r.stdout, /weather-station · 1 · single · serialize/);
  // a table of one class (the quick run's deserialize cases are parse only) names it in place of its direction
  assert.match(r.stdout, /weather-station · 1 · single · parse \(against json\)/);
  assert.match(r.stdout, /^ {2}json {2,}/m);
  assert.match(r.stdout, /^ {2}secure-json-parse {2,}/m);
  assert.match(r.stdout, new RegExp(`results: ${literal(join(out, 'results.json'))}`));
  assert.equal((r.stdout + r.stderr).includes(ESC), false, 'ANSI escapes in piped output');
});

test("run --profile steady gives the workers the lab's GC settings and names the profile in every report header", async () => {
  const out = join(freshDir('run-steady'), 'out');
  const r = await cli([
    ...quick,
    '--serializer',
    'json',
    '--direction',
    'serialize',
    '--profile',
    'steady',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const results: ResultsFile = readResults(join(out, 'results.json'));
  assert.equal(results.policy.profile, 'steady');
  assert.ok(results.environment.flags.includes('--single-threaded-gc'), JSON.stringify(results.environment.flags));
  assert.ok(results.targets.every((t) => t.flags.includes('--single-threaded-gc')));
  assert.match(r.stdout, /^Profile steady: the lab's steadier GC settings/m);
  assert.match(readFileSync(join(out, 'report.md'), 'utf8'), / · profile steady\n/);
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /Profile<\/[a-z]+>.*<b>steady<\/b>/s);
  const bad = await cli([...quick, '--profile', 'fast']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--profile/);
});

test("a run's report.md and report.html are pure functions of its results.json: `jsonbench report` reproduces them byte for byte", async () => {
  const out = join(freshDir('reproduce'), 'out');
  const r = await cli([...quick, '--serializer', 'json,secure-json-parse', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  for (const [format, file] of [
    ['md', 'report.md'],
    ['html', 'report.html'],
  ]) {
    const again = await cli(['report', '--format', format, '--out', '-', join(out, 'results.json')]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(
      again.stdout,
      readFileSync(join(out, file), 'utf8'),
      `${file} differs from \`jsonbench report --format ${format}\``,
    );
  }
});

test('run --json prints the results file as parseable JSON', async () => {
  const out = join(freshDir('json'), 'out');
  const r = await cli([...quick, '--serializer', 'json', '--direction', 'serialize', '--json', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const printed = JSON.parse(r.stdout) as ResultsFile;
  assert.deepEqual(printed, readResults(join(out, 'results.json')));
  assert.deepEqual(
    printed.cases.map((c) => [c.id, c.status]),
    [['weather-station/1/single/serialize/json', 'measured']],
  );
});

test('a run with a throwing serializer exits 0 (it measured and wrote its results), lists the failed case on stderr, and exits 1 with --fail-on failed', async () => {
  const out = join(freshDir('throws'), 'out');
  const r = await cli([
    ...quick,
    '--serializer',
    'json,throws',
    '--direction',
    'serialize',
    '--config',
    misbehaving,
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const results = readResults(join(out, 'results.json'));
  const status = Object.fromEntries(results.cases.map((c) => [c.serializer, [c.status, c.reason ?? null]]));
  assert.deepEqual(status, { json: ['measured', null], throws: ['failed', 'verify: Error: boom'] });
  assert.match(r.stderr, /\[failed\] weather-station\/1\/single\/serialize\/throws/);
  // the run's end lists the cases without a number once, on stdout, after the tables
  assert.match(
    r.stdout,
    /^✗ throws · failed in weather-station 1 single serialize, no number \(never ranked; reasons in report\.md\): verify: Error: boom$/m,
  );
  assert.match(r.stderr.replace(/\n {2}(?=\S)/g, ' '), /exit 0 \(--fail-on failed would make these cases fail it\)$/m);
  assert.match(r.stdout, /✗ failed: verify: Error: boom/);
  // the CI gate: the same run with --fail-on failed exits 1, results still written
  const gated = await cli([
    ...quick,
    '--serializer',
    'json,throws',
    '--direction',
    'serialize',
    '--config',
    misbehaving,
    '--fail-on',
    'incorrect,failed',
    '--out',
    `${out}-gated`,
  ]);
  assert.equal(gated.code, 1, gated.stderr);
  assert.match(gated.stderr, /^jsonbench: failing \(--fail-on incorrect,failed\): 1 case failed$/m);
  assert.equal(readResults(join(`${out}-gated`, 'results.json')).cases.length, 2);
  const bad = await cli([...quick, '--fail-on', 'slower', '--out', `${out}-bad`]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--fail-on: unknown "slower" \(choose from: incorrect, failed, timeout, crashed\)/);
});

test('a config with a bad adapter exits 2, naming the file and the key', async () => {
  const cwd = freshDir('bad-config');
  const file = join(cwd, 'jsonbench.config.mjs');
  writeFileSync(file, "export default { serializers: [{ id: 'x' }] };\n");
  for (const args of [
    [...quick, '--out', join(cwd, 'out')],
    ['list'],
    ['run', '--config', file, '--out', join(cwd, 'out')],
  ]) {
    const r = await cli(args, { cwd });
    assert.equal(r.code, 2, args.join(' '));
    assert.match(
      r.stderr,
      new RegExp(
        `^jsonbench: error: ${literal(file)}: serializers\\[0\\]\\.family: must be one of builtin, schema-compiled, reflection, validator$`,
        'm',
      ),
    );
  }
  assert.equal(existsSync(join(cwd, 'out', 'results.json')), false);
});

test('a config file that does not exist exits 2, naming it', async () => {
  const r = await cli(['run', '--config', 'missing.config.mjs']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^jsonbench: error: missing\.config\.mjs: file: not found$/m);
});

test('a jsonbench.config.ts is compiled and its adapter measured beside json', async () => {
  const cwd = freshDir('ts-config');
  writeFileSync(
    join(cwd, 'jsonbench.config.ts'),
    `
interface Workloadish { id: string }
type Direction = 'serialize' | 'deserialize';
const typed = {
  id: 'typed-json',
  family: 'builtin' as const,
  deserializeClass: 'parse' as const,
  supports(workload: Workloadish, direction: Direction): true | string {
    return workload.id === 'weather-station' && direction === 'serialize' ? true : 'weather-station serialize only';
  },
  prepare() {
    return { serialize: (value: unknown): string => JSON.stringify(value) };
  },
} satisfies { id: string; family: 'builtin' };
export default { serializers: [typed] };
`,
  );
  const r = await cli([...quick, '--serializer', 'typed-json', '--direction', 'serialize', '--out', 'out'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const results = readResults(join(cwd, 'out', 'results.json'));
  const typed = results.cases.find((c) => c.serializer === 'typed-json');
  assert.equal(typed?.status, 'measured');
  assert.ok(typed.time && typed.time.mean > 0);
  assert.ok(typeof typed.ratio === 'number' && typed.ratio > 0);
  assert.equal(results.cases.find((c) => c.serializer === 'json')?.status, 'measured', 'the baseline joins the run');
  assert.deepEqual(
    readdirSync(cwd).sort(),
    ['jsonbench.config.ts', 'out'],
    'the compiled config is removed after the run',
  );
});

test('a jsonbench.config.ts with a syntax error exits 2 with its line and column', async () => {
  const cwd = freshDir('ts-syntax');
  writeFileSync(join(cwd, 'jsonbench.config.ts'), 'export default {\n  serializers: [ ;\n};\n');
  const r = await cli(['list'], { cwd });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(`^jsonbench: error: ${literal(join(cwd, 'jsonbench.config.ts'))}:2:\\d+: syntax: `, 'm'),
  );
});

test('list fits 80 columns and wider ($COLUMNS for a pipe), ids whole and the class header uncut', async () => {
  for (const columns of [80, 120]) {
    const r = await cli(['list'], { env: { COLUMNS: String(columns) } });
    assert.equal(r.code, 0, r.stderr);
    const widest = Math.max(...r.stdout.split('\n').map((l) => [...l].length));
    assert.ok(widest <= columns, `a line of ${widest} characters at ${columns} columns`);
    assert.doesNotMatch(r.stdout, /Deseriali…/);
    const cell = (id: string) => new RegExp(`^ {2}${literal(id)} {2,}\\S`, 'm');
    for (const id of [...workloads.ids, ...serializers.ids, ...dotnetSerializers.ids])
      assert.match(r.stdout, cell(id), `${id} is missing or cut at ${columns} columns`);
  }
});
