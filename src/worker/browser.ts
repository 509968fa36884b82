/**
 * The worker for runtimes without files or fd 3 (headless Chromium, QuickJS): the same job as
 * worker/main.ts, bundled into one script that defines `globalThis.__jsonbenchRun(job, bridge)`.
 * The host hands in the job and the payload texts (made and hashed once by the host) and receives
 * each protocol line through `bridge.send` — the same {@link WorkerMessage}s, one JSON line each.
 * The returned promise settles once the job has sent `done` or `error`.
 */
import { encodeMessage, type WorkerJob } from './protocol.js';
import { runJob } from './job.js';
import type { WorkerHost } from './host.js';
import type { AllocationProbe } from '../measure/allocation-probe.js';

/** What the host provides inside the page or the QuickJS context. */
export interface BrowserBridge {
  /** receives one protocol line (JSON + newline) */
  send(line: string): void;
  /** payload path → text, for `payloadPath` and its variant */
  texts: Record<string, string>;
  runtime: string;
  version: string;
  /** why allocation has no figure here, when the runtime has no heap counter */
  noAllocationReason?: string;
}

interface PageGlobals {
  gc?: () => void;
  performance?: { memory?: { usedJSHeapSize: number } };
  __jsonbenchRun?: (job: WorkerJob, bridge: BrowserBridge) => Promise<void>;
}
const g = globalThis as unknown as PageGlobals;

function allocationProbe(bridge: BrowserBridge): AllocationProbe {
  const gc = g.gc;
  const memory = g.performance?.memory;
  if (bridge.noAllocationReason || !memory || typeof gc !== 'function') {
    return {
      method: 'n/a',
      how: bridge.noAllocationReason ?? `${bridge.runtime} exposes no heap counter (performance.memory) or no gc()`,
    };
  }
  return {
    method: 'estimate',
    gc,
    heapUsedBytes: () => g.performance!.memory!.usedJSHeapSize,
    how: 'heap growth of performance.memory.usedJSHeapSize (--enable-precise-memory-info) over ~256 KiB windows each after a forced GC; windows where the heap shrank (a GC ran) dropped; can undercount',
  };
}

/** Runs one job with the bridge's texts and channel. Never rejects (errors become `error` messages). */
export async function runInBrowser(job: WorkerJob, bridge: BrowserBridge): Promise<void> {
  const send: WorkerHost['send'] = (m) => bridge.send(encodeMessage(m));
  const gc = g.gc;
  send({ type: 'hello', runtime: bridge.runtime, version: bridge.version, gc: typeof gc === 'function' });
  await runJob(job, {
    send,
    gc: typeof gc === 'function' ? () => gc() : () => {},
    readText: (path) => {
      const text = bridge.texts[path];
      if (typeof text !== 'string') throw new Error(`payload ${path} was not handed to this runtime`);
      return text;
    },
    allocationProbe: async () => allocationProbe(bridge),
  });
}

g.__jsonbenchRun = runInBrowser;
