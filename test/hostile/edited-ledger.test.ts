import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { cli } from './support.js';
import { untrustedPoint } from '../../src/cli/history.js';
import type { HistoryPoint } from '../../src/results/history.js';

/**
 * hx5 F3 (false success): a ledger edited with sqlite3 (estimates.ratio 0.01 beside the case's own
 * interval 1.98–2.13) was believed by `history` and `site`, while `ledger export` of the same run,
 * which reads the case record, said 2.05. Both now leave such a point out and say why.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-edited-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fixture = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));

test('history and site leave out a point whose estimates row was edited after the run, saying so', async () => {
  const ledger = join(dir, 'ledger.db');
  const imported = await cli(['ledger', 'import', fixture, '--ledger', ledger]);
  assert.equal(imported.code, 0, imported.stderr);
  const db = new Database(ledger);
  const row = db
    .prepare(
      "SELECT c.id AS pk, c.case_id AS id, t.ratio AS ratio FROM cases c JOIN estimates t ON t.case_pk = c.id AND t.metric = 'time' WHERE t.ratio > 1.2 LIMIT 1",
    )
    .get() as { pk: number; id: string; ratio: number };
  assert.ok(row, 'the fixture has a case slower than its baseline');
  db.prepare("UPDATE estimates SET ratio = 0.01 WHERE case_pk = ? AND metric = 'time'").run(row.pk);
  db.close();

  const history = await cli(['history', '--ledger', ledger, '--format', 'json']);
  assert.equal(history.code, 0, history.stderr);
  const points = JSON.parse(history.stdout) as HistoryPoint[];
  assert.ok(points.length > 0);
  assert.equal(
    points.find((p) => p.caseId === row.id),
    undefined,
    'the edited point is left out',
  );
  assert.ok(points.every((p) => p.ratio !== 0.01));
  assert.match(
    history.stderr,
    new RegExp(
      `case ${row.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its estimates rows say ratio 0\\.01.*edited after the run\\?`,
    ),
  );

  const out = join(dir, 'site');
  const site = await cli(['site', '--ledger', ledger, '--out', out]);
  assert.equal(site.code, 0, site.stderr);
  assert.match(site.stderr, /its estimates rows say ratio 0\.01.*edited after the run\?/);
  for (const f of readdirSync(out, { recursive: true }) as string[])
    if (f.endsWith('.html') && !f.startsWith('latest'))
      assert.doesNotMatch(readFileSync(join(out, f), 'utf8'), />0\.01[×x ]/, f);
});

test('a point is refused when its ratio is not positive and finite, or far outside its own interval', () => {
  const p = { ratio: 2.05, ratioInterval: [1.98, 2.13] } as HistoryPoint;
  assert.equal(untrustedPoint(p), null);
  assert.equal(untrustedPoint({ ...p, ratio: 2.2 }), null, 'just outside (within its width) is believed');
  assert.match(untrustedPoint({ ...p, ratio: 0.01 }) ?? '', /lies outside its own interval 1\.98–2\.13/);
  assert.match(untrustedPoint({ ...p, ratio: -1 }) ?? '', /not a positive number/);
  assert.match(untrustedPoint({ ...p, ratio: Infinity }) ?? '', /not a positive number/);
  assert.equal(untrustedPoint({ ...p, ratio: null }), null, 'no ratio (a failed case) is nothing to check');
});

test('an estimates row edited to Infinity, or an edited allocation, is left out too (hx21 L01, L02)', async () => {
  const ledger = join(dir, 'ledger-hx21.db');
  const imported = await cli(['ledger', 'import', fixture, '--ledger', ledger]);
  assert.equal(imported.code, 0, imported.stderr);
  const db = new Database(ledger);
  const rows = db
    .prepare(
      "SELECT c.id AS pk, c.case_id AS id FROM cases c JOIN estimates a ON a.case_pk = c.id AND a.metric = 'alloc' WHERE a.mean > 100 ORDER BY c.id LIMIT 2",
    )
    .all() as { pk: number; id: string }[];
  assert.equal(rows.length, 2, 'the fixture has two cases with an allocation');
  // Infinity > 1e-9 · Infinity is false: the infinite mean read as equal to its finite case record
  db.prepare("UPDATE estimates SET mean = 1e308 * 10 WHERE case_pk = ? AND metric = 'time'").run(rows[0].pk);
  // the edit check compared the ratio and the time mean only
  db.prepare("UPDATE estimates SET mean = 1 WHERE case_pk = ? AND metric = 'alloc'").run(rows[1].pk);
  db.close();
  const history = await cli(['history', '--ledger', ledger, '--format', 'json']);
  assert.equal(history.code, 0, history.stderr);
  const points = JSON.parse(history.stdout) as HistoryPoint[];
  assert.ok(points.length > 0);
  for (const r of rows)
    assert.equal(
      points.find((p) => p.caseId === r.id),
      undefined,
      `${r.id} is left out`,
    );
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(history.stderr, new RegExp(`case ${esc(rows[0].id)}: its estimates rows say [^\\n]*mean Infinity ns`));
  assert.match(history.stderr, new RegExp(`case ${esc(rows[1].id)}: its estimates rows say [^\\n]*allocated 1 B/op`));
  const out = join(dir, 'site-hx21');
  const site = await cli(['site', '--ledger', ledger, '--out', out]);
  assert.equal(site.code, 0, site.stderr);
  for (const f of readdirSync(out, { recursive: true }) as string[])
    // latest/ is the last run's own report (its case records, which were not edited)
    if (f.endsWith('.html') && !f.startsWith('latest'))
      assert.doesNotMatch(readFileSync(join(out, f), 'utf8'), /Infinity/, f);
});

test('a point whose mean, allocation or instructions are not finite numbers ≥ 0 is refused', () => {
  const p = {
    ratio: 2.05,
    ratioInterval: [1.98, 2.13],
    meanNs: 500,
    bytesPerOp: 100,
    instructionsPerOp: null,
  } as HistoryPoint;
  assert.equal(untrustedPoint(p), null);
  assert.match(untrustedPoint({ ...p, meanNs: Infinity }) ?? '', /its mean Infinity ns is not a positive number/);
  assert.match(untrustedPoint({ ...p, meanNs: 0 }) ?? '', /not a positive number/);
  assert.match(untrustedPoint({ ...p, bytesPerOp: -5 }) ?? '', /allocated bytes\/op -5 is not a number ≥ 0/);
  assert.match(untrustedPoint({ ...p, instructionsPerOp: Infinity }) ?? '', /instructions\/op Infinity/);
  assert.equal(untrustedPoint({ ...p, bytesPerOp: 0 }), null, 'no allocation is a real reading');
});
