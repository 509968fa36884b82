import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, hx8Scratch } from '../hostile/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx8 section 8 (issue 25, "hang"): a FIFO given as `--config` or `--schema`, or inside a
 * `--conformance` folder, blocked with no output until killed (opening a pipe waits for a writer).
 * Each is refused at once naming the flag, or, inside a folder, skipped and named.
 */

const { dir, a1, bounded } = hx8Scratch('hostile-pipes');
const hasMkfifo = process.platform === 'linux' && spawnSync('mkfifo', ['--version']).status === 0;
const fifoSkip = hasMkfifo ? false : 'needs mkfifo (Linux)';
const fifo = (name: string) => {
  const p = join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
};

test(
  'run --config of a FIFO is refused at once naming the flag, exit 2 (hx8 CF8-fifo: no output until killed)',
  { skip: fifoSkip },
  async () => {
    const config = fifo('fifo.config.mjs');
    const ran = await cli(['run', '--config', config, '--payload', a1, '--print-schema'], bounded);
    assert.equal(ran.signal, null, `blocked for ${Math.round(ran.ms / 1000)} s`);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /jsonbench: error: --config: \S*fifo\.config\.mjs: is a pipe \(FIFO\), not a file: jsonbench opens only regular files and folders/,
    );
  },
);

test(
  'a FIFO named jsonbench.config.mjs in the working directory is refused by list, exit 2',
  { skip: fifoSkip },
  async () => {
    const cwd = join(dir, 'cwd-fifo');
    mkdirSync(cwd);
    execFileSync('mkfifo', [join(cwd, 'jsonbench.config.mjs')]);
    const ran = await cli(['list'], { ...bounded, cwd });
    assert.equal(ran.signal, null, `blocked for ${Math.round(ran.ms / 1000)} s`);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /--config: jsonbench\.config\.mjs \(found in the working directory, loaded without --config\): is a pipe \(FIFO\), not a file/,
    );
  },
);

test(
  'run --schema of a FIFO (.json or a module) is refused at once, exit 2 (hx8 SF8-schema)',
  { skip: fifoSkip },
  async () => {
    for (const name of ['fifo.schema.json', 'fifo.schema.mjs']) {
      const schema = fifo(name);
      const ran = await cli(['run', '--payload', a1, '--schema', schema, '--print-schema'], bounded);
      assert.equal(ran.signal, null, `${name}: blocked for ${Math.round(ran.ms / 1000)} s`);
      assert.equal(ran.code, 2, `${name}: ${ran.stderr}`);
      assert.match(
        ran.stderr,
        new RegExp(`--schema: \\S*${name.replace(/\./g, '\\.')}: is a pipe \\(FIFO\\), not a file`),
      );
    }
  },
);

test(
  'probe --conformance of a folder holding a FIFO skips and names it, and probes the rest (hx8 PC8-conf3: no output until killed)',
  { skip: fifoSkip },
  async () => {
    const conf = join(dir, 'conf');
    mkdirSync(conf);
    writeFileSync(join(conf, 'y_ok.json'), '[1]');
    execFileSync('mkfifo', [join(conf, 'y_fifo.json')]);
    const ran = await cli(
      [
        'probe',
        '--conformance',
        conf,
        '--family',
        'conformance',
        '--serializer',
        'json',
        '--out',
        join(dir, 'probe-out'),
      ],
      { timeoutMs: 90_000 },
    );
    assert.equal(ran.signal, null, `blocked for ${Math.round(ran.ms / 1000)} s`);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(
      ran.stderr,
      /jsonbench: --conformance: y_fifo\.json skipped: is a pipe \(FIFO\), not a file: not read \(opening it could wait forever\)/,
    );
    const results = JSON.parse(readFileSync(join(dir, 'probe-out', 'results.json'), 'utf8')) as ResultsFile;
    assert.equal(results.probes?.conformance?.files, 1, 'y_ok.json became a probe');
  },
);

test('a samples folder (--payload FOLDER) skips a FIFO named *.json with a warning', { skip: fifoSkip }, async () => {
  const samples = join(dir, 'samples');
  mkdirSync(samples);
  writeFileSync(join(samples, 'a.json'), '{"a":1}');
  writeFileSync(join(samples, 'b.json'), '{"a":2}');
  execFileSync('mkfifo', [join(samples, 'c.json')]);
  const ran = await cli(['run', '--payload', samples, '--print-schema'], bounded);
  assert.equal(ran.signal, null, `blocked for ${Math.round(ran.ms / 1000)} s`);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stderr, /jsonbench: warning: \S*samples\/c\.json: is a pipe \(FIFO\), not a sample file: skipped/);
  assert.equal((JSON.parse(ran.stdout) as { type: string }).type, 'object');
});
