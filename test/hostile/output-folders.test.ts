import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, quickPayloadRunArgs, results } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Outputs onto a finished run (issue 25, hostile tester hx1, "data lost"): `run --out` onto a
 * finished run's folder replaced its results.json (26 cases → 1; with --no-ledger, as the Action
 * runs, they were gone), and `merge --out` onto another run's folder replaced its results.json and
 * reports. Both now move the finished run's results.json and reports to `previous-<time>/` in that
 * folder (as a killed run's partial files go to `killed-<time>/`) and say so; `report --out` onto
 * the report of another run's folder is refused, naming the folder and how to replace it.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-outputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A finished run's folder: the 16-case fixture as results.json, and its two reports. */
function finishedRun(name: string): { folder: string; text: string } {
  const folder = join(dir, name);
  mkdirSync(folder);
  const text = `${JSON.stringify(results(), null, 1)}\n`;
  writeFileSync(join(folder, 'results.json'), text);
  writeFileSync(join(folder, 'report.md'), '# jsonbench results\n\nthe finished run\n');
  writeFileSync(join(folder, 'report.html'), '<p>the finished run</p>\n');
  return { folder, text };
}

/** The one previous-<time>/ folder inside `folder`, checked to hold the finished run's files unchanged. */
function assertKept(folder: string, text: string): string {
  const previous = readdirSync(folder).filter((f) => f.startsWith('previous-'));
  assert.equal(previous.length, 1, readdirSync(folder).join(', '));
  const kept = join(folder, previous[0]);
  assert.equal(readFileSync(join(kept, 'results.json'), 'utf8'), text);
  assert.equal(readFileSync(join(kept, 'report.md'), 'utf8'), '# jsonbench results\n\nthe finished run\n');
  assert.equal(readFileSync(join(kept, 'report.html'), 'utf8'), '<p>the finished run</p>\n');
  return kept;
}

test('run --out onto a finished run moves its results.json and reports to previous-<time>/ and says so; nothing is lost', async () => {
  const { folder, text } = finishedRun('run-over');
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
      '--no-probes',
      '--out',
      folder,
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const kept = assertKept(folder, text);
  assert.ok(
    ran.stderr.includes(
      `${folder} held a finished run's results (report.html, report.md, results.json): moved to ${kept} (\`jsonbench report ${kept}\` renders it)`,
    ),
    ran.stderr,
  );
  const now = JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8')) as ResultsFile;
  assert.deepEqual(
    now.cases.map((c) => c.id),
    ['weather-station/1/single/serialize/json'],
  );
});

test('merge --out onto a finished run moves its results.json and reports to previous-<time>/ and says so', async () => {
  const { folder, text } = finishedRun('merge-over');
  // two shards of the fixture's run: its cases split in two, each recording the whole plan
  const whole = results();
  const plan = whole.cases.map((c) => c.id);
  const shards = [1, 2].map((index) => {
    const path = join(dir, `shard${index}.json`);
    const shard: ResultsFile = {
      ...whole,
      cases: whole.cases.filter((_, i) => i % 2 === index - 1),
      shard: { index, count: 2, plan },
    };
    writeFileSync(path, JSON.stringify(shard));
    return path;
  });
  const ran = await cli(['merge', ...shards, '--out', folder]);
  assert.equal(ran.code, 0, ran.stderr);
  const kept = assertKept(folder, text);
  assert.match(
    ran.stderr,
    new RegExp(
      `held a finished run's results \\(report\\.html, report\\.md, results\\.json\\): moved to ${kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    ),
  );
  const merged = JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8')) as ResultsFile;
  assert.equal(merged.cases.length, plan.length);
});

test("merge --out onto a user's own results.json and report.md (not jsonbench's) says what it found and moved, not \"a finished run's results\"", async () => {
  const folder = join(dir, 'users-own');
  mkdirSync(folder);
  writeFileSync(join(folder, 'results.json'), '{"quarter":"Q3","revenue":12}\n');
  writeFileSync(join(folder, 'report.md'), '# my own notes\n');
  const whole = results();
  const plan = whole.cases.map((c) => c.id);
  const shards = [1, 2].map((index) => {
    const path = join(dir, `own-shard${index}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        ...whole,
        cases: whole.cases.filter((_, i) => i % 2 === index - 1),
        shard: { index, count: 2, plan },
      }),
    );
    return path;
  });
  const ran = await cli(['merge', ...shards, '--out', folder]);
  assert.equal(ran.code, 0, ran.stderr);
  const previous = readdirSync(folder).filter((f) => f.startsWith('previous-'));
  assert.equal(previous.length, 1);
  const kept = join(folder, previous[0]);
  assert.ok(
    ran.stderr.includes(
      `jsonbench merge: ${folder} held report.md, results.json, named as jsonbench's outputs but not a jsonbench run's results: moved to ${kept}, nothing overwritten`,
    ),
    ran.stderr,
  );
  assert.equal(readFileSync(join(kept, 'results.json'), 'utf8'), '{"quarter":"Q3","revenue":12}\n');
});

