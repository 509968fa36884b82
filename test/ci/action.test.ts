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
 * order with GitHub's variables and a stand-in `gh` that keeps each pull request's comments as
 * files. A pull request whose head makes the consumer's serializer 25× slower fails the gate; the
 * unchanged head passes and updates the same comment; another job of a matrix and another pull
 * request get comments of their own; a target that measured nothing is said in the comment, and
 * when nothing at all was compared the gate fails saying so. Pushes keep their results on the
 * history branch: in a fresh repository without an origin (a local branch), then on the origin,
 * each rehearsal in a new folder, leaving no worktree behind.
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

function run(
  args: string[],
  env: Record<string, string> = {},
  dir = state,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) =>
    execFile(
      'bash',
      [rehearse, ...args],
      {
        cwd: consumer,
        env: { ...process.env, ...inputs, REHEARSAL_DIR: dir, ...env },
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out: `${stdout}\n${stderr}` }),
    ),
  );
}
/** The comments of pull request `pr` in the rehearsal folder, by id. */
const comments = (pr: number): Record<string, string> => {
  const dir = join(state, 'comments', `pr-${pr}`);
  return existsSync(dir)
    ? Object.fromEntries(readdirSync(dir).map((f) => [f.replace(/\.md$/, ''), readFileSync(join(dir, f), 'utf8')]))
    : {};
};
const outputs = (dir = state) => readFileSync(join(dir, 'output'), 'utf8');
/** Worktrees registered in the consumer repository (its own checkout is one). */
const worktrees = () =>
  git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;

// the runtimes step's test downloads node@22 from the npm registry: skipped, with the reason, without it
const registry = await new Promise<string>((resolve) =>
  execFile('npm', ['ping', '--fetch-timeout=15000', '--fetch-retries=0'], { timeout: 30_000 }, (error, _o, stderr) =>
    resolve(
      error ? `the npm registry cannot be reached (npm ping: ${stderr.trim().split('\n').pop() ?? error.message})` : '',
    ),
  ),
);
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
  assert.match(regressed.out, /the gate failed: regression: 1 case slower/);
  assert.match(outputs(), /^verdict=fail$/m);
  assert.match(outputs(), /^results=.*\/head\/results\.json$/m);
  const first = Object.values(comments(7));
  assert.equal(first.length, 1, 'one comment');
  const marker = /^<!-- jsonbench-action: node time [0-9a-f]{8} -->\n/;
  assert.match(first[0], marker);
  assert.match(first[0], /\n### jsonbench: regression: 1 case slower \(fails on slower,broken\)\n/);
  const headSha = git('rev-parse', 'HEAD');
  // the runs by ref and commit, never by the runner's folders
  assert.ok(
    first[0].includes(`Base main@${baseSha.slice(0, 12)} → head pr@${headSha.slice(0, 12)} (time, policy default).`),
    first[0].slice(0, 400),
  );
  assert.ok(!first[0].includes(root), 'no runner path in the comment');
  assert.match(first[0], /\| node \| 2 \/ 0 \| 2 \/ 0 \| {2}\|/, 'the target, its cases measured / failed');
  // a caveat mark may follow on a shared machine (⇅: it changed speed between the base's launches; CI 2026-12-07)
  assert.match(first[0], /\| ours \| time \| .* \| \*\*slower(?: [⇅⏹])?\*\* \|/);
  assert.ok(
    first[0].indexOf('<details>') > 0 && first[0].indexOf('<details>') < 2500,
    'a short legend, the rule collapsed',
  );
  assert.equal(worktrees(), 1, 'the base worktree is removed after it was measured');

  git('checkout', '-q', baseSha, '--', 'jsonbench.config.mjs');
  git('commit', '-qam', 'head: back to the base code');
  const unchanged = await run(['pull_request', baseSha, '7']);
  assert.equal(unchanged.code, 0, `the unchanged head passes:\n${unchanged.out.slice(-3000)}`);
  assert.match(outputs(), /^verdict=pass$/m);
  const second = comments(7);
  assert.deepEqual(Object.keys(second), ['1001'], 'the comment is updated, not duplicated');
  assert.match(second['1001'], marker);
  assert.match(second['1001'], /\n### jsonbench: no regression\n/);
  assert.match(unchanged.out, /updated comment 1001/);
});

