import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A machine without `dotnet` (or without Mono) still runs the suite: the C# worker's tests report
 * themselves skipped, each with the reason and the install hint, instead of passing empty or
 * failing. Simulated with $DOTNET / $MONO pointing at a file that does not exist (detect.ts reads them).
 */
const suite = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

function runWithout(file: string, env: Record<string, string>): { out: string; status: number | null } {
  // NODE_TEST_CONTEXT removed: with it, node:test in the child takes itself for a nested run and runs nothing
  const { NODE_TEST_CONTEXT: _, ...parent } = process.env;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', suite(file)], {
    env: { ...parent, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { out: r.stdout + r.stderr, status: r.status };
}

test('without dotnet, every .NET worker test is skipped naming the missing SDK and how to install it', () => {
  const { out, status } = runWithout('worker-dotnet.test.js', { DOTNET: '/nonexistent/dotnet' });
  assert.equal(status, 0, out);
  const skipped = out.split('\n').filter((l) => /^ok \d+ - dotnet: .* # SKIP /.test(l));
  assert.ok(skipped.length >= 8, `${skipped.length} skipped tests:\n${out}`);
  for (const l of skipped)
    assert.match(
      l,
      /# SKIP the dotnet target is not available here: the \.NET SDK was not found .*install the \.NET 10 SDK/,
    );
  assert.match(out, /# pass 0\n/);
  assert.match(out, /# fail 0\n/);
});

test('without mono, every Mono worker test is skipped naming the apt packages', () => {
  const { out, status } = runWithout('worker-mono.test.js', { MONO: '/nonexistent/mono' });
  assert.equal(status, 0, out);
  const skipped = out.split('\n').filter((l) => /^ok \d+ - mono: .* # SKIP /.test(l));
  assert.ok(skipped.length >= 8, `${skipped.length} skipped tests:\n${out}`);
  for (const l of skipped)
    assert.match(
      l,
      /# SKIP the mono target is not available here: .*apt-get install -y mono-runtime libmono-system-runtime-serialization4\.0-cil libmono-system-data4\.0-cil/,
    );
  assert.match(out, /# fail 0\n/);
});
