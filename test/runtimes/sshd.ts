import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A real OpenSSH server on 127.0.0.1 with throwaway host and client keys, for the ssh:// target's tests (the
 * "remote" is this machine, reached only through ssh/scp). `skip` is the reason when sshd is not installed
 * (`apt-get install -y openssh-server`, as .ci/run does) or cannot start; `stop()` ends it and removes its folder.
 * Under CI (`CI=true`, set by .ci/run, which installs openssh-server) a reason is a defect: {@link sshdStartsInCi}
 * turns it into a failing test, so CI never passes by skipping every remote test.
 */
export interface TestSshd {
  port: number;
  dir: string;
  skip?: string;
  /** what sshd printed (its last lines explain a refused login) */
  log(): string;
  /** the ssh:// address of this machine's user with the throwaway key and known_hosts, plus `query` (`mono=/usr/bin/mono`) */
  address(query: string): string;
  stop(): void;
}

const SSHD = '/usr/sbin/sshd';

/** A free TCP port on 127.0.0.1. */
export const freePort = () =>
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

/** Starts the server (or says why it cannot). */
export async function startSshd(): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-sshd-'));
  let serverLog = '';
  const done = (port: number, skip?: string, server?: ChildProcess): TestSshd => ({
    port,
    dir,
    ...(skip ? { skip } : {}),
    log: () => serverLog,
    address: (query) =>
      `ssh://${userInfo().username}@127.0.0.1:${port}?${query}&identity=${encodeURIComponent(join(dir, 'client_key'))}&known_hosts=${encodeURIComponent(join(dir, 'known_hosts'))}`,
    stop: () => {
      if (server && server.exitCode === null) server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  });
  if (!existsSync(SSHD)) return done(0, `sshd is not installed (${SSHD}): run \`apt-get install -y openssh-server\``);
  try {
    mkdirSync('/run/sshd', { recursive: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
    copyFileSync(join(dir, 'client_key.pub'), join(dir, 'authorized_keys'));
  } catch (e) {
    return done(0, `cannot set up a throwaway sshd: ${(e as Error).message}`);
  }
  const port = await freePort();
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
  const server = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  server.stderr!.on('data', (d: Buffer) => {
    serverLog += d.toString();
  });
  // up to 20 s: a loaded machine (load 25 on 2 cores) can take seconds to start it
  for (let i = 0; i < 200; i++) {
    if (server.exitCode !== null) break;
    if (await accepts(port)) return done(port, undefined, server);
    await new Promise((r) => setTimeout(r, 100));
  }
  return done(
    port,
    `sshd did not start on 127.0.0.1:${port}: ${serverLog.trim().split('\n').slice(-2).join(' | ')}`,
    server,
  );
}

/**
 * Registers the test that fails under CI when the throwaway sshd did not start (elsewhere it is skipped, saying so):
 * the remote tests themselves skip with `sshd.skip`, which CI must never see.
 */
export function sshdStartsInCi(sshd: TestSshd): void {
  test(
    'the throwaway sshd starts on 127.0.0.1 (CI installs openssh-server: a skip there is a defect)',
    { skip: process.env.CI ? false : 'not under CI (CI=true): without sshd the remote tests skip, naming why' },
    () => assert.equal(sshd.skip, undefined, `under CI the ssh tests must run, but: ${sshd.skip}`),
  );
}
