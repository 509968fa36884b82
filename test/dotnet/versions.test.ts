import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dotnetVariantOf, packagesKey, versionMismatch } from '../../src/serializers/dotnet/versions.js';
import { prepareVersionMatrix } from '../../src/plan/version-matrix.js';
import { UsageError } from '../../src/config/usage-error.js';

test('a .NET row label names its worker serializer and the package set of its build', () => {
  assert.deepEqual(dotnetVariantOf('newtonsoft@13.0.1'), {
    label: 'newtonsoft@13.0.1',
    serializer: 'newtonsoft',
    packages: { newtonsoft: '13.0.1' },
    version: '13.0.1',
  });
  // the project's own Newtonsoft.Json is the plain build
  assert.deepEqual(dotnetVariantOf('newtonsoft@13.0.4')?.packages, {});
  assert.deepEqual(dotnetVariantOf('stj-sourcegen@10.0.12')?.packages, { stj: '10.0.12' });
  assert.equal(dotnetVariantOf('stj'), undefined);
  assert.equal(dotnetVariantOf('fast-json-stringify@5.16.1'), undefined, 'not a .NET serializer');
  assert.equal(dotnetVariantOf('newtonsoft@^13'), undefined, 'a range is not a row');
  assert.equal(packagesKey({ newtonsoft: '13.0.1', stj: '8.0.5' }), 'newtonsoft=13.0.1,stj=8.0.5');
  assert.equal(packagesKey({}), '');
});

test('a loaded version other than the one asked is a reason naming what loads and where the asked one runs', () => {
  const stj8 = dotnetVariantOf('stj@8.0.5')!;
  assert.equal(versionMismatch(stj8, '8.0.5', 'net8.0', 'dotnet@8'), undefined);
  assert.equal(
    versionMismatch(stj8, '10.0.12', 'net10.0', 'dotnet'),
    "System.Text.Json 8.0.5 on dotnet (net10.0) loads the framework's 10.0.12 (the runtime keeps the higher assembly version); use --target dotnet@8",
  );
  assert.match(
    versionMismatch(stj8, '8.0.31', 'net8.0', 'dotnet@8') ?? '',
    /framework's 8\.0\.31 .*newer \(row stj measures it\)/,
  );
  assert.equal(
    versionMismatch(dotnetVariantOf('newtonsoft@13.0.1')!, '13.0.4', 'net10.0', 'dotnet'),
    'Newtonsoft.Json 13.0.1 was asked, but the dotnet worker loads 13.0.4',
  );
});

test('--serializer newtonsoft@13.0.1,13.0.4 gives one .NET row per version without an npm install or a config module', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-dotnet-matrix-'));
  try {
    const user = { serializers: [], workloads: [] };
    const m = await prepareVersionMatrix(['newtonsoft@13.0.1', '13.0.4', 'stj'], user, undefined, dir, () => {
      throw new Error('nothing is installed');
    });
    assert.ok(m);
    assert.deepEqual(m.serializerIds, ['newtonsoft@13.0.1', 'newtonsoft@13.0.4', 'stj']);
    assert.deepEqual(
      [...m.versions],
      [
        ['newtonsoft@13.0.1', '13.0.1'],
        ['newtonsoft@13.0.4', '13.0.4'],
      ],
    );
    assert.deepEqual(
      m.dotnetVariants.map((s) => [s.id, s.platform, s.assembly]),
      [
        ['newtonsoft@13.0.1', 'dotnet', 'Newtonsoft.Json'],
        ['newtonsoft@13.0.4', 'dotnet', 'Newtonsoft.Json'],
      ],
    );
    assert.equal(m.configPath, undefined);
    await assert.rejects(
      prepareVersionMatrix(['newtonsoft@^13'], user, undefined, dir, () => {}),
      (e: unknown) => e instanceof UsageError && /exact NuGet version/.test(e.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
