import { test } from 'node:test';
import assert from 'node:assert/strict';
import stringify from 'safe-stable-stringify';

/** Direct reproductions for safe-stable-stringify 3 (`stringify(value)`, default options). */

test('safe-stable-stringify edge.*: as JSON.stringify — null for NaN/±Infinity/Invalid Date/holes/undefined, 0 for -0, {} for Map and Set, Symbol and function members dropped', () => {
  const holey: number[] = [1];
  holey[2] = 3;
  assert.equal(
    stringify({ a: Number.NaN, b: Infinity, c: -Infinity, d: new Date(Number.NaN), e: -0 }),
    '{"a":null,"b":null,"c":null,"d":null,"e":0}',
  );
  assert.equal(stringify({ xs: holey, ys: [1, undefined, 3] }), '{"xs":[1,null,3],"ys":[1,null,3]}');
  assert.equal(stringify({ m: new Map([['a', 1]]), s: new Set([1]) }), '{"m":{},"s":{}}');
  assert.equal(
    stringify({
      a: 'x',
      b: Symbol('s'),
      c() {
        /* */
      },
    }),
    '{"a":"x"}',
  );
  assert.equal(stringify([-0]), '[0]');
});

test('safe-stable-stringify edge.cycle: a cycle is written as the string "[Circular: 0]" instead of throwing', () => {
  const a: Record<string, unknown> = { name: 'a' };
  a.child = a;
  assert.equal(stringify(a), '{"child":"[Circular: 0]","name":"a"}');
});
