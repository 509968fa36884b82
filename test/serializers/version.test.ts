import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializers } from '../../src/serializers/index.js';
import { workloads } from '../../src/workloads/index.js';
import { planCases } from '../../src/plan/plan.js';
import { policies } from '../../src/config/policies.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';

/**
 * Versions are read from the code that runs: a built-in adapter's library from jsonbench's own
 * node_modules wherever the config sits (issue 9: a config outside the clone recorded every
 * built-in `unknown`; one beside a node_modules recorded 1.2.3 while 7.3.10 ran).
 */

const root = mkdtempSync(join(tmpdir(), 'jsonbench-versions-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The version of `name` jsonbench itself resolves (what the built-in adapters import). */
function ownVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = require.resolve(name);
  for (;;) {
    dir = join(dir, '..');
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version!;
    } catch {
      /* keep walking up */
    }
  }
}

/** A project folder outside the clone with its own fast-json-stringify@1.2.3 and a config file. */
function projectWithFakeLibrary(): string {
  const project = join(root, 'project');
  const pkgDir = join(project, 'node_modules', 'fast-json-stringify');
  mkdirSync(pkgDir, { recursive: true });
  writeFileSync(
    join(pkgDir, 'package.json'),
    JSON.stringify({ name: 'fast-json-stringify', version: '1.2.3', main: 'index.js' }),
  );
  writeFileSync(join(pkgDir, 'index.js'), 'module.exports = () => JSON.stringify;');
  const config = join(project, 'jsonbench.config.mjs');
  writeFileSync(config, 'export default {};');
  return config;
}

async function plannedVersions(adapters: SerializerAdapter[], resolveFrom: string): Promise<Record<string, string>> {
  const w = await workloads.load('weather-station');
  const groups = planCases(
    { workloads: [w], serializers: adapters, directions: ['serialize'], policy: policies.quick, resolveFrom },
    adapters,
  );
  return Object.fromEntries(groups.flat().map((c) => [c.serializer, c.serializerVersion]));
}

test('a built-in adapter is labelled with the version jsonbench loads, not the one beside the config', async () => {
  const config = projectWithFakeLibrary();
  const builtins = await serializers.loadAll();
  const v = await plannedVersions(
    builtins.filter((a) => a.id === 'json' || a.id === 'fast-json-stringify' || a.id === 'ajv-jtd'),
    config,
  );
  assert.equal(v['fast-json-stringify'], ownVersion('fast-json-stringify'));
  assert.notEqual(v['fast-json-stringify'], '1.2.3');
  assert.equal(v['ajv-jtd'], ownVersion('ajv'), 'a config folder without the package does not make it unknown');
});

test('a user adapter is labelled with the version its config folder resolves', async () => {
  const config = projectWithFakeLibrary();
  const builtins = await serializers.loadAll();
  const mine: SerializerAdapter = {
    id: 'my-fjs',
    family: 'schema-compiled',
    packageName: 'fast-json-stringify',
    directions: ['serialize'],
    supports: () => true,
    prepare: () => ({ serialize: JSON.stringify }),
  };
  const v = await plannedVersions([...builtins.filter((a) => a.id === 'json'), mine], config);
  assert.equal(v['my-fjs'], '1.2.3');
});
