import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  renderPayload,
  VARIANT_MAX_SIZE,
  variantSeed,
  variantSizeOf,
  writePayload,
  WorkloadError,
} from '../../src/plan/payloads.js';
import { loadUserConfig } from '../../src/config/user-config.js';
import { variantPathOf } from '../../src/case/coordinates.js';
import type { Workload } from '../../src/workloads/types.js';

/**
 * Building payloads from hostile workloads (test/fixtures/hostile/workloads.config.mjs): an async
 * build() is awaited, one that hangs or never settles is stopped naming the workload and the step,
 * and a deep value is checked without overflowing the host's stack.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/hostile/workloads.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-payloads-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const config = await loadUserConfig(configPath);
const byId = (id: string): Workload => config.workloads.find((w) => w.id === id)!;
const write = (id: string, timeoutMs?: number) =>
  writePayload(join(dir, id), byId(id), 1, 42, { configPath, ...(timeoutMs ? { timeoutMs } : {}) });

test('an async build() is awaited: the payload is the value it resolves to, not {}', async () => {
  const p = await write('async-build');
  assert.deepEqual(JSON.parse(readFileSync(p.path, 'utf8')), { a: 42 });
  assert.deepEqual(JSON.parse(readFileSync(variantPathOf(p.path), 'utf8')), { a: variantSeed(42) });
});

test('renderPayload (synchronous) refuses a build() that returns a Promise instead of writing {}', () => {
  assert.throws(
    () => renderPayload(byId('async-build'), 1, 42),
    (e: Error) => e instanceof WorkloadError && /build\(1, 42\) returned a Promise/.test(e.message),
  );
});

test('a build() whose Promise never settles fails naming the workload, without waiting for the timeout', async () => {
  const t0 = performance.now();
  await assert.rejects(
    write('never-settles'),
    (e: Error) =>
      e instanceof WorkloadError && /^workload never-settles: build\(1, 42 and 43\) never settled/.test(e.message),
  );
  assert.ok(performance.now() - t0 < 20_000, 'detected when the thread runs out of work, long before BUILD_TIMEOUT_MS');
});

test('a build() that loops forever says so on stderr while it runs, and is stopped at the timeout, naming the workload and the step', async () => {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    await assert.rejects(
      writePayload(join(dir, 'loops'), byId('loops'), 1, 42, { configPath, timeoutMs: 1500, heartbeatMs: 400 }),
      (e: Error) =>
        e instanceof WorkloadError &&
        e.message ===
          'workload loops: build(1, 42 and 43) did not finish within 2 s (a loop that never ends, or a Promise that never settles?)',
    );
  } finally {
    process.stderr.write = write;
  }
  const beats = lines.filter((l) =>
    l.startsWith('jsonbench: workload loops: build(1, 42 and 43): still building after'),
  );
  assert.ok(beats.length >= 2, `a line every 400 ms, got: ${JSON.stringify(lines)}`);
  assert.match(beats[0], /still building after 0 s \(stopped at 2 s\)\n$/);
});

test('a build() that throws fails naming the workload and its message', async () => {
  await assert.rejects(write('throws'), { message: 'workload throws: build(1, 42) threw: no data today' });
});

test('a value nested 4,000 deep is built and checked (the host does not overflow its stack)', async () => {
  const p = await write('deep-4000');
  const text = readFileSync(p.path, 'utf8');
  assert.equal(text, '{"a":'.repeat(4000) + '1' + '}'.repeat(4000));
});

test('a value nested 100,000 deep fails as a workload error saying JSON cannot write it that deep', async () => {
  await assert.rejects(
    write('deep-100000'),
    (e: Error) =>
      e instanceof WorkloadError &&
      /^workload deep-100000: build\(1, 42\) returned a value JSON cannot write \(nested deeper than JSON.stringify can write\)/.test(
        e.message,
      ),
  );
});

test('what build() does to its globals stays in its thread', async () => {
  const p = await write('patches-globals');
  assert.deepEqual(JSON.parse(readFileSync(p.path, 'utf8')), { a: 42 });
  assert.equal(JSON.stringify({ a: 1 }), '{"a":1}', "the host's JSON.stringify is untouched");
});

test("the gate's variant of a large payload is at most VARIANT_MAX_SIZE records, at a size the workload declares", () => {
  assert.equal(VARIANT_MAX_SIZE, 1000);
  assert.equal(variantSizeOf({ sizes: [100, 1000, 10000] }, 100), 100);
  assert.equal(variantSizeOf({ sizes: [100, 1000, 10000] }, 10000), 1000);
  assert.equal(variantSizeOf({ sizes: [1000, 10000, 50000, 100000] }, 100000), 1000);
  assert.equal(variantSizeOf({ sizes: [10, 500, 5000] }, 5000), 500, 'the largest declared size within the bound');
  assert.equal(
    variantSizeOf({ sizes: [5000, 20000] }, 20000),
    20000,
    "no declared size within the bound: the payload's own",
  );
  assert.equal(variantSizeOf({ sizes: [1] }, 3000), 1);
});

test('a build() value whose getter throws on its second read fails naming the workload (hx17 WL-getter)', () => {
  const w: Workload = {
    ...byId('throws'),
    id: 'getterwl',
    build: () => {
      let n = 0;
      return {
        get a() {
          if (++n > 1) throw new Error('second read');
          return 1;
        },
      };
    },
  };
  assert.throws(
    () => renderPayload(w, 1, 42),
    (e: Error) =>
      e instanceof WorkloadError &&
      e.message ===
        'workload getterwl: build(1, 42) returned a value whose reading threw once written (a getter or a Proxy that throws on a second read?): second read; build() must return plain JSON data',
  );
});

test('a records workload whose build(size) gives another number of records fails naming both (hx33 w6: 2,000 records as "· 100 · list")', () => {
  const w: Workload = {
    id: 'nondet2',
    description: 'x',
    sizes: [100],
    defaultSizes: [100],
    shapes: ['list'],
    schema: { type: 'object', properties: { id: { type: 'number', integer: true } } },
    build: (size) => Array.from({ length: size === 100 ? 2000 : size }, (_, i) => ({ id: i })),
  };
  assert.throws(
    () => renderPayload(w, 100, 42),
    (e: Error) =>
      e instanceof WorkloadError &&
      e.message ===
        'workload nondet2: build(100, 42) returned 2000 records; a workload of shapes list must return an array of 100 records, the size every table names its cases by',
  );
  assert.throws(() => renderPayload({ ...w, build: () => ({ id: 1 }) }, 100, 42), /returned no array \(object\)/);
  assert.equal(JSON.parse(renderPayload(w, 3, 42)).length, 3);
});
