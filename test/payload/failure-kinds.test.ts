import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromJsonSchema } from '../../src/payload/json-schema-import.js';
import { refineSchema } from '../../src/payload/refine.js';
import { payloadTexts, resolvePayload, type ResolvedPayload } from '../../src/payload/workload.js';
import { documentSource } from './support.js';
import { payloadWorkloads } from '../../src/payload/workload.js';
import { readResults } from '../../src/results/io.js';
import type { SchemaNode } from '../../src/workloads/schema.js';
import { enclosingValue, explainRejection } from '../../src/payload/explain.js';

/**
 * Issue 24: every real payload answers. One small payload per failure kind a new user hit — a
 * self-similar document (one level and two levels deep), an object used as a map holding itself,
 * a schema whose variant payload cannot be generated, bytes that are not UTF-8 (and UTF-16, NUL),
 * integers beyond 2^53 that are exact against ones JSON.parse rounds, an NDJSON file with a header
 * row — each with its status, reason and exit code asserted; none is an internal error. Spawns
 * `node bin/jsonbench.js` (run `npm run build` first) in a temporary folder.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const PUBLIC = fileURLToPath(new URL('../../../test/fixtures/payload/public/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jsonbench-failure-kinds-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Ran> {
  // COLUMNS: messages are matched whole, never wrapped (the widths: test/cli/width.test.ts)
  const env = {
    ...process.env,
    JSONBENCH_LEDGER: 'off',
    NO_COLOR: '1',
    COLUMNS: '1000',
    JSONBENCH_CACHE: join(root, 'cache'),
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

const write = (name: string, content: string | Buffer) => {
  const path = join(root, name);
  writeFileSync(path, content);
  return path;
};

/** No run of these may end as an internal error (exit 1 with "please report it"). */
const notInternal = (r: Ran) => assert.doesNotMatch(r.stderr, /internal error|please report/i, r.stderr);

type JsonSchemaLike = { properties?: Record<string, JsonSchemaLike>; items?: JsonSchemaLike; required?: string[] };

test('a self-similar document (a retweet holding a status of its own type, one level deep) infers a schema nested to the depth seen, with a finding', async () => {
  const r = await cli(['run', '--payload', join(PUBLIC, 'twitter-search.json'), '--print-schema']);
  notInternal(r);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /\$\.statuses\[\]\.retweeted_status holds an object of its own type \(Status\), 1 level deep in the samples/,
  );
  const schema = JSON.parse(r.stdout) as JsonSchemaLike;
  const status = schema.properties!.statuses.items!;
  const retweeted = status.properties!.retweeted_status;
  assert.ok(!status.required!.includes('retweeted_status'), 'optional at the top level');
  assert.equal(retweeted.properties!.text !== undefined, true);
  assert.equal(retweeted.properties!.retweeted_status, undefined, 'no sample holds a third level');
  assert.deepEqual(retweeted.properties!.user.properties!.screen_name, { type: 'string' });
});

test('self-similar nesting two levels deep unfolds twice; measuring it with a schema-driven validator and with JSON.parse both run (exit 0)', async () => {
  const st = (i: number, extra: object = {}) => ({
    id: i,
    text: `t${i}`,
    lang: 'ja',
    user: { id: i, name: 'u' },
    ...extra,
  });
  const doc = { statuses: [st(1), st(2, { quoted: st(3, { quoted: st(4) }) })] };
  const file = write('quoted-twice.json', JSON.stringify(doc));
  const printed = await cli(['run', '--payload', file, '--print-schema']);
  notInternal(printed);
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(printed.stderr, /\$\.statuses\[\]\.quoted holds an object of its own type \(Status\), 2 levels deep/);
  const schema = JSON.parse(printed.stdout) as JsonSchemaLike;
  const q1 = schema.properties!.statuses.items!.properties!.quoted;
  const q2 = q1.properties!.quoted;
  assert.deepEqual(Object.keys(q2.properties!).sort(), ['id', 'lang', 'text', 'user']);

  const out = join(root, 'out-quoted');
  const ran = await cli([
    'run',
    '--payload',
    file,
    '--policy',
    'quick',
    '--serializer',
    'json,zod',
    '--direction',
    'deserialize',
    '--no-probes',
    '--out',
    out,
  ]);
  notInternal(ran);
  assert.equal(ran.code, 0, ran.stderr);
  const results = readResults(join(out, 'results.json'));
  const status = Object.fromEntries(results.cases.map((c) => [c.serializer, c.status]));
  assert.deepEqual(status, { json: 'measured', zod: 'measured' });
});

