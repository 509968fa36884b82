/**
 * The instructions pass of `jsonbench run --metric instructions`: after the timed run, each
 * measured case on the host's Node is counted under callgrind (see callgrind.ts) and gets an
 * `instructions` field. A case whose count fails keeps its other numbers; the failure is reported.
 */
import type { CaseResult } from '../results/types.js';
import type { InstructionStats } from '../case/measurements.js';
import type { PayloadWorkloadSpec } from '../workloads/payload.js';
import { countInstructions, valgrindVersion, VALGRIND_MISSING } from './callgrind.js';
import { coordinatesOf } from '../case/coordinates.js';

/** What the pass needs from the run. */
export interface InstructionsPassInput {
  cases: CaseResult[];
  /** payload file of a case (`<workload>-<size>`), and a user's payload's workload spec */
  payloadOf: (c: CaseResult) => { path: string; spec?: PayloadWorkloadSpec } | undefined;
  /** the config module the run's workers loaded (user adapters, version matrix) */
  configPath?: string;
  /** called before each case is counted, and with each failure */
  log: (line: string) => void;
  /** called when a case got its count (e.g. to add it to the ledger) */
  onCounted?: (c: CaseResult) => void;
  /** injectable counter (tests) */
  count?: typeof countInstructions;
  /**
   * Cases counted at once (`run --jobs`; default 1). Counts are deterministic whatever else runs
   * (callgrind simulates the CPU), so parallel counting changes no figure, only the wall time.
   */
  jobs?: number;
}

/** Checks valgrind is there before anything is timed; returns its version. @throws Error with how to install it. */
export function requireValgrind(): string {
  const v = valgrindVersion();
  if (!v) throw new Error(VALGRIND_MISSING);
  return v;
}

/** Counts every measured host-Node case. Returns how many were counted and which failed (case id → reason). */
export async function runInstructionsPass(
  input: InstructionsPassInput,
  tool: string,
): Promise<{ counted: number; failed: Map<string, string> }> {
  const count = input.count ?? countInstructions;
  const eligible = input.cases.filter(
    (c) => c.status === 'measured' && c.time && (!c.target || c.target.id === 'node'),
  );
  const failed = new Map<string, string>();
  let counted = 0;
  const one = async (c: CaseResult, i: number) => {
    const payload = input.payloadOf(c);
    const payloadPath = payload?.path;
    if (!payload || !payloadPath) {
      failed.set(c.id, 'payload file not found');
      return;
    }
    input.log(`callgrind ${i + 1}/${eligible.length}: ${c.id}`);
    try {
      const stats: InstructionStats = await count(
        {
          ...coordinatesOf(c),
          payloadPath,
          ...(payload.spec ? { workloadSpec: payload.spec } : {}),
          ...(input.configPath ? { configPath: input.configPath } : {}),
        },
        c.payload.bytes,
        tool,
      );
      c.instructions = stats;
      counted++;
      input.onCounted?.(c);
    } catch (e) {
      failed.set(c.id, (e as Error).message);
      input.log(`callgrind failed for ${c.id}: ${(e as Error).message}`);
    }
  };
  let next = 0;
  const slot = async () => {
    while (next < eligible.length) {
      const i = next++;
      await one(eligible[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.jobs ?? 1, eligible.length)) }, slot));
  return { counted, failed };
}
