import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseTarget } from '../../src/runtimes/index.js';
import { dotnetSdk, detectDotnet, detectMono } from '../../src/runtimes/dotnet/detect.js';
import { newestRuntimeMajor } from '../../src/runtimes/ssh-dotnet.js';
import stj from '../../src/serializers/dotnet/stj.js';
import type { DotnetSerializer } from '../../src/serializers/types.js';
import { runOnTargets } from './helpers.js';
import { sshdStartsInCi, startSshd, type TestSshd } from './sshd.js';

/**
 * The C# worker on a "remote" .NET and Mono over ssh (issue 26 item 4): this machine's own dotnet and mono reached
 * through a throwaway sshd on 127.0.0.1 (test/runtimes/sshd.ts). The worker is built here, copied with scp, started
 * with ssh; its output is gated on this host. Skipped, naming the reason, without sshd, the .NET SDK, or Mono.
 */

const sdk = await dotnetSdk();
const dotnet = await detectDotnet();
const mono = await detectMono();
const sshd: TestSshd = await startSshd();
after(() => sshd.stop());

sshdStartsInCi(sshd);

/** Why a remote case on `runtime` cannot run here (no sshd, no .NET SDK to build the worker, no such runtime), or false. */
function skipFor(runtime: 'dotnet' | 'mono'): string | false {
  if (sshd.skip) return sshd.skip;
  if ('reason' in sdk) return `the worker is built with the .NET SDK: ${sdk.reason}`;
  const d = runtime === 'dotnet' ? dotnet : mono;
  return d.installed ? false : `no ${runtime} here to reach over ssh: ${d.reason}`;
}

/** The command a detection found (the runtime's path), for ?dotnet= and ?mono=. */
const pathOf = (d: typeof dotnet) => (d.installed ? d.command : '');

for (const runtime of ['dotnet', 'mono'] as const) {
  test(
    `a .NET case runs on a remote ${runtime} over ssh, gated on this host, with the remote runtime's own FrameworkDescription`,
    { skip: skipFor(runtime) },
    async () => {
      const d = runtime === 'dotnet' ? dotnet : mono;
      const target = parseTarget(sshd.address(`${runtime}=${encodeURIComponent(pathOf(d))}`));
      assert.equal(target.platform, 'dotnet');
      const { cases, targets } = await runOnTargets([target], {
        serializers: ['newtonsoft'],
        direction: 'deserialize',
      });
      const info = targets[0];
      assert.equal(info.fault, undefined, String(info.fault));
      assert.deepEqual(
        cases.map((c) => [c.serializer, c.status, c.reason ?? '']),
        [
          ['stj', 'measured', ''],
          ['newtonsoft', 'measured', ''],
        ],
        sshd.log().slice(-300),
      );
      const c = cases[1];
      const id = `ssh://${userInfo().username}@127.0.0.1:${sshd.port}?${runtime}=${pathOf(d)}`;
      assert.equal(c.target.id, id, 'the runtime and its path, not the key');
      assert.equal(parseTarget(id).platform, 'dotnet', 'an id parses again (the probe pass reads platforms from ids)');
      assert.equal(c.allocated?.method, 'exact');
      if (runtime === 'dotnet')
        assert.equal(
          c.allocated?.mean,
          3984,
          'Newtonsoft weather-station deserialize: 3,984 B on .NET 10, as BenchmarkDotNet counts it',
        );
      else assert.ok((c.allocated?.mean ?? 0) > 1000, `Mono counts Newtonsoft's allocation: ${c.allocated?.mean} B`);
      assert.ok(c.ratio != null && c.ratio > 0, 'paired with stj in the remote process');
      const probe = info.probe as { description: string; remoteDir: string; targetFramework: string };
      assert.equal(info.kind, 'ssh');
      assert.equal(info.runtime, runtime);
      // dotnet's detection reads `.NET 10.0.12 (SDK 10.0.401)`; the worker prints FrameworkDescription, `.NET 10.0.12`
      const description = !d.installed ? '' : runtime === 'dotnet' ? `.NET ${d.version}` : d.description;
      assert.equal(probe.description, description, "the remote runtime's own FrameworkDescription");
      assert.equal(info.version, d.installed ? d.version : '');
      assert.equal(
        probe.targetFramework,
        runtime === 'dotnet' ? '.NETCoreApp,Version=v10.0' : '.NETFramework,Version=v4.6.2',
      );
      assert.equal(existsSync(probe.remoteDir), false, 'the remote folder is removed after the run');
    },
  );
}

test(
  'the host gate judges the remote output: a deliberately wrong serializer is incorrect, never timed',
  { skip: skipFor('dotnet') },
  async () => {
    const wrong: DotnetSerializer = { ...stj, id: 'wrong-dotnet' };
    const target = parseTarget(sshd.address(`dotnet=${encodeURIComponent(pathOf(dotnet))}`));
    const { cases } = await runOnTargets([target], { serializers: ['wrong-dotnet'], userSerializers: [wrong] });
    const c = cases.find((x) => x.serializer === 'wrong-dotnet')!;
    assert.equal(c.status, 'incorrect', c.reason);
    assert.equal(c.samples.launches.length, 0, 'never timed');
  },
);

test(
  'a remote .NET target that cannot log in says which step failed and what ssh needs',
  { skip: sshd.skip ?? false },
  async () => {
    const target = parseTarget(
      `ssh://nobody@127.0.0.1:${sshd.port}?mono=/usr/bin/mono&known_hosts=${encodeURIComponent(`${sshd.dir}/kh2`)}`,
    );
    const d = await target.detect({ cacheDir: sshd.dir });
    assert.equal(d.installed, false);
    assert.match(
      d.installed ? '' : d.reason,
      /^ssh:\/\/nobody@127\.0\.0\.1:\d+: asking \/usr\/bin\/mono what it is over ssh failed \(.*Permission denied.*\); jsonbench copies with scp and starts workers with ssh, both with BatchMode=yes/,
    );
  },
);

test('the newest .NET 8, 9 or 10 of a remote `dotnet --list-runtimes` picks the worker build', () => {
  const list = [
    'Microsoft.AspNetCore.App 8.0.31 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]',
    'Microsoft.NETCore.App 8.0.31 [/usr/share/dotnet/shared/Microsoft.NETCore.App]',
    'Microsoft.NETCore.App 9.0.20 [/usr/share/dotnet/shared/Microsoft.NETCore.App]',
  ].join('\n');
  assert.equal(newestRuntimeMajor(list), 9);
  assert.equal(newestRuntimeMajor('Microsoft.NETCore.App 6.0.36 [/x]'), undefined, '.NET 6 is not built for');
  assert.equal(newestRuntimeMajor(''), undefined);
});
