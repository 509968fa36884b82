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
/**
 * The checked unit of the op being run (timing.ts timeSample, check-schedule.ts): -1 when none; else a random
 * integer whose remainder by the op's unit count is the unit whose result is kept ({@link pickedResult}).
 */
let armed = -1;
let held: unknown;
let heldUnit = -1;

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
    const at = armed < 0 ? -1 : armed % xs.length;
    for (let j = 0; j < xs.length; j++) {
      slot = undefined;
      slot = call(xs[j]);
      if (j === at) {
        held = slot;
        heldUnit = j;
      }
    }
  };
}

/**
 * Before an op whose result is checked (timing.ts timeSample): `r` (a random integer ≥ 0) picks the unit of an op
 * over several units whose result {@link pickedResult} returns (its remainder by the unit count); an op of one unit
 * gives its only result.
 */
export function armPick(r: number): void {
  armed = r;
  held = undefined;
  heldUnit = -1;
}

/** After the op {@link armPick} was called for: the picked unit's result and its index (0 for an op of one unit); disarms. */
export function pickedResult(): unknown {
  armed = -1;
  const v = heldUnit < 0 ? slot : held;
  held = undefined;
  return v;
}

/** The unit index of the last {@link pickedResult} (0 for an op of one unit). */
export function pickedUnit(): number {
  return heldUnit < 0 ? 0 : heldUnit;
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
