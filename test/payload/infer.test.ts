import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPayload, samplesOf } from '../../src/payload/read.js';
import { inferSchema } from '../../src/payload/infer.js';
import type { ObjectSchema, SchemaNode } from '../../src/workloads/schema.js';

/** Inference on the project's fixtures: every construct the issue lists is found, at its path. */

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));
const api = await inferSchema(samplesOf(readPayload(`${FIXTURES}api-response.json`)));
const root = api.schema as ObjectSchema;
const status = (root.properties.statuses as { items: ObjectSchema }).items;

const at = (node: SchemaNode, ...keys: string[]): SchemaNode =>
  keys.reduce((n, k) => (n as ObjectSchema).properties[k], node);

test('keys present in only some objects are optional, the rest required', () => {
  assert.deepEqual(status.optional, ['spoilerText', 'language']);
  assert.deepEqual((status.properties.account as ObjectSchema).optional, ['note']);
  assert.equal((root.properties.page as ObjectSchema).optional, undefined);
});

test('always-null fields are null and always-empty arrays are empty arrays of unknown, each reported', () => {
  assert.deepEqual(status.properties.inReplyToId, { type: 'null' });
  assert.deepEqual(status.properties.mediaAttachments, { type: 'array', items: { type: 'unknown' }, empty: true });
  const kinds = api.findings.map((f) => `${f.kind} ${f.path} ${f.count}`);
  assert.ok(kinds.includes('always null $.statuses[].inReplyToId 12'), kinds.join('\n'));
  assert.ok(kinds.includes('always null $.statuses[].editedAt 12'));
  assert.ok(kinds.includes('always empty $.statuses[].mediaAttachments 12'));
});

test('integers beyond 2^53 are found in the text, width 64, and the rounding is said with an example', () => {
  assert.deepEqual(status.properties.id, { type: 'number', integer: true, width: 64 });
  assert.deepEqual(status.properties.favourites, { type: 'number', integer: true, width: 32 });
  const big = api.findings.find((f) => f.kind === 'integer beyond 2^53')!;
  assert.equal(big.path, '$.statuses[].id');
  assert.equal(big.count, 12);
  assert.match(big.text, /113456789012345678 reads as 113456789012345680/);
});

test('date-time, date, time, uuid, email and uri strings get their format; numbers spelled 1.50 stay numbers', () => {
  assert.equal((status.properties.createdAt as { format?: string }).format, 'date-time');
  assert.equal((status.properties.reminderTime as { format?: string }).format, 'time');
  assert.equal((at(status, 'account', 'birthday') as { format?: string }).format, 'date');
  assert.equal((at(status, 'account', 'id') as { format?: string }).format, 'uuid');
  assert.equal((at(status, 'account', 'email') as { format?: string }).format, 'email');
  assert.equal((at(root, 'page', 'next') as { format?: string }).format, 'uri');
  assert.equal((status.properties.content as { format?: string }).format, undefined);
  assert.deepEqual(status.properties.weight, { type: 'number' });
});

test('a string field seen with a few distinct values stays a string by default; --enums makes it an enum, said in one found: line', async () => {
  assert.deepEqual(status.properties.visibility, { type: 'string' });
  assert.equal(api.findings.filter((f) => f.kind === 'enum').length, 0);
  const closed = await inferSchema(samplesOf(readPayload(`${FIXTURES}api-response.json`)), { enums: true });
  const s = ((closed.schema as ObjectSchema).properties.statuses as { items: ObjectSchema }).items;
  assert.deepEqual(s.properties.visibility, { type: 'enum', values: ['unlisted', 'private', 'public'] });
  const found = closed.findings.filter((f) => f.kind === 'enum');
  assert.deepEqual(
    found.map((f) => f.path),
    ['$.statuses[].visibility'],
  );
  assert.match(
    found[0].text,
    /^\$\.statuses\[\]\.visibility is an enum of the 3 values seen \("unlisted", "private", "public"\) in \d+: a validator refuses any other \(without --enums it is a string\)$/,
  );
});

