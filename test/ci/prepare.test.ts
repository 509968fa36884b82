import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const prepare = fileURLToPath(new URL('../../../scripts/prepare.mjs', import.meta.url));

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

test('prepare builds after npm ci and npm install, and when npx finds no build; not when npx links an already built folder', () => {
  assert.equal(runsBuild(true, 'ci'), true, 'npm ci always builds');
  assert.equal(runsBuild(false, 'ci'), true);
  assert.equal(runsBuild(true, 'install'), true);
  assert.equal(runsBuild(false, 'exec'), true, 'npx in a folder whose build never finished builds');
  assert.equal(runsBuild(true, 'exec'), false, 'npx in a built folder starts the command at once');
});
