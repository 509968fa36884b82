import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import { nowNs } from './clock.js';
import { drainSink, type Op } from './sink.js';
import { measureAllocation, type V8Module } from './allocation.js';

/**
 * How a runtime can count allocated bytes, with an honest label:
 * - `exact`: GC-corrected V8 heap accounting through `node:v8`'s GCProfiler (Node).
 * - `estimate` with `v8`: the same accounting through another runtime's `node:v8` compatibility
 *   layer (Deno, Bun): same method, but the layer is not the engine's own, so not called exact.
 * - `estimate` with `heapUsedBytes`: heap growth over short windows started after a forced GC,
 *   windows in which the heap shrank (a GC ran) dropped; a GC that freed less than the window
 *   allocated goes unseen, so this can undercount.
 * - `n/a`: no counter; `reason` says why.
 * `how` is the sentence results and reports show next to the number.
 */
export type AllocationProbe =
  | { method: 'exact'; how: string; v8: V8Module }
  | { method: 'estimate'; how: string; v8: V8Module }
  | { method: 'estimate'; how: string; heapUsedBytes: () => number; gc: () => void }
  | { method: 'n/a'; how: string };

/** Bytes a heap-growth window aims to allocate: far below V8's 1 MiB initial semi-space, so a scavenge is unlikely inside it. */
export const HEAP_WINDOW_TARGET_BYTES = 256 * 1024;

/**
 * Heap-growth estimate (see {@link AllocationProbe}): one probe op sizes the window to about
 * {@link HEAP_WINDOW_TARGET_BYTES}, then `policy.allocWindows` windows (at least 3× as many tries)
 * each after a forced GC; windows whose heap shrank are dropped. Returns bytes/op of the kept
 * windows (empty when every window saw a GC).
 */
export function measureHeapGrowth(
  heapUsedBytes: () => number,
  gc: () => void,
  op: Op,
  policy: MeasurePolicy,
): { windowsBytesPerOp: number[]; opsPerWindow: number } {
  const windowOf = (ops: number): number | null => {
    gc();
    const before = heapUsedBytes();
    for (let i = 0; i < ops; i++) op(i);
    const after = heapUsedBytes();
    drainSink();
    return after >= before ? (after - before) / ops : null;
  };
  let ops = 1;
  const t0 = nowNs();
  const probe = windowOf(ops);
  if (probe && probe > 0) ops = Math.max(1, Math.floor(HEAP_WINDOW_TARGET_BYTES / probe));
  else if ((nowNs() - t0) / 1e6 < 1) ops = 64;
  const windows: number[] = [];
  for (let tries = 0; windows.length < policy.allocWindows && tries < 3 * policy.allocWindows; tries++) {
    const w = windowOf(ops);
    if (w !== null) windows.push(w);
  }
  return { windowsBytesPerOp: windows, opsPerWindow: ops };
}

/** Runs the allocation pass with whichever counter the runtime has; never throws for `n/a`. */
export function measureWithProbe(probe: AllocationProbe, op: Op, policy: MeasurePolicy): AllocationMeasurement {
  if (probe.method === 'n/a')
    return { windowsBytesPerOp: [], gcPerOp: 0, opsPerWindow: 0, method: 'n/a', how: probe.how };
  if ('v8' in probe) return { ...measureAllocation(probe.v8, op, policy), method: probe.method, how: probe.how };
  const grown = measureHeapGrowth(probe.heapUsedBytes, probe.gc, op, policy);
  if (!grown.windowsBytesPerOp.length)
    return {
      windowsBytesPerOp: [],
      gcPerOp: 0,
      opsPerWindow: grown.opsPerWindow,
      method: 'n/a',
      how: `${probe.how}; but a GC ran in every window, so no figure`,
    };
  return { ...grown, gcPerOp: 0, method: 'estimate', how: probe.how };
}
