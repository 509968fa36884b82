import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support.js';

/**
 * Config files that attack the host process itself (issue 9, "false success" and "internal
 * crashes"): one that replaces a built-in jsonbench's own code uses, one that ends the process with
 * exit 0 before the command is done, and a folder given as the config.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-configs-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config = (name: string, text: string): string => { const p = join(dir, name); writeFileSync(p, text); return p; };

test('a config that replaces JSON.stringify at its top level is refused with exit 2, naming the file and the built-in', async () => {
  const file = config('patches.config.mjs', 'JSON.stringify = () => "{}";\nexport default {};\n');
  const ran = await cli(['list', '--config', file]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: import: replaced JSON\\.stringify while loading`));
  assert.equal(ran.stderr.includes('internal error'), false);
});

test('a config that calls process.exit(0) while loading makes the command exit 1 and say so, never a silent 0', async () => {
  const file = config('exits.config.mjs', 'process.exit(0);\nexport default {};\n');
  const ran = await cli(['list', '--config', file]);
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stderr, /the process was ended \(process\.exit\(0\)\) before the command finished/);
  assert.equal(ran.stdout, '');
});

test('a folder given as --config is refused with exit 2, saying it is a folder', async () => {
  const ran = await cli(['list', '--config', dir]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /is a folder; give the config file itself/);
});
