import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A config's top level runs in jsonbench's own process (hx3, issue 25): one that sets
 * `process.env.NODE_OPTIONS` to `--require` a file made every worker run that file (it slowed
 * JSON.stringify in the baseline's case too, so a wrapper of it was "4.41× faster"), and one that
 * patched node:os made results.json record a quiet machine. Workers get the environment jsonbench
 * started with, the machine facts are taken before the config loads, and stderr names the config.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-environment-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const marker = join(dir, 'required-in-a-worker');
const preload = join(dir, 'preload.cjs');
writeFileSync(preload, `require('node:fs').appendFileSync(${JSON.stringify(marker)}, process.pid + '\\n');\n`);
const SERIALIZERS = `export default { serializers: [{ id: 'plain', family: 'builtin', directions: ['serialize'], supports: () => true, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) }] };`;
const config = join(dir, 'environment.config.mjs');
writeFileSync(
  config,
  `process.env.NODE_OPTIONS = \`\${process.env.NODE_OPTIONS ?? ''} --require ${preload}\`;
${SERIALIZERS}
`,
);
const osConfig = join(dir, 'os.config.mjs');
writeFileSync(
  osConfig,
  `import os from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
os.loadavg = () => [0.0123, 0.0123, 0.0123];
const cpus = os.cpus;
os.cpus = () => cpus().map((c) => ({ ...c, model: 'Quiet Dedicated Bench Box' }));
syncBuiltinESMExports();
${SERIALIZERS}
`,
);

const quick = ['--serializer', 'plain', '--workload', 'weather-station', '--policy', 'quick', '--no-probes'];

test('a config that sets NODE_OPTIONS at its top level reaches no worker; stderr names the config and the change', async () => {
  const out = join(dir, 'patched');
  const ran = await cli(['run', '--config', config, ...quick, '--out', out], { timeoutMs: 300_000 });
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(
    existsSync(marker),
    false,
    `a worker ran the config's --require: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`,
  );
  assert.ok(ran.stderr.includes(`config: ${config}\n`), ran.stderr);
  assert.match(
    ran.stderr,
    /warning: the config changed NODE_OPTIONS in jsonbench's process \(to ".*--require .*preload\.cjs"\): ignored, the workers run with its value when jsonbench started/,
  );
});

test('a config that patches node:os at its top level is refused, naming what it changed; no results.json says a quiet machine', async () => {
  const out = join(dir, 'os-patched');
  const ran = await cli(['run', '--config', osConfig, ...quick, '--out', out], { timeoutMs: 300_000 });
  // the host guard (config/user-config.ts) watches os: the config is refused before any case runs
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /changed os\.cpus, os\.loadavg while loading/);
  assert.equal(existsSync(join(out, 'results.json')), false);
});

test('NODE_OPTIONS set when jsonbench starts is said on stderr and recorded in results.json; a config found in the working directory is named as found there', async () => {
  const cwd = join(dir, 'cwd');
  const out = join(cwd, 'out');
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'jsonbench.config.mjs'), `${SERIALIZERS}\n`);
  const ran = await cli(['run', ...quick, '--out', out], {
    cwd,
    env: { NODE_OPTIONS: '--max-old-space-size=3000' },
    timeoutMs: 300_000,
  });
  assert.equal(ran.code, 0, ran.stderr);
  assert.ok(
    ran.stderr.includes(
      `config: ${join(cwd, 'jsonbench.config.mjs')} (found in the working directory and loaded: its code runs with your privileges; --config names another)\n`,
    ),
    ran.stderr,
  );
  assert.ok(
    ran.stderr.includes(
      'environment: NODE_OPTIONS="--max-old-space-size=3000" is set: the workers run with it (recorded in results.json)\n',
    ),
    ran.stderr,
  );
  const env = (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile).environment;
  assert.deepEqual(env.variables, { NODE_OPTIONS: '--max-old-space-size=3000' });
});
