import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTypia } from './typia-compile.js';

/**
 * Direct reproductions for typia 12: sources written as a typia user writes them, compiled by
 * typia's transformer (typia-compile.ts), called directly. typia's stringify trusts the declared
 * types: it writes what the value holds under the declared type's writer.
 */

type Stringify = (v: unknown) => string;

/** Every function whose source typia compiles, in one module (one TypeScript program: a typia compile costs seconds). */
const fns = await compileTypia<
  Record<'at' | 'n' | 'xs' | 'amount' | 'ab' | 'numbers' | 'quoteKey', Stringify> & {
    int64: (t: string) => { n: number };
  }
>(
  [
    `import typia, { type tags } from 'typia';`,
    'export const at = typia.json.createStringify<{ at: string }>();',
    'export const n = typia.json.createStringify<{ n: number }>();',
    'export const xs = typia.json.createStringify<{ xs: number[] }>();',
    'export const amount = typia.json.createStringify<{ amount: number }>();',
    'export const ab = typia.json.createStringify<{ a: string; b: string }>();',
    'export const numbers = typia.json.createStringify<number[]>();',
    'export const quoteKey = typia.json.createStringify<{ "\\"": string }>();',
    'export const int64 = typia.json.createAssertParse<{ n: number & tags.Type<"int64"> }>();',
  ].join('\n') + '\n',
);

test('typia edge.date.*: a Date in a string field is written with String(date)', () => {
  const d = new Date('2024-02-29T12:34:56.789Z');
  assert.equal(JSON.parse(fns.at({ at: d })).at, String(d));
  assert.equal(JSON.parse(fns.at({ at: new Date(Number.NaN) })).at, 'Invalid Date');
});

test('typia edge.number.*, edge.array.*, edge.class.toJSON, edge.function: NaN/±Infinity/undefined become null, -0 becomes 0, a hole stays a hole (invalid JSON), toJSON is not called', () => {
  assert.equal(fns.n({ n: Number.NaN }), '{"n":null}');
  assert.equal(fns.n({ n: Infinity }), '{"n":null}');
  assert.equal(fns.n({ n: -Infinity }), '{"n":null}');
  assert.equal(fns.n({ n: -0 }), '{"n":0}');
  const holey: number[] = [1];
  holey[2] = 3;
  assert.equal(fns.xs({ xs: holey }), '{"xs":[1,,3]}', 'a hole is written as nothing between two commas');
  assert.throws(() => JSON.parse(fns.xs({ xs: holey })));
  assert.equal(fns.xs({ xs: [1, undefined, 3] }), '{"xs":[1,null,3]}');
  class Money {
    constructor(private readonly cents: number) {}
    toJSON() {
      return { amount: this.cents / 100 };
    }
  }
  assert.equal(
    fns.amount(new Money(1234)),
    '{"amount":null}',
    'toJSON is not called: amount is read from the instance, undefined, written as null',
  );
  // one line: String(fn) lands in the JSON as it is, and a line break in it is a raw control character
  // prettier-ignore
  const fn = function named(): void { /* */ };
  assert.equal(JSON.parse(fns.ab({ a: 'x', b: fn })).b, String(fn));
});

test('typia roundtrip21: -0 in an array is written as 0', () => {
  assert.equal(fns.numbers([-0]), '[0]');
});

test('typia string.key.declared.quote.*: for a property named with a quotation mark, createAssertParse generates code that does not parse (`path: _path + "[\\"\\\\"\\"]"`, as `typia generate` writes it too)', async () => {
  await assert.rejects(
    compileTypia(
      `import typia from 'typia';\nexport const assertParse = typia.json.createAssertParse<{ "\\"": string }>();\n`,
    ),
    { name: 'SyntaxError' },
  );
  assert.equal(fns.quoteKey({ '"': 'v' }), '{"\\"":"v"}', 'createStringify for the same type is fine');
});

test('typia edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: assertParse reads integers beyond 2^53 as the nearest double and accepts them as int64', () => {
  assert.equal(fns.int64('{"n":9007199254740993}').n, 9007199254740992);
  // eslint-disable-next-line no-loss-of-precision -- the nearest double is what typia returns and what is asserted
  assert.equal(fns.int64('{"n":9223372036854775807}').n, 9223372036854775807);
});
