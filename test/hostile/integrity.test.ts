import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResults } from '../../src/results/io.js';
import { cli, quickRunArgs, results } from './support.js';

/**
 * The integrity record of a results file (hostile tester hx4, security: a detached process started
 * with `env: {}`, out of the launch tag's reach, rewrote results.json after the run and `report`
 * said "afterlife 3.31× faster"). The writer records the text's SHA-256 beside it
 * (`results.json.sha256`, results/integrity.ts) and in the ledger; readers refuse a file that no
 * longer matches it unless `--accept-changed` is given.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-integrity-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A run folder holding a fixture written by jsonbench's writer, and the same file with its first measured ratio made 0.3 of itself. */
function written(name: string): { file: string; forge: () => void } {
  const folder = join(dir, name);
  const file = join(folder, 'results.json');
  mkdirSync(folder, { recursive: true });
  writeResults(file, results());
  return {
    file,
    forge: () => {
      const r = JSON.parse(readFileSync(file, 'utf8')) as { cases: { ratio?: number }[] };
      const c = r.cases.find((x) => typeof x.ratio === 'number')!;
      c.ratio = c.ratio! * 0.3;
      writeFileSync(file, JSON.stringify(r, null, 2));
    },
  };
}

test('the writer records the SHA-256 of the text it wrote beside it, in sha256sum format, then its HMAC line (hx8)', () => {
  const { file } = written('sidecar');
  const text = readFileSync(file, 'utf8');
  assert.match(
    readFileSync(file + '.sha256', 'utf8'),
    new RegExp(`^${sha(text)}  results\\.json\\n# jsonbench hmac-sha256 [0-9a-f]{64}\\n$`),
  );
});

test('report, compare, merge and ledger import refuse a results file changed after its run; --accept-changed reads it with a warning', async () => {
  const { file, forge } = written('forged');
  const ledger = join(dir, 'forged.sqlite');
  const imported = await cli(['ledger', 'import', file, '--ledger', ledger]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal((await cli(['report', file, '--format', 'md', '--out', '-'])).code, 0);
  forge();
  const now = sha(readFileSync(file, 'utf8'));
  for (const args of [
    ['report', file, '--format', 'md', '--out', '-'],
    ['compare', file, file],
    ['merge', file, '--out', join(dir, 'merged')],
  ]) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`changed after the run wrote it: its sha256 is ${now}, the run recorded [0-9a-f]{64}`),
    );
    assert.match(r.stderr, /--accept-changed/);
  }
  const again = await cli(['ledger', 'import', file, '--ledger', ledger]);
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stderr, /changed after the run wrote it/);
  // without the sidecar (a forger that removed it), the ledger still holds the run's hash
  rmSync(file + '.sha256');
  const noSidecar = await cli(['ledger', 'import', file, '--ledger', ledger]);
  assert.equal(noSidecar.code, 1, noSidecar.stdout);
  assert.match(
    noSidecar.stderr,
    new RegExp(
      `results\\.json: changed after the run wrote it: its sha256 is ${now}, the ledger .*forged\\.sqlite \\(run 1\\) recorded [0-9a-f]{64} for its run`,
    ),
  );
  const { file: file2, forge: forge2 } = written('accepted');
  forge2();
  const accepted = await cli(['report', file2, '--format', 'md', '--out', '-', '--accept-changed']);
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.match(
    accepted.stderr,
    /changed after the run wrote it: .*read as it is now \(--accept-changed\): its numbers are not the run's/,
  );
});

test(
  'a process left behind by a double fork that rewrites results.json after the run: report and ledger import refuse it',
  { skip: process.platform !== 'linux' && 'needs /proc (Linux)' },
  async () => {
    const config = fileURLToPath(
      new URL('../../../test/fixtures/hostile/hostile5/afterlife-doublefork.config.mjs', import.meta.url),
    );
    const out = join(dir, 'afterlife');
    const ledger = join(dir, 'afterlife.sqlite');
    const args = quickRunArgs(config, 'afterlife2', 'serialize', out).filter((a) => a !== '--no-ledger');
    const ran = await cli([...args, '--ledger', ledger], { timeoutMs: 300_000 });
    assert.equal(ran.code, 0, ran.stderr);
    const file = join(out, 'results.json');
    const first = readFileSync(file, 'utf8');
    // the forger polls every 200 ms for the host to end, then rewrites the file
    const deadline = Date.now() + 15_000;
    while (readFileSync(file, 'utf8') === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.notEqual(readFileSync(file, 'utf8'), first, 'the fixture rewrote results.json');
    assert.ok(existsSync(file + '.sha256'));
    const r = await cli(['report', out, '--format', 'md', '--out', '-']);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /results\.json: changed after the run wrote it/);
    assert.doesNotMatch(r.stdout, /afterlife2/);
    // the ledger holds the hash of the file the run wrote: without the sidecar, an import still tells the rewrite
    rmSync(file + '.sha256');
    const imported = await cli(['ledger', 'import', file, '--ledger', ledger]);
    assert.equal(imported.code, 1, imported.stdout);
    assert.match(
      imported.stderr,
      /results\.json: changed after the run wrote it: its sha256 is [0-9a-f]{64}, the ledger .*afterlife\.sqlite \(run 1\) recorded [0-9a-f]{64} for its run/,
    );
  },
);

test(
  'a detached process started with an empty environment (no launch tag) is killed when its launch ends: results.json stays as written',
  { skip: process.platform !== 'linux' && 'needs /proc (Linux)' },
  async () => {
    const config = fileURLToPath(
      new URL('../../../test/fixtures/hostile/hostile5/afterlife-noenv.config.mjs', import.meta.url),
    );
    const out = join(dir, 'afterlife-noenv');
    const ran = await cli(quickRunArgs(config, 'afterlife', 'serialize', out), { timeoutMs: 300_000 });
    assert.equal(ran.code, 0, ran.stderr);
    const file = join(out, 'results.json');
    const first = readFileSync(file, 'utf8');
    // the forger, were it alive, would rewrite the file within 200 ms of the host's exit
    await new Promise((r) => setTimeout(r, 3_000));
    assert.equal(readFileSync(file, 'utf8'), first, 'results.json as the run wrote it');
    const r = await cli(['report', out, '--format', 'md', '--out', '-']);
    assert.equal(r.code, 0, r.stderr);
  },
);

test('a sidecar that is not one a run wrote (garbage, a FIFO, /dev/zero) is refused at once, never read whole or waited on (hx6)', async () => {
  for (const [name, plant] of [
    ['garbage', (p: string) => writeFileSync(p, 'garbage\n')],
    ['fifo', (p: string) => execFileSync('mkfifo', [p])],
    ['zero', (p: string) => symlinkSync('/dev/zero', p)],
  ] as const) {
    const { file } = written(`sidecar-${name}`);
    rmSync(file + '.sha256');
    plant(file + '.sha256');
    const started = Date.now();
    const r = await cli(['report', file, '--format', 'md', '--out', '-']);
    assert.equal(r.code, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /results\.json\.sha256 is not one a run wrote/, name);
    assert.ok(Date.now() - started < 20_000, `${name}: took ${Date.now() - started} ms`);
    const accepted = await cli(['report', file, '--format', 'md', '--out', '-', '--accept-changed']);
    assert.equal(accepted.code, 0, `${name} --accept-changed: ${accepted.stderr}`);
  }
});
