import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResults } from '../../src/results/io.js';
import { ResultsFileError } from '../../src/results/errors.js';
import { makeResults } from '../ledger/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-io-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a results file that starts with a UTF-8 byte order mark is read as without it', () => {
  const results = makeResults([{ serializer: 'json' }]);
  const file = join(dir, 'bom.json');
  writeFileSync(file, `\ufeff${JSON.stringify(results, null, 2)}\n`);
  assert.deepEqual(readResults(file).cases.map((c) => c.id), results.cases.map((c) => c.id));
});

test('a results file that is not JSON is refused naming the file, the line and the column', () => {
  const file = join(dir, 'broken.json');
  writeFileSync(file, '{\n  "schemaVersion": 2,\n  "tool": jsonbench\n}\n');
  assert.throws(() => readResults(file), (e: unknown) => e instanceof ResultsFileError && e.message.startsWith(`${file}: not valid JSON at line 3, column 11: `));
  writeFileSync(file, '{\n  "schemaVersion": 2,');
  assert.throws(() => readResults(file), (e: unknown) => e instanceof ResultsFileError && e.message.startsWith(`${file}: not valid JSON at line 2, column 22: `));
});
