import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A deserializer of the `validate` or `transform` class must reject what its schema rejects
 * (hostile tester hx1 1.2, measure/rejects.ts): before the fix a "validator" that was plain
 * JSON.parse passed the gate (every payload it was given was valid) and was recommended for parsing
 * with type validation, while TypeBox was listed as failing probes for rejecting invalid payloads.
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/hx1/${name}`, import.meta.url));
const configPath = fixture('novalidate.config.mjs');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-validators-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a validate- and a transform-class deserializer that check nothing are incorrect ("does not validate: accepted …"); typebox and zod are measured', async () => {
  const out = join(dir, 'run');
  const ran = await cli([
    'run',
    '--config',
    configPath,
    '--serializer',
    'fastcheck,fasttransform,typebox,zod',
    '--payload',
    fixture('record.json'),
    '--direction',
    'deserialize',
    '--policy',
    'quick',
    '--no-probes',
    '--no-ledger',
    '--out',
    out,
  ]);
  assert.equal(ran.code, 0, ran.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const status = (id: string) => results.cases.find((c) => c.serializer === id)!;
  for (const id of ['fastcheck', 'fasttransform']) {
    const c = status(id);
    assert.equal(c.status, 'incorrect', `${id}: ${c.reason}`);
    assert.match(
      c.reason!,
      /^does not validate: accepted a payload with a wrong type at \$\.\w+ \(.+ where the schema says .+\); a validate or transform deserializer must throw on input its schema rejects/,
    );
    assert.match(c.mismatch!.expected, /^an error \(the schema wants /);
  }
  assert.equal(status('typebox').status, 'measured');
  assert.equal(status('zod').status, 'measured');
  assert.doesNotMatch(ran.stdout, /use fastcheck|use fasttransform/);
});
