// The chart library report.html inlines, kept in the repository (vendor/echarts/) so a production
// install (`npm ci --omit=dev`) needs no `echarts` package (67 MB installed for one 1.1 MB file).
// echarts is a devDependency; scripts/build.mjs calls this whenever it is installed, so the copy
// follows the pinned version (a changed copy shows in `git status`; test/install/dev-only.test.ts
// fails when the two differ). Also: `node scripts/vendor-echarts.mjs`.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The files copied from node_modules/echarts into vendor/echarts (the Apache-2.0 licence asks for LICENSE and NOTICE). */
export const ECHARTS_FILES = ['dist/echarts.min.js', 'LICENSE', 'NOTICE'];

/**
 * Copies echarts' minified UMD build, LICENSE and NOTICE from `root`/node_modules/echarts into
 * `root`/vendor/echarts, with a version.json of its name, version and licence; writes only what
 * changed. Returns false (and copies nothing) when echarts is not installed (a production install).
 */
export function vendorEcharts(root = '.') {
  const from = join(root, 'node_modules/echarts');
  if (!existsSync(join(from, 'package.json'))) return false;
  const to = join(root, 'vendor/echarts');
  mkdirSync(to, { recursive: true });
  const same = (a, b) => existsSync(b) && readFileSync(a).equals(readFileSync(b));
  for (const f of ECHARTS_FILES) {
    const target = join(to, f.split('/').pop());
    if (!same(join(from, f), target)) copyFileSync(join(from, f), target);
  }
  const { name, version, license } = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  const manifest = `${JSON.stringify({ name, version, license, copiedFrom: 'node_modules/echarts (scripts/vendor-echarts.mjs)' }, null, 2)}\n`;
  const manifestPath = join(to, 'version.json');
  if (!existsSync(manifestPath) || readFileSync(manifestPath, 'utf8') !== manifest)
    writeFileSync(manifestPath, manifest);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!vendorEcharts()) {
    process.stderr.write('vendor-echarts: echarts is not installed (npm ci with the devDependencies first)\n');
    process.exit(1);
  }
  process.stdout.write('vendor-echarts: vendor/echarts is up to date with node_modules/echarts\n');
}
