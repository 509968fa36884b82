/**
 * The dead-code-elimination guard. Every op writes its result into one module-level slot (a
 * single-slot sink, read back after each sample into a checksum the worker reports), and alternates
 * between two identical but distinct copies of its input by iteration parity, so V8 can neither
 * drop the call nor fold it against a constant input (V8 does not elide JSON.parse/stringify, but
 * does fold pure JS fed a constant).
 *
 * The slot is emptied right before each call, so the previous result is garbage while the next
 * one is built, as in a program that sends or drops each result. Keeping it alive through the
 * next call doubled the live heap of large results: a 1.4 MB cons-string tree from
 * fast-json-stringify (users/10000) was then copied by every scavenge, and its cost grew from
 * 3 to 8–19 ms/op with the number of ops per sample (Node 20, 1/4/8 ops per sample). The
 * release is tested in test/measure/dce.test.ts.
 */
let slot: unknown;
let checksum = 0;

/** An op: runs the measured call once for iteration `i`. */
export type Op = (i: number) => void;

/**
 * Builds an op from a call and two copies of its inputs (one entry per unit: one for single/list,
 * the records for many). An op over several units is the whole loop.
 */
export function makeOp(call: (input: unknown) => unknown, copyA: readonly unknown[], copyB: readonly unknown[]): Op {
  if (copyA.length === 1) {
    const a = copyA[0];
    const b = copyB[0];
    return (i) => {
      slot = undefined;
      slot = call((i & 1) === 0 ? a : b);
    };
  }
  return (i) => {
    const xs = (i & 1) === 0 ? copyA : copyB;
    for (let j = 0; j < xs.length; j++) {
      slot = undefined;
      slot = call(xs[j]);
    }
  };
}

/** An op that does nothing but the sink write: the floor a real case must clearly exceed. */
export function makeEmptyOp(copyA: readonly unknown[], copyB: readonly unknown[]): Op {
  return (i) => {
    slot = undefined;
    slot = (i & 1) === 0 ? copyA : copyB;
  };
}

/**
 * Folds the slot into the checksum and empties it (call after each sample, outside the timed
 * loop). Returns the last op's result, which the timed run checks against the gate's (timed-check.ts).
 */
/** The result the last op left in the sink, left there (the timed loop reads the one-before-last result with it: timing.ts). */
export function peekSink(): unknown {
  return slot;
}

export function drainSink(): unknown {
  const v = slot;
  checksum = (checksum + (typeof v === 'string' ? v.length : v === null || v === undefined ? 1 : 2)) % 1_000_000_007;
  slot = undefined;
  return v;
}

/** The checksum so far; the worker reports it so the sink is observably used. */
export function sinkChecksum(): number {
  return checksum;
}
