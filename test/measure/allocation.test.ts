import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import {
  allocationWindow,
  measureAllocation,
  netWindow,
  windowsFor,
  type V8Module,
} from '../../src/measure/allocation.js';
import { makeEmptyOp, makeOp, type Op } from '../../src/measure/sink.js';
import { medianOf } from '../../src/stats/estimate.js';
import { policies } from '../../src/config/policies.js';

/**
 * Calibration of the allocation probe against allocations whose size follows from V8's object
 * layout. The probe needs no `--expose-gc` (it never forces a GC), so it runs in this process.
 *
 * Layout (V8 11.3, Node 20): a tagged field is T bytes — 8, or 4 with pointer compression, which
 * Node 20's release builds leave off — and objects are T-aligned.
 * - JSObject `{a:1,b:2}`: map, properties, elements + 2 in-object fields = 5T.
 * - HeapNumber: map + an 8-byte double = T + 8.
 * - JSArray: map, properties, elements, length = 4T; FixedArray: map, length + T per element.
 * - SeqOneByteString: map T + hash 4 + length 4, then one byte per char, rounded up to T.
 * - ConsString: map T + hash 4 + length 4 + first T + second T (strings under 13 chars are
 *   never cons: they are copied flat).
 * The values for T = 4 follow from the same layout but were not measured here (no such build).
 */
const compressionFlag = (process.config.variables as Record<string, unknown>).v8_enable_pointer_compression;
const compressed = compressionFlag === 1 || compressionFlag === true || compressionFlag === 'true';
const T = compressed ? 4 : 8;
const align = (bytes: number) => Math.ceil(bytes / T) * T;
const seqString = (chars: number) => align(T + 4 + 4 + chars);
const consString = T + 4 + 4 + 2 * T;

/**
 * `'x'.repeat(1000)`: V8's StringRepeat doubles a power-of-two piece (2, 4, …, 512 chars: 9
 * strings; flat under 13 chars, cons from 16 up) and joins the pieces for the set bits of
 * 1000 = 512 + 256 + 128 + 64 + 32 + 8 (5 cons strings after the first piece).
 */
const repeat1000Bytes = seqString(2) + seqString(4) + seqString(8) + 6 * consString + 5 * consString;

const policy = { ...policies.default.measure, allocWindows: 5, allocWindowMinMs: 20 };
const v8Probe = v8 as unknown as V8Module;
const lower = 'x'.repeat(1000);
lower.charCodeAt(0); // flatten once, here, outside the op

/**
 * Runs an op `ops` times so its code and feedback are allocated before any window. Until a few
 * young-generation GCs have passed, V8 also puts a 16-byte allocation memento behind each object
 * a literal allocates (allocation-site tracking for pretenuring): 56 instead of 40 bytes per
 * `{a:1,b:2}`. Windows sized by measureAllocation's doubling (and the worker's warmup) are past
 * that; a bare window needs a longer warmup.
 */
function warm(op: Op, ops = 20_000): Op {
  for (let i = 0; i < ops; i++) op(i);
  return op;
}

/** Median bytes/op after a warmup (the worker warms up before its allocation pass too). */
function bytesPerOp(op: Op): { median: number; windows: number[]; gcPerOp: number } {
  warm(op);
  const r = measureAllocation(v8Probe, op, policy);
  return { median: medianOf(r.windowsBytesPerOp), windows: r.windowsBytesPerOp, gcPerOp: r.gcPerOp };
}

const KNOWN: { name: string; call: (input: unknown) => unknown; bytes: number }[] = [
  { name: 'an object {a:1,b:2}', call: () => ({ a: 1, b: 2 }), bytes: 5 * T },
  { name: 'a heap number (x + 0.5)', call: (x) => (x as number) + 0.5, bytes: T + 8 },
  { name: 'an array literal [1,2,3] (copy-on-write elements: the JSArray only)', call: () => [1, 2, 3], bytes: 4 * T },
  { name: 'new Array(100).fill(0)', call: () => new Array(100).fill(0), bytes: 4 * T + 2 * T + 100 * T },
  {
    name: 'a flat 1000-char one-byte string (toUpperCase of a flat one)',
    call: () => lower.toUpperCase(),
    bytes: seqString(1000),
  },
  { name: "'x'.repeat(1000) (a cons-string tree)", call: () => 'x'.repeat(1000), bytes: repeat1000Bytes },
  {
    name: "'x'.repeat(1000), flattened (the tree + one flat copy)",
    call: () => {
      const s = 'x'.repeat(1000);
      s.charCodeAt(500);
      return s;
    },
    bytes: repeat1000Bytes + seqString(1000),
  },
];

