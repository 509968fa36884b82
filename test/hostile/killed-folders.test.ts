import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planned } from '../run/fake-launch.js';
import { cli, results } from './support.js';

/**
 * A killed run's folder, hand-edited or damaged (issue 25, class 7): a byte order mark before a
 * one-line results.partial.jsonl silently turned its finished case into "not measured";
 * launches.partial.jsonl as a folder gave a bare EISDIR; a case planned twice in run.partial.json
 * blamed results.partial.jsonl. `jsonbench report <folder>` now reads the case, and names the right
 * file for the others (exit 2).
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-killed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A killed run's folder: run.partial.json planning json's case of the fixture, and that case finished. */
function killedRun(name: string, groups = 1): { folder: string; caseLine: string } {
  const folder = join(dir, name);
  mkdirSync(folder);
  const r = results();
  const done = r.cases.find((c) => c.serializer === 'json' && c.direction === 'serialize')!;
  const target = done.target;
  const plan = planned('json', { target, serializerVersion: done.serializerVersion });
  writeFileSync(
    join(folder, 'run.partial.json'),
    JSON.stringify({
      results: { ...r, cases: [] },
      groups: Array.from({ length: groups }, () => [plan]),
      payloads: [{ key: plan.payloadKey, path: '', bytes: 409, sha256: 'ab'.repeat(32) }],
    }),
  );
  return { folder, caseLine: JSON.stringify(done) };
}

test('a byte order mark before a one-line results.partial.jsonl does not lose its finished case', async () => {
  const { folder, caseLine } = killedRun('bom');
  writeFileSync(join(folder, 'results.partial.jsonl'), `\uFEFF${caseLine}\n`);
  const ran = await cli(['report', folder, '--format', 'md']);
  assert.equal(ran.code, 0, ran.stderr);
  assert.doesNotMatch(ran.stdout + ran.stderr, /not measured/);
  assert.match(ran.stdout, /\| json /);
});

test('launches.partial.jsonl as a folder is named, with what it should be, exit 2 (no bare EISDIR)', async () => {
  const { folder, caseLine } = killedRun('eisdir');
  writeFileSync(join(folder, 'results.partial.jsonl'), `${caseLine}\n`);
  mkdirSync(join(folder, 'launches.partial.jsonl'));
  const ran = await cli(['report', folder, '--format', 'md']);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /launches\.partial\.jsonl.*is not a file \(a folder\?\): it should hold one JSON line per finished case or launch/,
  );
  assert.doesNotMatch(ran.stderr, /^jsonbench: error: EISDIR/m);
});

test('a case planned twice in run.partial.json is blamed on run.partial.json with its pointer, not on results.partial.jsonl', async () => {
  const { folder, caseLine } = killedRun('twice', 2);
  writeFileSync(join(folder, 'results.partial.jsonl'), `${caseLine}\n`);
  const ran = await cli(['report', folder, '--format', 'md']);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /run\.partial\.json: at \/groups\/1\/0\/id: .*case "weather-station\/1\/single\/serialize\/json" is planned twice \(also at \/groups\/0\/0\)/,
  );
  assert.doesNotMatch(ran.stderr, /results\.partial\.jsonl/);
});
