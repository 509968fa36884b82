import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectDotnet } from '../../src/runtimes/dotnet/detect.js';
import { DOTNET_PAIRS, pairClass, pairId } from '../../bench/pairs.js';
import { ensureBdnBuild, runBdn } from '../../bench/bdn.js';
import { dotnetJob, launch, payloadFor, readyTarget, summariseAlloc } from '../../bench/dotnet-lab.js';
import { TINY } from './worker-suite.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const detection = await detectDotnet();
const skip = detection.installed ? false : `the dotnet target is not available here: ${detection.reason}`;

test("the .NET pairs of bench:precision are Newtonsoft ÷ STJ on the studies' cases, ids marked @dotnet, classes serialize and transform", async () => {
  assert.deepEqual(DOTNET_PAIRS.map(pairId), [
    'users/10000/list/serialize/newtonsoft~stj@dotnet',
    'weather-station/1/single/deserialize/newtonsoft~stj@dotnet',
  ]);
  assert.deepEqual(await Promise.all(DOTNET_PAIRS.map(pairClass)), ['serialize', 'transform']);
  assert.equal(await pairClass({ ...DOTNET_PAIRS[0], serializer: 'json' }), 'json is not a registered .NET serializer');
});

test(
  "BenchmarkDotNet (its ShortRun job) times the worker's own calls: its MemoryDiagnoser bytes/op equal the worker's exact allocation count",
  { skip },
  async () => {
    const built = await ensureBdnBuild();
    if ('reason' in built) assert.fail(built.reason);
    const pair = DOTNET_PAIRS[1];
    const p = await payloadFor(pair.workload, pair.size);
    const n = runBdn(built, pair, p.payload.path, mkdtempSync(join(tmpdir(), 'jsonbench-bdn-')), 1, 'short');
    if ('reason' in n) assert.fail(n.reason);
    assert.equal(n.bdnVersion, '0.15.8.0');
    assert.ok(n.serializerNs > 0 && n.baselineNs > 0 && n.iterations >= 6, JSON.stringify(n));
    const r = await readyTarget('dotnet');
    if ('reason' in r) assert.fail(r.reason);
    const bytes = async (serializer: string) =>
      summariseAlloc(
        await launch(
          r,
          dotnetJob({
            workload: pair.workload,
            size: pair.size,
            shape: pair.shape,
            direction: pair.direction as 'deserialize',
            serializer,
            mode: 'alloc',
            payloadPath: p.payload.path,
            policy: TINY,
          }),
        ),
      ).bytesPerOp;
    assert.deepEqual(
      [n.serializerBytes, n.baselineBytes],
      [Math.round(await bytes('newtonsoft')), Math.round(await bytes('stj'))],
    );
  },
);
