import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../hostile/support.js';

/**
 * A config's serializer has no package, so no version (`n/a`): the recommendation named it "use
 * leafcache n/a (faster by 2.55×)" (hx7, minor). The fixture is that run's results.json (hx7's
 * LC-citm: a quick run of the config serializer `leafcache` on the public citm_catalog.json).
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-unknown-version-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fixture = fileURLToPath(new URL('../../../test/cli/fixtures/unknown-version.json', import.meta.url));

test('a sentence names a serializer of unknown version without one: "use leafcache (faster by …)"', async () => {
  const file = join(dir, 'results.json');
  copyFileSync(fixture, file);
  const md = await cli(['report', file, '--format', 'md', '--out', '-']);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /use leafcache \(faster by 2\.55×\)/);
  assert.doesNotMatch(md.stdout, /leafcache n\/a/);
  const html = join(dir, 'report.html');
  const h = await cli(['report', file, '--format', 'html', '--out', html]);
  assert.equal(h.code, 0, h.stderr);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /use leafcache \(faster by 2\.55×\)/);
  assert.doesNotMatch(page, /leafcache n\/a/);
});
