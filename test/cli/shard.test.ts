import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseShard, shardGroups } from '../../src/plan/shard.js';
import { mergeShards } from '../../src/results/merge.js';
import { parseTarget } from '../../src/runtimes/index.js';
import { defaultCacheDir } from '../../src/runtimes/cache.js';
import { ResultsFileError } from '../../src/results/errors.js';
import { UsageError } from '../../src/config/usage-error.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Sharded runs (issue 28 item 2): `run --shard i/n` measures a deterministic 1/n of the plan's
 * groups, and `jsonbench merge` (or `report` of the shard files) makes the run an unsharded run
 * would have made: the same case ids in the same order, the same statuses, the same structure.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jsonbench-shard-'));
after(() => rmSync(root, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: root,
        env: { ...process.env, JSONBENCH_LEDGER: 'off', COLUMNS: '1000' },
        maxBuffer: 64 << 20,
        timeout: 300_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    ),
  );
}
/**
 * What a report.md says apart from its figures: its headings in order, its tables' header rows in
 * order, and the first two cells (class and serializer) of every table row, sorted (rows are
 * ranked by figures that vary between runs).
 */
function structure(md: string): { headings: string[]; headers: string[]; rows: string[] } {
  const lines = md.split('\n');
  const headers = lines.filter((l, i) => lines[i + 1]?.startsWith('| ---'));
  return {
    headings: lines.filter((l) => l.startsWith('#')),
    headers,
    rows: lines
      .filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !headers.includes(l))
      .map((l) => l.split(' | ').slice(0, 2).join(' | '))
      .sort(),
  };
}
const read = (dir: string) => JSON.parse(readFileSync(join(root, dir, 'results.json'), 'utf8')) as ResultsFile;

test('--shard is index/count with 1 ≤ index ≤ count; shards are disjoint and cover the plan', () => {
  assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
  for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1', '1/3/5'])
    assert.throws(
      () => parseShard(bad),
      (e: unknown) => e instanceof UsageError && e.flag === '--shard',
      bad,
    );
  // hx20 a37b: the count of 0 is what is named
  assert.throws(() => parseShard('1/0'), /the count must be at least 1 \(1\/1 runs everything\), got 1\/0/);
  const groups = Array.from({ length: 7 }, (_, i) => `g${i}`);
  const shards = [1, 2, 3].map((index) => shardGroups(groups, { index, count: 3 }));
  assert.deepEqual(shards, [
    ['g0', 'g3', 'g6'],
    ['g1', 'g4'],
    ['g2', 'g5'],
  ]);
  assert.deepEqual(shardGroups(['g0'], { index: 2, count: 2 }), [], 'more shards than groups: an empty shard');
});

