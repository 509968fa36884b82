import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * hx18 A41–A43: the commands that write a file replaced what was there with exit 0 — `ledger export --out` the
 * ledger it read (every run gone) and another run's results.json, `history --out notes.txt` a user's text, `site
 * --out` a user's own index.html. Each now replaces only a file of its kind jsonbench wrote
 * (src/files/replace-guard.ts), and writes again over its own.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const fixture = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-replace-guard-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: dir, env: { ...process.env, NO_COLOR: '1', COLUMNS: '1000' } },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
    ),
  );
}

const ledger = join(dir, 'l.db');
const imported = await cli(['ledger', 'import', fixture, '--ledger', ledger]);
assert.equal(imported.code, 0, imported.stderr);

test("ledger export --out never replaces the ledger it reads nor a run's results.json; its own export is written again", async () => {
  const before = readFileSync(ledger);
  const onLedger = await cli(['ledger', 'export', '1', '--ledger', ledger, '--out', ledger]);
  assert.equal(onLedger.code, 2, onLedger.stderr);
  assert.match(onLedger.stderr, /--out: \S+l\.db is an SQLite database \(a ledger\?\): choose another file/);
  assert.ok(readFileSync(ledger).equals(before), 'the ledger is unchanged');
  mkdirSync(join(dir, 'other-run'));
  const results = join(dir, 'other-run', 'results.json');
  writeFileSync(results, '{"schemaVersion": 2, "tool": "jsonbench"}');
  const onResults = await cli(['ledger', 'export', '1', '--ledger', ledger, '--out', results]);
  assert.equal(onResults.code, 2, onResults.stderr);
  assert.match(onResults.stderr, /is a run's results file or its integrity record/);
  assert.equal(readFileSync(results, 'utf8'), '{"schemaVersion": 2, "tool": "jsonbench"}');
  const notes = join(dir, 'notes.json');
  writeFileSync(notes, '{"mine": true}');
  const onNotes = await cli(['ledger', 'export', '1', '--ledger', ledger, '--out', notes]);
  assert.equal(onNotes.code, 2, onNotes.stderr);
  assert.match(
    onNotes.stderr,
    /notes\.json exists and is not a results file jsonbench wrote \(it begins "\{\\"mine\\": true\}"\)/,
  );
  for (const time of [1, 2]) {
    const own = await cli(['ledger', 'export', '1', '--ledger', ledger, '--out', join(dir, 'run1.json')]);
    assert.equal(own.code, 0, `time ${time}: ${own.stderr}`);
  }
  // hx19 G02: another run's results under another name (no sidecar) is not replaced by this run's export
  const copy = join(dir, 'mine.json');
  const other = JSON.parse(readFileSync(join(dir, 'run1.json'), 'utf8')) as { startedAt: string };
  other.startedAt = '2026-01-01T00:00:00.000Z';
  writeFileSync(copy, JSON.stringify(other, null, 2));
  const onOther = await cli(['ledger', 'export', '1', '--ledger', ledger, '--out', copy]);
  assert.equal(onOther.code, 2, onOther.stderr);
  assert.match(
    onOther.stderr,
    /mine\.json holds another run's results \(started 2026-01-01T00:00:00\.000Z\), not this run's/,
  );
  assert.equal((JSON.parse(readFileSync(copy, 'utf8')) as { startedAt: string }).startedAt, '2026-01-01T00:00:00.000Z');
});

test('history --out replaces only a history page; site --out only its own pages', async () => {
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'keep me');
  const onText = await cli(['history', '--ledger', ledger, '--format', 'html', '--out', text]);
  assert.equal(onText.code, 2, onText.stderr);
  assert.match(onText.stderr, /notes\.txt exists and is not an HTML page jsonbench wrote \(it begins "keep me"\)/);
  assert.equal(readFileSync(text, 'utf8'), 'keep me');
  // hx20 a38b: --out beside another format wrote nothing, exit 0
  const md = await cli(['history', '--ledger', ledger, '--format', 'md', '--out', join(dir, 'h.md')]);
  assert.equal(md.code, 2, md.stderr);
  assert.match(md.stderr, /--out: writes the html page \(--format html\); --format md prints to stdout: redirect it/);
  for (const time of [1, 2]) {
    const page = await cli(['history', '--ledger', ledger, '--format', 'html', '--out', join(dir, 'h.html')]);
    assert.equal(page.code, 0, `time ${time}: ${page.stderr}`);
  }
  const home = join(dir, 'home');
  mkdirSync(home);
  writeFileSync(join(home, 'index.html'), '<h1>my homepage</h1>');
  const onHome = await cli(['site', '--ledger', ledger, '--out', home]);
  assert.equal(onHome.code, 2, onHome.stderr);
  assert.match(onHome.stderr, /index\.html exists and is not an HTML page jsonbench wrote/);
  assert.equal(readFileSync(join(home, 'index.html'), 'utf8'), '<h1>my homepage</h1>');
  for (const time of [1, 2]) {
    const site = await cli(['site', '--ledger', ledger, '--out', join(dir, 'site')]);
    assert.equal(site.code, 0, `time ${time}: ${site.stderr}`);
  }
});

