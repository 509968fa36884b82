import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { policies } from '../../src/config/policies.js';
import type { ResultsFile } from '../../src/results/types.js';
import { makeResults, normalSamples, prng, roundsOf } from '../ledger/fixture.js';
import { cli, measuredCase, results } from './support.js';

/**
 * Hostile files (issue 9, "Injection and bad files" and the comparability of `compare`): results
 * files edited by hand, a corrupt ledger and one from a newer jsonbench, and two runs that cannot
 * be compared. Each must end in exit 2 with the file and what is wrong, or a loud warning —
 * never an internal error, a crash, `∞`, `−NaN%` or a failed gate.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, r: unknown): string => {
  const p = join(dir, name);
  writeFileSync(p, typeof r === 'string' ? r : JSON.stringify(r));
  return p;
};

/** Hand edits that break a results file, each with the path of the first problem. */
const EDITS: { name: string; edit: (r: ResultsFile) => void; path: RegExp }[] = [
  {
    name: 'a mean that is a string',
    edit: (r) => {
      (measuredCase(r).time as unknown as { mean: unknown }).mean = 'fast';
    },
    path: /cases[/.[]+\d+\]?[/.]time[/.]mean/,
  },
  {
    name: 'a status that is not a string',
    edit: (r) => {
      (measuredCase(r) as unknown as { status: unknown }).status = 3;
    },
    path: /cases[/.[]+\d+\]?[/.]status/,
  },
  {
    name: 'a ratio of null beside its error',
    edit: (r) => {
      (measuredCase(r) as unknown as { ratio: unknown }).ratio = null;
    },
    path: /cases[/.[]+\d+\]?[/.]ratio/,
  },
  {
    name: 'samples that are not numbers',
    edit: (r) => {
      (measuredCase(r).samples.launches[0].rounds[0] as unknown as { serializerNs: unknown }).serializerNs = [
        '1',
        null,
      ];
    },
    path: /serializerNs/,
  },
  {
    name: 'two cases with one id',
    edit: (r) => {
      r.cases[1].id = r.cases[0].id;
    },
    path: /cases[/.[]+1\]?[/.]id.*also the id of \/cases\/0/,
  },
  {
    name: 'an empty finding code',
    edit: (r) => {
      measuredCase(r).findings.push({ code: '', message: 'x' });
    },
    path: /findings[/.[]+\d+\]?[/.]code/,
  },
  {
    name: 'a .NET serializer on the Node target',
    edit: (r) => {
      r.policy.baselines['dotnet serialize'] = 'stj';
      const c = r.cases[1];
      r.cases[1] = { ...c, serializer: 'stj', id: `${c.workload}/${c.size}/${c.shape}/${c.direction}/stj` } as typeof c;
    },
    path: /cases[/.[]+1\]?[/.]serializer \(line 1, column \d+\): "stj" is the dotnet baseline/,
  },
  {
    name: 'an environment without a load average',
    edit: (r) => {
      delete (r.environment as unknown as Record<string, unknown>).loadAverage;
    },
    path: /environment[/.]loadAverage/,
  },
];

for (const { name, edit, path } of EDITS) {
  test(`report and compare exit 2 on a results file with ${name}, naming the file and the path`, async () => {
    const r = results();
    edit(r);
    const file = write(`${name.replace(/\W+/g, '-')}.json`, r);
    for (const args of [
      ['report', file, '--format', 'md'],
      ['report', file, '--format', 'csv'],
      ['compare', file, file],
    ]) {
      const ran = await cli(args);
      assert.equal(ran.code, 2, `${args[0]}: ${ran.stderr}`);
      assert.ok(ran.stderr.includes(file), `${args[0]} names the file: ${ran.stderr}`);
      assert.match(ran.stderr, path, `${args[0]} names the path`);
      assert.equal(/∞|NaN|at .*\.js:\d+/.test(ran.stdout + ran.stderr), false, 'no ∞, NaN or stack');
    }
  });
}

test('report and compare read a file with an unknown status or finding code (a newer jsonbench wrote it), naming the case left out (file, id, status) and showing the finding by its code', async () => {
  const r = results();
  const c = measuredCase(r);
  (c as unknown as { status: string }).status = 'excellent';
  const other = r.cases.find((x) => x !== c && x.status === 'measured')!;
  other.findings.push({ code: 'pwned', message: 'x' });
  const file = write('newer-statuses.json', r);
  // compare's base: another run (a run compared with itself is refused, hx5)
  const base = write('newer-statuses-base.json', { ...results(), startedAt: '2026-01-01T00:00:00.000Z' });
  for (const args of [
    ['report', file, '--format', 'md'],
    ['compare', base, file],
  ]) {
    const ran = await cli(args);
    assert.equal(ran.code, 0, `${args[0]}: ${ran.stderr}`);
    assert.ok(
      ran.stderr.includes(
        `${file}: case ${JSON.stringify(c.id)} (/cases/${r.cases.indexOf(c)}) has status "excellent", which this jsonbench does not know (a newer jsonbench wrote it): left out`,
      ),
      `${args[0]}: ${ran.stderr}`,
    );
    assert.equal(/∞|NaN|at .*\.js:\d+/.test(ran.stdout + ran.stderr), false, 'no ∞, NaN or stack');
    if (args[0] === 'report') assert.match(ran.stdout, /\? pwned \(written by a newer jsonbench; see below\)/);
  }
});

