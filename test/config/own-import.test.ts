import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { checkHostSeal, ownImport, sealHost } from '../../src/config/host-guard.js';

/**
 * host-guard.ts ownImport: jsonbench's own lazy import may change exactly the keys it names (playwright-core's
 * graceful-fs wraps fs.close and fs.closeSync); anything else changed before or during it is still reported by the
 * seal. One process, one seal: the steps run in order in one test.
 */
test('an own import keeps its named changes; other changes, before or during it, are still reported', async () => {
  const originalClose = fs.close;
  const originalCloseSync = fs.closeSync;
  const originalParse = JSON.parse;
  sealHost();
  assert.equal(checkHostSeal(), '');

  // the dependency wraps fs.close and fs.closeSync as it loads: taken into the seal, kept in place
  const wrapped = ((...a: Parameters<typeof fs.close>) => originalClose(...a)) as typeof fs.close;
  const wrappedSync = ((fd: number) => originalCloseSync(fd)) as typeof fs.closeSync;
  const value = await ownImport(async () => {
    fs.close = wrapped;
    fs.closeSync = wrappedSync;
    return 42;
  }, [
    [fs, 'close', 'fs.close'],
    [fs, 'closeSync', 'fs.closeSync'],
  ]);
  assert.equal(value, 42);
  assert.equal(fs.close, wrapped, "the dependency's own change stays");
  assert.equal(fs.closeSync, wrappedSync);
  assert.equal(checkHostSeal(), '', 'nothing to report: the change was expected');

  // another change during an own import (user code's timer) is reported and put back
  await ownImport(async () => {
    JSON.parse = (() => 1) as typeof JSON.parse;
  }, [[fs, 'close', 'fs.close']]);
  assert.equal(JSON.parse, originalParse, 'put back');
  assert.equal(checkHostSeal(), 'JSON.parse');

  // an expected key user code replaced before the import is put back first and reported, never taken in
  fs.close = (() => undefined) as unknown as typeof fs.close;
  await ownImport(async () => undefined, [[fs, 'close', 'fs.close']]);
  assert.equal(fs.close, wrapped, "put back to the sealed value (the dependency's)");
  assert.equal(checkHostSeal(), 'JSON.parse, fs.close');
});
