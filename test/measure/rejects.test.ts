import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsInvalid, invalidTexts } from '../../src/measure/rejects.js';
import type { Workload } from '../../src/workloads/types.js';

const workload = {
  id: 'w',
  description: 'w',
  sizes: [1],
  defaultSizes: [1],
  shapes: ['single'],
  schema: {
    type: 'object',
    properties: {
      any: { type: 'unknown' },
      opt: { type: 'string' },
      nested: { type: 'object', properties: { n: { type: 'number', integer: true } } },
      s: { type: 'string' },
    },
    optional: ['opt'],
  },
  build: () => ({}),
} as unknown as Workload;

test('the texts a validator must reject: for every required path (depth first), the key left out unless unknown, and a wrong type when plain', () => {
  const texts = invalidTexts(workload, JSON.stringify({ any: 1, opt: 'o', nested: { n: 3 }, s: 'x' }));
  assert.deepEqual(
    texts.map((t) => [t.what, JSON.parse(t.text)]),
    [
      ['no $.nested, a required key', { any: 1, opt: 'o', s: 'x' }],
      [
        'a wrong type at $.nested.n ("12345" where the schema says an integer)',
        { any: 1, opt: 'o', nested: { n: '12345' }, s: 'x' },
      ],
      ['no $.nested.n, a required key', { any: 1, opt: 'o', nested: {}, s: 'x' }],
      ['a wrong type at $.s (12345 where the schema says a string)', { any: 1, opt: 'o', nested: { n: 3 }, s: 12345 }],
      ['no $.s, a required key', { any: 1, opt: 'o', nested: { n: 3 } }],
    ],
  );
  // each text changes one place: the keys stay in their order elsewhere
  assert.deepEqual(Object.keys(JSON.parse(texts[4].text) as object), ['any', 'opt', 'nested']);
  assert.deepEqual(Object.keys(JSON.parse(texts[3].text) as object), ['any', 'opt', 'nested', 's']);
});

test('acceptsInvalid: a deserializer that throws on both passes; JSON.parse is named with the first text it accepted', () => {
  const texts = invalidTexts(workload, JSON.stringify({ any: 1, nested: { n: 3 }, s: 'x' }));
  assert.equal(
    acceptsInvalid(() => {
      throw new Error('rejected');
    }, texts),
    null,
  );
  const f = acceptsInvalid((t) => JSON.parse(t) as unknown, texts);
  assert.equal(f?.path, '$.nested');
  assert.match(f!.reason, /^does not validate: accepted a payload with no \$\.nested, a required key/);
});
