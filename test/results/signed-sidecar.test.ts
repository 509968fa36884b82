import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResults, writeResults } from '../../src/results/io.js';
import { ChangedResultsError, NOT_SIGNED, integrityKeyPath } from '../../src/results/integrity.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { makeResults, prng, roundsOf } from '../ledger/fixture.js';

/**
 * hx8 (issue 25, false success): a forged results file with a sidecar made by hand
 * (`sha256sum results.json > results.json.sha256`) was read as checked, and `ledger import` recorded it
 * as a normal run. The sidecar is now signed with this user's key (results/integrity.ts): one jsonbench
 * did not sign reads "integrity: unchecked (the sidecar was not written by jsonbench for this user)".
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-signed-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const keyA = join(dir, 'state-a', 'jsonbench', 'key');
const keyB = join(dir, 'state-b', 'jsonbench', 'key');
const mainUrl = new URL('../../src/cli/main.js', import.meta.url).href;

const rand = prng(25);
const results = () =>
  makeResults(
    [
      { serializer: 'json', rounds: roundsOf(rand, 6, 5, 1500, 20) },
      { serializer: 'fast-json-stringify', version: '6.0.1', rounds: roundsOf(rand, 6, 5, 480, 8) },
    ],
    '2025-06-06T06:06:06.006Z',
  );

/** Writes a results file with `key` as this user's key; returns its path. */
function writeWith(key: string, folder: string): string {
  const saved = process.env.JSONBENCH_KEY_FILE;
  process.env.JSONBENCH_KEY_FILE = key;
  try {
    mkdirSync(join(dir, folder), { recursive: true });
    const path = join(dir, folder, 'results.json');
    writeResults(path, results());
    return path;
  } finally {
    if (saved === undefined) delete process.env.JSONBENCH_KEY_FILE;
    else process.env.JSONBENCH_KEY_FILE = saved;
  }
}

/** Reads `path` as a command does (no ledger record) with `key` as this user's key. */
function readWith(key: string, path: string) {
  const saved = process.env.JSONBENCH_KEY_FILE;
  process.env.JSONBENCH_KEY_FILE = key;
  try {
    return readResults(path, { recordOf: () => undefined });
  } finally {
    if (saved === undefined) delete process.env.JSONBENCH_KEY_FILE;
    else process.env.JSONBENCH_KEY_FILE = saved;
  }
}

