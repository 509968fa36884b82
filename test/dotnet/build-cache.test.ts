import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWorkerBuild } from '../../src/runtimes/dotnet/build.js';

/**
 * A stand-in for `dotnet`: `build … -o <dir>` writes two files into <dir> (the worker dll and a
 * dependency in a subfolder) and appends a line to `calls` beside the script, so a test counts builds.
 */
function fakeDotnet(dir: string): { command: string; calls: () => number } {
  const command = join(dir, 'fake-dotnet.sh');
  const calls = join(dir, 'calls');
  writeFileSync(
    command,
    `#!/bin/sh
out=""
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; fi; shift; done
mkdir -p "$out/runtimes"
printf 'worker dll' > "$out/jsonbench-worker.dll"
printf 'dependency' > "$out/runtimes/dep.dll"
echo built >> "${calls}"
`,
  );
  chmodSync(command, 0o755);
  return {
    command,
    calls: () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

const build = (cacheDir: string, dotnet: string) =>
  ensureWorkerBuild({ cacheDir, framework: 'net10.0', sources: [], sdkVersion: 'test-sdk', dotnet });

test('a cached worker build is reused only while its bin/ files have the hashes recorded last in build.json; else it is built again', async () => {
  const root = mkdtempSync(join(tmpdir(), 'jsonbench-build-cache-'));
  try {
    const fake = fakeDotnet(root);
    const cache = join(root, 'cache');
    const first = await build(cache, fake.command);
    assert.equal(first.cached, false);
    assert.equal(fake.calls(), 1);
    const record = JSON.parse(readFileSync(join(first.dir, 'build.json'), 'utf8')) as { files: Record<string, string> };
    assert.deepEqual(Object.keys(record.files), ['jsonbench-worker.dll', 'runtimes/dep.dll']);

    const second = await build(cache, fake.command);
    assert.deepEqual([second.cached, second.dir, fake.calls()], [true, first.dir, 1]);

    // a truncated dll (a disk filled up, a copy cut short): built again
    writeFileSync(join(first.dir, 'bin', 'jsonbench-worker.dll'), 'worker');
    const third = await build(cache, fake.command);
    assert.deepEqual([third.cached, third.dir, fake.calls()], [false, first.dir, 2]);
    assert.equal(readFileSync(join(third.dir, 'bin', 'jsonbench-worker.dll'), 'utf8'), 'worker dll');

    // a deleted dependency: built again
    rmSync(join(first.dir, 'bin', 'runtimes', 'dep.dll'));
    assert.equal((await build(cache, fake.command)).cached, false);
    assert.equal(fake.calls(), 3);

    // a record that does not parse (a build.json cut short): built again
    writeFileSync(join(first.dir, 'build.json'), '{"framework": "net1');
    assert.equal((await build(cache, fake.command)).cached, false);
    assert.equal(fake.calls(), 4);

    // an older jsonbench's record without hashes: built again once, then reused
    const rec = JSON.parse(readFileSync(join(first.dir, 'build.json'), 'utf8')) as Record<string, unknown>;
    delete rec.files;
    writeFileSync(join(first.dir, 'build.json'), JSON.stringify(rec));
    assert.equal((await build(cache, fake.command)).cached, false);
    assert.equal((await build(cache, fake.command)).cached, true);
    assert.equal(fake.calls(), 5);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a temporary build folder left by a killed build is removed by the next build; one of a running process is kept', async () => {
  const root = mkdtempSync(join(tmpdir(), 'jsonbench-build-tmp-'));
  try {
    const fake = fakeDotnet(root);
    const cache = join(root, 'cache');
    const dotnetDir = join(cache, 'dotnet');
    // pid 2^22 + 1 is above Linux's pid_max limit (2^22): no process has it
    const dead = join(dotnetDir, 'net10.0-0123456789abcdef.tmp-4194305-1764633600000');
    // this test's own parent (node --test) runs: its folder belongs to a build in progress
    const running = join(dotnetDir, `net10.0-0123456789abcdef.tmp-${process.ppid}-1764633600000`);
    for (const d of [dead, running]) {
      mkdirSync(join(d, 'bin'), { recursive: true });
      writeFileSync(join(d, 'bin', 'partial.dll'), 'half');
    }
    const b = await build(cache, fake.command);
    assert.equal(existsSync(dead), false, "the dead build's folder is gone");
    assert.equal(existsSync(running), true, "the running build's folder is kept");
    assert.deepEqual(readdirSync(dotnetDir).sort(), [b.dir.split('/').pop()!, running.split('/').pop()!].sort());
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
