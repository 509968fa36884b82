import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSshAddress, scpArgs, sshArgs } from '../../src/runtimes/ssh-address.js';

/** The user and host of an ssh:// target reach ssh and scp as arguments: never as options. */

for (const target of [
  'ssh://-oProxyCommand=touch%20pwned@box',
  'ssh://%2DoProxyCommand=x@box',
  'ssh://u@-oProxyCommand=x',
  'ssh://u%3Bid@box',
  'ssh://u@box;id',
  'ssh://u@box%20x',
  'ssh://u%0Ax@box',
]) {
  test(`the ssh target ${target} is refused, naming what is wrong`, () => {
    assert.throws(
      () => parseSshAddress(target),
      /: (user ".*" is not a valid user name|host ".*" is not a host name|the user is not valid percent-encoding)/,
    );
  });
}

test('ordinary users and hosts are accepted: names, dots, IPv4 and bracketed IPv6', () => {
  assert.equal(parseSshAddress('ssh://ci.bot_1@build-01.example.com')?.host, 'build-01.example.com');
  assert.equal(parseSshAddress('ssh://ci@10.0.0.7:2222')?.port, 2222);
  assert.equal(parseSshAddress('ssh://ci@[::1]')?.host, '[::1]');
});

test('ssh and scp get -- before the destination, so it can never be read as an option', () => {
  const a = parseSshAddress('ssh://ci@box:2222')!;
  const ssh = sshArgs(a, 'true');
  assert.deepEqual(ssh.slice(-3), ['--', 'ci@box', 'true']);
  assert.deepEqual(ssh.slice(ssh.indexOf('-p'), ssh.indexOf('-p') + 2), ['-p', '2222']);
  const scp = scpArgs(a, ['/tmp/a.json', '/tmp/b.json'], '/tmp/jsonbench-x');
  assert.deepEqual(scp.slice(-4), ['--', '/tmp/a.json', '/tmp/b.json', 'ci@box:/tmp/jsonbench-x/']);
});

test('an ssh target refuses a query key it does not take, naming it and the keys it takes', () => {
  assert.throws(
    () => parseSshAddress('ssh://ci@box?bogus=1'),
    /ssh:\/\/ci@box\?bogus=1: \?bogus= is not a key of an ssh target \(it takes \?node=, \?dotnet=, \?mono=, \?identity=, \?known_hosts=\)$/,
  );
  assert.throws(
    () => parseSshAddress('ssh://ci@box?mono=/usr/bin/mono&node=/usr/bin/node'),
    /\?node= and \?mono=: an ssh target runs one runtime/,
  );
  assert.throws(() => parseSshAddress('ssh://ci@box?mono='), /\?mono= is empty/);
  assert.throws(() => parseSshAddress('ssh://ci@box?mono=/a&mono=/b'), /\?mono= is given more than once/);
  assert.deepEqual(parseSshAddress('ssh://ci@box:2322?mono=%2Fopt%2Fmono%2Fbin%2Fmono'), {
    user: 'ci',
    host: 'box',
    port: 2322,
    node: 'node',
    mono: '/opt/mono/bin/mono',
  });
  assert.equal(parseSshAddress('ssh://ci@box?dotnet=/usr/bin/dotnet')?.dotnet, '/usr/bin/dotnet');
});

test('scp copies a folder with -r, still behind --', () => {
  const a = parseSshAddress('ssh://ci@box')!;
  const scp = scpArgs(a, ['/cache/net462-abc/bin'], '/tmp/jsonbench-x', true);
  assert.ok(scp.indexOf('-r') >= 0 && scp.indexOf('-r') < scp.indexOf('--'));
  assert.deepEqual(scp.slice(-3), ['--', '/cache/net462-abc/bin', 'ci@box:/tmp/jsonbench-x/']);
});
