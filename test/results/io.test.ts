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
  assert.deepEqual(
    readResults(file).cases.map((c) => c.id),
    results.cases.map((c) => c.id),
  );
});

test('a results file that is not JSON is refused naming the file, the line and the column', () => {
  const file = join(dir, 'broken.json');
  writeFileSync(file, '{\n  "schemaVersion": 2,\n  "tool": jsonbench\n}\n');
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError && e.message.startsWith(`${file}: not valid JSON at line 3, column 11: `),
  );
  writeFileSync(file, '{\n  "schemaVersion": 2,');
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError && e.message.startsWith(`${file}: not valid JSON at line 2, column 22: `),
  );
});

test('times that contradict each other (median above max, min above median, mean outside min–max) are refused naming the case and the field; negative times and errors too (hostile tester: report accepted median > max)', () => {
  const edits: [
    string,
    (t: { mean: number; median: number; min: number; max: number; error: number }) => void,
    RegExp,
  ][] = [
    [
      'median above max',
      (t) => {
        t.median = t.max * 2;
      },
      /at \/cases\/0\/time\/median \(line 1, column \d+\): case "weather-station\/1\/single\/serialize\/json": median [\d.e+]+ ns\/op is above max [\d.e+]+ ns\/op/,
    ],
    [
      'min above median',
      (t) => {
        t.min = t.median * 2;
      },
      /at \/cases\/0\/time\/min \(line 1, column \d+\): case "weather-station\/1\/single\/serialize\/json": min [\d.e+]+ ns\/op is above median [\d.e+]+ ns\/op/,
    ],
    [
      'mean above max',
      (t) => {
        t.mean = t.max * 3;
      },
      /at \/cases\/0\/time\/mean \(line 1, column \d+\): case "weather-station\/1\/single\/serialize\/json": mean [\d.e+]+ ns\/op is above max/,
    ],
    [
      'a negative mean',
      (t) => {
        t.mean = -5;
      },
      /at \/cases\/0\/time\/mean \(line 1, column \d+\): Expected number to be greater or equal to 0 \(found -5\)/,
    ],
    [
      'a negative error',
      (t) => {
        t.error = -1;
      },
      /at \/cases\/0\/time\/error \(line 1, column \d+\): Expected number to be greater or equal to 0 \(found -1\)/,
    ],
  ];
  for (const [name, edit, message] of edits) {
    const results = makeResults([{ serializer: 'json' }]);
    assert.equal(results.cases[0].id, 'weather-station/1/single/serialize/json');
    edit(results.cases[0].time!);
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(results));
    assert.throws(
      () => readResults(file),
      (e: unknown) => e instanceof ResultsFileError && e.message.startsWith(`${file}: `) && message.test(e.message),
      name,
    );
  }
  const coherent = join(dir, 'coherent.json');
  writeFileSync(coherent, JSON.stringify(makeResults([{ serializer: 'json' }])));
  assert.equal(readResults(coherent).cases.length, 1, 'a coherent file still reads');
});

test('a refusal names the line and column of the value in the file beside its JSON path (house rule: file and position), a missing value by the object that lacks it', () => {
  const results = makeResults([{ serializer: 'json' }]);
  const file = join(dir, 'positioned.json');
  const text = JSON.stringify(results, null, 2).replace('"median": ', '"median": -');
  writeFileSync(file, text);
  const line = text.slice(0, text.indexOf('"median": -')).split('\n').length;
  const column = text.split('\n')[line - 1].indexOf('-') + 1;
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError &&
      e.message.startsWith(
        `${file}: at /cases/0/time/median (line ${line}, column ${column}): Expected number to be greater or equal to 0`,
      ) &&
      e.position?.line === line,
  );
  const { time: _, ...noTime } = results.cases[0];
  const lacking = JSON.stringify({ ...results, cases: [noTime] }, null, 2);
  writeFileSync(file, lacking);
  const caseLine = lacking.slice(0, lacking.indexOf('"id": "weather-station')).split('\n').length - 1;
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError &&
      e.path === '/cases/0/time' &&
      e.position?.line === caseLine &&
      /Expected required property/.test(e.message),
  );
});

