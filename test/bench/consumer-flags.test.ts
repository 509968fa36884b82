import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOpsEnv } from '../../bench/consumer-flags.js';

test('parseOpsEnv: NAME=VALUE entries, the value kept whole (it may hold = and :)', () => {
  assert.deepEqual(parseOpsEnv(undefined), {});
  assert.deepEqual(parseOpsEnv([]), {});
  assert.deepEqual(
    parseOpsEnv([
      'GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824',
      'EMPTY=',
    ]),
    { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824', EMPTY: '' },
  );
  assert.deepEqual(parseOpsEnv(['A=1', 'A=2']), { A: '2' }, 'the last entry of a name wins');
});

test('parseOpsEnv: an entry without = or without a name is refused, naming the option and the entry', () => {
  assert.throws(() => parseOpsEnv(['GLIBC_TUNABLES']), /--ops-env: expected NAME=VALUE, got "GLIBC_TUNABLES"/);
  assert.throws(() => parseOpsEnv(['=x']), /--ops-env: expected NAME=VALUE, got "=x"/);
});