const corrupt = write('corrupt.db', 'this is not an SQLite database, whatever its name says\n'.repeat(100));
const folder = join(dir, 'folder.db');
mkdirSync(folder);
const newer = join(dir, 'newer.db');
{
  const db = new Database(newer);
  db.pragma('user_version = 999');
  db.exec('CREATE TABLE runs (id INTEGER PRIMARY KEY)');
  db.close();
}

for (const [what, ledger] of [
  ['a corrupt ledger', corrupt],
  ['a ledger from a newer jsonbench', newer],
  ['a ledger path that is a folder', folder],
] as const) {
  test(`ledger list/export, history and compare exit 2 on ${what}, naming the file and what to do`, async () => {
    for (const args of [['ledger', 'list'], ['ledger', 'export'], ['history'], ['compare', 'latest~1', 'latest']]) {
      const ran = await cli([...args, '--ledger', ledger], { env: { JSONBENCH_LEDGER: '' } });
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.ok(ran.stderr.includes(ledger), `${args.join(' ')} names the file: ${ran.stderr}`);
      assert.equal(ran.stderr.includes('internal error'), false);
      assert.match(
        ran.stderr,
        ledger === newer
          ? /upgrade jsonbench|newer/
          : ledger === folder
            ? /cannot be opened as a database file .*a folder.*--ledger with a file path/
            : /not a .*database|corrupt|move it aside|restore/i,
      );
    }
  });
}

/** A run of json and fjs on weather-station under `policy`, json's samples around `jsonNs`. */
function run(policy: 'quick' | 'default', jsonNs: number, load: number[], seed: number): ResultsFile {
  const rand = prng(seed);
  const r = makeResults(
    [
      { serializer: 'json', rounds: roundsOf(rand, 8, 5, jsonNs, jsonNs * 0.02) },
      { serializer: 'fast-json-stringify', rounds: roundsOf(rand, 8, 5, jsonNs * 0.5, jsonNs * 0.01) },
    ],
    '2026-01-02T03:04:05.678Z',
    { loadAverage: { start: load, end: load } },
  );
  const p = policies[policy];
  r.policy = { ...r.policy, name: p.name, launches: p.launches, caseTimeoutMs: p.caseTimeoutMs, measure: p.measure };
  return r;
}

test('compare of a quick run against a default run says loudly they are not comparable, and never fails the gate on it', async () => {
  const base = write('run-a.json', run('quick', 1000, [0.3, 0.3, 0.3], 1));
  const head = write('run-b.json', run('default', 1960, [0.3, 0.3, 0.3], 2));
  const ran = await cli(['compare', base, head, '--fail-on', 'slower']);
  assert.equal(ran.code, 0, 'a gate must not fail on runs that cannot be compared');
  assert.match(ran.stdout + ran.stderr, /not comparable|cannot be compared/i);
  assert.match(ran.stdout + ran.stderr, /polic(y|ies).*quick.*default|quick.*default.*polic/i);
});

test('compare of a loaded run against a quiet one warns about the load', async () => {
  const base = write('run-c.json', run('default', 1300, [7.7, 7.1, 6.0], 3));
  const head = write('run-d.json', run('default', 1000, [0.3, 0.3, 0.3], 4));
  const ran = await cli(['compare', base, head]);
  assert.equal(ran.code, 0);
  assert.match(ran.stdout + ran.stderr, /load/i);
  assert.match(ran.stdout + ran.stderr, /7\.7/);
});

test('the samples of these runs are what the tests above think they are', () => {
  const json = run('quick', 1000, [0.3, 0.3, 0.3], 1).cases[0];
  const all = json.samples.launches.flatMap((l) => l.rounds.flatMap((x) => x.serializerNs));
  const mean = all.reduce((a, b) => a + b, 0) / all.length;
  assert.ok(Math.abs(mean / 1000 - 1) < 0.02, `json mean ${mean}`);
  assert.equal(normalSamples(prng(1), 3, 0, 1).length, 3);
});
