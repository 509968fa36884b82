import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
  writeFileSync(
    join(dir, 'scripts/build.mjs'),
    "import { writeFileSync } from 'node:fs'; writeFileSync('built-now', 'yes');\n",
  );
  mkdirSync(join(dir, 'build/src/cli'), { recursive: true });
  writeFileSync(join(dir, 'build/src/cli/main.js'), '');
  if (built) writeFileSync(join(dir, 'build/.complete'), '2026-12-02T00:00:00.000Z\n');
  return dir;
}

/** Runs the hook as npm would for `npm_command`; true when it built. */
function runsBuild(built: boolean, npmCommand: string): boolean {
  const dir = project(built);
  try {
    execFileSync(process.execPath, ['scripts/prepare.mjs'], {
      cwd: dir,
      env: { ...process.env, npm_command: npmCommand },
    });
    return existsSync(join(dir, 'built-now'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('prepare builds after npm ci and npm install, never when npx links the folder (bin/jsonbench.js says when it is not built)', () => {
  assert.equal(runsBuild(true, 'ci'), true, 'npm ci always builds');
  assert.equal(runsBuild(false, 'ci'), true);
  assert.equal(runsBuild(true, 'install'), true);
  assert.equal(
    runsBuild(false, 'exec'),
    false,
    "npx in a folder whose build never finished: no hidden build (without npm ci it failed silently and broke npx's cache entry)",
  );
  assert.equal(runsBuild(true, 'exec'), false, 'npx in a built folder starts the command at once');
});

test('the CLI in a folder without a finished build says to run npm ci, with exit 2, instead of a module-loader stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-nobuild-'));
  try {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(bin, join(dir, 'bin/jsonbench.js'));
    mkdirSync(join(dir, 'build/src/cli'), { recursive: true }); // a build killed half-way: files, no stamp
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [join(dir, 'bin/jsonbench.js'), '--version'], { stdio: 'pipe' });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = String((e as { stderr: Buffer }).stderr);
    }
    assert.equal(status, 2);
    assert.match(stderr, /^jsonbench: not built in .*jsonbench-nobuild-.*: run `npm ci` there/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A scratch project as `npm run build` leaves it: bin/jsonbench.js as shipped, a stand-in CLI that
 * exits 0, src/ with one TypeScript file, and the build stamp listing its folders (scripts/build.mjs's format),
 * all made "at" `builtAt` (ms); returns the folder.
 */
function builtProject(builtAt: number, withSrc = true, withGit = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-stale-'));
  mkdirSync(join(dir, 'bin'));
  if (withGit) mkdirSync(join(dir, '.git'));
  copyFileSync(bin, join(dir, 'bin/jsonbench.js'));
  mkdirSync(join(dir, 'build/src/cli'), { recursive: true });
  writeFileSync(join(dir, 'build/src/cli/main.js'), 'export async function main() { return 0; }\n');
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const files = ['package.json'];
  const dirs: string[] = [];
  if (withSrc) {
    mkdirSync(join(dir, 'src/cli'), { recursive: true });
    writeFileSync(join(dir, 'src/cli/main.ts'), 'export async function main() { return 0; }\n');
    dirs.push('src', 'src/cli');
  }
  const at = new Date(builtAt);
  for (const f of [...files, ...dirs]) utimesSync(join(dir, f), at, at);
  writeFileSync(
    join(dir, 'build/.complete'),
    `${JSON.stringify({ finishedAt: at.toISOString(), finishedAtMs: builtAt + 60_000, sourcesReadAtMs: builtAt, files, dirs })}\n`,
  );
  return dir;
}

/** Runs the CLI in `dir` (a command, not `--version`, which bin/jsonbench.js answers before the check); its stderr. */
function stderrOf(dir: string): string {
  const ran = spawnSync(process.execPath, [join(dir, 'bin/jsonbench.js'), 'list'], { encoding: 'utf8' });
  assert.equal(ran.status, 0, ran.stderr);
  return ran.stderr;
}

test('the CLI warns, naming the folder or file and `npm run build` (`npm ci` for package.json), when a source changed after the build read it (a git pull without a rebuild); never in a fresh build, an installed or packed package (no src/ or no .git) or for a time in the future', () => {
  const builtAt = Date.now() - 3_600_000;
  const dirs: string[] = [];
  try {
    const fresh = builtProject(builtAt);
    dirs.push(fresh);
    assert.equal(stderrOf(fresh), '', 'a build newer than its sources says nothing');
    // git writes a changed file anew (unlink, create): its folder's time moves
    const pulled = builtProject(builtAt);
    dirs.push(pulled);
    rmSync(join(pulled, 'src/cli/main.ts'));
    writeFileSync(join(pulled, 'src/cli/main.ts'), 'export async function main() { return 1; }\n');
    assert.match(
      stderrOf(pulled),
      /^jsonbench: warning: src\/cli changed after the build was made \(it runs the older code\):\n {2}run `npm run build` in .*jsonbench-stale-/,
    );
    const added = builtProject(builtAt);
    dirs.push(added);
    writeFileSync(join(added, 'src/added.ts'), '');
    assert.match(stderrOf(added), /warning: src changed after the build/);
    const later = new Date(builtAt + 10_000);
    const locked = builtProject(builtAt);
    dirs.push(locked);
    utimesSync(join(locked, 'package.json'), later, later);
    assert.match(stderrOf(locked), /warning: package\.json changed after the build .*:\n {2}run `npm ci` in /);
    const installed = builtProject(builtAt, false);
    dirs.push(installed);
    utimesSync(join(installed, 'package.json'), later, later);
    assert.equal(stderrOf(installed), '', 'an installed package (no src/) is never checked');
    // npm pack ships src/ and build/.complete but never package-lock.json, and extraction stamps every file with its own time
    const packed = builtProject(builtAt, true, false);
    dirs.push(packed);
    utimesSync(join(packed, 'src/cli'), later, later);
    assert.equal(stderrOf(packed), '', 'a packed or installed package (no .git) is never checked');
    const future = builtProject(builtAt);
    dirs.push(future);
    const tomorrow = new Date(Date.now() + 86_400_000);
    utimesSync(join(future, 'package.json'), tomorrow, tomorrow);
    assert.equal(
      stderrOf(future),
      '',
      'a time in the future is not judged: the rebuild the warning asks for could not clear it',
    );
    const older = builtProject(builtAt);
    dirs.push(older);
    writeFileSync(join(older, 'build/.complete'), '2026-12-02T00:00:00.000Z\n'); // a stamp from before it listed sources
    utimesSync(join(older, 'src/cli'), later, later);
    assert.equal(stderrOf(older), '', 'a stamp without the list is not checked');
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
