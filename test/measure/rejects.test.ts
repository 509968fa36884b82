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

test('the texts a validator must reject: the first required plain leaf (depth first) of a wrong type, and the first required key that is not unknown left out', () => {
  const texts = invalidTexts(workload, JSON.stringify({ any: 1, opt: 'o', nested: { n: 3 }, s: 'x' }));
  assert.deepEqual(
    texts.map((t) => [t.what, JSON.parse(t.text)]),
    [
      [
        'a wrong type at $.nested.n ("12345" where the schema says an integer)',
        { any: 1, opt: 'o', nested: { n: '12345' }, s: 'x' },
      ],
      ['no $.nested, a required key', { any: 1, opt: 'o', s: 'x' }],
    ],
  );
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
  assert.equal(f?.path, '$.nested.n');
  assert.match(f!.reason, /^does not validate: accepted a payload with a wrong type at \$\.nested\.n/);
});
