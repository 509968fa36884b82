import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legendSentences } from '../../src/report/legend.js';
import { results } from '../hostile/support.js';

test('the legend says what a serialize op produced: UTF-8 bytes (the default) or the string alone (--serialize-to string)', () => {
  const r = results();
  const of = (serializeTo: 'bytes' | 'string') => legendSentences({ ...r, policy: { ...r.policy, measure: { ...r.policy.measure, serializeTo } } }).filter((s) => s.startsWith('A serialize op is'));
  assert.deepEqual(of('bytes'), ['A serialize op is value → JSON text → UTF-8 bytes (what a server writing it to a socket pays; --serialize-to string times the string alone).']);
  assert.equal(of('string').length, 1);
  assert.match(of('string')[0], /^A serialize op is value → JSON text, the string alone \(--serialize-to string\)/);
});
