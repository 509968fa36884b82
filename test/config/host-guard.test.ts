import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { hostSnapshot } from '../../src/config/user-config.js';
import { checkHostSeal, guardWorkloadHooks, hostCall, HostPatched, sealHost } from '../../src/config/host-guard.js';

test('the host snapshot sees and puts back a BigInt.prototype.toJSON, a replaced fs.writeFileSync, a deleted Array.prototype.map and a replaced Object.prototype.hasOwnProperty', () => {
  const { writeFileSync } = fs;
  const { map } = Array.prototype;
  const { hasOwnProperty } = Object.prototype;
  const restore = hostSnapshot();
  (BigInt.prototype as unknown as { toJSON: () => string }).toJSON = () => 'forged';
  (fs as unknown as { writeFileSync: unknown }).writeFileSync = () => {};
  delete (Array.prototype as unknown as { map?: unknown }).map;
  Object.prototype.hasOwnProperty = () => true;
  const changed = restore();
  assert.equal(
    changed,
    'Object.prototype.hasOwnProperty, Array.prototype.map (deleted), BigInt.prototype.toJSON (added), fs.writeFileSync',
  );
  assert.equal(Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON'), undefined);
  assert.equal(fs.writeFileSync, writeFileSync);
  assert.equal(Array.prototype.map, map);
  assert.equal(Object.prototype.hasOwnProperty, hasOwnProperty);
});

test('the host snapshot leaves a polyfill added to a namespace (Reflect.metadata) and NaN-valued keys alone: nothing changed', () => {
  const restore = hostSnapshot();
  (Reflect as unknown as { metadataTest?: unknown }).metadataTest = () => {};
  try {
    assert.equal(restore(), '');
  } finally {
    delete (Reflect as unknown as { metadataTest?: unknown }).metadataTest;
  }
});

test('hostCall: a call that patches is put back and throws HostPatched naming the hook, even when it threw itself; a clean call returns its value', () => {
  const real = JSON.parse;
  assert.throws(
    () =>
      hostCall({ file: 'jsonbench.config.mjs', hook: 'notes() of serializer "x"' }, 5_000, () => {
        JSON.parse = () => 1;
        throw new Error('and it threw');
      }),
    (e: unknown) =>
      e instanceof HostPatched &&
      e.message === `notes() of serializer "x" changed jsonbench's own process: JSON.parse (put back)`,
  );
  assert.equal(JSON.parse, real);
  assert.equal(
    hostCall({ file: 'f.mjs', hook: 'fine' }, 5_000, () => 42),
    42,
  );
  assert.throws(
    () =>
      hostCall({ file: 'f.mjs', hook: 'throws' }, 5_000, () => {
        throw new RangeError('own');
      }),
    RangeError,
  );
});

test("a workload's toModel, checkText and build run guarded in the host (the .NET gate calls them there)", () => {
  const w = guardWorkloadHooks({
    id: 'w',
    toModel: (u: unknown) => {
      (Object.prototype as unknown as { toJSON?: unknown }).toJSON = () => 'x';
      return u;
    },
    checkText: function (this: { id: string }) {
      return this.id;
    },
  });
  assert.throws(
    () => w.toModel(1),
    /toModel\(\) of workload "w" changed jsonbench's own process: Object\.prototype\.toJSON \(added\)/,
  );
  assert.equal(Object.getOwnPropertyDescriptor(Object.prototype, 'toJSON'), undefined);
  assert.equal(w.checkText(), 'w', 'called on the original, this included');
});

test('the seal: a change made after it, outside any guarded call, is seen by checkHostSeal and put back', () => {
  sealHost();
  const real = JSON.stringify;
  JSON.stringify = (() => '{}') as typeof JSON.stringify;
  assert.equal(checkHostSeal(), 'JSON.stringify');
  assert.equal(JSON.stringify, real);
  assert.equal(checkHostSeal(), '');
});
