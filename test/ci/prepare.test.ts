import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const prepare = fileURLToPath(new URL('../../../scripts/prepare.mjs', import.meta.url));
const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));

/** A scratch project: scripts/prepare.mjs as shipped, a stand-in build.mjs that leaves a marker, build/ with compiled files, and its completion stamp or not (a build killed half-way). */
function project(built: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-prepare-'));
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(prepare, join(dir, 'scripts/prepare.mjs'));
  writeFileSync(join(dir, 'scripts/build.mjs'), "import { writeFileSync } from 'node:fs'; writeFileSync('built-now', 'yes');\n");
  mkdirSync(join(dir, 'build/src/cli'), { recursive: true });
  writeFileSync(join(dir, 'build/src/cli/main.js'), '');
  if (built) writeFileSync(join(dir, 'build/.complete'), '2026-12-02T00:00:00.000Z\n');
  return dir;
}

/** Runs the hook as npm would for `npm_command`; true when it built. */
function runsBuild(built: boolean, npmCommand: string): boolean {
  const dir = project(built);
  try {
    execFileSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, env: { ...process.env, npm_command: npmCommand } });
    return existsSync(join(dir, 'built-now'));
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('prepare builds after npm ci and npm install, never when npx links the folder (bin/jsonbench.js says when it is not built)', () => {
  assert.equal(runsBuild(true, 'ci'), true, 'npm ci always builds');
  assert.equal(runsBuild(false, 'ci'), true);
  assert.equal(runsBuild(true, 'install'), true);
  assert.equal(runsBuild(false, 'exec'), false, 'npx in a folder whose build never finished: no hidden build (without npm ci it failed silently and broke npx\'s cache entry)');
  assert.equal(runsBuild(true, 'exec'), false, 'npx in a built folder starts the command at once');
});

test('the CLI in a folder without a finished build says to run npm ci, with exit 2, instead of a module-loader stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-nobuild-'));
  try {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(bin, join(dir, 'bin/jsonbench.js'));
    mkdirSync(join(dir, 'build/src/cli'), { recursive: true }); // a build killed half-way: files, no stamp
    let status = 0; let stderr = '';
    try { execFileSync(process.execPath, [join(dir, 'bin/jsonbench.js'), '--version'], { stdio: 'pipe' }); } catch (e) { status = (e as { status: number }).status; stderr = String((e as { stderr: Buffer }).stderr); }
    assert.equal(status, 2);
    assert.match(stderr, /^jsonbench: not built in .*jsonbench-nobuild-.*: run `npm ci` there/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
