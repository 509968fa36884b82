import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * hx1 1.4: the action never posted its comment and the job stayed green. GH_TOKEN was set only in
 * the install step's `env:`; on GitHub a step's env is its own, so the comment step's `gh api` had
 * no token, and the stand-in gh of the rehearsal ignored tokens, so the rehearsal passed. Now the
 * comment step alone is given the token, the stand-in refuses without one as the real gh does, and
 * the rehearsal gives GH_TOKEN only to the steps whose `env:` names it.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const action = readFileSync(join(repo, 'action.yml'), 'utf8');

/** The env names of the step running `action.sh <step>`, from action.yml's text. */
function stepEnv(step: string): string[] {
  const blocks = action.split(/\n {4}- name:/);
  const block = blocks.find((b) => b.includes(`action.sh" ${step}'`));
  assert.ok(block, `no step runs action.sh ${step}`);
  const env = /\n {6}env:\n((?: {8}.*\n?)*)/.exec(block)?.[1] ?? '';
  return [...env.matchAll(/^ {8}([A-Z_]+):/gm)].map((m) => m[1]);
}

test('the comment step is given GH_TOKEN from the github-token input; install (npm ci runs dependency scripts) is not', () => {
  assert.ok(stepEnv('comment').includes('GH_TOKEN'), 'comment step env');
  assert.match(action, /\n {8}GH_TOKEN: \$\{\{ inputs\.github-token \}\}\n/);
  assert.ok(!stepEnv('install').includes('GH_TOKEN'), 'install step env');
  assert.doesNotMatch(
    readFileSync(join(repo, 'scripts/ci/action.sh'), 'utf8'),
    /GH_TOKEN[^\n]*GITHUB_ENV|inputs\.sh[^\n]*TOKEN/,
  );
});

test('the stand-in gh refuses without a token, as gh does in Actions; with one it posts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-gh-'));
  try {
    const body = join(dir, 'body.txt');
    writeFileSync(body, '<!-- jsonbench-action --> hello');
    const gh = join(repo, 'scripts/ci/fake-gh-bin/gh');
    const args = ['api', '-X', 'POST', 'repos/o/r/issues/7/comments', '-F', `body=@${body}`];
    const env = { PATH: process.env.PATH ?? '', FAKE_GH_DIR: join(dir, 'comments') };
    spawnSync('mkdir', ['-p', env.FAKE_GH_DIR]);
    const without = spawnSync(gh, args, { env, encoding: 'utf8' });
    assert.equal(without.status, 4, without.stderr);
    assert.match(without.stderr, /set the GH_TOKEN environment variable/);
    const withToken = spawnSync(gh, args, { env: { ...env, GH_TOKEN: 't' }, encoding: 'utf8' });
    assert.equal(withToken.status, 0, withToken.stderr);
    assert.match(withToken.stdout, /"id": 1001/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the comment step without a token says so as a warning and posts nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-gh-'));
  try {
    writeFileSync(join(dir, 'inputs.sh'), 'INPUT_COMMENT=true\nPR_NUMBER=7\nCOMMENT_ID=t\n');
    writeFileSync(join(dir, 'comment.md'), 'x');
    const ran = spawnSync('bash', [join(repo, 'scripts/ci/action.sh'), 'comment'], {
      env: {
        PATH: `${join(repo, 'scripts/ci/fake-gh-bin')}:${process.env.PATH ?? ''}`,
        JSONBENCH_ACTION_STATE: dir,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REPOSITORY: 'o/r',
        FAKE_GH_DIR: dir,
      },
      encoding: 'utf8',
    });
    assert.equal(ran.status, 0, ran.stderr);
    assert.match(ran.stdout, /^::warning::jsonbench-action: no GH_TOKEN in the comment step/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
