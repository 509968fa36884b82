import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeResults, prng, roundsOf } from './fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-cli-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const mainUrl = new URL('../../src/cli/main.js', import.meta.url).href;

/** Runs `jsonbench <args>` in `cwd` (a fresh folder: the default ledger lands in its .jsonbench/). */
function jsonbench(args: string[], cwd = dir): { code: number | null; stdout: string; stderr: string } {
  const script = `import(${JSON.stringify(mainUrl)}).then((m) => m.main(${JSON.stringify(args)})).then((c) => { process.exitCode = c; });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
    // messages are matched whole: a width they never wrap at (the widths: test/cli/width.test.ts)
    env: { ...process.env, NO_COLOR: '1', JSONBENCH_LEDGER: '', COLUMNS: '1000' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rand = prng(11);
/** A results file as another machine wrote it: arm64, another CPU and Node. */
const remote = makeResults(
  [
    { serializer: 'json', rounds: roundsOf(rand, 6, 5, 1500, 20) },
    { serializer: 'fast-json-stringify', version: '6.0.1', rounds: roundsOf(rand, 6, 5, 480, 8) },
  ],
  '2025-05-05T05:05:05.005Z',
  { cpuModel: 'Apple M2', arch: 'arm64', os: 'Darwin 24.1.0', node: '22.11.0', runtime: 'node 22.11.0' },
);
const remoteFile = join(dir, 'remote-results.json');
writeFileSync(remoteFile, JSON.stringify(remote, null, 2));

test('ledger import records a results file from another machine; a second import is skipped; export gives it back', () => {
  const first = jsonbench(['ledger', 'import', remoteFile]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /remote-results\.json: recorded as run 1 \(2 cases, Apple M2, node 22\.11\.0\)/);
  assert.ok(existsSync(join(dir, '.jsonbench', 'ledger.db')));
  const again = jsonbench(['ledger', 'import', remoteFile]);
  assert.match(again.stdout, /already in the ledger as run 1; skipped/);
  const out = join(dir, 'exported.json');
  assert.equal(jsonbench(['ledger', 'export', '1', '--out', out]).code, 0);
  // with the mark it was imported with (no sidecar): exported and signed here, it still says it was never checked (hx8)
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), { ...remote, unchecked: 'no sidecar' });
});

test("history shows the imported case with its serializer version and the other machine's runtime", () => {
  const r = jsonbench(['history', '--serializer', 'fast-json-stringify', '--format', 'md']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /## weather-station · 1 · single · serialize · fast-json-stringify/);
  assert.match(
    r.stdout,
    /\| 1 unchecked \| 2025-05-05 05:05 \| fast-json-stringify \| 6\.0\.1 \| node 22\.11\.0 \| 0\.1\.0 \| — \| 4\d\d ns \|/,
  );
});

test('compare takes a results file and a ledger run; the same run against itself is refused (hx5: a gate on it always passed)', () => {
  const r = jsonbench(['compare', remoteFile, '1', '--format', 'md', '--fail-on', 'slower']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /<head>: 1 is the same run as .*remote-results\.json .*a run compared with itself is "same" in every case/,
  );
  assert.equal(r.stdout, '');
});

test('a bad reference, a missing ledger and a bad flag are usage errors (exit 2) naming the culprit', () => {
  const empty = mkdtempSync(join(dir, 'empty-'));
  assert.match(
    jsonbench(['compare', 'nope', 'latest'], empty).stderr,
    /<base>: "nope" is neither a results file nor a ledger run/,
  );
  const missing = jsonbench(['compare', 'latest~1', 'latest'], empty);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--ledger: no ledger at .*\.jsonbench\/ledger\.db/);
  assert.match(
    jsonbench(['compare', remoteFile, remoteFile, '--fail-on', 'worse']).stderr,
    /--fail-on: unknown "worse" \(choose from: slower, broken\)/,
  );
});

test('jsonbench run records every case in the ledger, and the ledger gives back the numbers of results.json', () => {
  const cwd = mkdtempSync(join(dir, 'run-'));
  const r = jsonbench(
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
      '--out',
      'out',
    ],
    cwd,
  );
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  assert.match(r.stdout, /ledger: .*\.jsonbench\/ledger\.db \(run 1\)/);
  const results = JSON.parse(readFileSync(join(cwd, 'out', 'results.json'), 'utf8'));
  const exported = join(cwd, 'exported.json');
  assert.equal(jsonbench(['ledger', 'export', 'latest', '--out', exported], cwd).code, 0);
  assert.deepEqual(JSON.parse(readFileSync(exported, 'utf8')), results);
  const noLedger = mkdtempSync(join(dir, 'noledger-'));
  jsonbench(
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
      '--out',
      'out',
      '--no-ledger',
    ],
    noLedger,
  );
  assert.equal(existsSync(join(noLedger, '.jsonbench')), false);
});

test('a config file can move the ledger (relative to the config); a bad ledger key names itself', () => {
  const cwd = mkdtempSync(join(dir, 'config-'));
  writeFileSync(join(cwd, 'jsonbench.config.mjs'), "export default { ledger: 'history/bench.db' };\n");
  const r = jsonbench(
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
      '--out',
      'out',
    ],
    cwd,
  );
  assert.match(r.stdout, /ledger: .*history\/bench\.db \(run 1\)/, r.stderr);
  assert.ok(existsSync(join(cwd, 'history', 'bench.db')));
  writeFileSync(join(cwd, 'jsonbench.config.mjs'), 'export default { ledger: 5 };\n');
  const bad = jsonbench(
    ['run', '--policy', 'quick', '--workload', 'weather-station', '--serializer', 'json', '--out', 'out2'],
    cwd,
  );
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /jsonbench\.config\.mjs: ledger: must be a path \(string\) or false/);
});

test("ledger import refuses a file with a case this jsonbench cannot read (a newer one's status), naming it: the ledger's copy would lose that case", () => {
  const newer = JSON.parse(
    JSON.stringify(makeResults([{ serializer: 'json' }, { serializer: 'typia' }], '2025-06-06T06:06:06.006Z')),
  ) as { cases: Record<string, unknown>[] };
  const {
    time: _t,
    ratio: _r,
    ratioError: _e,
    ratioInterval: _i,
    allocated: _a,
    allocRatio: _ar,
    ...header
  } = newer.cases[1];
  newer.cases[1] = { ...header, status: 'paused', reason: 'paused' };
  const file = join(dir, 'newer-results.json');
  writeFileSync(file, JSON.stringify(newer));
  const own = mkdtempSync(join(tmpdir(), 'jsonbench-ledger-newer-'));
  try {
    const r = jsonbench(['ledger', 'import', file], own);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      /newer-results\.json: not recorded: case "weather-station\/1\/single\/serialize\/typia" \(\/cases\/1\) has status "paused", which this jsonbench does not know \(a newer jsonbench wrote it\): left out; update jsonbench to read it; a ledger run keeps every case of its file/,
    );
    assert.doesNotMatch(r.stdout, /recorded as run/);
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});
