import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeResults } from '../../src/results/io.js';
import { results as sample } from '../hostile/support.js';

/**
 * results.json is made and written with functions taken before any user code ran (results/io.ts
 * `pristine`), so a built-in patched in the host at write time, however it got past the host guard,
 * cannot change what the file says (hostile3; hx2: a config patching fs forged results.json).
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-pristine-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const forge = (t: unknown) => (typeof t === 'string' ? t.replaceAll('"measured"', '"FORGED"') : t);

test('writeResults writes the same text while JSON, globalThis.JSON, Object, Array.prototype, Math, String.prototype and fs are patched', () => {
  const results = sample();
  const clean = join(dir, 'clean.json');
  writeResults(clean, results);
  const expected = readFileSync(clean, 'utf8');
  assert.match(expected, /"status": "measured"/, 'the fixture has a measured case to forge');

  const saved = {
    json: globalThis.JSON,
    stringify: JSON.stringify,
    keys: Object.keys,
    entries: Object.entries,
    map: Array.prototype.map,
    join: Array.prototype.join,
    filter: Array.prototype.filter,
    isArray: Array.isArray,
    round: Math.round,
    replace: String.prototype.replace,
    writeFileSync: fs.writeFileSync,
    renameSync: fs.renameSync,
  };
  const patched = join(dir, 'patched.json');
  try {
    const s = saved.stringify;
    JSON.stringify = ((...a: Parameters<typeof s>) => forge(s(...a))) as typeof JSON.stringify;
    globalThis.JSON = { parse: saved.json.parse, stringify: JSON.stringify, [Symbol.toStringTag]: 'JSON' } as JSON;
    Object.keys = () => [];
    Object.entries = () => [];
    Array.prototype.map = (() => ['"FORGED"']) as typeof Array.prototype.map;
    Array.prototype.join = () => '"FORGED"';
    Array.prototype.filter = () => [];
    Array.isArray = (() => false) as unknown as typeof Array.isArray;
    Math.round = () => 0;
    String.prototype.replace = () => 'FORGED';
    fs.writeFileSync = ((p: fs.PathOrFileDescriptor, d: string) =>
      saved.writeFileSync(p, forge(d) as string)) as typeof fs.writeFileSync;
    fs.renameSync = () => {};
    syncBuiltinESMExports();
    writeResults(patched, results);
  } finally {
    globalThis.JSON = saved.json;
    JSON.stringify = saved.stringify;
    Object.keys = saved.keys;
    Object.entries = saved.entries;
    Array.prototype.map = saved.map;
    Array.prototype.join = saved.join;
    Array.prototype.filter = saved.filter;
    Array.isArray = saved.isArray;
    Math.round = saved.round;
    String.prototype.replace = saved.replace;
    fs.writeFileSync = saved.writeFileSync;
    fs.renameSync = saved.renameSync;
    syncBuiltinESMExports();
  }
  assert.equal(readFileSync(patched, 'utf8'), expected);
});
