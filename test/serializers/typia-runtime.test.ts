import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderTypiaTemplate, toTypeScript, unsafeForTypia } from '../../src/serializers/typia/typescript.js';
import { compileTypiaTemplate, generateTypia, typiaInstall } from '../../src/serializers/typia/runtime.js';
import { ensureVersion, type InstalledVersion } from '../../src/versions/install.js';
import { builtinAdapterUrl, writeVariantsModule } from '../../src/versions/variants-module.js';
import { loadUserConfig } from '../../src/config/user-config.js';
import { workloads } from '../../src/workloads/index.js';
import { CONSTRUCTS } from '../payload/constructs.js';

/**
 * typia on any payload: TypeScript type text from the schema, typia's transformer run in memory,
 * the JavaScript cached by hash; and a version-matrix typia generating with its own version.
 */

const cache = mkdtempSync(join(tmpdir(), 'jsonbench-typia-cache-'));
test.after(() => rmSync(cache, { recursive: true, force: true }));
const own = typiaInstall(import.meta.url);

test('the TypeScript type says every construct: optional keys, null, unknown, records, unions, literal tags, int64 tags, extra keys', () => {
  const byName = (n: string) => CONSTRUCTS.find((c) => c.name === n)!.schema;
  assert.equal(
    toTypeScript(byName('optional property')),
    '{\n  "list": Array<{\n    "a": string;\n    "b"?: number & tags.Type<"int64">;\n  }>;\n}',
  );
  assert.equal(
    toTypeScript(byName('record')),
    '{\n  "m": Record<string, {\n    "n": number & tags.Type<"int64">;\n  }>;\n}',
  );
  assert.equal(toTypeScript(byName('union')), '{\n  "s": Array<(number & tags.Type<"int64">) | string>;\n}');
  assert.match(
    toTypeScript(byName('discriminated union')),
    /Array<\(\{\n {4}"type": "image";\n {4}"url": string;\n {4}"width": number & tags\.Type<"int64">;\n {2}\}\) \| \(\{\n {4}"type": "video";/,
  );
  assert.equal(
    toTypeScript(byName('additional properties')),
    '{\n  "known": number & tags.Type<"int64">;\n  [key: string]: string | (number & tags.Type<"int64">);\n}',
  );
  assert.equal(
    toTypeScript(byName('nullable')),
    '{\n  "o": {\n    "a": string;\n  } | null;\n  "s": string | null;\n  "l": Array<string> | null;\n}',
  );
  assert.equal(
    toTypeScript({
      type: 'object',
      properties: { a: { type: 'null' }, b: { type: 'unknown' }, c: { type: 'enum', values: ['x', 'y'] } },
    }),
    '{\n  "a": null;\n  "b": unknown;\n  "c": "x" | "y";\n}',
  );
});

test('generation runs typia at run time once per schema and typia version, then loads from the cache', () => {
  const c = CONSTRUCTS.find((x) => x.name === 'discriminated union')!;
  const template = renderTypiaTemplate(c.schema, ['stringify', 'assertParse'], 'test template');
  const first = generateTypia(template, own, cache);
  assert.equal(first.fromCache, false);
  assert.ok(first.generatedMs > 0);
  assert.ok(first.file.startsWith(join(cache, 'typia', own.version)), first.file);
  assert.ok(existsSync(first.file));
  const second = generateTypia(template, own, cache);
  assert.deepEqual([second.fromCache, second.generatedMs, second.file], [true, 0, first.file]);
  const stringify = second.exports.stringify as (v: unknown) => string;
  const assertParse = second.exports.assertParse as (t: string) => unknown;
  assert.deepEqual(JSON.parse(stringify(JSON.parse(c.text))), JSON.parse(c.text));
  assert.deepEqual(assertParse(c.text), JSON.parse(c.text));
  assert.throws(() => assertParse('{"d":[{"type":"audio","url":"a.mp3"}]}'), /invalid type on \$input\.d\[0\]/);
});

test("a type typia cannot generate for is refused with typia's own diagnostic and the version", () => {
  const template =
    "import typia from 'typia';\nexport type Unit = { a: bigint };\nexport const stringify = typia.json.createStringify<Unit>();\n";
  assert.throws(
    () => compileTypiaTemplate(template, own),
    (e: unknown) =>
      (e as Error).message.startsWith(
        `typia ${own.version} could not generate code: template 3:26: unsupported type detected`,
      ) && /JSON does not support bigint type/.test((e as Error).message),
  );
});

const VARIANT = '11.0.3';
let variant: InstalledVersion | undefined;
let skip: string | false = false;
try {
  variant = ensureVersion('typia', VARIANT);
} catch (e) {
  skip = `cannot install typia@${VARIANT} from npm: ${(e as Error).message}`;
}

test(
  `a typia@${VARIANT} row of the version matrix generates with typia ${VARIANT}, even for a built-in workload`,
  { skip },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsonbench-typia-variant-'));
    const previous = process.env.JSONBENCH_CACHE;
    process.env.JSONBENCH_CACHE = dir;
    try {
      const path = writeVariantsModule(dir, [
        {
          label: `typia@${VARIANT}`,
          adapterUrl: builtinAdapterUrl('typia').href,
          packageName: 'typia',
          version: VARIANT,
          prefix: variant!.prefix,
        },
      ]);
      const [adapter] = (await loadUserConfig(path)).serializers;
      const users = await workloads.load('users');
      const record = (users.build(3, 42) as unknown[])[0];
      const prepared = await adapter.prepare(users, 'serialize');
      assert.deepEqual(JSON.parse(prepared.serialize!(record)), record);
      assert.ok(existsSync(join(dir, 'typia', VARIANT)), `no code cached under typia/${VARIANT}`);
      assert.ok(
        !existsSync(join(dir, 'typia', own.version)),
        `code of typia ${own.version} was generated for the ${VARIANT} row`,
      );
    } finally {
      if (previous === undefined) delete process.env.JSONBENCH_CACHE;
      else process.env.JSONBENCH_CACHE = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("a payload key that would become code in typia's generated module is refused: typia is unsupported for it, nothing is generated (hostile tester hx2: a key ran require('fs') in the worker)", async () => {
  const key = "\"+require('fs').writeFileSync('/tmp/pwned','x'),//";
  const schema = {
    type: 'object',
    properties: { [key]: { type: 'number', integer: true }, n: { type: 'number', integer: true } },
    required: [key, 'n'],
  } as const;
  assert.deepEqual(unsafeForTypia(schema as never), [key]);
  assert.deepEqual(
    unsafeForTypia({ type: 'object', properties: { $type: { type: 'string' }, 'a-b c': { type: 'string' } } } as never),
    [],
    'ordinary names ($, -, spaces) are safe',
  );
  const { default: typia } = await import('../../src/serializers/typia.js');
  const workload = {
    ...(await workloads.load('weather-station')),
    id: 'payload:inject',
    schema,
    wire: undefined,
  } as never;
  const answer = typia.supports!(workload, 'deserialize');
  assert.equal(typeof answer, 'string');
  assert.match(answer as string, /typia writes property names .*\(a payload key could run as code\).*require/);
});
