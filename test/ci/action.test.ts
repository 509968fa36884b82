import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The reusable action (action.yml, issue 28 item 1), end to end on this machine: a sample consumer
 * repository (test/fixtures/ci-consumer: its own payload, serializer and workflow) runs the
 * action's steps through scripts/ci/rehearse-action.sh, which executes action.yml's `run:` lines in
 * order with GitHub's variables and a stand-in `gh` that keeps comments as files. A pull request
 * whose head makes the consumer's serializer 25× slower fails the gate; the unchanged head passes
 * and updates the same comment; two pushes keep two results on the history branch of the origin.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const rehearse = join(repo, 'scripts/ci/rehearse-action.sh');
const root = mkdtempSync(join(tmpdir(), 'jsonbench-action-'));
after(() => rmSync(root, { recursive: true, force: true }));

const consumer = join(root, 'consumer');
const origin = join(root, 'origin.git');
const state = join(root, 'rehearsal');
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: consumer,
    encoding: 'utf8',
  }).trim();

const inputs = {
  INPUT_PAYLOAD: 'response.json',
  INPUT_CONFIG: 'jsonbench.config.mjs',
  INPUT_SERIALIZERS: 'json,ours',
  INPUT_ARGS: '--direction serialize',
};

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) =>
    execFile(
      'bash',
      [rehearse, ...args],
      {
        cwd: consumer,
        env: { ...process.env, ...inputs, REHEARSAL_DIR: state, ...env },
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out: `${stdout}\n${stderr}` }),
    ),
  );
}
const comments = () =>
  existsSync(join(state, 'comments'))
    ? readdirSync(join(state, 'comments')).map((f) => readFileSync(join(state, 'comments', f), 'utf8'))
    : [];
const outputs = () => readFileSync(join(state, 'output'), 'utf8');

cpSync(join(repo, 'test/fixtures/ci-consumer'), consumer, { recursive: true });
git('init', '-q', '-b', 'main');
git('add', '-A');
git('commit', '-qm', 'base');
const baseSha = git('rev-parse', 'HEAD');

test('a crafted regression fails the gate and posts one comment; the unchanged head passes and updates it', async () => {
  git('checkout', '-q', '-b', 'pr');
  cpSync(join(consumer, 'regressed.config.mjs'), join(consumer, 'jsonbench.config.mjs'));
  git('commit', '-qam', 'head: 25 times the work');
  const regressed = await run(['pull_request', baseSha, '7']);
  assert.equal(regressed.code, 1, `the gate fails on the regression:\n${regressed.out.slice(-3000)}`);
  assert.match(regressed.out, /== gate/);
  assert.match(outputs(), /^verdict=fail$/m);
  assert.match(outputs(), /^results=.*\/head\/results\.json$/m);
  const first = comments();
  assert.equal(first.length, 1, 'one comment');
  assert.match(first[0], /^<!-- jsonbench-action -->\n### jsonbench: regression/);
  assert.match(first[0], /\| ours \| time \| .* \| \*\*slower\*\* \|/);

  git('checkout', '-q', baseSha, '--', 'jsonbench.config.mjs');
  git('commit', '-qam', 'head: back to the base code');
  const unchanged = await run(['pull_request', baseSha, '7']);
  assert.equal(unchanged.code, 0, `the unchanged head passes:\n${unchanged.out.slice(-3000)}`);
  assert.match(outputs(), /^verdict=pass$/m);
  const second = comments();
  assert.equal(second.length, 1, 'the comment is updated, not duplicated');
  assert.match(second[0], /^<!-- jsonbench-action -->\n### jsonbench: no regression/);
  assert.match(unchanged.out, /updated comment 1001/);
});

test('pushes to main keep their results on the history branch of the origin', async () => {
  execFileSync('git', ['init', '-q', '--bare', origin]);
  git('checkout', '-q', 'main');
  git('remote', 'add', 'origin', origin);
  git('push', '-q', 'origin', 'main');
  for (let i = 0; i < 2; i++) {
    const pushed = await run(['push'], { INPUT_POLICY: 'quick' });
    assert.equal(pushed.code, 0, pushed.out.slice(-3000));
    assert.match(outputs(), /^verdict=none$/m);
  }
  const files = execFileSync('git', ['--git-dir', origin, 'ls-tree', '-r', '--name-only', 'jsonbench-history'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
  const runs = files.filter((f) => f.endsWith('/results.json'));
  assert.equal(runs.length, 2, files.join('\n'));
  for (const f of runs) assert.match(f, /^runs\/\d{8}T\d{6}Z-[0-9a-f]{12}\/results\.json$/);
  assert.ok(files.some((f) => f.endsWith('/report.md')));
  const results = JSON.parse(
    execFileSync('git', ['--git-dir', origin, 'show', `jsonbench-history:${runs[0]}`], { encoding: 'utf8' }),
  ) as { cases: { id: string; status: string }[] };
  assert.deepEqual(results.cases.map((c) => [c.id.split('/').pop(), c.status]).sort(), [
    ['json', 'measured'],
    ['ours', 'measured'],
  ]);
});
