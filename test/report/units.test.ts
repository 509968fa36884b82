import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes } from '../../src/report/units.js';
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

test('the legend says which units the Allocated column uses', () => {
  assert.match(
    legendSentences(results()).join(' '),
    /Allocated is bytes\/op \([^)]*\) in binary units \(1 KiB = 1024 B, 1 MiB = 1024 KiB\)/,
  );
});
