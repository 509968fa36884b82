import { test } from 'node:test';
import assert from 'node:assert/strict';
import sjson from 'secure-json-parse';

/** Direct reproductions for secure-json-parse 4 (`sjson.parse(text)`, default protoAction 'error'). */

test('secure-json-parse safety.declared.__proto__: a document with a plain data key named __proto__ is rejected, escaped or not', () => {
  assert.throws(() => sjson.parse('{"id":1,"__proto__":"v"}'), /forbidden prototype property/);
  assert.throws(() => sjson.parse('{"id":1,"\\u005f\\u005fproto__":"v"}'), /forbidden prototype property/);
  assert.deepEqual(
    sjson.parse('{"id":1,"__proto__":"v"}', undefined, { protoAction: 'ignore' }),
    JSON.parse('{"id":1,"__proto__":"v"}'),
    "protoAction 'ignore' keeps it",
  );
});

test('secure-json-parse edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: integers beyond 2^53 are read as the nearest double', () => {
  assert.equal(sjson.parse('{"n":9007199254740993}').n, 9007199254740992);
});
