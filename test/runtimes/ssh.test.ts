import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { parseTarget } from '../../src/runtimes/index.js';
import { runOnTargets } from './helpers.js';

/**
 * A remote target against a real OpenSSH server started here on 127.0.0.1 with throwaway host and
 * client keys (the "remote" is this machine, reached only through ssh/scp). Skipped with the
 * reason where sshd is not installed (`apt-get install -y openssh-server`) or cannot start.
 */

const SSHD = '/usr/sbin/sshd';
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-sshd-'));
let server: ChildProcess | undefined;
let port = 0;
let skip: string | undefined;
let serverLog = '';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
const accepts = (p: number) =>
  new Promise<boolean>((resolve) => {
    const c = connect(p, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });

before(async () => {
  if (!existsSync(SSHD)) {
    skip = `sshd is not installed (${SSHD}): run \`apt-get install -y openssh-server\``;
    return;
  }
  try {
    mkdirSync('/run/sshd', { recursive: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
    copyFileSync(join(dir, 'client_key.pub'), join(dir, 'authorized_keys'));
  } catch (e) {
    skip = `cannot set up a throwaway sshd: ${(e as Error).message}`;
    return;
  }
  port = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${userInfo().username}`,
      '',
    ].join('\n'),
  );
  server = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  server.stderr!.on('data', (d: Buffer) => {
    serverLog += d.toString();
  });
  for (let i = 0; i < 50; i++) {
    if (server.exitCode !== null) break;
    if (await accepts(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  skip = `sshd did not start on 127.0.0.1:${port}: ${serverLog.trim().split('\n').slice(-2).join(' | ')}`;
});

after(() => {
  if (server && server.exitCode === null) server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const address = () =>
  `ssh://${userInfo().username}@127.0.0.1:${port}?node=${encodeURIComponent(process.execPath)}&identity=${encodeURIComponent(join(dir, 'client_key'))}&known_hosts=${encodeURIComponent(join(dir, 'known_hosts'))}`;

test('a case runs on a remote Node over ssh, streams its samples back, and records the remote environment', async (t) => {
  if (skip) {
    t.skip(skip);
    return;
  }
  const { cases, targets } = await runOnTargets([parseTarget(address())]);
  const c = cases[0];
  assert.equal(c.status, 'measured', `${c.status}: ${c.reason ?? ''} ${serverLog.slice(-300)}`);
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
});

test('an unreachable remote fails only its own cases, saying why', async (t) => {
  if (skip) {
    t.skip(skip);
    return;
  }
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
