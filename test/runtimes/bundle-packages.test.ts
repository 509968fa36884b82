import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from '../../src/runtimes/bundle.js';
import { parseTarget } from '../../src/runtimes/index.js';
import { readResults } from '../../src/results/io.js';
import { cacheDir } from './helpers.js';

/**
 * The worker bundle resolves packages from jsonbench's own node_modules wherever `--out` puts it
 * (a new user's report: typia failed on node@22 and bun with "Cannot find package 'typia' imported
 * from <out>/worker/worker-node.mjs" whenever --out was outside the jsonbench clone, as in a
 * consumer repository or the action's runner folder). A real run on node@22 and on bun with --out
 * in a temporary folder outside the clone: typia on a built-in workload (its ahead-of-time module) and
 * on a payload (its code generated at run time) is measured in both directions.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(repo, 'bin/jsonbench.js');
const root = mkdtempSync(join(tmpdir(), 'jsonbench-bundle-packages-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('the Node bundle carries no import.meta of its own: each module keeps its file, packages resolve from there', async () => {
  const bundle = await bundleWorker('node', join(root, 'bundle'));
  const text = readFileSync(bundle.path, 'utf8');
  assert.doesNotMatch(text, /import\.meta\.(url|resolve)/);
  // typia's adapter resolves typia from its own compiled file in this clone
  assert.ok(
    text.includes(
      `__jsonbenchResolve(${JSON.stringify(new URL('build/src/serializers/typia.js', `file://${repo}`).href)}, "typia")`,
    ),
  );
});

for (const id of ['node@22', 'bun']) {
  const detected = await parseTarget(id).detect({ cacheDir });
  test(
    `typia measures on ${id} with --out outside the jsonbench clone`,
    { skip: !detected.installed && `${id} is not installed here (${detected.reason})` },
    async () => {
      assert.ok(!root.startsWith(repo), `the output folder ${root} is outside the clone ${repo}`);
      const payload = join(root, 'order.json');
      writeFileSync(payload, JSON.stringify({ id: 7, customer: 'Ada', lines: [{ sku: 'A-1', qty: 2, price: 9.5 }] }));
      for (const [name, source] of [
        ['workload', ['--workload', 'weather-station', '--size', '1']],
        ['payload', ['--payload', payload]],
      ] as const) {
        const out = join(root, `out-${id}-${name}`);
        const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
          execFile(
            process.execPath,
            [bin, 'run', ...source, '--target', id, '--serializer', 'typia', '--policy', 'quick'].concat([
              '--no-ledger',
              '--no-probes',
              '--out',
              out,
            ]),
            { cwd: root, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20, timeout: 300_000 },
            (error, _stdout, stderr) =>
              resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
          ),
        );
        assert.equal(ran.code, 0, ran.stderr.slice(-2000));
        const results = readResults(join(out, 'results.json'));
        const typia = results.cases.filter((c) => c.serializer === 'typia');
        assert.deepEqual(
          typia.map((c) => [c.direction, c.target?.id, c.status, c.reason ?? '']),
          [
            ['serialize', id, 'measured', ''],
            ['deserialize', id, 'measured', ''],
          ],
          name,
        );
        assert.match(
          typia[0].serializerVersion,
          /^\d+\.\d+\.\d+$/,
          'the worker read typia’s version from its package.json',
        );
      }
    },
  );
}
