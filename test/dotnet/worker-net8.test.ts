import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { dotnetSdk } from '../../src/runtimes/dotnet/detect.js';
import { parseTarget } from '../../src/runtimes/index.js';

/**
 * The one real self-contained build of the suite (a publish takes 1–2 min here): target dotnet@8
 * publishes the worker for net8.0 with NuGet's runtime pack, starts it as its apphost and records
 * the runtime's own FrameworkDescription; a second prepare reuses the build. Skipped, naming the
 * reason, where the .NET SDK is missing.
 */
const sdk = await dotnetSdk();
const skip = 'reason' in sdk ? `dotnet@8 needs the .NET SDK: ${sdk.reason}` : false;

test(
  'dotnet@8: a self-contained net8.0 worker, started as its apphost, reports .NET 8 and loads its own System.Text.Json 8',
  { skip, timeout: 900_000 },
  async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'jsonbench-net8-'));
    try {
      const target = parseTarget('dotnet@8');
      const ctx = { cacheDir, bundleDir: join(cacheDir, 'bundle'), payloadPaths: [], workloads: [] };
      const first = await target.prepare(ctx);
      const info = first.info;
      assert.equal(info.fault, undefined);
      assert.match(info.version, /^8\.0\.\d+$/);
      assert.equal(info.engineVersion, info.version);
      assert.equal(info.probe.description, `.NET ${info.version}`, 'RuntimeInformation.FrameworkDescription');
      assert.equal(info.probe.targetFramework, '.NETCoreApp,Version=v8.0');
      assert.deepEqual(
        [info.build?.selfContained, info.build?.runtimeVersion, info.build?.framework],
        ['linux-x64', info.version, 'net8.0'],
      );
      assert.match(String(info.probe.executable), /[/]net8\.0-linux-x64-[0-9a-f]{16}[/]bin[/]jsonbench-worker$/);
      assert.equal(info.probe.worker, undefined, 'the apphost takes no dll argument');
      const buildDir = dirname(dirname(String(info.probe.executable)));
      assert.equal(existsSync(join(buildDir, 'src', 'bin')), false, "the publish's 72 MiB intermediate copy is gone");
      assert.ok(existsSync(join(buildDir, 'src', 'Generated', 'Dtos.g.cs')), 'the compiled C# is kept');
      assert.equal(first.serializerVersions?.stj, info.version, "System.Text.Json is the runtime pack's own");
      const stj = (info.probe.serializers as { id: string; location: string }[]).find((s) => s.id === 'stj')!;
      assert.ok(
        stj.location.startsWith(join(cacheDir, 'dotnet')),
        `loaded from the build, not a shared framework: ${stj.location}`,
      );
      const again = await target.prepare(ctx);
      assert.deepEqual([again.info.build?.cached, again.info.workerSha256], [true, info.workerSha256]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  },
);
