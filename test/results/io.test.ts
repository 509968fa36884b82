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

test('times that contradict each other (median above max, min above median, mean outside min–max) are refused naming the case and the field; negative times and errors too (hostile tester: report accepted median > max)', () => {
  const edits: [string, (t: { mean: number; median: number; min: number; max: number; error: number }) => void, RegExp][] = [
    ['median above max', (t) => { t.median = t.max * 2; }, /at \/cases\/0\/time\/median: case "weather-station\/1\/single\/serialize\/json": median [\d.e+]+ ns\/op is above max [\d.e+]+ ns\/op/],
    ['min above median', (t) => { t.min = t.median * 2; }, /at \/cases\/0\/time\/min: case "weather-station\/1\/single\/serialize\/json": min [\d.e+]+ ns\/op is above median [\d.e+]+ ns\/op/],
    ['mean above max', (t) => { t.mean = t.max * 3; }, /at \/cases\/0\/time\/mean: case "weather-station\/1\/single\/serialize\/json": mean [\d.e+]+ ns\/op is above max/],
    ['a negative mean', (t) => { t.mean = -5; }, /at \/cases\/0\/time\/mean: Expected number to be greater or equal to 0 \(found -5\)/],
    ['a negative error', (t) => { t.error = -1; }, /at \/cases\/0\/time\/error: Expected number to be greater or equal to 0 \(found -1\)/],
  ];
  for (const [name, edit, message] of edits) {
    const results = makeResults([{ serializer: 'json' }]);
    assert.equal(results.cases[0].id, 'weather-station/1/single/serialize/json');
    edit(results.cases[0].time!);
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(results));
    assert.throws(() => readResults(file), (e: unknown) => e instanceof ResultsFileError && e.message.startsWith(`${file}: `) && message.test(e.message), name);
  }
  const coherent = join(dir, 'coherent.json');
  writeFileSync(coherent, JSON.stringify(makeResults([{ serializer: 'json' }])));
  assert.equal(readResults(coherent).cases.length, 1, 'a coherent file still reads');
});