/** Runs `jsonbench <args>` with `key` as this user's key. */
function jsonbench(args: string[], key: string) {
  const script = `import(${JSON.stringify(mainUrl)}).then((m) => m.main(${JSON.stringify(args)})).then((c) => { process.exitCode = c; });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', JSONBENCH_LEDGER: '', COLUMNS: '1000', JSONBENCH_KEY_FILE: key },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const signed = writeWith(keyA, 'signed');
// hx8's forged8/sc: the file's own text, with a sidecar `sha256sum results.json > results.json.sha256` made
const forged = join(dir, 'forged', 'results.json');
mkdirSync(join(dir, 'forged'));
writeFileSync(forged, readFileSync(signed));
writeFileSync(forged + '.sha256', `${createHash('sha256').update(readFileSync(forged)).digest('hex')}  results.json\n`);

test('the key is made on first use at $JSONBENCH_KEY_FILE, mode 0600, and the sidecar carries an HMAC line', () => {
  assert.equal(integrityKeyPath({ JSONBENCH_KEY_FILE: keyA }), keyA);
  assert.equal(integrityKeyPath({ XDG_STATE_HOME: '/s', HOME: '/h' }), '/s/jsonbench/key');
  assert.equal(statSync(keyA).mode & 0o777, 0o600);
  assert.match(readFileSync(keyA, 'utf8'), /^[0-9a-f]{64}\n$/);
  const lines = readFileSync(signed + '.sha256', 'utf8').split('\n');
  assert.match(lines[0], /^[0-9a-f]{64} {2}results\.json$/);
  assert.match(lines[1], /^# jsonbench hmac-sha256 [0-9a-f]{64}$/);
  assert.equal(readWith(keyA, signed).unchecked, undefined);
});

test('a hand-made sha256sum sidecar, or one signed with another key, is read unchecked (hx8 F8-sidecar)', () => {
  assert.equal(readWith(keyA, forged).unchecked, NOT_SIGNED);
  // the same signed file read by another user (another key): not this user's jsonbench's
  assert.equal(readWith(keyB, signed).unchecked, NOT_SIGNED);
  // with no key at all (nothing was ever signed here)
  assert.equal(readWith(join(dir, 'none', 'key'), signed).unchecked, NOT_SIGNED);
});

test('a key others can read is not trusted', () => {
  const loose = join(dir, 'loose', 'key');
  mkdirSync(join(dir, 'loose'));
  writeFileSync(loose, readFileSync(keyA));
  chmodSync(loose, 0o644);
  assert.equal(readWith(loose, signed).unchecked, NOT_SIGNED);
});

test('a signed file changed after the run is still refused, signed or not', () => {
  const changed = writeWith(keyA, 'changed');
  writeFileSync(changed, readFileSync(changed, 'utf8').replace('fast-json-stringify', 'fast-json-stringifx'));
  assert.throws(() => readWith(keyA, changed), ChangedResultsError);
});

test('GNU sha256sum -c still checks a signed sidecar (it skips the # line)', (t) => {
  const r = spawnSync('sha256sum', ['-c', '--strict', 'results.json.sha256'], {
    cwd: join(dir, 'signed'),
    encoding: 'utf8',
  });
  if (r.error) return t.skip('no sha256sum on this machine');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'results.json: OK\n');
});

test('report and ledger import say a forged sidecar is unchecked; ledger list and history mark the run', () => {
  const line = 'integrity: unchecked (the sidecar was not written by jsonbench for this user)';
  const md = jsonbench(['report', forged, '--format', 'md'], keyA);
  assert.equal(md.code, 0, md.stderr);
  assert.ok(md.stderr.includes(line), md.stderr);
  assert.ok(md.stdout.includes(line), md.stdout.slice(0, 600));
  const html = jsonbench(['report', forged, '--format', 'html', '--out', join(dir, 'forged.html')], keyA);
  assert.equal(html.code, 0, html.stderr);
  assert.match(
    readFileSync(join(dir, 'forged.html'), 'utf8'),
    /Integrity.*unchecked \(the sidecar was not written by jsonbench for this user\)/s,
  );
  // the run's own file, checked: no mark
  const own = jsonbench(['report', signed, '--format', 'md'], keyA);
  assert.equal(own.code, 0, own.stderr);
  assert.ok(!own.stdout.includes('unchecked') && !own.stderr.includes('unchecked'), own.stderr);
  const ledger = join(dir, 'l.db');
  const imported = jsonbench(['ledger', 'import', forged, '--ledger', ledger], keyA);
  assert.equal(imported.code, 0, imported.stderr);
  assert.ok(imported.stderr.includes(line), imported.stderr);
  assert.match(
    imported.stdout,
    /recorded as run 1 .*integrity unchecked \(the sidecar was not written by jsonbench for this user\)/,
  );
  const list = jsonbench(['ledger', 'list', '--ledger', ledger], keyA);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /│ import \(unchecked\) /);
  assert.match(list.stdout, /⚠ unchecked: run 1 imported from a results file whose integrity could not be checked/);
  const history = jsonbench(['history', '--serializer', 'fast-json-stringify', '--ledger', ledger], keyA);
  assert.equal(history.code, 0, history.stderr);
  assert.match(history.stdout, /\b1 unchecked\b/);
});

test('the terminal report says a file read unchecked before its tables', () => {
  const r = readWith(keyA, forged);
  const text = renderTerminal(r, false, { width: 200 });
  assert.ok(
    text.includes('⚠ integrity: unchecked (the sidecar was not written by jsonbench for this user)'),
    text.slice(0, 400),
  );
});
