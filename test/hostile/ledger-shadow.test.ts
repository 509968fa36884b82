import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support.js';

/**
 * hx29 L-shadow: a copy of a run edited and stripped of its sidecar, imported first (unchecked), made the genuine file,
 * whose signed sidecar checks, "already in the ledger as run 1; skipped": the ledger kept the forgery with no word
 * here. The second import now says the run in the ledger was read unchecked and may differ, and exits 1.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-shadow-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a genuine results file after an unchecked forgery of the same run: the import says so, exit 1 (hx29 L-shadow)', async () => {
  const out = join(dir, 'run');
  const ran = await cli(
    [
      'run',
      '--policy',
      'quick',
      '--workload',
      'weather-station',
      '--serializer',
      'json',
      '--direction',
      'serialize',
    ].concat(['--no-probes', '--no-ledger', '--out', out]),
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const forged = join(dir, 'forged');
  mkdirSync(forged);
  const text = readFileSync(join(out, 'results.json'), 'utf8');
  writeFileSync(
    join(forged, 'results.json'),
    text.replace(/"serializerVersion": "[^"]*"/, '"serializerVersion": "forged"'),
  );
  const ledger = join(dir, 'l.db');
  const first = await cli(['ledger', 'import', join(forged, 'results.json'), '--ledger', ledger]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr + first.stdout, /integrity unchecked/);
  const second = await cli(['ledger', 'import', join(out, 'results.json'), '--ledger', ledger]);
  assert.equal(second.code, 1, second.stderr);
  assert.match(
    second.stderr.replace(/\s+/g, ' '),
    /run 1 in the ledger is this run imported earlier from a file read unchecked \([^)]*\): the ledger does not vouch for its numbers, which may differ from this file's/,
  );
});
