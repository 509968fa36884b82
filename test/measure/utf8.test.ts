import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Bytes } from '../../src/measure/prepare-case.js';

/** The plain-JavaScript UTF-8 encoder (QuickJS's serialize-to-bytes op) gives Node's bytes, lone surrogates as U+FFFD like TextEncoder. */
test('utf8Bytes encodes ASCII, 2-, 3- and 4-byte characters and lone surrogates exactly as TextEncoder does', () => {
  for (const s of [
    '',
    '{"a":1}',
    'café',
    '€ 10',
    '日本語',
    '😀 x 😀',
    'a\ud800b',
    '\udc00',
    'end\ud83d',
    '"\u0000\u007f\u0080\u07ff\u0800\uffff"',
  ]) {
    assert.deepEqual([...utf8Bytes(s)], [...new TextEncoder().encode(s)], JSON.stringify(s));
  }
});
