// Build: the typia templates of the built-in workloads, written from their schemas
// (src/serializers/typia/write-templates.ts, bundled on the fly with esbuild since nothing is compiled
// yet), then typia's ahead-of-time code generation (typia@12 `generate`, see
// https://typia.io/docs/setup/#generation), then the TypeScript compiler. Run by `npm run build` and
// by `npm ci` through `prepare`.
//
// Two modes, chosen by what is installed:
// - with the devDependencies (`npm ci`): type-check and compile src/, test/, bench/ and studies/ (tsconfig.json);
// - without them (`npm ci --omit=dev`: no @types packages, no test tools): compile src/ only
//   (tsconfig.build.json) with `--noCheck`, i.e. emit without type-checking. The code was checked by
//   the full build in CI; typescript and esbuild are dependencies (typia and the worker bundles need
//   them at build and run time).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { vendorEcharts } from './vendor-echarts.mjs';
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
// A run holds the build it runs from (build/.runs/<pid>.json, src/files/run-lock.ts holdBuild):
// rebuilding would delete the code under it (issue 25: `npm run build` or an `npm install` of this
// folder during a run failed the run). Refuse while a live process on this host holds it; holds of
// dead pids are stale and removed.
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};
const holders = [];
if (existsSync('build/.runs'))
  for (const name of readdirSync('build/.runs')) {
    let hold = null;
    try {
      hold = JSON.parse(readFileSync(`build/.runs/${name}`, 'utf8'));
    } catch {
      // unreadable: stale
    }
    if (hold && hold.host === hostname() && Number.isInteger(hold.pid) && alive(hold.pid)) holders.push(hold);
    else if (!hold || hold.host === hostname()) rmSync(`build/.runs/${name}`, { force: true });
  }
if (holders.length) {
  process.stderr.write(
    `build: refused: build/ is in use by ${holders.length === 1 ? 'a jsonbench run' : `${holders.length} jsonbench runs`} ` +
      `(${holders.map((h) => `pid ${h.pid} since ${h.startedAt}, writing ${h.folder}`).join('; ')}); ` +
      'rebuilding now would delete the code under it. Wait for it to end (or stop it), then build again.\n',
  );
  process.exit(1);
}
// when this build began reading the sources: bin/jsonbench.js warns when one is newer (a `git pull` without a rebuild)
const sourcesReadAtMs = Date.now();
rmSync('build', { recursive: true, force: true });
// the chart library report.html inlines: vendor/echarts follows the echarts devDependency when it is
// installed; a production install uses the committed copy
vendorEcharts();
const scratch = 'node_modules/.cache/jsonbench-build';
mkdirSync(scratch, { recursive: true });
await build({
  entryPoints: ['src/serializers/typia/write-templates.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: `${scratch}/write-templates.mjs`,
  logLevel: 'warning',
});
const { writeTemplates } = await import(pathToFileURL(`${scratch}/write-templates.mjs`).href);
await writeTemplates('src/serializers/typia/templates');
run(process.execPath, [
  'node_modules/typia/lib/executable/typia.js',
  'generate',
  '--input',
  'src/serializers/typia/templates',
  '--output',
  'src/serializers/typia/generated',
  '--project',
  'tsconfig.json',
]);
// every devDependency installed: the full, type-checked build (some @types arrive with production packages too, so test them all)
const dev = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).devDependencies ?? {});
const full = dev.every((name) => existsSync(`node_modules/${name}/package.json`));
if (!full)
  process.stderr.write(
    'build: devDependencies absent: compiling src/ only, without type-checking (tsconfig.build.json --noCheck)\n',
  );
run(process.execPath, [
  'node_modules/typescript/bin/tsc',
  '-p',
  full ? 'tsconfig.json' : 'tsconfig.build.json',
  ...(full ? [] : ['--noCheck']),
]);
// What bin/jsonbench.js's stale-build warning stats: the folders of src/, test/ and bench/ (not the
// typia folders this build writes), and the files that decide the build and the installed packages.
const sources = {
  dirs: [],
  files: ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'].filter((f) => existsSync(f)),
};
const SKIP = new Set(['node_modules', 'src/serializers/typia/generated', 'src/serializers/typia/templates']);
const walk = (dir) => {
  sources.dirs.push(dir);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory() && !e.name.startsWith('.') && !SKIP.has(e.name) && !SKIP.has(rel)) walk(rel);
  }
};
for (const dir of ['src', 'test', 'bench']) if (existsSync(dir)) walk(dir);
// written last: bin/jsonbench.js trusts a build only when this stamp says it finished (a build killed
// half-way leaves build/ without it), and warns when a source changed after the build read it
writeFileSync(
  'build/.complete',
  `${JSON.stringify({ finishedAt: new Date().toISOString(), finishedAtMs: Date.now(), sourcesReadAtMs, ...sources })}\n`,
);
