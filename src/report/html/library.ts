import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The chart library a report inlines, and how the page's footer credits it. */
export interface ChartLibraryAsset {
  name: string;
  version: string;
  license: string;
  source: string;
}

let cached: ChartLibraryAsset | undefined;

/**
 * Apache ECharts' minified UMD build (`echarts/dist/echarts.min.js`, about 1.1 MB), read once from
 * the installed package so the report can draw its charts offline from a single file. The full
 * build is used because error bars need its `custom` series. Reading a packaged asset is the only
 * IO in rendering. @throws Error when the echarts package is not installed
 */
export function echartsAsset(): ChartLibraryAsset {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const file = require.resolve('echarts/dist/echarts.min');
  const pkg = JSON.parse(readFileSync(join(dirname(file), '..', 'package.json'), 'utf8')) as {
    version: string;
    license: string;
  };
  cached = { name: 'Apache ECharts', version: pkg.version, license: pkg.license, source: readFileSync(file, 'utf8') };
  return cached;
}
