import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unmaterialised } from '../../src/measure/materialised.js';

test('unmaterialised: a Proxy at the top or nested, and a getter where the expected value has data, fail; plain values, and a shared clone failure, pass', () => {
  const expected = { a: [1, { b: 2 }] };
  assert.equal(unmaterialised(expected, { a: [1, { b: 2 }] }), null);
  assert.equal(unmaterialised(expected, new Proxy({ a: [1, { b: 2 }] }, {}))?.path, '$');
  assert.match(
    unmaterialised(expected, { a: [1, new Proxy({ b: 2 }, {})] }, ' (record 1)')!.reason,
    /Proxy.* \(record 1\)/,
  );
  const getter = { a: [1, {}] };
  Object.defineProperty(getter.a[1], 'b', { get: () => 2, enumerable: true });
  assert.equal(unmaterialised(expected, getter)?.path, '$.a[1].b');
  // a transform's model holding a function: the expected value refuses structuredClone too, so it is not blamed
  const model = { f: () => 1 };
  assert.equal(unmaterialised(model, { f: model.f }), null);
});
