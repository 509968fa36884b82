import { test } from 'node:test';
import assert from 'node:assert/strict';
import { othersLoad, peerVerdict, precisionTarget } from '../../bench/cv.js';

test('bench:precision judges the 1% target only on a quiet run, the 2% one only on a loaded run, neither between', () => {
  assert.deepEqual(precisionTarget(0.31, 0.92), { limit: 0.01, condition: "quiet (others' load 0.31–0.92 < 1)" });
  assert.deepEqual(precisionTarget(8.4, 19.5), { limit: 0.02, condition: "loaded (others' load 8.40–19.50 ≥ 8)" });
  assert.equal(precisionTarget(1.2, 1.9), null, 'a "quiet" evening here (load 1.2–1.9) shows neither target');
  assert.equal(precisionTarget(0.5, 8.5), null, 'a run that went from quiet to loaded');
});

test('bench:precision judges "lower than every peer" over the pairs that have a peer and names the rest', () => {
  const js = {
    pair: 'users fjs÷json',
    jsonbench: 0.021,
    peers: [
      { tool: 'mitata', cv: 0.05 },
      { tool: 'tinybench', cv: 0.08 },
    ],
  };
  const net = { pair: '.NET users', jsonbench: 0.04, peers: [] };
  assert.equal(peerVerdict([js, net]), "yes on 1 pair with a peer; not judged on .NET users (no peer's CV)");
  const lost = {
    pair: 'weather fjs÷json',
    jsonbench: 0.035,
    peers: [
      { tool: 'mitata', cv: 0.03 },
      { tool: 'tinybench', cv: NaN },
    ],
  };
  assert.equal(peerVerdict([js, lost]), 'no on 2 pairs with a peer (weather fjs÷json: jsonbench 3.50% ≥ mitata 3.00%)');
  assert.equal(peerVerdict([net]), "not judged: no pair has a peer's CV (.NET users)");
  assert.equal(
    peerVerdict([{ ...js, jsonbench: NaN }]),
    "not judged: no pair has a peer's CV (users fjs÷json)",
    'jsonbench without a CV is not judged a win',
  );
});

test('bench:precision judges the load of everything but itself: its own process adds ~1 after the first reading', () => {
  assert.deepEqual(othersLoad([0.4, 1.3, 1.9, 0.7]), [0.4, 0.30000000000000004, 0.8999999999999999, 0]);
  assert.ok(Number.isNaN(othersLoad([NaN, NaN])[1]));
  const o = othersLoad([0.4, 1.3, 1.9]);
  assert.equal(
    precisionTarget(Math.min(...o), Math.max(...o))?.limit,
    0.01,
    'a run that alone brought the load to 1.9 on an otherwise idle machine is a quiet run',
  );
  const l = othersLoad([9.5, 10.2, 9.1]);
  assert.equal(precisionTarget(Math.min(...l), Math.max(...l))?.limit, 0.02);
  const between = othersLoad([1.5, 2.6]);
  assert.equal(precisionTarget(Math.min(...between), Math.max(...between)), null);
});
