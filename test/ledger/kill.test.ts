import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLedger } from '../../src/ledger/schema.js';
import { listRuns, loadRun } from '../../src/ledger/queries.js';
import { LOOP_ROUNDS, LOOP_SAMPLES_PER_ROUND } from './record-loop.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-kill-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const child = fileURLToPath(new URL('./record-loop.js', import.meta.url));

/** Starts the recording loop and SIGKILLs it once it has reported `after` commits (plus a few ms, to land mid-transaction). */
function recordThenKill(
  path: string,
  after: number,
  extraMs: number,
): Promise<{ reported: number; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let reported = 0;
    let stderr = '';
    let killing = false;
    p.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    p.stdout.on('data', (d: Buffer) => {
      for (const m of d.toString().matchAll(/recorded (\d+)/g)) reported = Math.max(reported, Number(m[1]));
      if (reported >= after && !killing) {
        killing = true;
        setTimeout(() => p.kill('SIGKILL'), extraMs);
      }
    });
    p.on('error', reject);
    p.on('close', (code, signal) =>
      signal === 'SIGKILL' ? resolve({ reported, signal }) : reject(new Error(`loop ended with ${code}: ${stderr}`)),
    );
  });
}

for (const extraMs of [0, 3, 11]) {
  test(`a run killed with SIGKILL mid-way (${extraMs} ms after a commit) leaves a consistent ledger with every finished case whole`, async () => {
    const path = join(dir, `killed-${extraMs}.db`);
    const { reported } = await recordThenKill(path, 5, extraMs);
    const db = openLedger(path);
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    const [run] = listRuns(db);
    assert.equal(run.finishedAt, null, 'a killed run has no end time');
    assert.ok(run.cases >= reported, `${run.cases} cases in the ledger, ${reported} reported committed`);
    const back = loadRun(db, run.id);
    for (const c of back.cases) {
      const samples = c.samples.launches.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
      assert.equal(samples.length, LOOP_ROUNDS * LOOP_SAMPLES_PER_ROUND, `${c.id} is whole`);
      assert.equal(c.time?.n, LOOP_ROUNDS * LOOP_SAMPLES_PER_ROUND);
    }
    const estimates = (db.prepare("SELECT COUNT(*) AS n FROM estimates WHERE metric = 'time'").get() as { n: number })
      .n;
    assert.equal(estimates, run.cases);
    db.close();
  });
}

test('ledger list tells a run still being recorded (its process alive) from one that was killed', async () => {
  const { finishedCell } = await import('../../src/cli/ledger.js');
  const path = join(dir, 'running.db');
  const p = spawn(process.execPath, [child, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<string | null>((resolve) => p.on('close', (_code, signal) => resolve(signal)));
  try {
    await new Promise<void>((resolve, reject) => {
      p.stdout.on('data', (d: Buffer) => {
        if (/recorded \d+/.test(d.toString())) resolve();
      });
      p.on('error', reject);
      p.on('close', (code) => reject(new Error(`loop ended early with ${code}`)));
    });
    const db = openLedger(path);
    const [going] = listRuns(db);
    db.close();
    assert.deepEqual([going.finishedAt, going.state, going.recorder?.pid], [null, 'running', p.pid]);
    assert.equal(finishedCell(going), `no: running (pid ${p.pid})`);
  } finally {
    p.kill('SIGKILL');
  }
  assert.equal(await closed, 'SIGKILL');
  const db = openLedger(path);
  const [killed] = listRuns(db);
  db.close();
  assert.deepEqual([killed.finishedAt, killed.state], [null, 'killed']);
  assert.equal(finishedCell(killed), `no: killed (pid ${p.pid} is gone)`);
});
