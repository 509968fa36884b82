import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerFlags, sameServerFlags, serverFlagsLabel } from '../../bench/consumer-flags.js';

test('parseServerFlags: one variant per occurrence, flags split on spaces and commas; none → Node\'s defaults', () => {
  assert.deepEqual(parseServerFlags(undefined), [[]]);
  assert.deepEqual(parseServerFlags([]), [[]]);
  assert.deepEqual(parseServerFlags(['--single-threaded-gc']), [['--single-threaded-gc']]);
  assert.deepEqual(parseServerFlags(['', '--single-threaded-gc']), [[], ['--single-threaded-gc']]);
  assert.deepEqual(parseServerFlags(['--single-threaded-gc, --max-semi-space-size=16  --no-opt']), [['--single-threaded-gc', '--max-semi-space-size=16', '--no-opt']]);
});

test('parseServerFlags: a token that is not a flag, --expose-gc, or a repeated variant is an error naming it', () => {
  assert.throws(() => parseServerFlags(['--single-threaded-gc', 'single-threaded-gc']), /occurrence 2.*"single-threaded-gc" is not a Node flag/);
  assert.throws(() => parseServerFlags(['--expose-gc']), /--expose-gc is always on/);
  assert.throws(() => parseServerFlags(['--a --b', '--a,--b']), /variant 2 \("--a --b"\) is given twice/);
  assert.throws(() => parseServerFlags(['', ' ']), /variant 2 \("Node's default flags"\) is given twice/);
});

test('serverFlagsLabel and sameServerFlags: a record without serverFlags (older files) ran on Node\'s defaults', () => {
  assert.equal(serverFlagsLabel(undefined), "Node's default flags");
  assert.equal(serverFlagsLabel([]), "Node's default flags");
  assert.equal(serverFlagsLabel(['--single-threaded-gc', '--no-opt']), '--single-threaded-gc --no-opt');
  assert.equal(sameServerFlags(undefined, []), true);
  assert.equal(sameServerFlags(undefined, ['--single-threaded-gc']), false);
  assert.equal(sameServerFlags(['--single-threaded-gc'], ['--single-threaded-gc']), true);
});