test('an object used as a map holding itself (a tree keyed by id) unfolds its map values to the depth seen', () => {
  const jsonSchema = {
    $ref: '#/definitions/Node',
    definitions: {
      Node: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          children: { type: 'object', additionalProperties: { $ref: '#/definitions/Node' } },
        },
        required: ['name', 'children'],
      },
    },
  };
  assert.throws(
    () => fromJsonSchema(jsonSchema),
    /recursive schema: #\/definitions\/Node refers to itself at \$\.children\.\*/,
  );
  const { schema } = fromJsonSchema(jsonSchema, { recursive: 'defer' });
  const value = { name: 'a', children: { '1': { name: 'b', children: { '2': { name: 'c', children: {} } } } } };
  const { schema: unfolded, findings } = refineSchema(schema, [{ value, text: JSON.stringify(value) }]);
  const leafNode: SchemaNode = {
    type: 'object',
    properties: { name: { type: 'string' }, children: { type: 'record', values: { type: 'unknown' } } },
  };
  const expected: SchemaNode = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      children: {
        type: 'record',
        values: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'record', values: leafNode } },
        },
      },
    },
  };
  assert.deepEqual(JSON.parse(JSON.stringify(unfolded)), expected);
  assert.deepEqual(
    findings.map((f) => [f.kind, f.path, f.count]),
    [['self-similar', '$.children.*', 2]],
  );
});

test("a user's recursive --schema is refused before the run with exit 2, naming the $ref and the path (a usage error, not an internal one)", async () => {
  const schema = write(
    'tree.schema.json',
    JSON.stringify({
      $ref: '#/definitions/Node',
      definitions: {
        Node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/definitions/Node' } } },
          required: ['children'],
        },
      },
    }),
  );
  const payload = write('tree.json', '{"children":[{"children":[]}]}');
  const r = await cli(['run', '--payload', payload, '--schema', schema, '--print-schema']);
  notInternal(r);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /--schema: .*tree\.schema\.json: recursive schema: #\/definitions\/Node refers to itself at \$\.children\[\]/,
  );
});

test("a schema json-schema-faker cannot generate from gives the payload itself as the gate's variant and a note naming why, instead of stopping the run", () => {
  const source = documentSource('{"kind":"a","n":1}', 'drift.json');
  // an enum with no values: json-schema-faker throws "generateEnumConst called without enum or const"
  const schema: SchemaNode = {
    type: 'object',
    properties: { kind: { type: 'enum', values: [] }, n: { type: 'number', integer: true } },
  };
  const payload: ResolvedPayload = {
    source,
    schema,
    origin: { library: 'inferred', unconverted: [] },
    findings: [],
    workloads: payloadWorkloads(source, schema),
  };
  const texts = payloadTexts(payload, payload.workloads[0], 1, 42);
  assert.equal(texts.text, '{"kind":"a","n":1}');
  assert.equal(texts.variant, texts.text);
  assert.match(
    texts.variantNote ?? '',
    /^the gate's second payload of payload:drift could not be generated from its schema \(json-schema-faker: generateEnumConst called without enum or const at \/properties\/kind\): the gate checked it on the first payload only$/,
  );
});

test('bytes that are not UTF-8, a UTF-16 byte order mark and a NUL byte are refused with exit 2 and the byte offset, never rewritten to U+FFFD', async () => {
  const latin1 = write(
    'latin1.json',
    Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
  );
  const a = await cli(['run', '--payload', latin1, '--print-schema']);
  notInternal(a);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /latin1\.json:1:13 \(byte offset 12\): bytes that are not UTF-8 \(E9 22 7D…\)/);
  assert.equal(a.stdout, '');

  const utf16 = write('utf16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')]));
  const b = await cli(['run', '--payload', utf16, '--print-schema']);
  notInternal(b);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /utf16\.json: starts with a UTF-16 byte order mark \(bytes FF FE at byte offset 0\)/);

  const nul = write('nul.json', Buffer.from('{"a":"x\u0000y"}'));
  const c = await cli(['run', '--payload', nul, '--print-schema']);
  notInternal(c);
  assert.equal(c.code, 2);
  assert.match(c.stderr, /nul\.json:1:8 \(byte offset 7\): a NUL byte, which JSON text cannot hold unescaped/);

  // a U+FFFD the file really holds (EF BF BD) and an escaped NUL are the user's text: read as they are
  const real = write('replacement.json', '{"a":"\uFFFD","b":"\\u0000"}');
  const d = await cli(['run', '--payload', real, '--print-schema']);
  assert.equal(d.code, 0, d.stderr);
});

