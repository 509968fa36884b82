import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeResults } from '../../src/results/io.js';
import type { ResultsFile } from '../../src/results/types.js';
import { cli, results } from '../hostile/support.js';

/**
 * A results file with no integrity record (hx7 F4: a real results.json with a serializer renamed,
 * its `results.json.sha256` left out, was read silently by report, compare, merge and ledger
 * import, and rendered "fast-json-stringify … 3.75× faster"). Each command says on stderr that it
 * reads the file unchecked, the reports say it in their header, and a ledger that holds the run's
 * hash (a run recorded it) is checked even without the sidecar.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-unchecked-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `r` written by jsonbench's writer into `<dir>/<name>/results.json`, then its sidecar removed unless `keepSidecar`. */
function written(name: string, r: ResultsFile = results(), keepSidecar = false): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'results.json');
  writeResults(file, r);
  if (!keepSidecar) rmSync(`${file}.sha256`);
  return file;
}

const UNCHECKED = (command: string, file: string) =>
  `jsonbench ${command}: ${file} has no integrity record (results.json.sha256): it is read as it is, unchecked`;

test('report says on stderr and in the header of report.md and report.html that a file with no sidecar is unchecked', async () => {
  const file = written('report');
  const md = await cli(['report', file, '--format', 'md', '--out', '-']);
  assert.equal(md.code, 0, md.stderr);
  assert.ok(md.stderr.includes(UNCHECKED('report', file)), md.stderr);
  // the provenance line under the title
  assert.match(md.stdout, /^# jsonbench results\n\n.* · profile \w+ · integrity: unchecked \(no sidecar\)\n/);
  const html = join(dir, 'report', 'report.html');
  const h = await cli(['report', file, '--format', 'html', '--out', html]);
  assert.equal(h.code, 0, h.stderr);
  assert.match(
    readFileSync(html, 'utf8'),
    /<span class="k">Integrity<\/span><span class="v"><b class="warn">unchecked \(no sidecar\)<\/b>/,
  );
  // with its sidecar: not a word
  const checked = written('checked', results(), true);
  const ok = await cli(['report', checked, '--format', 'md', '--out', '-']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.doesNotMatch(ok.stderr + ok.stdout, /integrity|unchecked/);
});

test('compare, merge and ledger import say which file they read unchecked', async () => {
  const base = written('base');
  const other = results();
  other.startedAt = '2026-12-06T10:00:00.000Z';
  other.finishedAt = '2026-12-06T10:05:00.000Z';
  const head = written('head', other, true);
  const c = await cli(['compare', base, head, '--format', 'md']);
  assert.equal(c.code, 0, c.stderr);
  assert.ok(c.stderr.includes(UNCHECKED('compare', base)), c.stderr);
  assert.ok(!c.stderr.includes(head), c.stderr);
  const ledger = join(dir, 'import.sqlite');
  const i = await cli(['ledger', 'import', base, '--ledger', ledger]);
  assert.equal(i.code, 0, i.stderr);
  assert.ok(i.stderr.includes(UNCHECKED('ledger import', base)), i.stderr);
  // an import of an unchecked file records its own hash, which vouches for nothing: still unchecked
  const again = await cli(['report', base, '--format', 'md', '--out', '-'], { env: { JSONBENCH_LEDGER: ledger } });
  assert.equal(again.code, 0, again.stderr);
  assert.ok(again.stderr.includes(UNCHECKED('report', base)), again.stderr);
  // shards: each one read unchecked is named, and the merged file (with a sidecar of its own) keeps saying so
  const plan = results().cases.map((x) => x.id);
  const shard = (index: number) => {
    const r = results();
    r.cases = r.cases.filter((_, k) => k % 2 === index - 1);
    r.shard = { index, count: 2, plan };
    return r;
  };
  const s1 = written('s1', shard(1));
  const s2 = written('s2', shard(2), true);
  const out = join(dir, 'merged');
  const m = await cli(['merge', s1, s2, '--out', out]);
  assert.equal(m.code, 0, m.stderr);
  assert.ok(m.stderr.includes(UNCHECKED('merge', s1)), m.stderr);
  assert.ok(!m.stderr.includes(UNCHECKED('merge', s2)), m.stderr);
  const merged = join(out, 'results.json');
  assert.equal(JSON.parse(readFileSync(merged, 'utf8')).unchecked, `${s1}: no sidecar`);
  assert.match(
    readFileSync(join(out, 'report.md'), 'utf8'),
    /integrity: unchecked \(.*s1.*results\.json: no sidecar\)/,
  );
  const r = await cli(['report', merged, '--format', 'md', '--out', '-']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stderr.includes(`jsonbench report: ${merged}: its integrity is unchecked (${s1}: no sidecar)`), r.stderr);
});

test("without a sidecar, a file is checked against the ledger's record of its run: refused when changed, read quietly when not", async () => {
  const file = written('ledgered', results(), true);
  const ledger = join(dir, 'vouched.sqlite');
  // an import of a checked file vouches for its hash, as a run's own record does
  const i = await cli(['ledger', 'import', file, '--ledger', ledger]);
  assert.equal(i.code, 0, i.stderr);
  rmSync(`${file}.sha256`);
  const env = { JSONBENCH_LEDGER: ledger };
  const same = await cli(['report', file, '--format', 'md', '--out', '-'], { env });
  assert.equal(same.code, 0, same.stderr);
  assert.doesNotMatch(same.stderr + same.stdout, /unchecked|integrity/);
  // the forged file, self-consistent (hx7 F4 renamed a serializer): a version changed, no sidecar
  const r = JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
  const c = r.cases.find((x) => x.serializer === 'fast-json-stringify')!;
  c.serializerVersion = '9.9.9';
  writeFileSync(file, JSON.stringify(r, null, 2));
  for (const args of [
    ['report', file, '--format', 'md', '--out', '-'],
    [
      'compare',
      file,
      written('other', { ...results(), startedAt: '2026-12-06T11:00:00.000Z', finishedAt: '2026-12-06T11:05:00.000Z' }),
      '--ledger',
      ledger,
    ],
  ]) {
    const refused = await cli(args, { env });
    assert.equal(refused.code, 2, `${args[0]}: ${refused.stderr}`);
    assert.match(
      refused.stderr,
      /results\.json: changed after the run wrote it: its sha256 is [0-9a-f]{64}, the ledger .*vouched\.sqlite \(run 1\) recorded [0-9a-f]{64} for its run \(the file has no results\.json\.sha256\)/,
    );
    assert.match(refused.stderr, /--accept-changed/);
  }
  const accepted = await cli(['report', file, '--format', 'md', '--out', '-', '--accept-changed'], { env });
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.match(accepted.stderr, /read as it is now \(--accept-changed\): its numbers are not the run's/);
});