test('jobs of a matrix and other pull requests keep comments of their own', async () => {
  const before = comments(7)['1001'];
  const quick = { INPUT_POLICY: 'quick' };
  // another job of a matrix on the same pull request (its own comment-id): a second comment
  const other = await run(['pull_request', baseSha, '7'], { ...quick, INPUT_COMMENT_ID: 'serialize on node, job 2' });
  assert.equal(other.code, 0, other.out.slice(-3000));
  assert.deepEqual(Object.keys(comments(7)).sort(), ['1001', '1002']);
  assert.equal(comments(7)['1001'], before, "the other job's comment is untouched");
  assert.match(
    comments(7)['1002'],
    /^<!-- jsonbench-action: serialize on node, job 2 -->\n### jsonbench: no regression/,
  );
  // another pull request: its own comment, whatever the marker
  const pr8 = await run(['pull_request', baseSha, '8'], quick);
  assert.equal(pr8.code, 0, pr8.out.slice(-3000));
  assert.match(pr8.out, /posted the comment/);
  assert.deepEqual(Object.keys(comments(8)), ['1003']);
  assert.deepEqual(Object.keys(comments(7)).sort(), ['1001', '1002']);
  assert.equal(comments(7)['1001'], before);
});

test('a target that measured nothing is said in the comment; with nothing compared the gate fails saying so', async () => {
  const nowhere = 'ssh://nobody@127.0.0.1:1';
  const both = await run(['pull_request', baseSha, '9'], { INPUT_POLICY: 'quick', INPUT_TARGETS: `node,${nowhere}` });
  assert.equal(both.code, 0, `node was compared:\n${both.out.slice(-3000)}`);
  assert.match(both.out, /::warning::jsonbench: target ssh:\/\/nobody@127\.0\.0\.1:1 is not one jsonbench installs/);
  const [comment] = Object.values(comments(9));
  assert.match(comment, /^<!-- jsonbench-action: node,ssh:\/\/nobody@127\.0\.0\.1:1 time [0-9a-f]{8} -->/);
  assert.match(comment, /\| node \| 2 \/ 0 \| 2 \/ 0 \|/);
  assert.match(
    comment,
    /\| ssh:\/\/nobody@127\.0\.0\.1:1 \| 0 \/ 2 \| 0 \/ 2 \| ssh:\/\/nobody@127\.0\.0\.1:1 is not reachable/,
  );
  assert.match(comment, /\| Case \| Serializer \| Target \|/, 'rows say their target');
  assert.match(comment, /\| json \| node \| time \|/);
  assert.match(comment, /- ⚠ Target ssh:\/\/nobody@127\.0\.0\.1:1 measured nothing in base nor head/);
  assert.match(
    readFileSync(join(state, 'summary.md'), 'utf8'),
    /\| ssh:\/\/nobody@127\.0\.0\.1:1 \| 0 \/ 2 \| 0 \/ 2 \|/,
    'the job summary too',
  );

  const none = await run(['pull_request', baseSha, '10'], { INPUT_POLICY: 'quick', INPUT_TARGETS: nowhere });
  assert.equal(none.code, 1, none.out.slice(-3000));
  assert.match(none.out, /the gate failed: gate failed: no case was measured in both runs/);
  const [failed] = Object.values(comments(10));
  assert.match(failed, /\n### jsonbench: gate failed: no case was measured in both runs\n/);
  assert.doesNotMatch(failed, /### jsonbench: regression/);
});

test('pushes keep their results on the history branch: without an origin, then on it, each in a new folder', async () => {
  git('checkout', '-q', 'main');
  const push = async (i: number) => {
    const dir = mkdtempSync(join(root, `push${i}-`));
    const pushed = await run(['push'], { INPUT_POLICY: 'quick' }, dir);
    assert.equal(pushed.code, 0, pushed.out.slice(-3000));
    assert.match(outputs(dir), /^verdict=none$/m);
    return pushed.out;
  };
  // a fresh repository without an origin: the results stay on the local branch, and a line says how to add one
  assert.match(
    await push(1),
    /results kept on the local branch jsonbench-history at runs\/.* \(no origin remote to push to; .*git remote add origin/,
  );
  assert.equal(
    git('ls-tree', '-r', '--name-only', 'jsonbench-history')
      .split('\n')
      .filter((f) => f.endsWith('/results.json')).length,
    1,
  );
  execFileSync('git', ['init', '-q', '--bare', origin]);
  git('remote', 'add', 'origin', origin);
  git('push', '-q', 'origin', 'main');
  // two consecutive rehearsals, each in a fresh folder: neither trips on what the other left
  for (const i of [2, 3]) assert.match(await push(i), /results kept on branch jsonbench-history at runs\//);
  assert.equal(worktrees(), 1, 'no worktree left registered');
  assert.equal(git('status', '--porcelain'), '', 'the checkout is untouched');
  assert.equal(git('rev-parse', '--abbrev-ref', 'HEAD'), 'main');
  const files = execFileSync('git', ['--git-dir', origin, 'ls-tree', '-r', '--name-only', 'jsonbench-history'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
  const runs = files.filter((f) => f.endsWith('/results.json'));
  assert.equal(runs.length, 3, files.join('\n'));
  for (const f of runs) assert.match(f, /^runs\/\d{8}T\d{6}Z-[0-9a-f]{12}\/results\.json$/);
  assert.equal(files.filter((f) => f.endsWith('/report.md')).length, 3);
  // each with its integrity record: `ledger import` of the history checks it (hostile9)
  assert.equal(files.filter((f) => f.endsWith('/results.json.sha256')).length, 3);
  const results = JSON.parse(
    execFileSync('git', ['--git-dir', origin, 'show', `jsonbench-history:${runs[0]}`], { encoding: 'utf8' }),
  ) as { cases: { id: string; status: string }[]; git?: { commit: string; dirty: boolean } };
  assert.deepEqual(results.git, { commit: git('rev-parse', 'main'), dirty: false }, 'the run says its commit');
  assert.deepEqual(results.cases.map((c) => [c.id.split('/').pop(), c.status]).sort(), [
    ['json', 'measured'],
    ['ours', 'measured'],
  ]);
});

/**
 * The action's runtimes step (a new user's first finding: `targets: node,node@22,bun` measured
 * nothing on node@22 and bun, for the action never installed them): a target the runner lacks is
 * installed into $JSONBENCH_CACHE/runtimes with `jsonbench runtimes install`, and the next job (the
 * cache restored) finds it installed and installs nothing. Downloads node@22 from the npm registry
 * (about 16 s here), so it is skipped, with the reason, when the registry cannot be reached.
 */
test(
  'the runtimes step installs a missing target into JSONBENCH_CACHE, and finds it there next time',
  { skip: registry || false },
  async () => {
    const cache = mkdtempSync(join(root, 'cache-'));
    const step = (name: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) =>
        execFile(
          'bash',
          [join(repo, 'scripts/ci/action.sh'), name],
          {
            cwd: consumer,
            env: {
              ...process.env,
              JSONBENCH_CACHE: cache,
              JSONBENCH_ACTION_STATE: join(root, 'runtimes-state'),
              INPUT_TARGETS: 'node,node@22',
            },
            encoding: 'utf8',
            maxBuffer: 64 << 20,
            timeout: 300_000,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out: `${stdout}\n${stderr}` }),
        ),
      );
    assert.equal((await step('install')).code, 0);
    const first = await step('runtimes');
    assert.equal(first.code, 0, first.out.slice(-3000));
    assert.match(
      first.out,
      /jsonbench-action: node: \d+\.\d+\.\d+ is installed/,
      'the host Node is not installed again',
    );
    assert.match(first.out, new RegExp(`installing node@22 into ${cache}/runtimes`));
    assert.match(first.out, /node@22: installed 22\.\d+\.\d+ in /);
    const listed = JSON.parse(
      execFileSync(process.execPath, [join(repo, 'bin/jsonbench.js'), 'runtimes', 'list', '--json'], {
        env: { ...process.env, JSONBENCH_CACHE: cache },
        encoding: 'utf8',
      }),
    ) as { target: string; installed: boolean; where: string | null }[];
    const node22 = listed.find((r) => r.target === 'node@22');
    assert.equal(node22?.installed, true);
    assert.ok(node22?.where?.startsWith(join(cache, 'runtimes', 'node@22')), node22?.where ?? '');
    const again = await step('runtimes');
    assert.equal(again.code, 0, again.out.slice(-3000));
    assert.match(
      again.out,
      new RegExp(`jsonbench-action: node@22: 22\\.\\d+\\.\\d+ is installed \\(${cache}/runtimes/node@22/`),
    );
    assert.doesNotMatch(again.out, /installing node@22/);
  },
);
