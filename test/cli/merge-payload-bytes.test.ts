import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeResults } from '../../src/results/io.js';
import type { PayloadRecord, ResultsFile } from '../../src/results/types.js';
import { cli, results } from '../hostile/support.js';

/**
 * Shards measured on different bytes under one payload id (hx6/hx7 U1: `run --payload a/response.json
 * --shard 1/2` and `run --payload b/response.json --shard 2/2` merged as "24 cases from 2 shards", no
 * word, though their cases timed different documents). `merge` (and `report`, which merges shards
 * the same way) refuses them, exit 2, naming both shards, the payload id and both hashes.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-merge-bytes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const A = 'a1'.repeat(32);
const B = 'b2'.repeat(32);

/** The record of a payload file `response.json` of hash `sha`. */
const payloadRecord = (sha: string): PayloadRecord => ({
  workload: 'payload:response',
  file: 'response.json',
  kind: 'document',
  bytes: 12_000,
  sha256: sha,
  units: 1,
  payloads: [{ size: 1, bytes: 12_000, sha256: sha, generated: false }],
  schema: { source: 'inferred', unconverted: [] },
  findings: [],
});

/** Shard `index` of 2 of the single.json fixture's plan, measured on a payload of hash `sha`, written with its sidecar. */
function shard(index: number, sha: string): string {
  const r: ResultsFile = results();
  const plan = r.cases.map((c) => c.id);
  r.cases = r.cases.filter((_, k) => k % 2 === index - 1);
  r.shard = { index, count: 2, plan };
  r.payloads = [payloadRecord(sha)];
  const folder = join(dir, `${sha.slice(0, 2)}-${index}`);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'results.json');
  writeResults(file, r);
  return file;
}

test('merge and report refuse shards measured on different bytes under one payload id, naming both, the id and both hashes', async () => {
  const s1 = shard(1, A);
  const s2 = shard(2, B);
  const out = join(dir, 'merged');
  for (const args of [
    ['merge', s1, s2, '--out', out],
    ['report', s1, s2, '--format', 'md', '--out', '-'],
  ]) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.ok(
      r.stderr.includes(
        `${s1} and ${s2} measured payload payload:response on different bytes (sha256 ${A} and ${B}): the same payload id, another file's content, so their cases are not one run's; run every shard on the same payload file`,
      ),
      r.stderr,
    );
  }
  assert.equal(existsSync(join(out, 'results.json')), false, 'nothing merged');
  // the same bytes in both: merged as before
  const same = await cli(['merge', s1, shard(2, A), '--out', out]);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /^16 cases from 2 shards · results: /);
});