test("report --out onto another run's report is refused (exit 2) naming that run's folder and how to replace it; the report is unchanged", async () => {
  const { folder } = finishedRun('report-over');
  const other = join(dir, 'other.json');
  writeFileSync(other, JSON.stringify(results('two-targets.json')));
  const target = join(folder, 'report.md');
  const ran = await cli(['report', other, '--format', 'md', '--out', target]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.ok(
    ran.stderr.includes(
      `--out: ${target} is the report of the run in ${folder} (its results.json is not one of the files read)`,
    ),
    ran.stderr,
  );
  assert.match(ran.stderr, /to replace it, delete it first/);
  assert.equal(readFileSync(target, 'utf8'), '# jsonbench results\n\nthe finished run\n');
  // its own report is rendered again as before
  const again = await cli(['report', join(folder, 'results.json'), '--format', 'md', '--out', target]);
  assert.equal(again.code, 0, again.stderr);
  assert.notEqual(readFileSync(target, 'utf8'), '# jsonbench results\n\nthe finished run\n');
});

test('a `payloads` symbolic link planted in --out is refused, naming it: nothing is written where it points (hostile tester hx2)', async () => {
  const base = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-symlink-'));
  try {
    const out = join(base, 'out');
    const outside = join(base, 'outside');
    mkdirSync(out);
    mkdirSync(outside);
    symlinkSync(outside, join(out, 'payloads'));
    const ran = await cli(
      [
        'run',
        '--workload',
        'weather-station',
        '--serializer',
        'json',
        '--direction',
        'serialize',
        '--policy',
        'quick',
        '--no-probes',
        '--out',
        out,
      ],
      { timeoutMs: 240_000 },
    );
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /payloads is a symbolic link \(to .*outside\): jsonbench writes the run's payload files there/,
    );
    assert.deepEqual(readdirSync(outside), []);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test("two finished runs into one --out: the first one's signed sidecar moves with it, and it is still read as checked (hx20 a19)", async () => {
  const out = join(dir, 'twice');
  const run = ['run', '--workload', 'weather-station', '--serializer', 'json', '--direction', 'serialize'];
  for (const time of [1, 2]) {
    const ran = await cli([...run, '--policy', 'quick', '--no-probes', '--no-ledger', '--out', out]);
    assert.equal(ran.code, 0, `run ${time}: ${ran.stderr}`);
  }
  const previous = readdirSync(out).find((f) => f.startsWith('previous-'))!;
  assert.ok(previous, readdirSync(out).join(', '));
  assert.ok(readdirSync(join(out, previous)).includes('results.json.sha256'), readdirSync(join(out, previous)).join());
  const report = await cli(['report', join(out, previous), '--format', 'md', '--out', '-']);
  assert.equal(report.code, 0, report.stderr);
  assert.doesNotMatch(report.stderr + report.stdout, /unchecked|no integrity record/);
});

test("two runs of same-named payloads into one --out: the first run's payloads move with its results (hx29 O-payclob: replaced by the second's bytes)", async () => {
  const folder = join(dir, 'payclob');
  const src = join(dir, 'payclob-src');
  mkdirSync(src);
  const payload = join(src, 'tiny.json');
  const run = async (text: string) => {
    writeFileSync(payload, text);
    const ran = await cli(quickPayloadRunArgs(payload, 'json', 'serialize', folder), { timeoutMs: 300_000 });
    assert.equal(ran.code, 0, ran.stderr);
    return ran;
  };
  await run('{"a":1}\n');
  const second = await run('{"a":2,"b":"two"}\n');
  assert.match(second.stderr, /held a finished run's results \(payloads, /);
  const previous = readdirSync(folder).filter((f) => f.startsWith('previous-'));
  assert.equal(previous.length, 1);
  const kept = readdirSync(join(folder, previous[0], 'payloads'));
  assert.ok(kept.length > 0, 'the first run kept its payloads');
  const keptText = kept.map((f) => readFileSync(join(folder, previous[0], 'payloads', f), 'utf8')).join('');
  assert.match(keptText, /"a":\s*1/);
  const nowText = readdirSync(join(folder, 'payloads'))
    .map((f) => readFileSync(join(folder, 'payloads', f), 'utf8'))
    .join('');
  assert.match(nowText, /"b":\s*"two"/);
});

test('a run whose --payload is a results.json in its --out is refused (exit 2) before anything moves (hx30 out-userfiles: the payload was moved aside)', async () => {
  const folder = join(dir, 'payload-inside');
  mkdirSync(folder);
  const payload = join(folder, 'results.json');
  writeFileSync(payload, '{"quarter":"Q3","revenue":12}\n');
  writeFileSync(join(folder, 'report.md'), '# my notes\n');
  const ran = await cli(quickPayloadRunArgs(payload, 'json', 'serialize', folder), { timeoutMs: 120_000 });
  assert.equal(ran.code, 2, ran.stderr);
  assert.ok(
    ran.stderr.includes(
      `--out: ${payload} is this run's --payload, and a run into ${folder} moves its results.json aside (a run moves the results.json, report.* and payloads/ it finds there to previous-<time>/): choose another --out, or move the file out of the folder (nothing was moved)`,
    ),
    ran.stderr,
  );
  assert.deepEqual(readdirSync(folder).sort(), ['report.md', 'results.json']);
  assert.equal(readFileSync(payload, 'utf8'), '{"quarter":"Q3","revenue":12}\n');
});

test("a user's own report.html, report.md, sidecar and payloads/ in --out, with no results.json, are moved aside, never written over (hx31 e01, e01b, e01c)", async () => {
  const folder = join(dir, 'user-reports');
  mkdirSync(join(folder, 'payloads'), { recursive: true });
  writeFileSync(join(folder, 'report.html'), '<h1>my homepage</h1>\n');
  writeFileSync(join(folder, 'report.md'), '# my own notes\n');
  writeFileSync(join(folder, 'results.json.sha256'), 'mine\n');
  writeFileSync(join(folder, 'payloads', 'payload_p-1.json'), '{"mine":"precious"}\n');
  const payload = join(dir, 'p.json');
  writeFileSync(payload, '{"a":1}\n');
  const ran = await cli(quickPayloadRunArgs(payload, 'json', 'serialize', folder), { timeoutMs: 300_000 });
  assert.equal(ran.code, 0, ran.stderr);
  const previous = readdirSync(folder).filter((f) => f.startsWith('previous-'));
  assert.equal(previous.length, 1);
  const kept = join(folder, previous[0]);
  assert.ok(
    ran.stderr
      .replace(/\n\s*/g, ' ')
      .includes(
        `${folder} held payloads, report.html, report.md, results.json.sha256, named as jsonbench's outputs but not a jsonbench run's results: moved to ${kept}, nothing overwritten`,
      ),
    ran.stderr,
  );
  assert.equal(readFileSync(join(kept, 'report.html'), 'utf8'), '<h1>my homepage</h1>\n');
  assert.equal(readFileSync(join(kept, 'report.md'), 'utf8'), '# my own notes\n');
  assert.equal(readFileSync(join(kept, 'payloads', 'payload_p-1.json'), 'utf8'), '{"mine":"precious"}\n');
  assert.match(readFileSync(join(folder, 'report.md'), 'utf8'), /jsonbench/);
});
