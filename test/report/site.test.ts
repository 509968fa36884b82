import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { openLedger } from '../../src/ledger/schema.js';
import { recordResults } from '../../src/ledger/record.js';
import { pageFile, renderSite } from '../../src/report/site.js';
import { makeResults, prng, roundsOf } from '../ledger/fixture.js';
import { OUTPUT_DIR } from './support.js';

/**
 * The history site (`jsonbench site`, issue 28 item 3): built from a ledger of three runs, an index
 * linking a page per workload × direction whose charts draw each serializer run by run with error
 * bars, and the latest run's report; opened in headless Chromium (Debian's, by playwright-core)
 * with DOM assertions and a screenshot in test-output/report/.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `Debian's chromium is not installed at ${CHROMIUM} (apt-get install -y chromium); skipping the browser test`;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-site-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ledgerPath = join(dir, 'ledger.db');
const rand = prng(11);
const db = openLedger(ledgerPath);
['2026-12-01T10:00:00.000Z', '2026-12-02T10:00:00.000Z', '2026-12-03T10:00:00.000Z'].forEach((at, i) => {
  recordResults(
    db,
    makeResults(
      [
        { serializer: 'json', rounds: roundsOf(rand, 6, 5, 1950 + 20 * i, 40) },
        { serializer: 'fast-json-stringify', version: `7.3.${8 + i}`, rounds: roundsOf(rand, 6, 5, 640 - 10 * i, 15) },
        { serializer: 'json', direction: 'deserialize', rounds: roundsOf(rand, 6, 5, 2400, 50) },
        { serializer: 'typia', status: 'unsupported', reason: 'no schema' },
      ],
      at,
    ),
    { source: 'import' },
  );
});
db.close();

test('jsonbench site builds an index, a page per workload × direction and the latest report from three runs', async () => {
  const out = join(dir, 'site');
  const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [bin, 'site', '--ledger', ledgerPath, '--out', out], (e, stdout, stderr) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr }),
    ),
  );
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stdout, /^site: .*site\/index\.html \(4 files\)$/m);
  const serialize = pageFile('weather-station/1/single/serialize');
  for (const f of ['index.html', 'latest/report.html', serialize, pageFile('weather-station/1/single/deserialize')])
    assert.ok(existsSync(join(out, f)), f);
  const html = readFileSync(join(out, serialize), 'utf8');
  assert.doesNotMatch(html, /typia/, 'an unsupported case has no point');
  assert.equal((html.match(/<polyline class="series"/g) ?? []).length, 4, 'two series in each of the two charts');
});

test(
  'the site opens in Chromium: links work, each series has a point and an error bar per run, no errors',
  { skip },
  async () => {
    const out = join(dir, 'site');
    assert.ok(existsSync(join(out, 'index.html')), 'the site of the test above');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await page.goto(pathToFileURL(join(out, 'index.html')).href);
      assert.equal(await page.locator('h1').innerText(), 'jsonbench history');
      assert.equal(await page.locator('table').nth(1).locator('tbody tr').count(), 3, 'three runs listed');
      await page.locator('a', { hasText: 'weather-station/1/single/serialize' }).click();
      await page.waitForLoadState();
      assert.match(page.url(), /pages\/weather-station-1-single-serialize\.html$/);
      const time = page.locator('svg.site-chart[data-figure="time per op"]');
      assert.deepEqual(
        (
          await time.locator('polyline.series').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-series')))
        ).sort(),
        ['fast-json-stringify · node 20.20.2', 'json · node 20.20.2'],
      );
      assert.deepEqual(
        await time
          .locator('polyline.series')
          .evaluateAll((ls) => ls.map((l) => (l.getAttribute('points') ?? '').trim().split(/\s+/).length)),
        [3, 3],
      );
      assert.equal(await time.locator('line.error-bar').count(), 6);
      const box = await time.boundingBox();
      assert.ok(box && box.width > 500 && box.height > 200, `the chart is drawn: ${JSON.stringify(box)}`);
      assert.equal(await page.locator('svg.site-chart[data-figure="ratio"] polyline.series').count(), 2);
      assert.equal(await page.locator('table tbody tr').count(), 6, 'every point in the table');
      mkdirSync(OUTPUT_DIR, { recursive: true });
      await page.screenshot({ path: join(OUTPUT_DIR, 'site-page.png'), fullPage: true });
      await page.locator('nav a', { hasText: 'latest run' }).click();
      await page.waitForLoadState();
      assert.match(page.url(), /latest\/report\.html$/);
      assert.match(await page.title(), /jsonbench/);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
);

test('renderSite escapes what the ledger holds and says when there is no run', () => {
  const files = renderSite({ runs: [], points: [], latestReportHtml: null, title: '<b>x</b>' });
  assert.match(files['index.html'], /&lt;b&gt;x&lt;\/b&gt;/);
  assert.doesNotMatch(files['index.html'], /<b>x<\/b>/);
  assert.match(files['latest/report.html'], /No run yet/);
});

test("runs imported from the action's history branch show their commit on the site", async () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [bin, ...args], { cwd: dir }, (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr }),
      ),
    );
  // the history branch's layout (scripts/ci/action.sh history): runs/<UTC time>-<sha, 12 digits>/results.json
  const carried = 'c0ffee1234567890c0ffee1234567890c0ffee12';
  const files = [
    // written before results carried `git`: the commit is in the folder's name alone
    ['runs/20261204T100000Z-0a385e4aa9e3', makeResults([{ serializer: 'json' }], '2026-12-04T10:00:00.000Z')],
    // results.json says its commit itself
    [
      'runs/20261205T100000Z-c0ffee123456',
      { ...makeResults([{ serializer: 'json' }], '2026-12-05T10:00:00.000Z'), git: { commit: carried, dirty: false } },
    ],
  ] as const;
  for (const [folder, results] of files) {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, 'results.json'), JSON.stringify(results));
  }
  const imported = await cli([
    'ledger',
    'import',
    ...files.map(([f]) => `${f}/results.json`),
    '--ledger',
    'history.db',
  ]);
  assert.equal(imported.code, 0, imported.stderr);
  const built = await cli(['site', '--ledger', 'history.db', '--out', 'history-site']);
  assert.equal(built.code, 0, built.stderr);
  const index = readFileSync(join(dir, 'history-site', 'index.html'), 'utf8');
  assert.match(index, /<td>#1<\/td><td>2026-12-04 10:00<\/td><td>0a385e4<\/td>/);
  assert.match(index, /<td>#2<\/td><td>2026-12-05 10:00<\/td><td>c0ffee1<\/td>/);
  assert.doesNotMatch(index, /<td>–<\/td><td>0\.1\.0<\/td>/, 'no run without its commit');
});
