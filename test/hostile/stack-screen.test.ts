import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickPayloadRunArgs } from './support.js';
import { screenedFrames } from '../../src/worker/stack-screen.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx24 C01, AL1, AL2 (false success): a serializer read its call stack to tell jsonbench's timed loop
 * (`timeSample`) and allocation windows (`allocationWindow`) from its checks, and cached only there: "2.80×
 * faster" in 3 of 3 quick runs; 232 B per op for an 11.7 KiB output. The worker now cuts jsonbench's frames
 * from every trace user code captures (src/worker/stack-screen.ts).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-stack-screen-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const site = (file: string | null) => ({ getFileName: () => file, toString: () => `f (${file ?? 'native'})` });

test("the frames user code sees end above jsonbench's first frame; jsonbench's own traces are whole", () => {
  const own = fileURLToPath(new URL('../../src/measure/timing.js', import.meta.url));
  const user = '/home/me/serializer.mjs';
  const cut = screenedFrames([site(user), site(user), site(null), site(own), site(user)]);
  assert.deepEqual(
    cut.map((f) => f.getFileName()),
    [user, user],
  );
  assert.equal(screenedFrames([site(own), site(user)]).length, 2, 'an error of jsonbench itself keeps its trace');
  assert.equal(screenedFrames([site(user), site('node:internal/x')]).length, 2, 'no jsonbench frame: whole');
});

test('a serializer that writes wrong text when its stack shows jsonbench is measured correct: it never sees it', async () => {
  const payload = join(dir, 'small.json');
  writeFileSync(payload, '{"id":1,"name":"a","tags":["x","y"]}\n');
  const out = join(dir, 'out');
  const ran = await cli(
    quickPayloadRunArgs(
      payload,
      'json,stack-spy',
      'serialize',
      out,
      join(root, 'test/fixtures/hostile/hx24/stack-spy.config.mjs'),
    ),
    { timeoutMs: 120_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const spy = results.cases.find((c) => c.serializer === 'stack-spy')!;
  assert.equal(spy.status, 'measured', `${spy.status}: ${spy.reason ?? ''}`);
});
