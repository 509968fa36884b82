import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Every command fits the width when piped (issue 22): `COLUMNS=80` and `COLUMNS=120`, stdout and
 * stderr, no line wider, and nothing said twice (a sentence, a warning on stdout and stderr, two
 * rows that read alike). Each command runs on small inputs: the report fixture (a run of 15 cases
 * on weather-station) and a copy of it measured on a busier machine, a ledger holding both, a
 * probe of two serializers on one family, a quick run of one serializer on a payload whose
 * inference finds integers beyond 2^53 and always-null fields (long `found:` lines on stderr).
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const fixtures = fileURLToPath(new URL('../../../test/report/fixtures/', import.meta.url));
const payload = fileURLToPath(new URL('../../../test/fixtures/payload/api-response.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jsonbench-width-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI piped at `columns` (COLUMNS; NO_COLOR), in `root`; never rejects. */
function cli(args: string[], columns: number): Promise<Ran> {
  const { FORCE_COLOR: _f, ...inherited } = process.env;
  const env = { ...inherited, NO_COLOR: '1', JSONBENCH_LEDGER: 'off', COLUMNS: String(columns) };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env, maxBuffer: 64 << 20, timeout: 240_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Asserts every line of `text` is at most `width` characters (code points, as a terminal counts these). */
function assertFits(text: string, width: number, what: string): void {
  for (const line of text.split('\n'))
    assert.ok([...line].length <= width, `${what}: a line of ${[...line].length} characters at ${width}:\n${line}`);
}

const TABLE = /^[│┌├└┬┴┼─]/;

/**
 * Asserts nothing is said twice: no sentence line (not a table line, not blank, longer than a
 * few words) appears twice in stdout and stderr together, and no two table rows of `stdout` that
 * name something in their first cell read alike.
 */
function assertSaidOnce(r: Ran, what: string): void {
  const seen = new Map<string, number>();
  for (const line of [...r.stdout.split('\n'), ...r.stderr.split('\n')]) {
    const t = line.trim();
    if (!t || TABLE.test(t) || t.length < 30) continue;
    seen.set(t, (seen.get(t) ?? 0) + 1);
  }
  const twice = [...seen].filter(([, n]) => n > 1).map(([l]) => l);
  assert.deepEqual(twice, [], `${what}: said more than once`);
  // within a table (or a section of one), rows naming something in their first cell never read alike
  const same: string[] = [];
  let block: string[] = [];
  for (const [i, l] of r.stdout.split('\n').entries()) {
    const heading = /^│ [^│]*│$/.test(l);
    if (!l.startsWith('│') || heading) block = [];
    else if (/^│ +[^\s│]/.test(l) && !r.stdout.split('\n')[i - 1]?.startsWith('┌')) {
      if (block.includes(l)) same.push(l);
      block.push(l);
    }
  }
  assert.deepEqual(same, [], `${what}: rows that read alike`);
}

const WIDTHS = [80, 120];

/** The report fixture, and the same run measured on a busier machine (load 15.9 against 13.2), its cases a little slower. */
function twoRuns(): { base: string; head: string } {
  const dir = join(root, 'runs');
  mkdirSync(dir, { recursive: true });
  const base = JSON.parse(readFileSync(join(fixtures, 'single.json'), 'utf8')) as ResultsFile;
  base.environment.loadAverage.start = [13.2, 12, 11];
  const head = structuredClone(base);
  head.startedAt = '2026-12-05T23:19:10.894Z';
  head.finishedAt = '2026-12-05T23:20:02.113Z';
  head.environment.loadAverage.start = [15.9, 14, 12];
  for (const c of head.cases)
    if (c.status === 'measured') {
      c.time = { ...c.time, mean: c.time.mean * 1.03, median: c.time.median * 1.03 };
      for (const l of c.samples.launches)
        for (const round of l.rounds) round.serializerNs = round.serializerNs.map((x) => x * 1.03);
    }
  const paths = { base: join(dir, 'base.json'), head: join(dir, 'head.json') };
  writeFileSync(paths.base, JSON.stringify(base));
  writeFileSync(paths.head, JSON.stringify(head));
  return paths;
}
const runs = twoRuns();

let ledger: string | null = null;
/** A ledger holding both runs (imported once). */
async function ledgerOfTwo(): Promise<string> {
  if (ledger) return ledger;
  const path = join(root, 'ledger.db');
  const r = await cli(['ledger', 'import', runs.base, runs.head, '--ledger', path], 120);
  assert.equal(r.code, 0, r.stderr);
  ledger = path;
  return path;
}

for (const width of WIDTHS) {
  test(`list at ${width} columns: every line fits, no two rows alike`, async () => {
    const r = await cli(['list'], width);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'list');
    assertSaidOnce(r, 'list');
    // a supported pair is never cut ("weather-station/singl…" twice in a row at 80)
    assert.doesNotMatch(r.stdout, /…/);
  });

  test(`runtimes list at ${width} columns fits`, async () => {
    const r = await cli(['runtimes', 'list', '--cache-dir', join(root, 'cache')], width);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'runtimes list');
    assertSaidOnce(r, 'runtimes list');
  });

  test(`ledger import at ${width} columns fits`, async () => {
    const r = await cli(['ledger', 'import', runs.base, '--ledger', join(root, `import-${width}.db`)], width);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /recorded as run 1 \(16 cases, AMD/);
    assertFits(r.stdout + r.stderr, width, 'ledger import');
    assertSaidOnce(r, 'ledger import');
  });

  test(`ledger list at ${width} columns fits and tells runs apart by what they measured`, async () => {
    const r = await cli(['ledger', 'list', '--ledger', await ledgerOfTwo()], width);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'ledger list');
    assertSaidOnce(r, 'ledger list');
    assert.match(r.stdout, /│ Workloads +│/);
    assert.match(r.stdout, /│ +1 │ [^│]+│ weather-station +│/);
  });

  test(`history at ${width} columns: a summary without a filter, the points with one; every line fits`, async () => {
    const path = await ledgerOfTwo();
    const summary = await cli(['history', '--ledger', path], width);
    assert.equal(summary.code, 0, summary.stderr);
    assertFits(summary.stdout + summary.stderr, width, 'history');
    assertSaidOnce(summary, 'history');
    assert.match(summary.stdout, /^The ledger holds \d+ points of \d+ cases from 2 runs:/);
    assert.match(summary.stdout, /history --workload W/);
    assert.ok(summary.stdout.split('\n').length < 20, `a summary: ${summary.stdout.split('\n').length} lines`);
    const points = await cli(['history', '--ledger', path, '--workload', 'weather-station'], width);
    assert.equal(points.code, 0, points.stderr);
    assertFits(points.stdout + points.stderr, width, 'history --workload');
    assertSaidOnce(points, 'history --workload');
    // the columns left out are said once, not under every case's table
    assert.ok(points.stdout.split('left out').length <= 2);
  });

  test(`compare at ${width} columns: fits, the load said once as a caveat, ratio verdicts given, each caveat once`, async () => {
    const r = await cli(['compare', runs.base, runs.head], width);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'compare');
    assertSaidOnce(r, 'compare');
    const all = r.stdout + r.stderr;
    assert.equal(all.split('⚠ Load 13.2 → 15.9').length, 2, 'the load caveat, once');
    assert.doesNotMatch(all, /not comparable/);
    assert.match(r.stdout, /│ ratio +│/);
    assert.match(r.stdout, /cases in both runs — ratio: /);
    assert.doesNotMatch(r.stdout, /median of the launch means/);
  });

  test(`report at ${width} columns: the lines it prints fit`, async () => {
    const out = join(root, `report-${width}.html`);
    const r = await cli(['report', runs.base, '--out', out], width);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'report');
  });

  test(`probe --direction serialize at ${width} columns: fits, no empty deserialize section`, async () => {
    const r = await cli(
      [
        'probe',
        '--serializer',
        'json,fast-json-stringify',
        '--family',
        'edge',
        '--direction',
        'serialize',
        '--out',
        join(root, `probe-${width}`),
      ],
      width,
    );
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'probe');
    assertSaidOnce(r, 'probe');
    assert.match(r.stdout, /^serialize \(/m);
    assert.doesNotMatch(r.stdout, /^deserialize/m);
  });

  test(`run on a payload at ${width} columns: its found: lines, tables and summary fit; each table once`, async () => {
    const r = await cli(
      [
        'run',
        '--payload',
        payload,
        '--policy',
        'quick',
        '--serializer',
        'json,fast-json-stringify',
        '--direction',
        'serialize',
        '--no-probes',
        '--out',
        join(root, `run-${width}`),
      ],
      width,
    );
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout + r.stderr, width, 'run');
    assertSaidOnce(r, 'run');
    assert.match(r.stderr, /^jsonbench: found: .*\n {2}\S/m, 'a found: line wrapped with a hanging indent');
    const titles = r.stdout.split('\n').filter((l) => /^payload:api-response · /.test(l));
    assert.equal(titles.length, new Set(titles.map((t) => t.split(':')[1])).size, 'each table once');
    assert.match(r.stdout, /^\d+ cases in [\d.]+ s · policy quick/m);
  });
}
