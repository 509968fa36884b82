import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peerVerdict, precisionTarget } from '../../bench/cv.js';

test('bench:precision judges the 1% target only on a quiet run, the 2% one only on a loaded run, neither between', () => {
  assert.deepEqual(precisionTarget(0.31, 0.92), { limit: 0.01, condition: 'quiet (load 0.31–0.92 < 1)' });
  assert.deepEqual(precisionTarget(8.4, 19.5), { limit: 0.02, condition: 'loaded (load 8.40–19.50 ≥ 8)' });
  assert.equal(precisionTarget(1.2, 1.9), null, 'a "quiet" evening here (load 1.2–1.9) shows neither target');
  assert.equal(precisionTarget(0.5, 8.5), null, 'a run that went from quiet to loaded');
});

test('bench:precision judges "lower than every peer" over the pairs that have a peer and names the rest', () => {
  const js = { pair: 'users fjs÷json', jsonbench: 0.021, peers: [{ tool: 'mitata', cv: 0.05 }, { tool: 'tinybench', cv: 0.08 }] };
  const net = { pair: '.NET users', jsonbench: 0.04, peers: [] };
  assert.equal(peerVerdict([js, net]), 'yes on 1 pair with a peer; not judged on .NET users (no peer\'s CV)');
  const lost = { pair: 'weather fjs÷json', jsonbench: 0.035, peers: [{ tool: 'mitata', cv: 0.03 }, { tool: 'tinybench', cv: NaN }] };
  assert.equal(peerVerdict([js, lost]), 'no on 2 pairs with a peer (weather fjs÷json: jsonbench 3.50% ≥ mitata 3.00%)');
  assert.equal(peerVerdict([net]), 'not judged: no pair has a peer\'s CV (.NET users)');
  assert.equal(peerVerdict([{ ...js, jsonbench: NaN }]), 'not judged: no pair has a peer\'s CV (users fjs÷json)', 'jsonbench without a CV is not judged a win');
});
