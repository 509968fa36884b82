import { test } from 'node:test';
import assert from 'node:assert/strict';
import { becomeLike } from '../../src/measure/in-place.js';

test('becomeLike replaces contents in place, keeps identity and prototype, and keeps "__proto__" an own key', () => {
  class Model { a = 1; b = 2; }
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
