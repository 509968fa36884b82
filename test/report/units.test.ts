import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatTime } from '../../src/report/units.js';
import { legendSentences } from '../../src/report/legend.js';
import { results } from '../hostile/support.js';

test('byte figures carry binary units, true to their divisor: 1 KiB = 1024 B, 1 MiB = 1024 KiB (attack session: "MB" of 2^20 bytes beside MB of 10^6)', () => {
  assert.deepEqual([1023, 1024, 1536, 1e6, 2 ** 20, 50 * 2 ** 20, 2 ** 30].map(formatBytes), [
    '1023 B',
    '1.00 KiB',
    '1.50 KiB',
    '977 KiB',
    '1.00 MiB',
    '50.0 MiB',
    '1.00 GiB',
  ]);
  assert.ok(
    [10, 5000, 3e6, 7e9].map(formatBytes).every((s) => !/\b[kKMG]B\b/.test(s)),
    'never a decimal-looking KB or MB',
  );
});

test('a figure that rounds up to the next unit is printed in it: 1.00 µs, never 1000 ns', () => {
  assert.deepEqual([999.4, 999.6, 1000, 999_996, 999_999_999, 12.3, -999.7].map(formatTime), [
    '999 ns',
    '1.00 µs',
    '1.00 µs',
    '1.00 ms',
    '1.00 s',
    '12.3 ns',
    '-1.00 µs',
  ]);
  assert.deepEqual([1023.4, 1023.6, 1024 * 1023.7, 1024 ** 2 * 1023.9].map(formatBytes), [
    '1023 B',
    '1.00 KiB',
    '1.00 MiB',
    '1.00 GiB',
  ]);
});

test('the legend says which units the Allocated column uses', () => {
  assert.match(
    legendSentences(results()).join(' '),
    /Allocated is bytes\/op \([^)]*\) in binary units \(1 KiB = 1024 B, 1 MiB = 1024 KiB\)/,
  );
});
