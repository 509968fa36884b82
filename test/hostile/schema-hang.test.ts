import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, scratchConfigs } from './support.js';

/**
 * A --schema module whose top level awaits a Promise nothing settles (hx29 S-hang): Node ran out of work and the run
 * ended "the process was ended (process.exit(0)) … by a config, workload or serializer", exit 1, the module unnamed.
 * It is now said as a config's is: the module named, "never settled", exit 2.
 */

const { dir, config } = scratchConfigs('schema-hang');

test('a --schema module whose top-level await never settles is named, exit 2 (hx29 S-hang: "process.exit(0)")', async () => {
  const payload = join(dir, 'p.json');
  writeFileSync(payload, '{"a":1}\n');
  const schema = config('hang.mjs', 'await new Promise(() => {});\nexport default {};\n');
  const ran = await cli(
    ['run', '--payload', payload, '--schema', schema, '--policy', 'quick', '--no-probes', '--no-ledger'].concat([
      '--out',
      join(dir, 'out'),
    ]),
    { timeoutMs: 120_000 },
  );
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr.replace(/\s+/g, ' '),
    /error: --schema: \S+hang\.mjs: could not be imported: its top level never settled: the process ran out of work while waiting/,
  );
  assert.doesNotMatch(ran.stderr, /process\.exit/);
});
