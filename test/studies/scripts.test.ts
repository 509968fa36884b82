// Every study script under studies/ (issue 27): it compiled (the build type-checks studies/), it
// loads its imports and answers `--help`; the cheap ones also run their smallest case. The list is
// read from the source folder, so a new script is covered without an edit here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const studies = join(root, 'studies');
/** Modules that only export helpers (no command line of their own). */
const LIBRARIES = new Set(['lib/lib.ts']);

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const all = scripts(studies)
  .map((p) => relative(studies, p))
  .filter((p) => !LIBRARIES.has(p))
  .sort();
const built = (rel: string) => join(root, 'build/studies', rel.replace(/\.ts$/, '.js'));
const node = (args: string[], timeout = 120_000) =>
  spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout });

test('studies/: the scripts are found (the list below is not empty by accident)', () => {
  assert.ok(all.length >= 15, `found ${all.length}: ${all.join(', ')}`);
  for (const q of ['clock/q1-twice.ts', 'launch-spread/q2-analyze.ts', 'gc-before-sides/js-gc-study.ts'])
    assert.ok(all.includes(q), q);
});

for (const rel of all)
  test(`studies/${rel} --help: loads and prints its usage`, () => {
    assert.ok(existsSync(built(rel)), `${built(rel)} was not built: is studies/ in tsconfig.json's include?`);
    const r = node([built(rel), '--help']);
    assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr.slice(-1500)}`);
    assert.match(r.stdout, /build\/studies\//, 'the usage names the built script');
  });

test('studies/lib/pair-child + launch-spread: one tiny launch, then q2-trend and q2-analyze read it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-studies-'));
  try {
    const payloadDir = join(dir, 'payloads');
    // the payload through the studies' own helper (the lab's writePayload, seed 42)
    const payloadPath = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { payload } from ${JSON.stringify(join(root, 'build/studies/lib/lib.js'))}; process.stdout.write(await payload('weather-station', 1, ${JSON.stringify(payloadDir)}));`,
      ],
      { encoding: 'utf8' },
    );
    const spec = {
      kind: 'pair',
      workload: 'weather-station',
      size: 1,
      shape: 'single',
      direction: 'serialize',
      caseClass: 'serialize',
      serializer: 'fast-json-stringify',
      baseline: 'json',
      payloadPath,
      rounds: 3,
      samplesPerRound: 2,
      sampleTargetMs: 0.5,
      warmupMinMs: 5,
    };
    const r = node(['--expose-gc', built('lib/pair-child.ts'), JSON.stringify(spec)]);
    assert.equal(r.status, 0, r.stderr.slice(-1500));
    const out = JSON.parse(r.stdout.trim()) as { rounds: { s: { cpu: number[] }; b: { cpu: number[] } }[] };
    assert.equal(out.rounds.length, 3);
    assert.equal(out.rounds[0].s.cpu.length, 2);
    assert.ok(out.rounds.every((x) => x.s.cpu.every((ns) => ns > 0) && x.b.cpu.every((ns) => ns > 0)));
    const line = {
      condition: 'test',
      pair: 'weather-station/serialize/fast-json-stringify~json',
      launch: 0,
      loadBefore: '1 1 1',
    };
    const jsonl = join(dir, 'launches.jsonl');
    writeFileSync(jsonl, [0, 1].map((launch) => JSON.stringify({ ...line, launch, ...out })).join('\n') + '\n');
    const trend = node([built('launch-spread/q2-trend.ts'), jsonl]);
    assert.equal(trend.status, 0, trend.stderr);
    assert.match(trend.stdout, /weather-station\/serialize\/fast-json-stringify~json +L0/);
    const analyze = node([built('launch-spread/q2-analyze.ts'), jsonl]);
    assert.equal(analyze.status, 0, analyze.stderr);
    assert.match(analyze.stdout, /## test weather-station\/serialize\/fast-json-stringify~json: 2 launches/);
    // q2-launches simulates schemes from a pool of at least 4 launches of the pair
    const pool = join(dir, 'pool.jsonl');
    writeFileSync(pool, [0, 1, 2, 3].map((launch) => JSON.stringify({ ...line, launch, ...out })).join('\n') + '\n');
    const launches = node([built('launch-spread/q2-launches.ts'), pool, '--rounds', '3']);
    assert.equal(launches.status, 0, launches.stderr.slice(-1500));
    assert.match(launches.stdout, /weather-station\/serialize\/fast-json-stringify~json/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('studies/group-launch/count-plan: the quick and default policies plan cases', () => {
  const r = node([built('group-launch/count-plan.ts')]);
  assert.equal(r.status, 0, r.stderr.slice(-1500));
  assert.match(r.stdout, /^quick: \d+ cases planned, \d+ measured/m);
  assert.match(r.stdout, /^default: \d+ cases planned, \d+ measured/m);
});

test('studies/ajv-prepare/ajv-compile: the CPU ms of each step of ajv JTD prepare', () => {
  const r = node([built('ajv-prepare/ajv-compile.ts'), 'weather-station']);
  assert.equal(r.status, 0, r.stderr.slice(-1500));
  assert.match(r.stdout, /compileSerializer \d+, again on a new instance \d+, compileParser \d+/);
});

test('studies/clock/clock-probe: the step and freshness of each clock', () => {
  const r = node([built('clock/clock-probe.ts')]);
  assert.equal(r.status, 0, r.stderr.slice(-1500));
  assert.match(r.stdout, /process\.cpuUsage\(\) user\+system +step min \d+ ns, median \d+ ns/);
  assert.match(r.stdout, /after 200 µs busy: min \d+ µs median \d+ µs/);
});

test('studies/v8-flags-and-gc/gc-policy: CPU ns/op by sample index after a full, a minor and no GC', () => {
  const r = node(['--expose-gc', built('v8-flags-and-gc/gc-policy.ts')]);
  assert.equal(r.status, 0, r.stderr.slice(-1500));
  for (const gc of ['full', 'minor', 'none']) assert.match(r.stdout, new RegExp(`^ +${gc} +\\d+ \\d+ \\d+ \\d+$`, 'm'));
});

test('studies/interval-coverage/coverage: the smallest fixed scenario (20 simulated cases, 2 launches)', () => {
  const r = node([built('interval-coverage/coverage.ts'), 'fixed', '--n', '20', '--ks', '2', '--scenario', 'homog']);
  assert.equal(r.status, 0, r.stderr.slice(-1500));
  assert.match(r.stdout, /^# fixed scenario homog; load /m);
  // coverage with its Clopper–Pearson interval (stats4)
  assert.match(r.stdout, /k= 2 ratio cov +\d+\.\d+% \[\d+\.\d+–\d+\.\d+\] \(n=20\)/);
});

test('studies/lib/when-quiet.sh: runs its command once the load is under the limit, and says the load', () => {
  const r = spawnSync('sh', [join(studies, 'lib/when-quiet.sh'), '100000', 'echo', 'ran'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^quiet: load [\d.]+ [\d.]+ [\d.]+ .* at \d\d:\d\d:\d\d\nran\n$/);
});

test('studies/: every study folder has its NOTE.md and a row in studies/README.md', () => {
  const readme = readFileSync(join(studies, 'README.md'), 'utf8');
  const folders = readdirSync(studies, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'lib')
    .map((e) => e.name);
  assert.ok(folders.length >= 10, folders.join(', '));
  for (const f of folders) {
    assert.ok(existsSync(join(studies, f, 'NOTE.md')), `studies/${f}/NOTE.md is missing`);
    assert.ok(readme.includes(`[${f}/](${f}/NOTE.md)`), `studies/README.md has no row for ${f}/`);
  }
});
