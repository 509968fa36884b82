import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderHtml } from '../../src/report/html/page.js';
import { OUTPUT_DIR, fixture, hostileResults } from './support.js';

/**
 * Opens real reports in headless Chromium (Debian's `chromium`, driven by playwright-core): the
 * charts render as SVG, the filters and the baseline choice change the page and the URL hash, a
 * shared hash restores the view, and hostile strings stay text. Screenshots go to
 * test-output/report/.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `Debian's chromium is not installed at ${CHROMIUM} (apt-get install -y chromium); skipping the browser test`;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function open(
  browser: Browser,
  name: string,
  html: string,
  hash = '',
): Promise<{ page: Page; errors: string[]; file: string }> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = join(OUTPUT_DIR, name);
  writeFileSync(file, html);
  const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push(`network request: ${r.url()}`);
  });
  await page.goto(pathToFileURL(file).href + hash);
  await page.waitForSelector('.chart[data-rendered="true"] svg');
  return { page, errors, file };
}

const renderedCharts = (page: Page) => page.locator('.chart[data-rendered="true"] svg').count();
const visibleCharts = (page: Page) => page.locator('.chart:not([style*="display: none"])').count();

test(
  'the HTML report opens offline in Chromium, draws its charts, and its filters and baseline choice work',
  { skip, timeout: 120_000 },
  async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const { page, errors } = await open(browser, 'report.html', renderHtml([fixture('single'), fixture('scaling')]));
      const charts = await renderedCharts(page);
      assert.ok(charts >= 10, `charts drawn: ${charts}`);
      assert.equal(charts, await visibleCharts(page), 'every visible chart container holds an SVG');
      assert.match(await page.locator('.chart[data-kind="ratio"] svg').first().innerHTML(), /fast-json-stringify/);
      assert.ok(
        (await page.locator('.chart[data-kind="scaling"] svg').count()) > 0,
        'the two-size run has scaling charts',
      );
      await page.screenshot({ path: join(OUTPUT_DIR, 'report.png'), fullPage: false });
      await page.screenshot({ path: join(OUTPUT_DIR, 'report-full.png'), fullPage: true });

      const groupsBefore = await page.locator('section.group').count();
      await page.locator('fieldset[data-filter="direction"] input[value="deserialize"]').uncheck();
      assert.match(page.url(), /#direction=serialize$/);
      const groupsAfter = await page.locator('section.group').count();
      assert.ok(groupsAfter > 0 && groupsAfter < groupsBefore, `groups ${groupsBefore} → ${groupsAfter}`);
      assert.equal(await page.locator('section.group h3', { hasText: 'deserialize' }).count(), 0);
      assert.equal(await renderedCharts(page), await visibleCharts(page), 'charts redrawn after filtering');

      await page.locator('section.group').first().locator('button.pick', { hasText: 'typia' }).click();
      assert.match(page.url(), /baseline=typia/);
      const firstTable = page.locator('section.group').first().locator('table.results');
      assert.match(await firstTable.locator('tr.baseline td.name').innerText(), /typia/);
      assert.ok((await firstTable.locator('sup', { hasText: 'd' }).count()) > 0, 'rebased ratios are marked derived');
      assert.match(await page.locator('section.group').first().locator('.takeaway').first().innerText(), /typia/);
      await page.screenshot({ path: join(OUTPUT_DIR, 'report-filtered.png'), fullPage: false });
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await browser.close();
    }
  },
);

test(
  'a shared URL hash restores the view, and a two-target report shows a column group per target with Δ',
  { skip, timeout: 120_000 },
  async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const { page, errors } = await open(
        browser,
        'two-targets.html',
        renderHtml(fixture('two-targets')),
        '#serializer=json,fast-json-stringify,typia&direction=serialize',
      );
      assert.equal(await page.locator('fieldset[data-filter="serializer"] input:checked').count(), 3);
      assert.deepEqual(await page.locator('section.group').first().locator('td.name button').allInnerTexts(), [
        'fast-json-stringify',
        'typia',
        'json',
      ]);
      assert.deepEqual(await page.locator('section.group').first().locator('th.target').allInnerTexts(), [
        'node 20.20.2',
        'bun 1.1.30',
      ]);
      assert.ok((await page.locator('section.group').first().locator('th', { hasText: 'Δ bun 1.1.30' }).count()) === 1);
      await page.screenshot({ path: join(OUTPUT_DIR, 'two-targets.png'), fullPage: false });
      await page.locator('fieldset[data-filter="target"] input[value="bun 1.1.30"]').uncheck();
      assert.equal(
        await page.locator('section.group').first().locator('th.target').count(),
        0,
        'one target left: no column groups',
      );
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await browser.close();
    }
  },
);

test('hostile strings in the results stay text in the browser', { skip, timeout: 120_000 }, async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const { page, errors } = await open(browser, 'hostile.html', renderHtml(hostileResults()));
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.match(await page.locator('.summary').innerText(), /<\/script><script>window\.__pwned = 1<\/script>/);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
});
