import type { MeasurePolicy } from '../worker/protocol.js';
import { nowNs } from './clock.js';
import { drainSink, type Op } from './sink.js';

/** The parts of `node:v8` the allocation probe uses (GCProfiler: Node ≥ 18.15 / 19.6). */
export interface V8Module {
  getHeapStatistics(): { used_heap_size: number };
  GCProfiler: new () => {
    start(): void;
    stop(): { statistics: { beforeGC: { heapStatistics: { usedHeapSize: number } }; afterGC: { heapStatistics: { usedHeapSize: number } } }[] } | undefined;
  };
}

/** One allocation window: bytes allocated and GCs seen while running `ops` ops. */
export interface AllocWindow { bytes: number; gcs: number; ops: number }

/**
 * Bytes allocated by `ops` ops, untimed: heap growth over the window plus what every GC inside it
 * freed (read from v8.GCProfiler's before/after heap statistics). No GC is forced right before
 * the window, so the count is of steady-state allocation.
 *
 * Caveats (reported with results): Node 20's release build has pointer compression off (8-byte
 * fields: `{a:1,b:2}` is 40 bytes), and the count includes V8's heap filler for large objects.
 * Calibrated in test/measure/allocation.test.ts on known allocations.
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
 * Runs `policy.allocWindows` windows (each at least `allocWindowMinMs` long, sized from a timed
 * probe) after the caller's warmup; returns bytes/op of each window and GCs per op overall.
 * The median window is what results report.
 */
export function measureAllocation(v8: V8Module, op: Op, policy: MeasurePolicy): { windowsBytesPerOp: number[]; gcPerOp: number; opsPerWindow: number } {
  let ops = 1;
  for (;;) {
    const t0 = nowNs();
    allocationWindow(v8, op, ops);
    if ((nowNs() - t0) / 1e6 >= policy.allocWindowMinMs || ops >= 1 << 24) break;
    ops *= 2;
  }
  const windows: AllocWindow[] = [];
  for (let w = 0; w < policy.allocWindows; w++) windows.push(allocationWindow(v8, op, ops));
  const totalOps = windows.reduce((a, w) => a + w.ops, 0);
  return {
    windowsBytesPerOp: windows.map((w) => w.bytes / w.ops),
    gcPerOp: windows.reduce((a, w) => a + w.gcs, 0) / totalOps,
    opsPerWindow: ops,
  };
}
