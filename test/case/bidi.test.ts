import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskBidi } from '../../src/case/bidi.js';

test('maskBidi writes every bidirectional formatting character as its \\uXXXX escape and leaves other text as it is', () => {
  const all = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  const masked = maskBidi(all.map((c) => String.fromCharCode(c)).join('|'));
  assert.equal(
    masked,
    '\\u061C|\\u200E|\\u200F|\\u202A|\\u202B|\\u202C|\\u202D|\\u202E|\\u2066|\\u2067|\\u2068|\\u2069',
  );
  const plain = 'ümlaut 日本 \u200b zero-width space, ‐ hyphen, emoji 👍🏽';
  assert.equal(maskBidi(plain), plain);
});

test('maskBidi keeps JSON text the same JSON value: the escape stands inside a string, where it means the same character', () => {
  const value = { ['user\u202ENAME']: 'a\u2066b\u2069', nested: ['\\\u202E'] };
  const text = maskBidi(JSON.stringify(value));
  assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069]/);
  assert.deepEqual(JSON.parse(text), value);
});
