import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support.js';

/**
 * hx11's rows (main d8fb05f): a config whose top level throws a value that cannot be made a string (a null-prototype
 * object; an object whose `message` getter throws) was "an internal error" not naming the config; a workload's
 * build() throwing one was "Cannot convert object to primitive value"; `--out` inside the `--payload` folder wrote
 * results.json among the samples, which the next run read as one.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-hx11-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const [name, thrown, said] of [
  ['null-proto', 'Object.create(null)', /a value of no prototype \(not an Error\)/],
  [
    'message-throws',
    "({ get message() { throw new Error('m'); }, get stack() { throw 1; }, toString() { throw 2; } })",
    /message-throws\.config\.mjs: import: a value of type object \(not an Error\)/,
  ],
] as const)
  test(`a config whose top level throws ${thrown} is refused naming the file, not as an internal error`, async () => {
    const config = join(dir, `${name}.config.mjs`);
    writeFileSync(config, `throw ${thrown};\nexport default { serializers: [] };\n`);
    const ran = await cli(
      ['run', '--config', config, '--workload', 'weather-station', '--policy', 'quick'].concat([
        '--no-probes',
        '--out',
        join(dir, `out-${name}`),
      ]),
    );
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, new RegExp(`${name}\\.config\\.mjs`));
    assert.match(ran.stderr, said);
    assert.doesNotMatch(ran.stderr, /internal error|Cannot convert object to primitive value/);
  });

test('a workload whose build() throws a null-prototype object names the workload', async () => {
  const config = join(dir, 'wl.config.mjs');
  writeFileSync(
    config,
    `export default { workloads: [{ id: 'wthrow', description: 'throws', sizes: [1], defaultSizes: [1], shapes: ['single'],
      schema: { type: 'object', properties: { a: { type: 'number' } } },
      build: () => { throw Object.create(null); } }] };\n`,
  );
  const ran = await cli(
    ['run', '--config', config, '--workload', 'wthrow', '--serializer', 'json', '--policy', 'quick'].concat([
      '--no-probes',
      '--out',
      join(dir, 'out-wl'),
    ]),
  );
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /workload wthrow: build\(1, \d+\) threw: a value of no prototype \(not an Error\)/);
  assert.doesNotMatch(ran.stderr, /Cannot convert object to primitive value/);
});

test('--out inside the --payload folder is refused: the next run would read its results.json as a sample', async () => {
  const samples = join(dir, 'samples');
  mkdirSync(samples);
  for (const n of [1, 2]) writeFileSync(join(samples, `page-${n}.json`), JSON.stringify({ id: n, name: `n${n}` }));
  // hx20 a26c: a symbolic link to the samples folder (and a folder under it) passed as written
  symlinkSync(samples, join(dir, 'samples-link'));
  for (const out of [samples, join(samples, 'res'), join(dir, 'samples-link'), join(dir, 'samples-link', 'res')]) {
    const ran = await cli(['run', '--payload', samples, '--serializer', 'json', '--policy', 'quick', '--out', out]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /--out: .* is inside the --payload folder .*: the run's results\.json and reports would be read as samples/,
    );
  }
});

test('a report file (report --format json) given where a results file goes says what it is', async () => {
  const { readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const source = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));
  const asReport = join(dir, 'report.json');
  const made = await cli(['report', source, '--format', 'json', '--out', asReport]);
  assert.equal(made.code, 0, made.stderr);
  assert.equal((JSON.parse(readFileSync(asReport, 'utf8')) as { kind?: string }).kind, 'report');
  const ran = await cli(['report', asReport, '--format', 'md', '--out', join(dir, 'again.md')]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /at \/kind: is a report \(`jsonbench\s+report --format json` writes it/);
});
