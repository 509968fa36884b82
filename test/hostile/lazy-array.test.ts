import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx28 A01 (test/fixtures/hostile/hx28/lazyarr.config.mjs): a parser counting the records with indexOf and returning
 * an array of that many holes whose prototype is a Proxy that parses the text when an element is read. The gate's
 * reads parsed it, structuredClone copies holes and never looks at a prototype, and the getter walk read only own
 * keys: "use lazyarr (faster by 26.7×)" than JSON.parse. A result with no own value where the expected value has one
 * is now not materialised (measure/materialised.ts).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-lazy-array-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a parser returning holes read through a Proxy prototype is incorrect, naming the first hole (hx28 A01)', async () => {
  const out = join(dir, 'out');
  const config = join(root, 'test/fixtures/hostile/hx28/lazyarr.config.mjs');
  const ran = await cli(
    quickRunArgs(config, 'json,lazyarr', 'deserialize', out, { workload: 'users', size: 100, shape: 'list' }),
    { timeoutMs: 300_000 },
  );
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = results.cases.find((x) => x.serializer === 'lazyarr')!;
  assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}\n${ran.stderr}`);
  assert.match(c.reason!, /the result holds no value of its own at \$\[0\] \(it is read through its prototype\)/);
  assert.equal(results.cases.find((x) => x.serializer === 'json')!.status, 'measured');
  assert.doesNotMatch(ran.stdout, /use lazyarr/);
});
