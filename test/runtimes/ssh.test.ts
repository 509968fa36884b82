import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parseTarget } from '../../src/runtimes/index.js';
import { runOnTargets } from './helpers.js';
import { freePort, sshdStartsInCi, startSshd, type TestSshd } from './sshd.js';

/**
 * A remote target against a real OpenSSH server started here on 127.0.0.1 with throwaway host and
 * client keys (the "remote" is this machine, reached only through ssh/scp: test/runtimes/sshd.ts).
 * Skipped with the reason where sshd is not installed (`apt-get install -y openssh-server`) or cannot start.
 */

const sshd: TestSshd = await startSshd();
after(() => sshd.stop());
/** Why the remote tests cannot run here (sshd missing or not starting), or false. */
const skip = sshd.skip ?? false;
const { port, dir } = sshd;
const serverLog = () => sshd.log();

sshdStartsInCi(sshd);

const address = () => sshd.address(`node=${encodeURIComponent(process.execPath)}`);

test(
  'a case runs on a remote Node over ssh, streams its samples back, and records the remote environment',
  { skip },
  async () => {
    const { cases, targets } = await runOnTargets([parseTarget(address())]);
    const c = cases[0];
    assert.equal(c.status, 'measured', `${c.status}: ${c.reason ?? ''} ${serverLog().slice(-300)}`);
    assert.equal(c.id, `weather-station/1/single/serialize/json@ssh://${userInfo().username}@127.0.0.1:${port}`);
    assert.equal(c.target?.runtime, 'node');
    assert.equal(c.target?.version, process.versions.node, 'the remote Node is the one ?node= named');
    assert.ok(
      c.time && c.time.n >= 4 && c.samples.launches[0].rounds.length === 2,
      'every round came back over the ssh channel',
    );
    assert.equal(c.allocated?.method, 'exact');
    const probe = targets[0].probe as { remoteDir: string; cpuModel: string; cores: number; node: string };
    assert.equal(targets[0].kind, 'ssh');
    assert.equal(probe.node, process.execPath);
    assert.ok(probe.cpuModel && probe.cores > 0, 'the remote machine was probed');
    assert.equal(existsSync(probe.remoteDir), false, 'the remote folder is removed after the run');
  },
);

test('an unreachable remote fails only its own cases, saying why', { skip }, async () => {
  const closed = await freePort();
  const { cases } = await runOnTargets([
    parseTarget('node'),
    parseTarget(`ssh://nobody@127.0.0.1:${closed}?known_hosts=${encodeURIComponent(join(dir, 'known_hosts'))}`),
  ]);
  assert.deepEqual(
    cases.map((c) => c.status),
    ['measured', 'failed'],
  );
  assert.match(
    cases[1].reason ?? '',
    /^ssh:\/\/nobody@127\.0\.0\.1:\d+ is not reachable or has no Node \(ssh: connect to host 127\.0\.0\.1 port \d+: Connection refused\): install Node ≥ 20 on 127\.0\.0\.1 or pass \?node=\/path\/to\/node$/,
  );
});
