import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTypia } from './typia-compile.js';

/**
 * Direct reproductions for typia 12: sources written as a typia user writes them, compiled by
 * typia's transformer (typia-compile.ts), called directly. typia's stringify trusts the declared
 * types: it writes what the value holds under the declared type's writer.
 */

type Stringify = { stringify: (v: unknown) => string };

test('typia edge.date.*: a Date in a string field is written with String(date)', async () => {
  const { stringify } = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<{ at: string }>();\n`);
  const d = new Date('2024-02-29T12:34:56.789Z');
  assert.equal(JSON.parse(stringify({ at: d })).at, String(d));
  assert.equal(JSON.parse(stringify({ at: new Date(Number.NaN) })).at, 'Invalid Date');
});

test('typia edge.number.*, edge.array.*, edge.class.toJSON, edge.function: NaN/±Infinity/undefined become null, -0 becomes 0, a hole stays a hole (invalid JSON), toJSON is not called', async () => {
  const { stringify } = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<{ n: number }>();\n`);
  assert.equal(stringify({ n: Number.NaN }), '{"n":null}');
  assert.equal(stringify({ n: Infinity }), '{"n":null}');
  assert.equal(stringify({ n: -Infinity }), '{"n":null}');
  assert.equal(stringify({ n: -0 }), '{"n":0}');
  const list = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<{ xs: number[] }>();\n`);
  const holey: number[] = [1];
  holey[2] = 3;
  assert.equal(list.stringify({ xs: holey }), '{"xs":[1,,3]}', 'a hole is written as nothing between two commas');
  assert.throws(() => JSON.parse(list.stringify({ xs: holey })));
  assert.equal(list.stringify({ xs: [1, undefined, 3] }), '{"xs":[1,null,3]}');
  const money = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<{ amount: number }>();\n`);
  class Money { constructor(private readonly cents: number) {} toJSON() { return { amount: this.cents / 100 }; } }
  assert.equal(money.stringify(new Money(1234)), '{"amount":null}', 'toJSON is not called: amount is read from the instance, undefined, written as null');
  const text = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<{ a: string; b: string }>();\n`);
  const fn = function named(): void { /* */ };
  assert.equal(JSON.parse(text.stringify({ a: 'x', b: fn })).b, String(fn));
});

test('typia roundtrip21: -0 in an array is written as 0', async () => {
  const { stringify } = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<number[]>();\n`);
  assert.equal(stringify([-0]), '[0]');
});

test('typia string.key.declared.quote.*: for a property named with a quotation mark, createAssertParse generates code that does not parse (`path: _path + "[\\"\\\\"\\"]"`, as `typia generate` writes it too)', async () => {
  await assert.rejects(
    compileTypia(`import typia from 'typia';\nexport const assertParse = typia.json.createAssertParse<{ "\\"": string }>();\n`),
    { name: 'SyntaxError' },
  );
  await assert.rejects(
    compileTypia(`import typia from 'typia';\nexport const assertParse = typia.json.createAssertParse<{ "a\\"b": string }>();\n`),
    { name: 'SyntaxError' },
  );
  const { stringify } = await compileTypia<Stringify>(`import typia from 'typia';\nexport const stringify = typia.json.createStringify<{ "\\"": string }>();\n`);
  assert.equal(stringify({ '"': 'v' }), '{"\\"":"v"}', 'createStringify for the same type is fine');
});

test('typia edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: assertParse reads integers beyond 2^53 as the nearest double and accepts them as int64', async () => {
  const { assertParse } = await compileTypia<{ assertParse: (t: string) => { n: number } }>(
    `import typia, { type tags } from 'typia';\nexport const assertParse = typia.json.createAssertParse<{ n: number & tags.Type<"int64"> }>();\n`);
  assert.equal(assertParse('{"n":9007199254740993}').n, 9007199254740992);
  assert.equal(assertParse('{"n":9223372036854775807}').n, 9223372036854775807);
});
