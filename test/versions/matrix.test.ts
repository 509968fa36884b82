import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readResults } from '../../src/results/io.js';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureVersion, type InstalledVersion } from '../../src/versions/install.js';
import { builtinAdapterUrl, writeVariantsModule } from '../../src/versions/variants-module.js';
import { loadUserConfig } from '../../src/config/user-config.js';
import { workloads } from '../../src/workloads/index.js';

/**
 * The version matrix with two real published versions of fast-json-stringify, installed from the
 * npm registry into the real cache (~/.cache/jsonbench/packages; once, then reused). Skips when
 * npm cannot reach the registry.
 */
const VERSIONS = ['5.16.1', '6.0.1'];
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-matrix-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

let installed: InstalledVersion[] = [];
let skip: string | false = false;
try {
  installed = VERSIONS.map((v) => ensureVersion('fast-json-stringify', v));
} catch (e) {
  skip = `cannot install from npm: ${(e as Error).message}`;
}

test(
  'two versions load side by side in one process, each adapter with its own copy of the library',
  { skip },
  async () => {
    const url = builtinAdapterUrl('fast-json-stringify').href;
    const path = writeVariantsModule(
      dir,
      installed.map((i) => ({
        label: `fast-json-stringify@${i.version}`,
        adapterUrl: url,
        packageName: i.packageName,
        version: i.version,
        prefix: i.prefix,
      })),
    );
    const config = await loadUserConfig(path);
    assert.deepEqual(
      config.serializers.map((a) => a.id),
      ['fast-json-stringify@5.16.1', 'fast-json-stringify@6.0.1'],
    );
    const w = await workloads.load('weather-station');
    const value = w.build(1, 42);
    for (const a of config.serializers) {
      const out = (await a.prepare(w, 'serialize')).serialize!(value);
      assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(value)));
    }
    const cache = Object.keys(createRequire(import.meta.url)('module')._cache as Record<string, unknown>);
    for (const i of installed) {
      assert.ok(
        cache.includes(join(i.prefix, 'node_modules', 'fast-json-stringify', 'index.js')),
        `${i.version} was loaded from ${i.prefix}`,
      );
    }
  },
);

test(
  'jsonbench run --serializer fast-json-stringify@5.16.1,6.0.1 measures each version as its own row and records both in the ledger',
  { skip },
  () => {
    const main = new URL('../../src/cli/main.js', import.meta.url).href;
    const run = (args: string[]) =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import(${JSON.stringify(main)}).then((m) => m.main(${JSON.stringify(args)})).then((c) => { process.exitCode = c; })`,
        ],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', JSONBENCH_LEDGER: '' } },
      );
    const r = run([
      'run',
      '--policy',
      'quick',
      '--workload',
      'weather-station',
      '--direction',
      'serialize',
      '--serializer',
      `fast-json-stringify@${VERSIONS.join(',')}`,
      '--out',
      'out',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const results = readResults(join(dir, 'out', 'results.json'));
    assert.deepEqual(
      results.cases.map((c) => [c.serializer, c.serializerVersion, c.status]),
      [
        ['json', `node ${process.versions.node}`, 'measured'],
        ['fast-json-stringify@5.16.1', '5.16.1', 'measured'],
        ['fast-json-stringify@6.0.1', '6.0.1', 'measured'],
      ],
    );
    // The run ends with the probes relevant to weather-station for every row, each version's failures listed by row (issue 11).
    const probes = results.probes!;
    assert.equal(probes.selection, 'relevant');
    assert.deepEqual(probes.relevantTo?.['edge.number.-0'], ['weather-station']);
    assert.deepEqual(
      [...new Set(probes.verdicts.map((v) => `${v.serializer} ${v.serializerVersion}`))],
      ['fast-json-stringify@5.16.1 5.16.1', 'fast-json-stringify@6.0.1 6.0.1', `json node ${process.versions.node}`],
      'the asked rows, then the class baseline',
    );
    for (const row of ['fast-json-stringify@5.16.1', 'fast-json-stringify@6.0.1']) {
      const negZero = probes.failing?.[row]?.find((f) => f.probe === 'edge.number.-0');
      assert.deepEqual(
        negZero && { mark: negZero.mark, fault: negZero.fault, direction: negZero.direction },
        { mark: '✗', fault: 'silent-loss', direction: 'serialize' },
        row,
      );
      assert.match(negZero!.text, /: silent-loss at \$\.n \(expected -0, got 0\)$/);
    }
    const h = run(['history', '--serializer', 'fast-json-stringify', '--format', 'json']);
    assert.deepEqual(
      (JSON.parse(h.stdout) as { serializerVersion: string; adapter: string }[]).map((p) => [
        p.adapter,
        p.serializerVersion,
      ]),
      [
        ['fast-json-stringify', '5.16.1'],
        ['fast-json-stringify', '6.0.1'],
      ],
    );
  },
);
