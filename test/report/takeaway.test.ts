import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeawayText, type TakeawayRow } from '../../src/report/takeaway.js';

const row = (name: string, ratio: number | null, ratioError: number | null, allocRatio: number | null = null, status = 'measured'): TakeawayRow =>
  ({ name, label: name === 'json' ? 'JSON.stringify' : name, status, ratio, ratioError, allocRatio });
const base = row('json', 1, 0, 1);

test('a clear leader is named with its speed-up, its error and how much less it allocates', () => {
  const text = takeawayText([base, row('fjs', 0.5, 0.02, 0.42), row('typia', 0.8, 0.05, 0.9)], 'json', 'JSON.stringify');
  assert.equal(text, 'fjs is fastest, 2.00× ± 0.08 faster than JSON.stringify and allocates 58% less; typia is also measurably faster (1.25×).');
});

test('a serializer whose ratio interval includes 1 is never called faster than the baseline', () => {
  const text = takeawayText([base, row('fjs', 0.9, 0.2, 0.5)], 'json', 'JSON.stringify');
  assert.equal(text, 'fjs and JSON.stringify are within noise of each other at the top; none is measurably faster than JSON.stringify.');
  assert.doesNotMatch(text, /faster than JSON\.stringify and/);
});

test('leaders whose intervals overlap are reported as within noise of each other, with the range of speed-ups', () => {
  const text = takeawayText([base, row('a', 0.5, 0.05), row('b', 0.52, 0.05)], 'json', 'JSON.stringify');
  assert.equal(text, 'a and b are fastest and within noise of each other, 1.92–2.00× faster than JSON.stringify.');
});

test('below a clear leader, the others are placed: also faster, within noise of each other, within noise of the baseline', () => {
  const text = takeawayText([base, row('a', 0.3, 0.01, 0.2), row('b', 0.6, 0.05), row('c', 0.62, 0.05), row('d', 1.05, 0.1)], 'json', 'JSON.stringify');
  assert.equal(text, 'a is fastest, 3.33× ± 0.11 faster than JSON.stringify and allocates 80% less; b and c are also measurably faster (1.61–1.67×); b and c are within noise of each other; d is within noise of JSON.stringify.');
});

test('an unknown error claims nothing: the leader is tied with everyone', () => {
  const text = takeawayText([base, row('a', 0.5, null)], 'json', 'JSON.stringify');
  assert.match(text, /none is measurably faster than JSON\.stringify/);
});

test('when the baseline is fastest the next one is given as a multiple of its time', () => {
  const text = takeawayText([base, row('x', 1.5, 0.1, 2.5)], 'json', 'JSON.stringify');
  assert.equal(text, 'JSON.stringify (the baseline) is fastest; the next, x, takes 1.50× ± 0.10 as long.');
});

test('cases without numbers are listed as not ranked; unsupported pairs are not', () => {
  const text = takeawayText([base, row('a', 0.5, 0.01), row('b', null, null, null, 'incorrect'), row('c', null, null, null, 'timeout'), row('d', null, null, null, 'unsupported')], 'json', 'JSON.stringify');
  assert.equal(text, 'a is fastest, 2.00× ± 0.04 faster than JSON.stringify. Not ranked: b (incorrect), c (timeout).');
});

test('allocation is described as more, or as a multiple, when the leader allocates more', () => {
  assert.match(takeawayText([base, row('a', 0.5, 0.01, 1.3)], 'json', 'JSON.stringify'), /but allocates 30% more\.$/);
  assert.match(takeawayText([base, row('a', 0.5, 0.01, 3.04)], 'json', 'JSON.stringify'), /but allocates 3\.0× as much\.$/);
  assert.match(takeawayText([base, row('a', 0.5, 0.01, 1.01)], 'json', 'JSON.stringify'), /and allocates about the same\.$/);
});

test('a group where only the baseline ran says so', () => {
  assert.equal(takeawayText([base, row('b', null, null, null, 'crashed')], 'json', 'JSON.stringify'), 'Only JSON.stringify was measured. Not ranked: b (crashed).');
});

test('with wide intervals at the top, those measurably faster are named, no one is called fastest, and the rest are placed against the baseline', () => {
  const rows = [base, row('a', 0.37, 0.43), row('b', 0.38, 0.09), row('c', 0.46, 0.2), row('d', 1.42, 3.35), row('e', 4.11, 2.07), row('f', 12.7, 19.89)];
  assert.equal(takeawayText(rows, 'json', 'JSON.stringify'),
    'a, b and c are measurably faster than JSON.stringify (2.17–2.70×), but wider intervals overlap them: none is clearly fastest; d and f are within noise of JSON.stringify; e is measurably slower.');
});

test('a leader with a wide interval that covers 1 does not hide others that are measurably faster', () => {
  const rows = [base, row('wide', 0.4, 0.7), row('fjs', 0.5, 0.1)];
  assert.equal(takeawayText(rows, 'json', 'JSON.stringify'),
    'fjs is measurably faster than JSON.stringify (2.00×), but wider intervals overlap it: none is clearly fastest; wide is within noise of JSON.stringify.');
});
