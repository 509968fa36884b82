import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, quickPayloadRunArgs, scratchConfigs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A parser that reads the payload's -0 as 0 (hx27 c13): the gate counted -0 and 0 equal in both directions, so it
 * "passed the correctness gate on this payload" and was recommended, while its own edge.number.-0 probe said
 * silent-loss. A deserializer's result is now compared with -0 kept (measure/gate.ts); a serializer's text still
 * may write -0 as "0", as JSON.stringify does.
 */

const { dir, config } = scratchConfigs('negative-zero');

test("a parser that turns the payload's -0 into 0 is incorrect; JSON.parse and JSON.stringify are measured (hx27 c13)", async () => {
  const payload = join(dir, 'neg.json');
  writeFileSync(payload, '{"x":-0,"y":1.5,"list":[-0,2]}\n');
  const file = config(
    'neg0.config.mjs',
    `export default { serializers: [{ id: 'neg0', family: 'builtin', directions: ['serialize', 'deserialize'], deserializeClass: 'parse',
  supports: () => true,
  prepare: () => ({ serialize: (v) => JSON.stringify(v), deserialize: (t) => JSON.parse(t, (k, v) => (Object.is(v, -0) ? 0 : v)) }) }], workloads: [] };
`,
  );
  for (const direction of ['deserialize', 'serialize'] as const) {
    const out = join(dir, direction);
    const ran = await cli(quickPayloadRunArgs(payload, 'json,neg0', direction, out, file), { timeoutMs: 120_000 });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
    const c = results.cases.find((x) => x.serializer === 'neg0')!;
    assert.equal(results.cases.find((x) => x.serializer === 'json')!.status, 'measured', ran.stderr);
    if (direction === 'serialize') assert.equal(c.status, 'measured', c.reason);
    else {
      assert.equal(c.status, 'incorrect', `${c.status}: ${c.reason ?? ''}`);
      assert.match(c.reason!, /result differs at \$\.x/);
    }
  }
});
