import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The README's `import { run } from 'jsonbench'` example, taken from README.md as written (the
 * ```js block after `<!-- example: run() -->`) and run as a user's script would run: in a folder
 * of its own whose node_modules/jsonbench is this package (build/ made by `npm run build`), with
 * the project's API response fixture as its `response.json`. Its numbers are not under test; what
 * it prints, the results file and the recommendation are.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-readme-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The README's code block after `marker`. @throws AssertionError when the README has none */
function exampleAfter(marker: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `README.md has no ${marker}`);
  const m = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(m, `no js block after ${marker}`);
  return m[1];
}

test("the README's run() example runs as written: it measures the payload and prints the recommendation", async () => {
  const code = exampleAfter('<!-- example: run() -->');
  assert.match(code, /import \{ run, recommend \} from 'jsonbench';/);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO, join(dir, 'node_modules', 'jsonbench'), 'dir');
  copyFileSync(join(REPO, 'test', 'fixtures', 'payload', 'api-response.json'), join(dir, 'response.json'));
  writeFileSync(join(dir, 'bench-my-payload.mjs'), code);
  const env = { ...process.env, JSONBENCH_LEDGER: 'off', JSONBENCH_CACHE: join(dir, 'cache') };
  const {
    code: exit,
    stdout,
    stderr,
  } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['bench-my-payload.mjs'], { cwd: dir, env, timeout: 300_000 }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out, stderr: err });
    });
  });
  assert.equal(exit, 0, stderr);
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3, stdout);
  assert.match(lines[0], /^json measured \d+ ns\/op$/);
  assert.match(lines[1], /^fast-json-stringify measured \d+ ns\/op$/);
  assert.match(
    lines[2],
    /^For serializing response\.json \(12\.6 KiB document\) on node \S+, (use fast-json-stringify|use the built-in JSON\.stringify|borderline: fast-json-stringify|no clear winner: the built-in JSON\.stringify)/,
  );
});

test("the README says where the ledger is and where a custom serializer's Version comes from, and both hold", async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const { resolveLedgerPath } = await import('../src/ledger/run-ledger.js');
  const { adapterVersion } = await import('../src/serializers/version.js');
  // the ledger: --ledger relative to the working directory, else $JSONBENCH_LEDGER, else .jsonbench/ledger.db under it (never the config's folder)
  assert.match(readme, /else `\.jsonbench\/ledger\.db` under the working directory \(not the config's folder\)/);
  assert.equal(resolveLedgerPath('/work/dir', undefined, {}), '/work/dir/.jsonbench/ledger.db');
  assert.equal(resolveLedgerPath('/work/dir', 'x.db', { JSONBENCH_LEDGER: '/elsewhere.db' }), '/work/dir/x.db');
  assert.equal(resolveLedgerPath('/work/dir', undefined, { JSONBENCH_LEDGER: 'l.db' }), '/work/dir/l.db');
  // Version: the adapter's packageName, resolved from the config file's folder; n/a without one
  assert.match(readme, /An adapter without `packageName` \(as above\) shows `n\/a`/);
  const adapter = {
    id: 'my-json',
    family: 'builtin',
    directions: ['serialize'],
    supports: () => true,
    prepare: () => ({}),
  } as unknown as Parameters<typeof adapterVersion>[0];
  const config = join(REPO, 'jsonbench.config.mjs');
  assert.equal(adapterVersion(adapter, config), 'n/a');
  const semverVersion = (
    JSON.parse(readFileSync(join(REPO, 'node_modules', 'semver', 'package.json'), 'utf8')) as { version: string }
  ).version;
  assert.equal(adapterVersion({ ...adapter, packageName: 'semver' }, config), semverVersion);
  assert.equal(
    adapterVersion({ ...adapter, packageName: 'semver' }, join(dir, 'no-modules', 'jsonbench.config.mjs')),
    'unknown',
  );
});
