/**
 * The shapes of what a worker measures that travel unchanged from measure/ through the protocol
 * into the runner: one definition each, so the worker, the transport and the host agree.
 */

/** How a runtime counted allocated bytes: `exact` (Node's V8 accounting), `estimate` (labelled `~`), or `n/a` (no counter). */
export type AllocationMethod = 'exact' | 'estimate' | 'n/a';

/** What the allocation pass reports: bytes/op per window (empty for `n/a`), GCs/op, and how it was counted. */
export interface AllocationMeasurement {
  /** bytes/op of each window (GC-corrected heap growth ÷ ops); empty when `method` is `n/a` */
  windowsBytesPerOp: number[];
  gcPerOp: number;
  opsPerWindow: number;
  method: AllocationMethod;
  /** the sentence saying how it was counted or estimated, or why there is no figure */
  how: string;
}

/** A case's instruction count under callgrind (`run --metric instructions`), as results files record it. */
export interface InstructionStats {
  /** instructions per op: (totals[1] − totals[0]) / (iterations[1] − iterations[0]) */
  perOp: number;
  iterations: [number, number];
  /** callgrind's total instruction count (Ir) at N₁ and N₂ (of two processes that agree, or the median of three) */
  totals: [number, number];
  /** every process's total at N₁ and at N₂ */
  repeats?: [number[], number[]];
  method: 'callgrind';
  /** `valgrind-3.19.0` */
  tool: string;
  /** Node flags of the counted process */
  flags: string[];
}

/**
 * A case's cold start (`run --metric cold-start`, worker/cold.ts): per fresh process, the adapter's
 * load, `prepare()` and the first op, each timed once (ns), by the wall clock and, where the
 * runtime has one, the process CPU clock. Never mixed into the warm figures.
 */
export interface ColdStartStats {
  /** fresh processes whose figures are kept (one entry per process in every list) */
  processes: number;
  loadNs: number[];
  prepareNs: number[];
  firstCallNs: number[];
  /** the same by the process CPU clock (user + system; µs steps), where the runtime has one */
  cpu?: { loadNs: number[]; prepareNs: number[]; firstCallNs: number[] };
  /** why some cold processes gave no figures (failed, timed out), when others did */
  failures?: string[];
}
