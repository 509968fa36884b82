/**
 * Child process of kill.test.ts (not a test): records cases into the ledger at argv[2] in a loop,
 * each in its own transaction, printing `recorded N` after each commit, until it is killed.
 * Without arguments (e.g. when a test runner picks this file up) it does nothing.
 */
import { writeSync } from 'node:fs';
import { openLedger } from '../../src/ledger/schema.js';
import { beginRun, recordCase } from '../../src/ledger/record.js';
import { thisRecorder } from '../../src/ledger/recorder.js';
import { makeCase, makeResults, prng, roundsOf } from './fixture.js';

/** Rounds × samples of every case the loop records: big enough that a kill often lands inside a transaction. */
export const LOOP_ROUNDS = 120;
export const LOOP_SAMPLES_PER_ROUND = 40;

const [path, limit] = process.argv.slice(2);
if (path) {
  const db = openLedger(path);
  const { cases: _none, ...header } = makeResults([]);
  const runId = beginRun(db, { ...header, finishedAt: undefined }, { source: 'run', recorder: thisRecorder() });
  const rand = prng(1);
  for (let i = 0; i < Number(limit ?? 1e6); i++) {
    recordCase(
      db,
      runId,
      header,
      makeCase({ serializer: `s${i}`, rounds: roundsOf(rand, LOOP_ROUNDS, LOOP_SAMPLES_PER_ROUND, 1000, 30) }),
    );
    writeSync(1, `recorded ${i + 1}\n`);
  }
}