test('three shards merged equal the unsharded run: case ids, order, statuses and structure', async () => {
  const args = [
    'run',
    '--policy',
    'quick',
    '--workload',
    'weather-station',
    '--serializer',
    'json,fast-json-stringify,typia,zod',
    '--no-probes',
    '--no-ledger',
  ];
  const runs = await Promise.all([
    cli([...args, '--out', 'whole']),
    ...[1, 2, 3].map((i) => cli([...args, '--shard', `${i}/3`, '--out', `shard${i}`])),
  ]);
  for (const r of runs) assert.equal(r.code, 0, r.stderr.slice(-2000));
  const whole = read('whole');
  const shards = [1, 2, 3].map((i) => read(`shard${i}`));
  assert.deepEqual(
    shards.map((s) => [s.shard?.index, s.shard?.count]),
    [
      [1, 3],
      [2, 3],
      [3, 3],
    ],
  );
  for (const s of shards)
    assert.deepEqual(
      s.shard!.plan,
      whole.cases.map((c) => c.id),
      'each shard records the whole plan',
    );
  assert.ok(shards.filter((s) => s.cases.length > 0).length >= 2, 'the plan is spread over the shards');
  assert.equal(
    shards.reduce((n, s) => n + s.cases.length, 0),
    whole.cases.length,
  );

  const merged = await cli(['merge', 'shard3', 'shard1', 'shard2', '--out', 'merged']);
  assert.equal(merged.code, 0, merged.stderr);
  assert.match(
    merged.stdout,
    new RegExp(`${whole.cases.length} cases from 3 shards · results: .*merged/results\\.json`),
  );
  const m = read('merged');
  const shape = (r: ResultsFile) =>
    r.cases.map((c) => [c.id, c.status, c.baseline ?? null, Object.keys(c).sort().join(',')]);
  assert.deepEqual(shape(m), shape(whole));
  assert.equal(m.shard, undefined, 'the merged file is a whole run');
  assert.deepEqual(m.policy, whole.policy);
  assert.deepEqual(Object.keys(m).sort(), Object.keys(whole).sort());
  assert.deepEqual(
    m.targets.map((t) => t.id),
    whole.targets.map((t) => t.id),
    'the targets once each (a merge of 3 shards listed node three times)',
  );
  assert.deepEqual(
    m.targets.map((t) => t.id),
    ['node'],
  );
  const mergedMd = readFileSync(join(root, 'merged', 'report.md'), 'utf8');
  assert.match(mergedMd, /fast-json-stringify/);
  assert.deepEqual(structure(mergedMd), structure(readFileSync(join(root, 'whole', 'report.md'), 'utf8')));
  assert.doesNotMatch(mergedMd, /Side by side, by target/, 'one target: no by-target table');

  // `report` of the shard files renders the merged run
  const md = await cli(['report', 'shard1', 'shard2', 'shard3', '--format', 'json', '--out', '-']);
  assert.equal(md.code, 0, md.stderr);
  assert.deepEqual(
    (JSON.parse(md.stdout) as ResultsFile).cases.map((c) => c.id),
    whole.cases.map((c) => c.id),
  );

  // a missing shard, a shard given twice, a file that is no shard: refused, exit 2, naming them
  const missing = await cli(['merge', 'shard1', 'shard2', '--out', 'bad1']);
  assert.deepEqual([missing.code, /shard 3\/3 missing: give all 3/.test(missing.stderr)], [2, true], missing.stderr);
  const twice = await cli(['merge', 'shard1', 'shard1', 'shard2', 'shard3', '--out', 'bad2']);
  assert.deepEqual([twice.code, /shard 1\/3 is given twice/.test(twice.stderr)], [2, true], twice.stderr);
  const notShard = await cli(['merge', 'shard1', 'whole', '--out', 'bad3']);
  assert.deepEqual([notShard.code, /whole is not a shard of a run/.test(notShard.stderr)], [2, true], notShard.stderr);
});

test('mergeShards refuses shards of different plans and a case in two shards', () => {
  const shard = (index: number, ids: string[], plan = ['a', 'b']) =>
    ({
      schemaVersion: 1,
      tool: 'jsonbench',
      startedAt: `2026-12-04T00:00:0${index}.000Z`,
      environment: {},
      policy: { name: 'quick' },
      targets: [],
      cases: ids.map((id) => ({ id, status: 'unsupported', reason: 'r' })),
      shard: { index, count: 2, plan },
    }) as unknown as ResultsFile;
  assert.deepEqual(
    mergeShards([shard(2, ['b']), shard(1, ['a'])]).cases.map((c) => c.id),
    ['a', 'b'],
  );
  assert.throws(() => mergeShards([shard(1, ['a']), shard(2, ['b'], ['a', 'c'])]), /another plan/);
  assert.throws(() => mergeShards([shard(1, ['a', 'b']), shard(2, ['b'])]), /case b is in two shards/);
  assert.throws(() => mergeShards([shard(1, ['a']), shard(2, [])]), /1 planned case is in no shard \(first: b\)/);
  // hx19 M03: shards of other seeds were refused as "quick vs quick, or other settings"
  const seeded = shard(2, ['b']);
  (seeded.policy as unknown as { seed: number }).seed = 7;
  assert.throws(
    () => mergeShards([Object.assign(shard(1, ['a']), { policy: { name: 'quick', seed: 42 } }), seeded]),
    /ran with another policy than .* \(seed 7 vs 42\)/,
  );
  assert.throws(
    () => mergeShards([shard(1, ['a'])]),
    (e: unknown) => e instanceof ResultsFileError,
  );
});

