import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PayloadError, readPayload, unitTexts } from '../../src/payload/read.js';

/** Reading a payload keeps the user's bytes and names the file and position of bad input. */

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-read-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('a document is kept byte for byte: indentation, escapes and number spelling', () => {
  const path = `${FIXTURES}api-response.json`;
  const source = readPayload(path);
  assert.equal(source.kind, 'document');
  assert.deepEqual(unitTexts(source, 'single'), [readFileSync(path, 'utf8')]);
  assert.match(source.units[0].text, /\\u00e9t\\u00e9 \\"quoted\\" \\\/ slash/);
  assert.match(source.units[0].text, /"weight": 1\.50,/);
  assert.match(source.units[0].text, /"id": 113456789012345678,/);
});

test('NDJSON: each line as given for many, the lines joined into one array for list', () => {
  const path = file('events.ndjson', '{"a":1,  "b":"x"}\n\n{"b":"y","a":2}\r\n');
  const source = readPayload(path);
  assert.deepEqual(unitTexts(source, 'many'), ['{"a":1,  "b":"x"}', '{"b":"y","a":2}']);
  assert.deepEqual(unitTexts(source, 'list'), ['[{"a":1,  "b":"x"},{"b":"y","a":2}]']);
  assert.deepEqual(JSON.parse(unitTexts(source, 'list')[0]), [
    { a: 1, b: 'x' },
    { b: 'y', a: 2 },
  ]);
});

test('a folder holds samples, in name order', () => {
  const source = readPayload(`${FIXTURES}samples`);
  assert.equal(source.kind, 'samples');
  assert.deepEqual(
    source.units.map((u) => u.source.split('/').pop()),
    ['page-1.json', 'page-2.json', 'page-3.json'],
  );
});

test('bad JSON names the file, line and column', () => {
  const path = file('bad.json', '{\n  "a": 1,\n  "b": tru\n}');
  assert.throws(
    () => readPayload(path),
    (e: unknown) => e instanceof PayloadError && e.message.startsWith(`${path}:3:`) && /not valid JSON/.test(e.message),
  );
});

test('a bad NDJSON line names its line number', () => {
  const path = file('bad.ndjson', '{"a":1}\n{"a":2}\n{"a":\n');
  assert.throws(
    () => readPayload(path),
    (e: unknown) => e instanceof PayloadError && e.message.startsWith(`${path}:3`),
  );
});

test('a byte order mark, an empty file and a missing path are refused with the reason', () => {
  assert.throws(() => readPayload(file('bom.json', '\ufeff{"a":1}')), /byte order mark/);
  assert.throws(() => readPayload(file('empty.json', '')), /empty\.json: the file is empty$/);
  // hx3 (issue 25): a whitespace-only file was "empty" too
  assert.throws(
    () => readPayload(file('blank.json', '  \n')),
    /blank\.json: the file holds only whitespace \(3 bytes\), no JSON value$/,
  );
  assert.throws(() => readPayload(join(dir, 'nope.json')), /no such file or folder/);
});

test('duplicate keys in a payload are warned about, naming the file, line, column and key; escaped spellings count, strings and arrays do not (hostile tester: last-wins was silent)', () => {
  const doc = file(
    'dup.json',
    '{\n  "id": 1,\n  "tags": ["id", "id"],\n  "nested": {"a": 1, "b": "{\\"a\\": 2}", "\\u0061": 3},\n  "id": 2\n}\n',
  );
  const r = readPayload(doc);
  assert.deepEqual(r.warnings, [
    'dup.json:4:41: duplicate key "a" in one object: JSON.parse keeps its last value, so every serializer is measured on that one alone (RFC 8259 §4: names should be unique)',
    'dup.json:5:3: duplicate key "id" in one object: JSON.parse keeps its last value, so every serializer is measured on that one alone (RFC 8259 §4: names should be unique)',
  ]);
  const nd = file('dup.ndjson', '{"a":1}\n{"a":1,"b":[{"a":1}],"a":2}\n');
  assert.deepEqual(
    readPayload(nd).warnings?.map((w) => w.split(': dup')[0]),
    [`${nd}:2:22`],
  );
  assert.equal(readPayload(file('fine.json', '{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).warnings, undefined);
});

test('duplicate keys are found in a payload holding a 60 MB string and 5 million escapes (hostile tester hx2: the regex scan overflowed the stack)', async () => {
  const { duplicateKeys } = await import('../../src/payload/duplicate-keys.js');
  const huge = `{"a": ${JSON.stringify('x'.repeat(60e6))}, "a": 1}`;
  assert.deepEqual(duplicateKeys(huge), [{ key: 'a', offset: huge.lastIndexOf('"a"') }]);
  const escapes = `{"s": ${JSON.stringify('x"y\\'.repeat(5e6))}, "k\\"": [{"q": 1, "q": 2}], "k\\"": 0}`;
  assert.deepEqual(
    duplicateKeys(escapes).map((d) => d.key),
    ['q', 'k"'],
  );
});
