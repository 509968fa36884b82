#!/usr/bin/env node
// Entry point installed as `jsonbench`: the compiled CLI lives in build/ (made by `npm run build`,
// which `npm ci` runs through the `prepare` script; scripts/build.mjs writes build/.complete last).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(new URL('../build/.complete', import.meta.url))) {
  // a clone without `npm ci`, or a build killed half-way: say what to do instead of a module-loader stack
  process.stderr.write(
    `jsonbench: not built in ${root}: run \`npm ci\` there (or \`npm run build\` when the dependencies are installed)\n`,
  );
  process.exit(2);
}

// `--version` alone is answered here, before the CLI and commander load (issue 22: start-up at most
// 1.5x `node -e 0`'s CPU time; commander alone costs ~18 ms over it). The same text commander prints.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}

/**
 * The first source that changed after the build read it, or undefined: a `git pull` or `git
 * checkout` without `npm run build` left build/ compiled from older sources, which then ran
 * silently. The build stamp (scripts/build.mjs) lists the folders of src/, test/ and bench/ and the
 * root files that decide the build (package.json, package-lock.json, the tsconfigs): each file must
 * be no newer than when the build began reading (`sourcesReadAtMs`), each folder no newer than the
 * build's end (git writes a changed file anew, so its folder's time moves; so does a file added,
 * removed or saved by rename; the typia folders the build writes into change during it). A file
 * edited in place (an editor that overwrites) is not seen: statting every source (~400) cost 22–35 ms
 * in a fresh process at load 7 on this project's 2-core host, the 78 folders and files 2.6–4.5 ms of
 * CPU (2.4–19 ms wall, median 7, at load 7.7; 20 fresh processes, 2026-12-02). The .NET worker (workers/) is not checked: the runner rebuilds it whenever its
 * sources' hash changes. Skipped outside a git checkout (no .git: an installed or packed package,
 * which may ship src/ but never package-lock.json, and whose files carry the extraction time) or
 * where the stamp lists nothing (a build made before it did). A time in the future is not judged (a
 * clock set back, or `touch -d`: a rebuild could never clear it). A swap file an editor creates and
 * removes moves its folder's time too, so it warns until the next build (hostile tester).
 */
function staleSource() {
  if (!existsSync(join(root, 'src')) || !existsSync(join(root, '.git'))) return undefined;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, 'build/.complete'), 'utf8'));
  } catch {
    return undefined;
  }
  const { sourcesReadAtMs: read, finishedAtMs: done, files, dirs } = stamp ?? {};
  if (typeof read !== 'number' || typeof done !== 'number' || !Array.isArray(files) || !Array.isArray(dirs))
    return undefined;
  const now = Date.now();
  const changed = (rel, since) => {
    const t = statSync(join(root, String(rel)), { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
    return t > since && !(Number.isFinite(t) && t > now);
  };
  return files.find((f) => changed(f, read)) ?? dirs.find((d) => changed(d, done));
}

const stale = staleSource();
if (stale) {
  const fix = /^package(-lock)?\.json$/.test(stale) ? '`npm ci`' : '`npm run build`';
  process.stderr.write(
    `jsonbench: warning: ${stale} changed after the build was made (it runs the older code):\n  run ${fix} in ${root}\n`,
  );
}
// main.js imports files/process-end.js statically: it takes Node's exit and the fs functions it checks the
// last files with before any user code loads
let loaded;
try {
  loaded = await import('../build/src/cli/main.js');
} catch (e) {
  // hx19 U01: under `ulimit -n 30` loading jsonbench's own modules failed with EMFILE and Node's raw stack
  const code = e && typeof e === 'object' ? e.code : undefined;
  const why =
    code === 'EMFILE' || code === 'ENFILE'
      ? `too many open files (${code}) while loading jsonbench's own modules: raise the limit (ulimit -n) and run again`
      : `jsonbench's own modules could not be loaded (${e && typeof e === 'object' && 'message' in e ? String(e.message).split('\n')[0] : String(e)}): run \`npm ci\` in ${root}`;
  process.stderr.write(`jsonbench: error: ${why}\n`);
  process.exit(2);
}
const { main, endProcess } = loaded;
// The command is over: its last files are checked (one a config's timer changed is written back) and
// the process ends through Node's native exit, so no 'exit' listener a config added runs after the
// results were written (hx5's exit-rewrite rewrote results.json from one), a timer or socket it left
// open neither keeps the process alive nor runs, and no listener changes the exit code.
main(args).then(
  endProcess ??
    ((code) => {
      process.exitCode = code;
    }),
);