test('a raw sample too large to be measured (1.7e308) is refused where it stands, with its line, not turned into a NaN or ∞ mean by report or compare (hostile tester)', () => {
  const results = makeResults([{ serializer: 'json' }]);
  const samples = results.cases[0].samples.launches[0].rounds[0].serializerNs;
  assert.ok(samples.length >= 2, 'the fixture has raw samples');
  samples[0] = 1.7e308;
  samples[1] = 1.7e308;
  const file = join(dir, 'huge-sample.json');
  const text = JSON.stringify(results, null, 2);
  writeFileSync(file, text);
  const line = text.slice(0, text.indexOf('1.7e+308')).split('\n').length;
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError &&
      e.message.startsWith(`${file}: at /cases/0/samples/launches/0/rounds/0/serializerNs/0 (line ${line}, column `) &&
      /less or equal to 1000000000000000 \(found 1\.7e\+308\)/.test(e.message),
  );
  samples[0] = 1e15;
  samples[1] = 1e15;
  writeFileSync(file, JSON.stringify(results));
  assert.doesNotThrow(() => readResults(file), 'the bound itself is accepted');
});

test('a non-finite value in a results file (1e309) is named as too large for a float, never as NaN, with its position', () => {
  const results = makeResults([{ serializer: 'json' }]);
  const file = join(dir, 'overflow.json');
  const text = JSON.stringify(results).replace(/"stddev":[^,]+/, '"stddev":1e309');
  writeFileSync(file, text);
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError &&
      e.message.startsWith(`${file}: at /cases/0/time/stddev (line 1, column ${text.indexOf('1e309') + 1}): `) &&
      /found Infinity \(a number too large for a float, e\.g\. 1e309\)/.test(e.message),
  );
});

test('forward compatibility: a finding code this jsonbench does not know is read as it is; a case with an unknown status is left out and listed, naming the file and the case, and the rest of the file is read', () => {
  const results = makeResults([{ serializer: 'json' }, { serializer: 'typia' }, { serializer: 'fast-json-stringify' }]);
  results.cases[0].findings.push({ code: 'gc-pressure', message: 'the GC ran 40% of the time' });
  const file = join(dir, 'newer.json');
  writeFileSync(file, JSON.stringify(results, null, 2));
  assert.deepEqual(
    readResults(file).cases[0].findings.map((f) => f.code),
    ['outliers', 'gc-pressure'],
  );
  const newer = JSON.parse(JSON.stringify(results)) as { cases: Record<string, unknown>[] };
  const {
    time: _t,
    ratio: _r,
    ratioError: _e,
    ratioInterval: _i,
    allocated: _a,
    allocRatio: _ar,
    ...header
  } = newer.cases[1];
  newer.cases[1] = { ...header, status: 'paused', reason: 'paused by the user', resumeToken: 'x' };
  writeFileSync(file, JSON.stringify(newer, null, 2));
  const read = readResults(file);
  assert.deepEqual(
    read.cases.map((c) => c.serializer),
    ['json', 'fast-json-stringify'],
  );
  assert.deepEqual(read.unread, [
    {
      id: 'weather-station/1/single/serialize/typia',
      status: 'paused',
      problem:
        'case "weather-station/1/single/serialize/typia" (/cases/1) has status "paused", which this jsonbench does not know (a newer jsonbench wrote it): left out; update jsonbench to read it',
    },
  ]);
  // a problem in a case after it is still named at its place in the file as written
  (newer.cases[2].time as { median: number }).median = -1;
  writeFileSync(file, JSON.stringify(newer, null, 2));
  assert.throws(
    () => readResults(file),
    (e: unknown) =>
      e instanceof ResultsFileError &&
      e.path === '/cases/2/time/median' &&
      /^.*newer\.json: at \/cases\/2\/time\/median \(line \d+, column \d+\): Expected number to be greater or equal to 0/.test(
        e.message,
      ),
  );
  // a status that is not a string is damage, not a newer jsonbench
  newer.cases[2] = { ...newer.cases[2], status: 3 };
  writeFileSync(file, JSON.stringify(newer));
  assert.throws(
    () => readResults(file),
    (e: unknown) => e instanceof ResultsFileError && e.path === '/cases/2/status',
  );
  // an empty finding code is refused
  results.cases[0].findings[1] = { code: '', message: 'x' };
  writeFileSync(file, JSON.stringify(results));
  assert.throws(
    () => readResults(file),
    (e: unknown) => e instanceof ResultsFileError && e.path === '/cases/0/findings/1/code',
  );
});
