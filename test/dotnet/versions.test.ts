import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  dotnetVariantOf,
  isFileVersionOf,
  packageNameOf,
  packagesKey,
  restoredVersion,
  versionMismatch,
} from '../../src/serializers/dotnet/versions.js';
import { readBuildFailure } from '../../src/runtimes/dotnet/build-failure.js';
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

test('newtonsoft@9.0.1 is accepted: its DLL has no informational version, and its file version 9.0.1.19813 is the one asked', () => {
  const nj9 = dotnetVariantOf('newtonsoft@9.0.1')!;
  // the worker reports the file version when an assembly has no informational one (its assembly version is 9.0.0.0)
  assert.equal(versionMismatch(nj9, '9.0.1.19813', 'net462', 'mono'), undefined);
  assert.equal(
    versionMismatch(nj9, '9.0.0.0', 'net462', 'mono'),
    'Newtonsoft.Json 9.0.1 was asked, but the mono worker loads 9.0.0.0',
    'an assembly version alone does not prove the package',
  );
  assert.match(
    versionMismatch(nj9, '9.0.10.1', 'net462', 'mono') ?? '',
    /loads 9\.0\.10\.1/,
    'no prefix match across a digit',
  );
  assert.equal(isFileVersionOf('13.0.1.25517', '13.0.1'), true);
  assert.equal(isFileVersionOf('14.0.1.1', '14.0.1-beta2'), false, 'a prerelease is never matched by a file version');
});

test("on Mono the restored package decides: STJ 8.0.5's DLL says 8.0.10 (its .NET release) and is still 8.0.5", () => {
  const stj8 = dotnetVariantOf('stj@8.0.5')!;
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-assets-'));
  try {
    mkdirSync(join(dir, 'src', 'obj'), { recursive: true });
    writeFileSync(
      join(dir, 'src', 'obj', 'project.assets.json'),
      JSON.stringify({ libraries: { 'Newtonsoft.Json/13.0.4': {}, 'System.Text.Json/8.0.5': {} } }),
    );
    assert.equal(restoredVersion(dir, packageNameOf(stj8)), '8.0.5');
    assert.equal(restoredVersion(dir, 'newtonsoft.json'), '13.0.4', 'package ids are case-insensitive');
    assert.equal(restoredVersion(join(dir, 'none'), 'System.Text.Json'), undefined);
    // what the mono worker built with -p:StjVersion=8.0.5 reported (informational 8.0.10+81cabf28…, assembly 8.0.0.5)
    assert.equal(versionMismatch(stj8, '8.0.10', 'net462', 'mono', { version: '8.0.5', fromBuild: true }), undefined);
    assert.match(
      versionMismatch(stj8, '8.0.10', 'net462', 'mono') ?? '',
      /loads the framework's 8\.0\.10/,
      'without the restore the informational version alone misleads',
    );
    const beta = dotnetVariantOf('newtonsoft@13.0.5-beta1')!;
    assert.equal(
      versionMismatch(beta, '14.0.1-beta2', 'net462', 'mono', { version: '14.0.1-beta2', fromBuild: true }),
      'Newtonsoft.Json 13.0.5-beta1 was asked, but NuGet restored 14.0.1-beta2 (the registry has no 13.0.5-beta1: NU1603)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed build reads as one line: the package NuGet lacks, a source generator that threw, or the first error', () => {
  const tmp = '/root/.cache/jsonbench/dotnet/net8.0-linux-x64-690ad62654baf13b.tmp-490-1796515849195/src';
  const nuget = readBuildFailure([
    '  Determining projects to restore...',
    `${tmp}/JsonBench.Worker.csproj : error NU1101: Unable to find package runtime.unix.System.Diagnostics.Debug. No packages exist with this id in source(s): nuget.org`,
    `${tmp}/JsonBench.Worker.csproj : error NU1101: Unable to find package runtime.any.System.Reflection.Extensions. No packages exist with this id in source(s): nuget.org`,
    `${tmp}/JsonBench.Worker.csproj : error NU1101: Unable to find package runtime.unix.System.Diagnostics.Debug. No packages exist with this id in source(s): nuget.org`,
  ]);
  assert.deepEqual(
    [nuget.summary, nuget.missingPackage],
    ['the NuGet source lacks runtime.unix.System.Diagnostics.Debug (NU1101) and 1 more package', true],
  );
  assert.equal(
    nuget.firstError,
    'JsonBench.Worker.csproj : error NU1101: Unable to find package runtime.unix.System.Diagnostics.Debug. No packages exist with this id in source(s): nuget.org',
    'paths cut to the file name',
  );
  const generator = readBuildFailure([
    `CSC : warning CS8785: Generator 'JsonSourceGenerator' failed to generate source. It will not contribute to the output and compilation errors may occur as a result. Exception was of type 'InvalidOperationException' with message 'Operation is not valid due to the current state of the object.'. [${tmp}/JsonBench.Worker.csproj]`,
    `${tmp}/Generated/Dtos.g.cs(192,28): error CS0534: 'WeatherStationDeserializeJsonContext' does not implement inherited abstract member 'JsonSerializerContext.GetTypeInfo(Type)' [${tmp}/JsonBench.Worker.csproj]`,
  ]);
  assert.match(
    generator.summary,
    /^the source generator JsonSourceGenerator threw InvalidOperationException \('Operation is not valid/,
  );
  assert.equal(generator.missingPackage, false);
  const cs = readBuildFailure([
    `${tmp}/Generated/Dtos.g.cs(553,10): error CS0246: The type or namespace name 'JsonStringEnumMemberNameAttribute' could not be found (are you missing a using directive or an assembly reference?) [${tmp}/JsonBench.Worker.csproj]`,
    `${tmp}/Generated/Dtos.g.cs(553,10): error CS0246: The type or namespace name 'JsonStringEnumMemberNameAttribute' could not be found (are you missing a using directive or an assembly reference?) [${tmp}/JsonBench.Worker.csproj]`,
    `${tmp}/Generated/Dtos.g.cs(557,10): error CS0246: The type or namespace name 'JsonStringEnumMemberName' could not be found (are you missing a using directive or an assembly reference?) [${tmp}/JsonBench.Worker.csproj]`,
  ]);
  assert.equal(
    cs.summary,
    "Dtos.g.cs(553,10): error CS0246: The type or namespace name 'JsonStringEnumMemberNameAttribute' could not be found (are you missing a using directive or an assembly reference?) (and 1 more error)",
  );
  assert.ok(!cs.summary.includes('/'), 'no path in the one-line reason');
  assert.ok(!cs.summary.includes('\n'));
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
