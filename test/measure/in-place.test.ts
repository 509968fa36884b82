import { test } from 'node:test';
import assert from 'node:assert/strict';
import { becomeLike, checkChangedInPlace } from '../../src/measure/in-place.js';

test('becomeLike replaces contents in place, keeps identity and prototype, and keeps "__proto__" an own key', () => {
  class Model {
    a = 1;
    b = 2;
  }
  const target = new Model();
  const source = JSON.parse('{"b":5,"__proto__":{"x":1},"c":[1]}') as object;
  assert.equal(becomeLike(target, source), true);
  assert.equal(Object.getPrototypeOf(target), Model.prototype);
  assert.deepEqual(Object.keys(target), ['b', '__proto__', 'c']);
  assert.equal(JSON.stringify(target), '{"b":5,"__proto__":{"x":1},"c":[1]}');
  const list = [1, 2, 3];
  assert.equal(becomeLike(list, [9]), true);
  assert.deepEqual(list, [9]);
  assert.equal(becomeLike('text', 'other'), false);
  assert.equal(becomeLike([1], { a: 1 }), false);
});

/** Timed checks whose full check compares the last result with `expected` (as the variant's gated text), throwing on a difference. */
const checksFor = (expected: string, seen: string[]) => ({
  quick: () => {},
  roundEnd: () => {},
  inputs: () => {},
  full: (last: unknown, where: string, what?: string) => {
    seen.push(String(last));
    if (last !== expected) throw new Error(`${what ?? 'changed'} (${where})`);
  },
});

test("the changed-in-place check with a variant of fewer units than the copy (a large payload's smaller variant): the last units take its contents", () => {
  const copy = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
  const variant = [{ id: 8 }, { id: 9 }];
  const seen: string[] = [];
  assert.equal(
    checkChangedInPlace(copy, variant, (u) => JSON.stringify(u), checksFor('{"id":9}', seen)),
    true,
  );
  assert.deepEqual(copy, [{ id: 1 }, { id: 2 }, { id: 8 }, { id: 9 }]);
  assert.deepEqual(seen, ['{"id":9}']);
  // a serializer caching its result per input object returns the old text for the changed copy
  const cache = new WeakMap<object, string>();
  const cached = (u: unknown) => {
    const o = u as object;
    if (!cache.has(o)) cache.set(o, JSON.stringify(o));
    return cache.get(o)!;
  };
  const copy2 = [{ id: 1 }, { id: 2 }, { id: 3 }];
  for (const u of copy2) cached(u);
  assert.throws(
    () => checkChangedInPlace(copy2, [{ id: 7 }], cached, checksFor('{"id":7}', [])),
    /^Error: the result follows the input object, not its contents \(a fresh object with the same contents got the right result\) \(the input it was timed on, changed in place to the variant payload\)$/,
  );
  // a variant with more units than the copy cannot be laid over it: no check
  assert.equal(
    checkChangedInPlace([{ id: 1 }], [{ id: 1 }, { id: 2 }], (u) => JSON.stringify(u), checksFor('', [])),
    false,
  );
});

test('a serializer wrong after some calls, whatever its input, is not said to cache per input object: the check says what it saw (hostile tester: the reason guessed a cache)', () => {
  let calls = 0;
  const wrongAfter3 = (u: unknown) => (++calls > 3 ? '{"id":0}' : JSON.stringify(u));
  const copy = [{ id: 1 }, { id: 2 }, { id: 3 }];
  for (const u of copy) wrongAfter3(u);
  const seen: string[] = [];
  assert.throws(
    () => checkChangedInPlace(copy, [{ id: 7 }], wrongAfter3, checksFor('{"id":7}', seen)),
    (e: Error) => {
      assert.equal(
        e.message,
        'the result went wrong after the gate accepted it (a fresh object with the same contents got a wrong result too) (the input it was timed on, changed in place to the variant payload)',
      );
      assert.doesNotMatch(e.message, /cache/);
      return true;
    },
  );
  assert.deepEqual(
    seen,
    ['{"id":0}', '{"id":0}', '{"id":0}'],
    'the changed copy, then a fresh object, then the reason',
  );
});
