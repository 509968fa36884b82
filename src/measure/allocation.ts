import type { MeasurePolicy } from '../case/policy.js';
import { nowNs } from './clock.js';
import { drainSink, type Op } from './sink.js';

/** The parts of `node:v8` the allocation probe uses (GCProfiler: Node ≥ 18.15 / 19.6). */
export interface V8Module {
  getHeapStatistics(): { used_heap_size: number };
  GCProfiler: new () => {
    start(): void;
    stop():
      | {
          statistics: {
            beforeGC: { heapStatistics: { usedHeapSize: number } };
            afterGC: { heapStatistics: { usedHeapSize: number } };
          }[];
        }
      | undefined;
  };
}

/** One allocation window: bytes allocated and GCs seen while running `ops` ops. */
export interface AllocWindow {
  bytes: number;
  gcs: number;
  ops: number;
}

/**
 * Bytes allocated by `ops` ops, untimed: heap growth over the window plus what every GC inside it
 * freed (read from v8.GCProfiler's before/after heap statistics). No GC is forced right before
 * the window, so the count is of steady-state allocation. Raw: includes the window's own
 * bookkeeping ({@link netWindow} takes it off).
 */
export function allocationWindow(v8: V8Module, op: Op, ops: number): AllocWindow {
  const profiler = new v8.GCProfiler();
  profiler.start();
  const before = v8.getHeapStatistics().used_heap_size;
  for (let i = 0; i < ops; i++) op(i);
  const after = v8.getHeapStatistics().used_heap_size;
  const data = profiler.stop();
  drainSink();
  let freed = 0;
  const stats = data?.statistics ?? [];
  for (const gc of stats) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  return { bytes: after - before + freed, gcs: stats.length, ops };
}

/**
 * One window less its bookkeeping: the bytes of an empty window (0 ops, same op, same code)
 * run just before it, never below 0. The bookkeeping is the object `getHeapStatistics()` builds
 * after reading the "before" figure: 616 B on Node 20 x64 while this code runs unoptimised, 0 once
 * TurboFan inlines the read and drops the object, so it is measured next to each window.
 *
 * Calibrated in test/measure/allocation.test.ts on known allocations (Node 20 x64, pointer
 * compression off: 8-byte fields): `{a:1,b:2}` 40 B, a heap number 16 B, `[1,2,3]` 32 B (its
 * elements are a copy-on-write boilerplate), `new Array(100).fill(0)` 848 B, a flat 1000-char
 * one-byte string 1016 B: medians within 0.3%. The residue grows with object size: when an
 * object does not fit the rest of a 256 KiB new-space page, V8 fills that tail, and the filler
 * counts as used (about size²/(2·256 KiB) bytes per op: +2.3 B on 1016-byte objects); a window
 * with a scavenge in it can read up to ~0.2% low. Until V8 has decided an allocation site's
 * pretenuring (a few scavenges in), each object a literal allocates also carries a 16-byte
 * memento: the sizing windows and the caller's warmup run past that.
 */
export function netWindow(v8: V8Module, op: Op, ops: number): AllocWindow {
  const overhead = allocationWindow(v8, op, 0).bytes;
  const w = allocationWindow(v8, op, ops);
  return { ...w, bytes: Math.max(0, w.bytes - overhead) };
}

/**
 * How many allocation windows of `ops` ops to take: `policy.allocWindows`, at most 3 when one op
 * fills a window (an op of `allocWindowMinMs` or more: a large payload). Such ops allocate nearly
 * the same bytes every time: over the 103 cases slower than 5 ms of a default suite run (load 6–10),
 * the median of the first 3 windows was within 0.58% of the median of all 5 (their spread: median
 * 0.25%), while each extra window cost one more op (0.1–0.3 s on 10,000-record payloads).
 */
export function windowsFor(ops: number, policy: Pick<MeasurePolicy, 'allocWindows'>): number {
  return ops === 1 ? Math.min(policy.allocWindows, 3) : policy.allocWindows;
}

/**
 * Runs {@link windowsFor} windows (each at least `allocWindowMinMs` long, sized from a timed
 * probe) after the caller's warmup; returns bytes/op of each window ({@link netWindow}) and GCs
 * per op overall. The median window is what results report.
 */
export function measureAllocation(
  v8: V8Module,
  op: Op,
  policy: MeasurePolicy,
): { windowsBytesPerOp: number[]; gcPerOp: number; opsPerWindow: number } {
  let ops = 1;
  for (;;) {
    const t0 = nowNs();
    allocationWindow(v8, op, ops);
    if ((nowNs() - t0) / 1e6 >= policy.allocWindowMinMs || ops >= 1 << 24) break;
    ops *= 2;
  }
  const windows: AllocWindow[] = [];
  for (let w = 0; w < windowsFor(ops, policy); w++) windows.push(netWindow(v8, op, ops));
  const totalOps = windows.reduce((a, w) => a + w.ops, 0);
  return {
    windowsBytesPerOp: windows.map((w) => w.bytes / w.ops),
    gcPerOp: windows.reduce((a, w) => a + w.gcs, 0) / totalOps,
    opsPerWindow: ops,
  };
}