test('--out onto a device or a folder is refused without advice to delete it (hx22 F2b)', async () => {
  const onDevice = await cli(['report', fixture, '--format', 'md', '--out', '/dev/null']);
  assert.equal(onDevice.code, 2, onDevice.stderr);
  assert.match(onDevice.stderr, /\/dev\/null is not a regular file: choose another file\n/);
  assert.doesNotMatch(onDevice.stderr, /delete/);
  const folder = join(dir, 'a-folder');
  mkdirSync(folder, { recursive: true });
  const onFolder = await cli(['history', '--ledger', ledger, '--format', 'html', '--out', folder]);
  assert.equal(onFolder.code, 2, onFolder.stderr);
  assert.match(onFolder.stderr, /is a folder: choose another file\n/);
  assert.doesNotMatch(onFolder.stderr, /delete/);
  // a user's own file: deleting it first is the way to let it be replaced
  const notes = join(dir, 'notes.md');
  writeFileSync(notes, 'my notes\n');
  const onNotes = await cli(['report', fixture, '--format', 'md', '--out', notes]);
  assert.equal(onNotes.code, 2, onNotes.stderr);
  assert.match(onNotes.stderr, /choose another file \(to replace it, delete it first\)/);
});

test('site --out onto an existing file is refused as not a folder (hx23 O07)', async () => {
  const file = join(dir, 'home.html');
  writeFileSync(file, '<p>mine</p>\n');
  const r = await cli(['site', '--ledger', ledger, '--out', file]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /home\.html exists and is not a folder: the site is a folder of pages; choose a folder/);
  assert.doesNotMatch(r.stderr, /ENOTDIR/);
  assert.equal(readFileSync(file, 'utf8'), '<p>mine</p>\n');
});

test('site and history never write through a symbolic link, nor put pages in a linked folder (hx25)', async () => {
  // another run's finished report, which a link in the site's folder points to
  const keep = join(dir, 'keep');
  mkdirSync(keep, { recursive: true });
  const report = join(keep, 'report.html');
  writeFileSync(report, '<!doctype html><meta name="generator" content="jsonbench"><title>jsonbench results</title>\n');
  const before = readFileSync(report, 'utf8');
  const site = join(dir, 'site-linked');
  mkdirSync(site, { recursive: true });
  symlinkSync(report, join(site, 'index.html'));
  const s = await cli(['site', '--ledger', ledger, '--out', site]);
  assert.equal(s.code, 2, s.stderr);
  assert.match(s.stderr, /index\.html is a symbolic link: jsonbench does not write through a link/);
  assert.equal(readFileSync(report, 'utf8'), before, 'the linked report is unchanged');
  const h = await cli(['history', '--ledger', ledger, '--format', 'html', '--out', join(site, 'index.html')]);
  assert.equal(h.code, 2, h.stderr);
  assert.match(h.stderr, /is a symbolic link: jsonbench does not write through a link/);
  assert.equal(readFileSync(report, 'utf8'), before, 'the linked report is unchanged');
  // a linked pages folder
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere, { recursive: true });
  const site2 = join(dir, 'site-linked-pages');
  mkdirSync(site2, { recursive: true });
  symlinkSync(elsewhere, join(site2, 'pages'));
  const p = await cli(['site', '--ledger', ledger, '--out', site2]);
  assert.equal(p.code, 2, p.stderr);
  assert.match(p.stderr, /pages is a symbolic link: jsonbench does not write the site's pages through a link/);
  assert.deepEqual(readdirSync(elsewhere), []);
});
