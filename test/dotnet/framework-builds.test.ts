import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWorkerBuild, includedRuntimeVersion } from '../../src/runtimes/dotnet/build.js';
import { parseTarget } from '../../src/runtimes/index.js';
import { TargetError } from '../../src/runtimes/types.js';

/**
 * Per-framework worker builds (targets dotnet@8|9|10) and per-package-set builds (`newtonsoft@13.0.1`)
 * against a stand-in for `dotnet` that records its arguments and writes what a publish writes: the
 * apphost, the dll and a runtimeconfig.json naming the runtime pack's version it "took".
 */
function fakeDotnet(dir: string): { command: string; calls: () => string[] } {
  const command = join(dir, 'fake-dotnet.sh');
  const calls = join(dir, 'calls');
  writeFileSync(
    command,
    `#!/bin/sh
echo "$*" >> "${calls}"
out=""; fw=""; sc=""
for a in "$@"; do case "$a" in -p:WorkerFramework=*) fw="\${a#-p:WorkerFramework=}";; --self-contained) sc=1;; esac; done
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; fi; shift; done
mkdir -p "$out"
printf 'worker dll' > "$out/jsonbench-worker.dll"
if [ -n "$sc" ]; then
  printf '#!/bin/sh\\n' > "$out/jsonbench-worker"
  v="\${fw#net}"; v="\${v%.0}"
  printf '{"runtimeOptions":{"tfm":"%s","includedFrameworks":[{"name":"Microsoft.NETCore.App","version":"%s.0.31"}]}}' "$fw" "$v" > "$out/jsonbench-worker.runtimeconfig.json"
fi
`,
  );
  chmodSync(command, 0o755);
  return {
    command,
    calls: () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []),
  };
}

test('each framework, self-contained or not, and each package set is its own cached build; the same inputs reuse it', async () => {
  const root = mkdtempSync(join(tmpdir(), 'jsonbench-fw-builds-'));
  try {
    const fake = fakeDotnet(root);
    const cacheDir = join(root, 'cache');
    const opts = { cacheDir, sources: [], sdkVersion: 'test-sdk', dotnet: fake.command };
    const net8 = await ensureWorkerBuild({ ...opts, framework: 'net8.0', selfContained: true });
    const net9 = await ensureWorkerBuild({ ...opts, framework: 'net9.0', selfContained: true });
    const plain10 = await ensureWorkerBuild({ ...opts, framework: 'net10.0' });
    const sc10 = await ensureWorkerBuild({ ...opts, framework: 'net10.0', selfContained: true });
    const nj = await ensureWorkerBuild({
      ...opts,
      framework: 'net8.0',
      selfContained: true,
      packages: { newtonsoft: '13.0.1' },
    });
    assert.equal(new Set([net8.key, net9.key, plain10.key, sc10.key, nj.key]).size, 5, 'five distinct keys');
    assert.match(net8.dir, /[/]dotnet[/]net8\.0-linux-x64-[0-9a-f]{16}$/);
    assert.match(plain10.dir, /[/]dotnet[/]net10\.0-[0-9a-f]{16}$/);
    // a self-contained build starts as its apphost; a plain one through `dotnet <dll>`
    assert.deepEqual([net8.command, net8.args], [join(net8.dir, 'bin', 'jsonbench-worker'), []]);
    assert.deepEqual(
      [plain10.command, plain10.args],
      [fake.command, [join(plain10.dir, 'bin', 'jsonbench-worker.dll')]],
    );
    const calls = fake.calls();
    assert.equal(calls.length, 5);
    assert.match(calls[0], /^publish -c Release -p:WorkerFramework=net8\.0 -r linux-x64 --self-contained -o \S+ /);
    assert.match(calls[2], /^build -c Release -p:WorkerFramework=net10\.0 -o /);
    assert.match(calls[4], / -p:NewtonsoftVersion=13\.0\.1 /);
    assert.equal(
      nj.buildCommand,
      'dotnet publish -c Release -p:WorkerFramework=net8.0 -r linux-x64 --self-contained -p:NewtonsoftVersion=13.0.1 -o bin',
    );
    // the record names the runtime pack's version the publish carries, and the package set
    const rec = JSON.parse(readFileSync(join(nj.dir, 'build.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(
      [rec.selfContained, rec.runtimeVersion, rec.packages],
      ['linux-x64', '8.0.31', { newtonsoft: '13.0.1' }],
    );
    assert.equal(includedRuntimeVersion(join(net9.dir, 'bin')), '9.0.31');
    assert.equal(
      includedRuntimeVersion(join(plain10.dir, 'bin')),
      undefined,
      'a framework-dependent build carries no runtime',
    );

    // the same inputs again: every build reused, no new call
    const again = await ensureWorkerBuild({ ...opts, framework: 'net8.0', selfContained: true });
    const againNj = await ensureWorkerBuild({
      ...opts,
      framework: 'net8.0',
      selfContained: true,
      packages: { newtonsoft: '13.0.1' },
    });
    assert.deepEqual([again.cached, again.dir, againNj.cached, againNj.dir], [true, net8.dir, true, nj.dir]);
    assert.equal(fake.calls().length, 5);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('dotnet@8|9|10 are .NET targets of their own; another major is refused with the ones there are', () => {
  for (const major of [8, 9, 10]) {
    const t = parseTarget(`dotnet@${major}`);
    assert.deepEqual([t.id, t.kind, t.platform, t.runtime], [`dotnet@${major}`, 'dotnet-version', 'dotnet', 'dotnet']);
    assert.ok(t.install, 'installable: a publish into the cache');
    assert.match(t.installHint, new RegExp(`Microsoft\\.NETCore\\.App\\.Runtime\\.linux-x64 ${major}\\.0\\.x`));
  }
  assert.equal(parseTarget('dotnet').kind, 'dotnet', 'plain dotnet stays the SDK runtime');
  assert.throws(
    () => parseTarget('dotnet@7'),
    (e: unknown) => e instanceof TargetError && /8, 9, 10/.test(e.message),
  );
});

test('dotnet@8 is listed as not built until a build of net8.0 is in the cache, then with the runtime version it carries', async () => {
  const root = mkdtempSync(join(tmpdir(), 'jsonbench-fw-detect-'));
  const saved = process.env.DOTNET;
  try {
    const fake = fakeDotnet(root);
    // the stand-in answers `--version` like an SDK
    writeFileSync(
      fake.command,
      readFileSync(fake.command, 'utf8').replace(
        '#!/bin/sh\n',
        '#!/bin/sh\n[ "$1" = "--version" ] && { echo 10.0.401; exit 0; }\n',
      ),
    );
    process.env.DOTNET = fake.command;
    const cacheDir = join(root, 'cache');
    const t = parseTarget('dotnet@8');
    const before = await t.detect({ cacheDir });
    assert.equal(before.installed, false);
    assert.match(!before.installed ? before.reason : '', /not built yet: jsonbench runtimes install dotnet@8/);
    await ensureWorkerBuild({
      cacheDir,
      sources: [],
      sdkVersion: '10.0.401',
      dotnet: fake.command,
      framework: 'net8.0',
      selfContained: true,
    });
    const after = await t.detect({ cacheDir });
    assert.deepEqual(after.installed && after.version, '8.0.31 (self-contained, SDK 10.0.401)');
    assert.equal(
      (await parseTarget('dotnet@9').detect({ cacheDir })).installed,
      false,
      'a net8.0 build is not dotnet@9',
    );
  } finally {
    if (saved === undefined) delete process.env.DOTNET;
    else process.env.DOTNET = saved;
    rmSync(root, { recursive: true, force: true });
  }
});