test('a shard and its merged run are two runs to the ledger (the merge starts when its first shard did)', async () => {
  const { runFingerprint } = await import('../../src/ledger/record.js');
  const s1 = read('shard1');
  const { shard: _s, ...merged } = s1;
  void _s;
  assert.notEqual(runFingerprint(s1), runFingerprint(merged as ResultsFile));
});

test('report and merge never write over a file they read', async () => {
  const report = await cli(['report', 'shard1/results.json', '--format', 'md', '--out', 'shard1/results.json']);
  assert.deepEqual(
    [report.code, /--out: shard1\/results\.json is one of the results files read/.test(report.stderr)],
    [2, true],
    report.stderr,
  );
  const merge = await cli(['merge', 'shard1', 'shard2', 'shard3', '--out', 'shard1']);
  assert.deepEqual(
    [merge.code, /--out: shard1 holds shard1, one of the shards read/.test(merge.stderr)],
    [2, true],
    merge.stderr,
  );
  assert.equal(read('shard1').shard?.index, 1, 'the shard is untouched');
});

test("report --out never replaces a ledger, another run's results or a sidecar, nor a file of another kind (hx8)", async () => {
  const ledger = join(root, 'shared.db');
  writeFileSync(ledger, Buffer.concat([Buffer.from('SQLite format 3\u0000', 'latin1'), Buffer.alloc(84)]));
  const onLedger = await cli(['report', 'shard1/results.json', '--format', 'md', '--out', ledger]);
  assert.deepEqual([onLedger.code, /is an SQLite database/.test(onLedger.stderr)], [2, true], onLedger.stderr);
  assert.equal(readFileSync(ledger, 'latin1').slice(0, 15), 'SQLite format 3', 'the ledger is untouched');
  const onResults = await cli(['report', 'shard1/results.json', '--format', 'md', '--out', 'shard2/results.json']);
  assert.deepEqual([onResults.code, /results file or its integrity record/.test(onResults.stderr)], [2, true]);
  const notes = join(root, 'notes.txt');
  writeFileSync(notes, 'mine');
  const onText = await cli(['report', 'shard1/results.json', '--format', 'md', '--out', notes]);
  assert.deepEqual(
    [onText.code, /exists and is not an md report jsonbench wrote \(it begins "mine"\)/.test(onText.stderr)],
    [2, true],
  );
  assert.equal(readFileSync(notes, 'utf8'), 'mine');
  // hx18 A29: a file of the format's extension jsonbench did not write (the user's notes.md, the run's own payload
  // file as a json report) is refused too: only its own report of that kind is replaced
  const userMd = join(root, 'notes.md');
  writeFileSync(userMd, 'my important notes');
  const onMd = await cli(['report', 'shard1/results.json', '--format', 'md', '--out', userMd]);
  assert.deepEqual(
    [onMd.code, /notes\.md exists and is not an md report jsonbench wrote/.test(onMd.stderr)],
    [2, true],
  );
  assert.equal(readFileSync(userMd, 'utf8'), 'my important notes');
  const payload = join(root, 'response.json');
  writeFileSync(payload, '{"id": 1}');
  const onPayload = await cli(['report', 'shard1/results.json', '--format', 'json', '--out', payload]);
  assert.deepEqual([onPayload.code, /is not a json report jsonbench wrote/.test(onPayload.stderr)], [2, true]);
  assert.equal(readFileSync(payload, 'utf8'), '{"id": 1}');
  // a report of its own kind is replaced, as before (every format: written twice)
  for (const format of ['md', 'html', 'json', 'csv', 'bmf', 'github-action-benchmark']) {
    const file = join(root, `again-${format}.out`);
    for (const time of [1, 2]) {
      const again = await cli(['report', 'shard1/results.json', '--format', format, '--out', file]);
      assert.equal(again.code, 0, `${format}, time ${time}: ${again.stderr}`);
    }
  }
});

const node22 = await parseTarget('node@22').detect({ cacheDir: defaultCacheDir() });

