import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The chart library a report inlines, and how the page's footer credits it. */
export interface ChartLibraryAsset {
  name: string;
  version: string;
  license: string;
  source: string;
}

let cached: ChartLibraryAsset | undefined;

/** vendor/echarts/ at the repository's root (this file runs from build/src/report/html/). */
const VENDOR = new URL('../../../../vendor/echarts/', import.meta.url);

/**
 * Apache ECharts' minified UMD build (`echarts.min.js`, about 1.1 MB), read once from the copy in
 * vendor/echarts/ (kept by scripts/vendor-echarts.mjs from the echarts devDependency, so a
 * production install needs no echarts package) so the report can draw its charts offline from a
 * single file. The full build is used because error bars need its `custom` series. Reading a
 * packaged asset is the only IO in rendering. @throws Error naming the file when the copy is missing
 */
export function echartsAsset(): ChartLibraryAsset {
  if (cached) return cached;
  const file = fileURLToPath(new URL('echarts.min.js', VENDOR));
  const manifest = fileURLToPath(new URL('version.json', VENDOR));
  if (!existsSync(file) || !existsSync(manifest))
    throw new Error(
      `the chart library is missing: ${file} (restore vendor/echarts/ from git, or run npm run build with the devDependencies installed)`,
    );
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; license: string };
  cached = { name: 'Apache ECharts', version: pkg.version, license: pkg.license, source: readFileSync(file, 'utf8') };
  return cached;
}