test('the new-user tryout: a product list whose category (5 values) and variant sizes ("S", "M") repeat stays open strings, so "L" still fits', async () => {
  const categories = ['shoes', 'bags', 'hats', 'socks', 'belts'];
  const products = Array.from({ length: 60 }, (_, i) => ({
    id: i,
    category: categories[i % 5],
    tags: [categories[(i + 1) % 5]],
    variants: [{ size: 'S' }, { size: 'M' }],
  }));
  const text = JSON.stringify({ products });
  const open = await inferSchema([{ value: JSON.parse(text), text, source: 'products-list.json' }]);
  const item = ((open.schema as ObjectSchema).properties.products as { items: ObjectSchema }).items;
  assert.deepEqual(item.properties.category, { type: 'string' });
  assert.deepEqual(item.properties.tags, { type: 'array', items: { type: 'string' } });
  assert.deepEqual(((item.properties.variants as { items: ObjectSchema }).items as ObjectSchema).properties.size, {
    type: 'string',
  });
  assert.deepEqual(open.findings, []);
  // asked for, quicktype's rule closes them, each said once
  const closed = await inferSchema([{ value: JSON.parse(text), text, source: 'products-list.json' }], { enums: true });
  assert.deepEqual(
    closed.findings.filter((f) => f.kind === 'enum').map((f) => f.path),
    ['$.products[].category', '$.products[].tags[]', '$.products[].variants[].size'],
  );
});

test('an object keyed by ids is a record, its values merged (bool | null → nullable boolean)', () => {
  assert.deepEqual(root.properties.accountsById, {
    type: 'record',
    values: {
      type: 'object',
      properties: {
        username: { type: 'string' },
        followers: { type: 'number', integer: true, width: 32 },
        verified: { type: 'boolean', nullable: true },
      },
    },
  });
});

test('objects told apart by a tag are a discriminated union; a string | number field is a union', () => {
  const items = (status.properties.attachments as { items: SchemaNode }).items;
  assert.ok(items.type === 'discriminated', `items are ${items.type}, not a discriminated union`);
  assert.equal(items.discriminator, 'type');
  assert.deepEqual(Object.keys(items.mapping).sort(), ['image', 'video']);
  assert.deepEqual(Object.keys(items.mapping.image.properties), ['url', 'width', 'height']);
  assert.deepEqual(Object.keys(items.mapping.video.properties), ['url', 'durationMs', 'preview']);
  assert.deepEqual(status.properties.score, {
    type: 'union',
    anyOf: [{ type: 'number', integer: true, width: 32 }, { type: 'string' }],
  });
});

test('several samples of one endpoint merge: a key missing from one sample is optional', async () => {
  const merged = await inferSchema(samplesOf(readPayload(`${FIXTURES}samples`)));
  const s = ((merged.schema as ObjectSchema).properties.statuses as { items: ObjectSchema }).items;
  assert.deepEqual(s.optional, ['spoilerText', 'language']);
  assert.equal(merged.findings.find((f) => f.kind === 'integer beyond 2^53')?.count, 12);
});

test('an NDJSON log: one record per line, optional and nullable fields, enums, no over-eager split by level', async () => {
  const source = readPayload(`${FIXTURES}log.ndjson`);
  assert.equal(source.kind, 'ndjson');
  assert.equal(source.units.length, 40);
  assert.deepEqual(source.shapes, ['list', 'many']);
  const log = (await inferSchema(samplesOf(source))).schema as ObjectSchema;
  assert.equal(log.type, 'object');
  assert.deepEqual(log.optional, ['tags', 'error']);
  assert.deepEqual(log.properties.level, { type: 'string' });
  assert.equal((log.properties.user as ObjectSchema).nullable, true);
  assert.equal((log.properties.reqId as { format?: string }).format, 'uuid');
});

test('a 20-record access log whose `level` (info/warn/error) only adds an `error` key on errors stays one object: `level` a string, not a closed union (nu6)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jb-infer-level-'));
  const levels = ['info', 'info', 'warn', 'info', 'error'];
  const lines = Array.from({ length: 20 }, (_, i) => {
    const level = levels[i % levels.length];
    return JSON.stringify({
      ts: `2026-12-05T10:00:${String(i).padStart(2, '0')}.000Z`,
      level,
      path: i % 2 ? '/v2/orders' : '/v2/cart',
      status: level === 'error' ? 500 : level === 'warn' ? 400 : 200,
      durationMs: 100 + i * 7.5,
      ...(level === 'error' ? { error: { code: 'E_DB_TIMEOUT', message: 'query exceeded 2000 ms' } } : {}),
    });
  });
  const file = join(dir, 'access.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const inferred = await inferSchema(samplesOf(readPayload(file)));
  const log = inferred.schema as ObjectSchema;
  assert.equal(log.type, 'object', `the log is a ${log.type}, not one object`);
  assert.deepEqual(log.properties.level, { type: 'string' });
  assert.deepEqual(log.optional, ['error']);
  assert.equal(
    inferred.findings.some((f) => f.kind === 'discriminated union'),
    false,
  );
  // the same log whose errors carry a shape of their own in each level (info: cache, warn: retry, error: error),
  // each level seen 4+ times: a union of three types, as before
  const shaped = lines.map((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    if (o.level === 'info') o.cache = 'hit';
    if (o.level === 'warn') o.retry = 2;
    return JSON.stringify(o);
  });
  const file2 = join(dir, 'shaped.ndjson');
  writeFileSync(file2, `${shaped.join('\n')}\n`);
  const split = (await inferSchema(samplesOf(readPayload(file2)))).schema;
  assert.equal(split.type, 'discriminated');
  assert.deepEqual(Object.keys((split as { mapping: object }).mapping).sort(), ['error', 'info', 'warn']);
});