test(
  'a matrix of shard × target merges into the run with the targets side by side, as report of the shards does',
  { skip: !node22.installed && `a second target is needed: node@22 is not installed here (${node22.reason})` },
  async () => {
    const args = [
      'run',
      '--policy',
      'quick',
      '--workload',
      'weather-station',
      '--size',
      '1',
      '--direction',
      'serialize',
    ].concat(['--serializer', 'json,fast-json-stringify', '--no-probes', '--no-ledger']);
    const targets = ['node', 'node@22'];
    const runs = await Promise.all([
      cli([...args, '--target', targets.join(','), '--out', 'tx-whole']),
      ...targets.flatMap((t) =>
        [1, 2].map((i) => cli([...args, '--target', t, '--shard', `${i}/2`, '--out', `tx-${t}-${i}`])),
      ),
    ]);
    for (const r of runs) assert.equal(r.code, 0, r.stderr.slice(-2000));
    const whole = read('tx-whole');
    // the targets in the order given (the first is the Δ reference); each target's shards in any order
    const shards = targets.flatMap((t) => [2, 1].map((i) => `tx-${t}-${i}`));
    const merged = await cli(['merge', ...shards, '--out', 'tx-merged']);
    assert.equal(merged.code, 0, merged.stderr);
    const m = read('tx-merged');
    assert.deepEqual(
      m.targets.map((t) => t.id),
      targets,
    );
    assert.deepEqual(
      m.cases.map((c) => [c.id, c.status, c.target.id]),
      whole.cases.map((c) => [c.id, c.status, c.target.id]),
    );
    const wholeMd = readFileSync(join(root, 'tx-whole', 'report.md'), 'utf8');
    assert.match(wholeMd, /## Side by side, by target/);
    assert.deepEqual(structure(readFileSync(join(root, 'tx-merged', 'report.md'), 'utf8')), structure(wholeMd));
    // docs/ci.md's last step: one merge per target, then `report` of the merged files; and `report` of the shards
    for (const t of targets)
      assert.equal((await cli(['merge', `tx-${t}-1`, `tx-${t}-2`, '--out', `tx-m-${t}`])).code, 0);
    for (const inputs of [targets.map((t) => `tx-m-${t}/results.json`), shards]) {
      const md = await cli(['report', ...inputs, '--format', 'md', '--out', '-']);
      assert.equal(md.code, 0, md.stderr);
      assert.deepEqual(structure(md.stdout), structure(wholeMd), inputs.join(' '));
      assert.equal(md.stdout.match(/^# jsonbench results/gm)?.length, 1, 'one run, not one per target');
    }
  },
);

test('hx5: a shard count above 10,000 is refused at --shard and at merge; missing shards are said as ranges, capped', () => {
  for (const bad of ['1/99999999999999999999', '1/10000000', '1/10001'])
    assert.throws(
      () => parseShard(bad),
      (e: unknown) => e instanceof UsageError && e.flag === '--shard' && /at most 10000/.test(e.message),
      bad,
    );
  assert.deepEqual(parseShard('10000/10000'), { index: 10000, count: 10000 });
  const shard = (index: number, count: number) =>
    ({
      schemaVersion: 1,
      tool: 'jsonbench',
      startedAt: '2026-12-04T00:00:01.000Z',
      environment: {},
      policy: { name: 'quick' },
      targets: [],
      cases: [{ id: 'a', status: 'unsupported', reason: 'r' }],
      shard: { index, count, plan: ['a'] },
    }) as unknown as ResultsFile;
  // a results file written by the old code (or by hand) with a huge count: refused by name, not "Invalid array length"
  assert.throws(() => mergeShards([shard(1, 1e20)]), /one of 100000000000000000000 shards: a run has 1 to 10000/);
  const started = performance.now();
  assert.throws(
    () => mergeShards([shard(1, 10000)]),
    (e: unknown) => {
      const m = (e as Error).message;
      return /shards 2–10000\/10000 missing: give all 10000/.test(m) && m.length < 200;
    },
  );
  assert.ok(performance.now() - started < 5000);
  assert.throws(() => mergeShards([shard(1, 50), shard(3, 50), shard(5, 50)]), /shards 2\/50, 4\/50, 6–50\/50 missing/);
});
