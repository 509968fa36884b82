import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapterIdOf, parseSerializerSpecs, versionedId } from '../../src/versions/spec.js';
import { compareVersions } from '../../src/versions/install.js';

const known = ['json', 'fast-json-stringify', 'zod'];

test('name@v1,v2 groups the bare versions that follow it; known ids start new entries', () => {
  assert.deepEqual(parseSerializerSpecs(['fast-json-stringify@5', '6', '7.3.10', 'json', 'zod@^3', 'latest'], known), [
    { id: 'fast-json-stringify', versions: ['5', '6', '7.3.10'] },
    { id: 'json', versions: [] },
    { id: 'zod', versions: ['^3', 'latest'] },
  ]);
});

test('a version with no name@ before it is an error that shows the syntax', () => {
  assert.throws(
    () => parseSerializerSpecs(['json', '6'], known),
    /"6" looks like a version but follows no name@version/,
  );
});

test('an unknown plain id is kept for the caller to reject with the list of choices', () => {
  assert.deepEqual(parseSerializerSpecs(['nope'], known), [{ id: 'nope', versions: [] }]);
});

test('row labels carry the exact version, and the adapter id comes back out of them', () => {
  assert.equal(versionedId('fast-json-stringify', '5.16.1'), 'fast-json-stringify@5.16.1');
  assert.deepEqual(['fast-json-stringify@5.16.1', 'json', '@scope/x', '@scope/x@1.0.0'].map(adapterIdOf), [
    'fast-json-stringify',
    'json',
    '@scope/x',
    '@scope/x',
  ]);
});

test('versions order by semver precedence, not as text', () => {
  assert.deepEqual(['5.9.2', '5.16.1', '5.10.0', '5.16.1-rc.1', '5.2.0'].sort(compareVersions), [
    '5.2.0',
    '5.9.2',
    '5.10.0',
    '5.16.1-rc.1',
    '5.16.1',
  ]);
});