test('even with --enums, free text is never an enum; names are', async () => {
  const values = Array.from({ length: 40 }, (_, i) => ({
    msg: ['cache miss', 'retrying', 'cache miss', 'done'][i % 4],
    kind: ['a', 'b'][i % 2],
  }));
  const inferred = await inferSchema(
    values.map((v) => ({ value: v, text: JSON.stringify(v), source: 'x.json' })),
    { enums: true },
  );
  const o = inferred.schema as ObjectSchema;
  assert.deepEqual(o.properties.msg, { type: 'string' });
  assert.equal(o.properties.kind.type, 'enum');
});

test('a payload inference cannot represent is refused with the path and the way out (--schema): a "__proto__" key, nesting past 200 levels', async () => {
  const { beyondInference } = await import('../../src/payload/infer.js');
  const proto = JSON.parse('{"a":1,"b":[{"__proto__":{"x":1}}]}');
  assert.equal(
    beyondInference(proto),
    'it has a key named "__proto__" at $.b[0], which schema inference (quicktype-core) drops',
  );
  await assert.rejects(
    inferSchema([{ value: proto, text: '', source: 'proto.json' }]),
    /^Error: proto\.json: it has a key named "__proto__" at \$\.b\[0\].*pass it with --schema/,
  );
  let deep: unknown = 1;
  for (let i = 0; i < 1000; i++) deep = { a: deep };
  assert.match(
    beyondInference(deep) ?? '',
    /^it nests deeper than 200 levels \(at \$(\.a){29}\.…\), which schema inference/,
  );
  assert.equal(beyondInference(JSON.parse('{"constructor":{"y":2},"a":[1,{"b":null}]}')), null);
});

test('a number that overflows a double (1e400) is its own finding (read as Infinity, written as null), not an integer beyond 2^53', async () => {
  const text = '{"n":[12345678901234567890123,1e400,7]}';
  const inferred = await inferSchema([{ value: JSON.parse(text), text, source: 'big.json' }]);
  assert.deepEqual(
    inferred.findings.map((f) => [f.kind, f.count]),
    [
      ['number beyond a double', 1],
      ['integer beyond 2^53', 1],
    ],
  );
  assert.match(
    inferred.findings[0].text,
    /^1 number at \$\.n\[\] overflows a double: JSON\.parse reads 1e400 \(big\.json:1:31\) as Infinity, which every JavaScript serializer here writes as null$/,
  );
});

test('a field holding only numbers beyond a double is described as a number with where the first stands, not as null or an integer beyond 2^53 (hostile tester: 1e400 showed as null, 0.1e-400 as "integer beyond 2^53")', async () => {
  const text = '{"id": 1,\n "big": 1e400, "neg": -1e400, "tiny": 0.1e-400, "s": "1e400", "n": 2.5}';
  const inferred = await inferSchema([{ value: JSON.parse(text), text, source: 'p.json' }]);
  const props = (inferred.schema as { properties: Record<string, unknown> }).properties;
  assert.deepEqual(props.big, { type: 'number' });
  assert.deepEqual(props.neg, { type: 'number' });
  assert.deepEqual(props.tiny, { type: 'number', integer: false });
  assert.deepEqual(
    inferred.findings.map((f) => [f.kind, f.path]),
    [
      ['number beyond a double', '$.big'],
      ['number beyond a double', '$.neg'],
      ['number beyond a double', '$.tiny'],
    ],
  );
  assert.equal(
    inferred.findings[0].text,
    '1 number at $.big overflows a double: JSON.parse reads 1e400 (p.json:2:9) as Infinity, which every JavaScript serializer here writes as null',
  );
  assert.equal(
    inferred.findings[1].text,
    '1 number at $.neg overflows a double: JSON.parse reads -1e400 (p.json:2:23) as -Infinity, which every JavaScript serializer here writes as null',
  );
  assert.equal(
    inferred.findings[2].text,
    '1 number at $.tiny underflows a double: JSON.parse reads 0.1e-400 (p.json:2:39) as 0, which every JavaScript serializer here writes as 0',
  );
  const ndjson = '{"a": 1}\n{"a": 1e999}';
  const records = ndjson
    .split('\n')
    .map((line, i) => ({ value: JSON.parse(line), text: line, source: `log.ndjson:${i + 1}` }));
  assert.match((await inferSchema(records)).findings[0]?.text ?? '', /reads 1e999 \(log\.ndjson:2:7\) as Infinity/);
});

