import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureVersion, prefixOf, resolveVersion } from '../../src/versions/install.js';

const root = mkdtempSync(join(tmpdir(), 'jsonbench-versions-'));
test.after(() => rmSync(root, { recursive: true, force: true }));

/** A fake npm: `view` answers from `published`; `install --prefix P name@v` writes P/node_modules/name/package.json. */
function fakeNpm(published: string[], calls: string[][] = [], failInstall = false) {
  return (args: string[]): string => {
    calls.push(args);
    if (args[0] === 'view') return JSON.stringify(published);
    if (failInstall) throw Object.assign(new Error('npm failed'), { stderr: 'npm ERR! 404 Not Found' });
    const prefix = args[args.indexOf('--prefix') + 1];
    const spec = args[args.length - 1];
    const at = spec.lastIndexOf('@');
    const dir = join(prefix, 'node_modules', spec.slice(0, at));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: spec.slice(0, at), version: spec.slice(at + 1) }));
    return '';
  };
}

test('a range resolves to the newest published match by semver (npm lists them unordered)', () => {
  assert.equal(
    resolveVersion('fast-json-stringify', '5', root, fakeNpm(['5.0.1', '5.16.1', '5.2.0', '5.9.2'])),
    '5.16.1',
  );
  assert.equal(
    resolveVersion('fast-json-stringify', '5.9.2', root, () => {
      throw new Error('no network needed');
    }),
    '5.9.2',
  );
});

test('a version is installed once into <root>/<name>@<version>, then reused without npm install', () => {
  const calls: string[][] = [];
  const first = ensureVersion('@scope/lib', '2', root, fakeNpm(['2.0.0', '2.1.0'], calls));
  assert.deepEqual(first, {
    packageName: '@scope/lib',
    version: '2.1.0',
    prefix: prefixOf(root, '@scope/lib', '2.1.0'),
  });
  assert.ok(first.prefix.endsWith('@scope+lib@2.1.0'));
  assert.equal(calls.filter((c) => c[0] === 'install').length, 1);
  ensureVersion('@scope/lib', '2.1.0', root, fakeNpm([], calls));
  assert.equal(calls.filter((c) => c[0] === 'install').length, 1, 'the cached version is reused');
});

test('offline, a range falls back to the newest cached version; a failed install leaves no folder behind', () => {
  const offline = (args: string[]): string => {
    if (args[0] === 'view') throw new Error('ENOTFOUND');
    return '';
  };
  assert.equal(resolveVersion('@scope/lib', '2', root, offline), '2.1.0');
  assert.throws(
    () => resolveVersion('@scope/lib', '3', root, offline),
    /no published version matches \(and npm view failed: offline\?\)/,
  );
  assert.throws(
    () => ensureVersion('other', '1.0.0', root, fakeNpm([], [], true)),
    /npm install other@1\.0\.0 failed: npm ERR! 404 Not Found/,
  );
  assert.deepEqual(
    readdirSync(root).filter((d) => d.startsWith('other')),
    [],
  );
  assert.equal(existsSync(prefixOf(root, 'other', '1.0.0')), false);
});