for (const k of KNOWN) {
  test(`the allocation probe counts ${k.name} as ${k.bytes} bytes/op, within 2%`, (t) => {
    const r = bytesPerOp(makeOp(k.call, [1], [2]));
    t.diagnostic(
      `${k.name}: expected ${k.bytes} B/op (${compressed ? 'compressed' : 'uncompressed'} pointers), measured ${r.median.toFixed(3)} B/op (windows ${r.windows.map((w) => w.toFixed(2)).join(', ')}; ${r.gcPerOp.toExponential(2)} GC/op)`,
    );
    assert.ok(Math.abs(r.median - k.bytes) <= 0.02 * k.bytes, `measured ${r.median} B/op, expected ${k.bytes} ± 2%`);
    // the median window is not under the layout size by more than GC accounting's jitter (a
    // window with a scavenge in it reads up to ~0.2% low; page-tail filler reads high)
    assert.ok(r.median >= k.bytes * 0.995, `measured ${r.median} B/op is under the layout size ${k.bytes}`);
  });
}

test("an op that allocates nothing counts 0 bytes/op: makeOp's sink write and closure allocate nothing", () => {
  const r = bytesPerOp(makeOp((x) => x, [{}], [{}]));
  assert.ok(r.median <= 0.01, `measured ${r.median} B/op`);
  assert.equal(r.gcPerOp, 0);
});

test('a many-unit op (a loop over the records) that allocates nothing counts 0 bytes/op', () => {
  const r = bytesPerOp(makeOp((x) => x, [1, 2, 3], [4, 5, 6]));
  assert.ok(r.median <= 0.01, `measured ${r.median} B/op`);
});

test('the empty op (the floor of every timing) allocates nothing', () => {
  const r = bytesPerOp(makeEmptyOp([{}], [{}]));
  assert.ok(r.median <= 0.01, `measured ${r.median} B/op`);
});

test('an empty window counts only the bookkeeping of the heap read, 0 or one statistics object, and netWindow takes it off', (t) => {
  const none = warm(makeOp((x) => x, [1], [2]));
  const raw = [0, 1, 1000].map((n) => allocationWindow(v8Probe, none, n).bytes);
  t.diagnostic(`raw windows of 0, 1, 1000 empty ops: ${raw.join(', ')} B`);
  // the same for any number of ops that allocate nothing: a constant, not a per-op cost
  assert.ok(
    raw.every((b) => b === raw[0]),
    `raw windows differ: ${raw.join(', ')}`,
  );
  assert.ok(raw[0] >= 0 && raw[0] < 1024, `bookkeeping ${raw[0]} B is at most one small object graph`);
  assert.equal(netWindow(v8Probe, none, 1000).bytes, 0);
  // 1000 ops of 5T bytes are seen as 5T per op once the overhead is taken off
  const obj = warm(
    makeOp(() => ({ a: 1, b: 2 }), [1], [2]),
    500_000,
  ); // 20 MB: several scavenges
  const perOp = netWindow(v8Probe, obj, 1000).bytes / 1000;
  assert.ok(Math.abs(perOp - 5 * T) <= 5 * T * 0.02, `${perOp} B/op`);
});

test('measureAllocation runs allocWindows windows of a power-of-two op count and reports bytes per op of each', () => {
  const r = measureAllocation(v8Probe, warm(makeOp(() => ({ a: 1, b: 2 }), [1], [2])), { ...policy, allocWindows: 3 });
  assert.equal(r.windowsBytesPerOp.length, 3);
  assert.ok(
    r.opsPerWindow >= 1 && Number.isInteger(Math.log2(r.opsPerWindow)),
    `ops per window ${r.opsPerWindow} is a power of two`,
  );
  for (const w of r.windowsBytesPerOp) assert.ok(Math.abs(w - 5 * T) <= 5 * T * 0.02, `window ${w} B/op`);
  assert.ok(r.gcPerOp >= 0 && r.gcPerOp < 1, `${r.gcPerOp} GC/op`);
});

test('an op that fills a window alone (a large payload) gets at most 3 allocation windows; shorter ops get allocWindows', () => {
  assert.equal(windowsFor(1, { allocWindows: 5 }), 3);
  assert.equal(windowsFor(1, { allocWindows: 2 }), 2);
  assert.equal(windowsFor(2, { allocWindows: 5 }), 5);
  // a real slow op: 30 ms of work per call, one op per 10 ms window
  const slow = makeOp(
    () => {
      const end = performance.now() + 30;
      const xs: number[] = [];
      while (performance.now() < end) xs.push(1);
      return xs.length;
    },
    [1],
    [2],
  );
  const r = measureAllocation(v8Probe, slow, { ...policy, allocWindows: 5, allocWindowMinMs: 10 });
  assert.equal(r.opsPerWindow, 1);
  assert.equal(r.windowsBytesPerOp.length, 3);
});
