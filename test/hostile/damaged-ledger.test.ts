import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cli, results } from './support.js';

/**
 * One damaged row in the ledger (issue 25, hostile tester hx1, "crash"): a case whose result_json
 * is not JSON made `history`, `site` and `compare 1 2` die with "malformed JSON … please report
 * it" (exit 1), so one bad row blocked the whole site. Each now skips that row with a warning
 * naming the run and the case, and renders the rest.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ledger = join(dir, 'ledger.db');
/** The case whose row is damaged: run 1's json serialize case. */
const damaged = 'weather-station/1/single/serialize/json';

before(async () => {
  // two runs of the report fixture (16 cases each), then run 1's json serialize row made not JSON
  for (const [i, startedAt] of ['2026-12-01T10:00:00.000Z', '2026-12-02T10:00:00.000Z'].entries()) {
    const file = join(dir, `run${i + 1}.json`);
    const r = { ...results(), startedAt, finishedAt: startedAt.replace('T10:', 'T11:') };
    // run 2 is another measurement, not a re-dated copy of run 1 (ledger import refuses those): its samples differ
    for (const c of i ? r.cases : [])
      for (const l of c.samples?.launches ?? [])
        for (const round of l.rounds) round.serializerNs = round.serializerNs.map((x) => x * 1.001);
    writeFileSync(file, JSON.stringify(r));
    const ran = await cli(['ledger', 'import', file, '--ledger', ledger]);
    assert.equal(ran.code, 0, ran.stderr);
  }
  const db = new Database(ledger);
  const changed = db
    .prepare("UPDATE cases SET result_json = '{not json' WHERE run_id = 1 AND case_id = ?")
    .run(damaged).changes;
  db.close();
  assert.equal(changed, 1);
});

const warning = new RegExp(
  `warning: ledger run 1, case ${damaged.replace(/[/.]/g, '\\$&')}: its result_json is not JSON; skipped \\(the rest of the ledger is read\\)`,
);

test('history skips the damaged row with a warning naming the run and the case, and shows the rest', async () => {
  const ran = await cli(['history', '--ledger', ledger, '--workload', 'weather-station', '--direction', 'serialize']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stderr, warning);
  assert.doesNotMatch(ran.stderr, /internal error|malformed JSON/);
  assert.match(ran.stdout, /json/);
});

test('site skips the damaged row with the same warning and writes every page', async () => {
  const out = join(dir, 'site');
  const ran = await cli(['site', '--ledger', ledger, '--out', out]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stderr, warning);
  assert.ok(existsSync(join(out, 'index.html')));
  assert.ok(existsSync(join(out, 'latest', 'report.html')));
});

test('compare 1 2 skips the damaged case of run 1 with the warning and compares the rest', async () => {
  const ran = await cli(['compare', '1', '2', '--ledger', ledger, '--format', 'md']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stderr,
    /warning: ledger run 1, case weather-station\/1\/single\/serialize\/json: its result_json is not JSON; skipped/,
  );
  assert.match(ran.stdout, /fast-json-stringify/);
});
