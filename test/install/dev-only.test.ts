import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { echartsAsset } from '../../src/report/html/library.js';
import { PLAYWRIGHT_HINT, PLAYWRIGHT_VERSION } from '../../src/runtimes/chromium.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

// What a production install (`npm ci --omit=dev`) leaves out, and how the product does without it.

test('report.html inlines the vendored echarts, the very file of the echarts devDependency', () => {
  assert.equal(pkg.dependencies.echarts, undefined, 'echarts is not a production dependency');
  const pinned = pkg.devDependencies.echarts;
  assert.match(pinned, /^\d+\.\d+\.\d+$/, 'pinned exactly');
  const asset = echartsAsset();
  assert.equal(
    asset.version,
    pinned,
    'vendor/echarts/version.json follows the devDependency (npm run build copies it)',
  );
  assert.equal(asset.license, 'Apache-2.0');
  const installed = readFileSync(`${root}node_modules/echarts/dist/echarts.min.js`, 'utf8');
  assert.ok(
    asset.source === installed,
    'vendor/echarts/echarts.min.js differs from node_modules/echarts: run npm run build',
  );
  assert.ok(asset.source.length > 500_000 && asset.source.includes('echarts'), `${asset.source.length} characters`);
  for (const f of ['LICENSE', 'NOTICE'])
    assert.equal(
      readFileSync(`${root}vendor/echarts/${f}`, 'utf8'),
      readFileSync(`${root}node_modules/echarts/${f}`, 'utf8'),
      f,
    );
});

test('playwright-core is a devDependency; the chromium target names the version to add', () => {
  assert.equal(pkg.dependencies['playwright-core'], undefined, 'playwright-core is not a production dependency');
  assert.equal(pkg.devDependencies['playwright-core'], PLAYWRIGHT_VERSION);
  assert.match(
    PLAYWRIGHT_HINT,
    new RegExp(`npm install --no-save playwright-core@${PLAYWRIGHT_VERSION.replaceAll('.', '\\.')} `),
  );
});
