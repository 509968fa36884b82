import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultsFile } from '../../src/results/types.js';
import { results } from '../hostile/support.js';

/**
 * The CI recipe (issue 13 item 8): the workflow runs on pull requests and on main, carries the
 * ledger between runs, and its gate step (scripts/ci/jsonbench-ci.sh compare) writes the Markdown
 * and fails on a slower case — tried on two results files that differ in instruction counts.
 * (Measuring is the same `jsonbench run` the CLI tests cover; scripts/ci/try-locally.sh rehearses it all.)
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repo, 'scripts/ci/jsonbench-ci.sh');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-ci-recipe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function sh(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      'sh',
      [script, ...args],
      { cwd: dir, env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    ),
  );
}

/** The fixture run with an instruction count on every measured case (`perOp` × `factor`). */
function withInstructions(name: string, factor: number): string {
  const r: ResultsFile = results();
  // each file its own run (compare refuses a run compared with itself, hx5)
  const shift = (t: string) =>
    new Date(Date.parse(t) - [...name].reduce((n, ch) => n + ch.charCodeAt(0), 0) * 1000).toISOString();
  r.startedAt = shift(r.startedAt);
  if (r.finishedAt) r.finishedAt = shift(r.finishedAt);
  for (const c of r.cases)
    if (c.status === 'measured')
      c.instructions = {
        perOp: 10_000 * factor,
        iterations: [100, 200],
        totals: [2e6, 3e6 * factor],
        method: 'callgrind',
        tool: 'valgrind-3.19.0',
        flags: ['--predictable'],
      };
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify(r));
  return p;
}

test('the workflow runs on pull requests and pushes to main, carries the ledger in a cache, gates with the script and posts its Markdown', () => {
  const wf = readFileSync(join(repo, '.github/workflows/jsonbench.yml'), 'utf8');
  assert.match(wf, /\bpull_request:/);
  assert.match(wf, /push:\s*\n\s*branches: \[main\]/);
  assert.match(
    wf,
    /actions\/cache\/restore@v4[\s\S]*path: \.jsonbench\/ledger\.db[\s\S]*restore-keys: jsonbench-ledger-/,
  );
  assert.match(wf, /actions\/cache\/save@v4[\s\S]*path: \.jsonbench\/ledger\.db/);
  assert.match(wf, /scripts\/ci\/jsonbench-ci\.sh measure jsonbench-ci\/head \.jsonbench\/ledger\.db/);
  assert.match(
    wf,
    /scripts\/ci\/jsonbench-ci\.sh compare jsonbench-ci\/base jsonbench-ci\/head jsonbench-ci\/compare\.md/,
  );
  assert.match(wf, /gh pr comment .*--body-file jsonbench-ci\/compare\.md/);
  assert.match(wf, /apt-get install -y valgrind/);
  const ci = readFileSync(script, 'utf8');
  assert.match(ci, /--metric instructions --fail-on slower,broken/, 'the gate is on instruction counts');
  assert.match(ci, /--metric instructions"/, 'the suite counts instructions');
});

test('the gate passes on equal instruction counts and fails on a 10% rise, writing the comparison as Markdown either way', async () => {
  const base = withInstructions('base', 1);
  const same = await sh(['compare', base, withInstructions('same', 1), join(dir, 'same.md')]);
  assert.equal(same.code, 0, same.stderr);
  const md = readFileSync(join(dir, 'same.md'), 'utf8');
  assert.match(md, /^### jsonbench: no regression\n/, 'the gate (--fail-on) heads the comparison');
  assert.match(md, /Instructions|instructions/);
  const worse = await sh(['compare', base, withInstructions('worse', 1.1), join(dir, 'worse.md')]);
  assert.equal(worse.code, 1, worse.stderr);
  assert.match(worse.stderr, /failing \(--fail-on slower,broken\)/);
  assert.match(
    readFileSync(join(dir, 'worse.md'), 'utf8'),
    /^### jsonbench: regression: 7 cases slower \(fails on slower,broken\)\n/,
  );
});

test('a comparison that cannot run (a missing results file) is an error, not a passed gate', async () => {
  const r = await sh(['compare', join(dir, 'nope.json'), withInstructions('x', 1), join(dir, 'nope.md')]);
  assert.ok(r.code !== 0 && r.code !== 1, `exit ${r.code}`);
});

test("measure goes on when the run exited 0, or 1 with results.json written (nothing measured, or an older base's exit policy); stops on 1 without results and on any other code", async () => {
  // a stand-in for `jsonbench`: writes <out>/results.json when told to, then exits with the code given
  const fake = join(dir, 'fake-jsonbench.mjs');
  writeFileSync(
    fake,
    "import { mkdirSync, writeFileSync } from 'node:fs';\nconst out = process.argv[process.argv.indexOf('--out') + 1];\nif (process.env.FAKE_WRITE === '1') { mkdirSync(out, { recursive: true }); writeFileSync(`${out}/results.json`, '{}'); }\nprocess.exit(Number(process.env.FAKE_CODE));\n",
  );
  const measure = (name: string, code: number, write: boolean) =>
    sh(['measure', join(dir, name)], {
      JSONBENCH: `node ${fake}`,
      FAKE_CODE: String(code),
      FAKE_WRITE: write ? '1' : '0',
    });
  assert.equal((await measure('m0', 0, true)).code, 0);
  const one = await measure('m1', 1, true);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stderr, /run exited 1 with results written/);
  assert.equal((await measure('m1-none', 1, false)).code, 1, 'exit 1 without results.json: an error of the lab');
  assert.equal((await measure('m2', 2, true)).code, 2, 'a usage error');
});