test('integers beyond 2^53 get a warning only where String(JSON.parse(s)) !== s, with a real example', async () => {
  // 144179670739456000 is a double exactly (it prints back as itself); 9007199254740993 reads as 9007199254740992
  const file = write('ids.json', '{"exact":[144179670739456000,144179670739456000],"rounded":[9007199254740993,1]}');
  const r = await cli(['run', '--payload', file, '--print-schema']);
  notInternal(r);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /\$\.exact/);
  assert.match(
    r.stderr,
    /1 integer beyond 2\^53 at \$\.rounded\[\]: JSON\.parse rounds them \(9007199254740993 reads as 9007199254740992\)/,
  );
  const schema = JSON.parse(r.stdout) as { properties: Record<string, { items: { format?: string } }> };
  assert.equal(schema.properties.exact.items.format, 'int64', 'still a 64-bit field');
});

test('an NDJSON file whose first line is a header row says so; its records are measured in one shape (many) unless --shape asks for both', async () => {
  const file = write('table.ndjson', '["id","name","price"]\n[1,"pen",2.5]\n[2,"cup",4]\n');
  const r = await cli(['run', '--payload', file, '--print-schema']);
  notInternal(r);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /table\.ndjson:1: the first line looks like a header row \(\["id","name","price"\]\): its cells are all strings, while the other rows hold 2 columns of other values \("id", "price"\)/,
  );
  const one = await resolvePayload(file);
  assert.deepEqual(one.workloads[0].shapes, ['many']);
  const both = await resolvePayload(file, { shapes: ['list', 'many'] });
  assert.deepEqual(both.workloads[0].shapes, ['list', 'many']);
  const generated = await resolvePayload(file, { sizes: [10] });
  assert.deepEqual(generated.workloads[0].shapes, ['list']);

  const bad = await cli(['run', '--payload', join(PUBLIC, 'openweather-current.json'), '--shape', 'many']);
  notInternal(bad);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--shape: applies to records \(an NDJSON file, or --size\)/);
  const typo = await cli(['run', '--payload', file, '--shape', 'lists']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /--shape: "lists" is not a shape of records/);
});

test('every public fixture names its source and licence in the folder README', () => {
  const readme = readFileSync(join(PUBLIC, 'README.md'), 'utf8');
  for (const f of [
    'twitter-search.json',
    'github-repository.json',
    'jsonplaceholder-posts.json',
    'openweather-current.json',
    'usgs-earthquakes.json',
    'geocode-ok.json',
  ])
    assert.match(
      readme,
      new RegExp(`\\| \`${f.replace('.', '\\.')}\` \\|[^\\n]*\\| [^|\\n]*(MIT|CC|public domain)[^|\\n]* \\|`),
      f,
    );
});

test("a library's rejection 'at position N' of the payload's own text names the smallest value there that JSON.parse reads", () => {
  const text = '{\n  "results": [],\n  "meta": { },\n  "status": "OK"\n}';
  const at = text.indexOf('}', text.indexOf('"meta"'));
  assert.deepEqual(enclosingValue(text, at), [text.indexOf('{ }'), at + 1]);
  assert.equal(
    explainRejection(text, `unexpected token } at position ${at}`),
    `at character ${at} (line 3, column 13) your payload holds "{ }" (an empty object or array with whitespace inside: ajv-validator/ajv#2595 for ajv JTD), valid JSON that JSON.parse reads: the library's parser rejects it, a limitation of the library, not of your payload or its schema`,
  );
  assert.equal(explainRejection(text, 'Expected string, received number'), null, 'no position, nothing to say');
  // a position inside a large value: a window around it, said as valid JSON rejected
  const big = JSON.stringify({ xs: Array.from({ length: 40 }, (_, i) => i) });
  assert.match(
    explainRejection(big, 'unexpected end at position 30')!,
    /^at character 30 \(line 1, column 31\) your payload holds "\{\\"xs\\":\[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,…"; the whole payload is valid JSON/,
  );
});
