import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Lazy "parsers" (hostile tester hx2, false success): a Proxy that parses on first read compared
 * equal to the payload (the gate's reads parsed it) and was recommended 215× faster than
 * JSON.parse. The gate now requires a materialised result (measure/materialised.ts): no Proxy, no
 * getter where a value belongs.
 */

const config = fileURLToPath(new URL('../../../test/fixtures/hostile/hostile3/lazy.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-lazy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a lazy Proxy result and a result of getters are incorrect, named as lazy; JSON.parse beside them is measured', async () => {
  const out = join(dir, 'lazy');
  const ran = await cli(quickRunArgs(config, 'lazy-proxy,lazy-getters', 'deserialize', out), { timeoutMs: 300_000 });
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stderr, /none of the serializers asked for/);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const of = (id: string) => results.cases.find((c) => c.serializer === id && c.direction === 'deserialize')!;
  assert.equal(of('lazy-proxy').status, 'incorrect');
  assert.match(
    of('lazy-proxy').reason!,
    /^the result is a Proxy \(structuredClone refuses it\): a lazy value computes when read/,
  );
  assert.equal(of('lazy-getters').status, 'incorrect');
  assert.match(of('lazy-getters').reason!, /^the result has a getter at \$\.\w+: a lazy value computes when read/);
  assert.equal(of('json').status, 'measured');
});
