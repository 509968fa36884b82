import type { encodeMessage, WorkerJob } from './protocol.js';
import type { AllocationProbe } from '../measure/allocation-probe.js';
import type { UserConfig } from '../config/user-config.js';

/** A message as the worker hands it to its transport (without `protocol`). */
export type OutgoingMessage = Parameters<typeof encodeMessage>[0];

/**
 * What the runtime a worker runs in provides to {@link runJob}: the one seam between the portable
 * job (worker/job.ts, measure/) and a runtime's APIs. Node, Bun and Deno fill it in worker/main.ts;
 * Chromium and QuickJS in worker/browser.ts with texts and a channel handed in by the host.
 */
export interface WorkerHost {
  /** Sends one protocol message to the host. */
  send(message: OutgoingMessage): void;
  /**
   * Collects garbage before each side of a round: a minor GC (scavenge) where V8's `gc` is exposed
   * (`gc({ type: 'minor' })`), else a full GC (Bun, browsers); a no-op where the runtime has none.
   */
  gc(): void;
  /** The text of a payload file named in the job (`payloadPath` and its variant). @throws when it cannot be read */
  readText(path: string): string;
  /** The allocation counter this runtime has (asked only by `alloc` jobs). */
  allocationProbe(): Promise<AllocationProbe>;
  /** Loads a user's compiled jsonbench.config; absent where the runtime cannot import files. */
  loadConfig?(path: string): Promise<UserConfig>;
}

/**
 * Thrown by a stand-in for an API this runtime lacks (e.g. `node:fs` inside the browser bundle):
 * the worker reports the case `unsupported` with this reason instead of `failed`.
 */
export class UnsupportedOnTarget extends Error {
  override readonly name = 'UnsupportedOnTarget';
}

export type { WorkerJob };
