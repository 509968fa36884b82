import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';

/**
 * Folders a run does not own alone (issue 25, classes 3 and 4): a second run into the output
 * folder of a live run moved the first run's live files aside as a "killed run"; `npm run build`
 * (and `prepare`, which `npm install` runs) deleted build/ under a running run. Now the folder is
 * locked (a live owner: refused, exit 2, naming the folder and the pid; a dead one: taken over)
 * and the build is held (scripts/build.mjs refuses, exit 1, and leaves build/ as it was).
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-ownership-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const RUN = ['run', '--policy', 'quick', '--workload', 'weather-station', '--direction', 'serialize'];
const lockOf = (pid: number) =>
  JSON.stringify({ pid, host: hostname(), startedAt: '2026-12-04T18:00:00.000Z', token: 'abc', folder: 'x' });

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

test('a second run into the output folder of a live run is refused with exit 2, naming the folder and the owner, and touches nothing', async () => {
  const out = join(dir, 'busy');
  mkdirSync(out);
  // this test process plays the live run that owns the folder
  writeFileSync(join(out, '.jsonbench-run.lock'), lockOf(process.pid));
  writeFileSync(join(out, 'results.partial.jsonl'), '{"live":true}\n');
  const ran = await cli([...RUN, '--serializer', 'json', '--no-probes', '--out', out]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(
      `jsonbench: error: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is the output folder of another run \\(pid ${process.pid} on this host, since 2026-12-04T18:00:00.000Z, is still running\\)`,
    ),
  );
  assert.equal(readFileSync(join(out, 'results.partial.jsonl'), 'utf8'), '{"live":true}\n', 'the live run’s file');
  assert.equal(existsSync(join(out, 'results.json')), false);
  assert.equal(ran.stderr.includes('internal error'), false);
});

test('a run into a folder whose lock belongs to a dead pid takes it over, says so, and removes its lock when done', async () => {
  const out = join(dir, 'stale');
  mkdirSync(out);
  const pid = deadPid();
  writeFileSync(join(out, '.jsonbench-run.lock'), lockOf(pid));
  const ran = await cli([...RUN, '--serializer', 'json', '--no-probes', '--out', out], { timeoutMs: 300_000 });
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stdout + ran.stderr,
    new RegExp(`took over the lock of a run that is no longer running \\(pid ${pid},`),
  );
  assert.ok(existsSync(join(out, 'results.json')));
  assert.equal(existsSync(join(out, '.jsonbench-run.lock')), false, 'the lock is released');
});

test('scripts/build.mjs refuses with exit 1 while a live run holds the build, naming it, and leaves build/ in place', () => {
  const root = join(dir, 'clone');
  mkdirSync(join(root, 'build', '.runs'), { recursive: true });
  writeFileSync(join(root, 'build', 'marker'), 'the code a run is using');
  writeFileSync(
    join(root, 'build', '.runs', `${process.pid}.json`),
    JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2026-12-04T18:00:00.000Z', folder: '/tmp/out' }),
  );
  // a stale hold of a dead pid is removed, not obeyed
  const dead = deadPid();
  writeFileSync(
    join(root, 'build', '.runs', `${dead}.json`),
    JSON.stringify({ pid: dead, host: hostname(), startedAt: '2026-12-04T17:00:00.000Z', folder: '/tmp/old' }),
  );
  const script = fileURLToPath(new URL('../../../scripts/build.mjs', import.meta.url));
  const ran = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8' });
  assert.equal(ran.status, 1, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(
      `^build: refused: build/ is in use by a jsonbench run \\(pid ${process.pid} since 2026-12-04T18:00:00.000Z, writing /tmp/out\\); rebuilding now would delete the code under it`,
    ),
  );
  assert.equal(readFileSync(join(root, 'build', 'marker'), 'utf8'), 'the code a run is using');
  assert.equal(existsSync(join(root, 'build', '.runs', `${dead}.json`)), false, 'the stale hold is removed');
});