test('a whole number written as a float (100.0, 1E+2) makes its field a number, not an integer; plain integers stay integers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-floats-'));
  writeFileSync(join(dir, 'floats.json'), '{"amount": 100.0, "rate": 2.50, "id": 1, "big": 1E+2}');
  const r = await inferSchema(samplesOf(readPayload(join(dir, 'floats.json'))));
  const props = (r.schema as ObjectSchema).properties;
  assert.equal((props.amount as { integer?: boolean }).integer, false, JSON.stringify(props.amount));
  assert.equal((props.big as { integer?: boolean }).integer, false, JSON.stringify(props.big));
  assert.deepEqual(props.id, { type: 'number', integer: true, width: 32 });
  assert.equal((props.rate as { integer?: boolean }).integer ?? false, false);
});

test('a string field that held one value throughout stays a string; with --enums it becomes a one-value enum, said once (a currency always "EUR")', async () => {
  // the new-user tryout's shape: 15 order lines, currency always "EUR" (quicktype makes an enum of it at this count)
  const lines = Array.from({ length: 15 }, (_, i) => ({
    sku: `SKU-${100 + i}`,
    qty: 1 + (i % 3),
    price: 9.5 + i,
    currency: 'EUR',
  }));
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-enum-'));
  writeFileSync(
    join(dir, 'orders.json'),
    JSON.stringify({
      data: [
        { id: 1, lines: lines.slice(0, 7) },
        { id: 2, lines: lines.slice(7) },
      ],
    }),
  );
  const open = await inferSchema(samplesOf(readPayload(join(dir, 'orders.json'))));
  assert.deepEqual(open.findings, []);
  const inferred = await inferSchema(samplesOf(readPayload(join(dir, 'orders.json'))), { enums: true });
  assert.deepEqual(
    inferred.findings.filter((f) => f.kind === 'enum').map((f) => [f.path, f.count]),
    [['$.data[].lines[].currency', 15]],
  );
  assert.equal(
    inferred.findings.find((f) => f.kind === 'enum')!.text,
    '$.data[].lines[].currency is an enum of the 1 value seen ("EUR") in 15: a validator refuses any other (without --enums it is a string)',
  );
});

test('one document says "the one value seen", never "all 1 values" (new-user tryout); several keep their count', async () => {
  const one = '{"phone":null,"tags":[]}';
  const single = await inferSchema([{ value: JSON.parse(one), text: one, source: 'one.json' }]);
  assert.deepEqual(
    single.findings.map((f) => f.text),
    [
      '$.phone was null in the one value seen: its type is unknown, it is kept as null',
      '$.tags was empty in the one array seen: its item type is unknown',
    ],
  );
  const many = await inferSchema(
    [one, one].map((text, i) => ({ value: JSON.parse(text), text, source: `s${i}.json` })),
  );
  assert.match(many.findings.map((f) => f.text).join('\n'), /^\$\.phone was null in all 2 values: /m);
});

test('decimals with more digits than a double holds are found and said with what JSON.parse reads (hx35 p3)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-decimals-'));
  const file = join(dir, 'decimals.json');
  // 0.1 and 1.50 and 2.5e-3 lose nothing; 1.0000000000000001 and the long ones are rounded
  writeFileSync(
    file,
    '{"price":12345678901234.567891,"ratio":0.1234567890123456789,"plain":[0.1,1.50,2.5e-3,0.30000000000000004],"tiny":1.0000000000000001}\n',
  );
  const { findings } = await inferSchema(samplesOf(readPayload(file)));
  const found = findings.filter((f) => f.kind === 'decimal beyond a double');
  assert.deepEqual(
    found.map((f) => [f.path, f.count]),
    [
      ['$.price', 1],
      ['$.ratio', 1],
      ['$.tiny', 1],
    ],
  );
  assert.match(
    found[0].text,
    /^1 decimal at \$\.price with more digits than a double holds: JSON\.parse rounds them \(12345678901234\.567891 reads as 12345678901234\.568\), so every JavaScript serializer here reads and writes the rounded value$/,
  );
});
