import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, hx8Scratch } from '../hostile/support.js';
import { openLedger } from '../../src/ledger/schema.js';
import { beginRun } from '../../src/ledger/record.js';
import { listRuns } from '../../src/ledger/queries.js';
import { finishedCell } from '../../src/cli/ledger.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx8 section 10, the ledger ("unclear"): `ledger import` of a killed run's folder said "is a
 * folder, not a results file: give the results.json a run wrote (or its folder)" of that very
 * folder; runs whose ledger writes hit a full disk were listed as Finished "killed".
 */

const { dir, bounded } = hx8Scratch('hostile-ledger');

test('ledger import of a killed run folder says the run did not finish and that report rebuilds it; a finished run folder is imported (hx8 TT8-killedimport)', async () => {
  const killed = join(dir, 'killed-run');
  mkdirSync(killed);
  writeFileSync(join(killed, 'run.partial.json'), '{}');
  writeFileSync(join(killed, 'results.partial.jsonl'), '');
  const ledger = join(dir, 'import.db');
  let ran = await cli(['ledger', 'import', killed, '--ledger', ledger], bounded);
  assert.equal(ran.code, 1, ran.stderr);
  assert.doesNotMatch(ran.stderr, /is a folder, not a results file/);
  assert.match(
    ran.stderr,
    /killed-run: is the folder of a run that did not finish \(killed, or cut short by a full disk\): it holds run\.partial\.json and no results\.json, and the ledger records only what a run wrote when it finished\. What it measured can still be read: `jsonbench report \S*killed-run` rebuilds its report from its partial files/,
  );
  const finished = join(dir, 'finished-run');
  mkdirSync(finished);
  copyFileSync(
    fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url)),
    join(finished, 'results.json'),
  );
  ran = await cli(['ledger', 'import', finished, '--ledger', ledger], bounded);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, /finished-run\/results\.json: recorded as run 1 \(16 cases/);
});

test('ledger list calls a run whose recorder is gone "cut short" when it wrote its results.json, "killed" when not (hx8 FDL8-list)', () => {
  const path = join(dir, 'cut.db');
  const db = openLedger(path);
  const fixture = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url)), 'utf8'),
  ) as ResultsFile;
  // a pid that is gone: a child that has exited
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const pid = Number(gone.stdout.toString());
  const recorder = { pid, host: hostname(), startTicks: null };
  const outDirs = ['cut-out', 'killed-out'].map((d) => join(dir, d));
  outDirs.forEach((d) => mkdirSync(d));
  // run 1 finished and wrote its results.json, but its ledger writes failed (a full disk); run 2 was killed
  // a run's row as `jsonbench run` begins it: no end time yet
  const { cases: _cases, finishedAt: _finished, ...header } = fixture;
  void [_cases, _finished];
  beginRun(db, header, { source: 'run', sourcePath: outDirs[0], recorder });
  writeFileSync(join(outDirs[0], 'results.json'), JSON.stringify(fixture, null, 1));
  beginRun(
    db,
    { ...header, startedAt: '2026-12-06T12:00:00.000Z' },
    { source: 'run', sourcePath: outDirs[1], recorder },
  );
  writeFileSync(join(outDirs[1], 'run.partial.json'), '{}');
  const [cut, killed] = listRuns(db).sort((x, y) => x.id - y.id);
  db.close();
  assert.equal(cut.state, 'cut-short');
  assert.equal(
    finishedCell(cut),
    `no: cut short (a ledger write failed, such as on a full disk; the run itself finished: ${outDirs[0]}/results.json)`,
  );
  assert.equal(killed.state, 'killed');
  assert.equal(finishedCell(killed), `no: killed (pid ${pid} is gone)`);
});
