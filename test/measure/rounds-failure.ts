import { TimedCheckFailure } from '../../src/measure/timed-check.js';
import { measureRounds, type TimedSide } from '../../src/measure/timing.js';
import type { MeasurePolicy } from '../../src/case/policy.js';

/**
 * The shared fixture of test/measure/check-schedule and random-leaf-changes: times `side` alone (no baseline) under
 * `policy` with measureRounds (src/measure/timing.ts), gc and the round callback doing nothing, and returns the
 * TimedCheckFailure its checks threw, or undefined when every round passed. Any other error is rethrown.
 */
export function roundsFailure(side: TimedSide, policy: MeasurePolicy): TimedCheckFailure | undefined {
  try {
    measureRounds(
      side,
      undefined,
      policy,
      () => {},
      () => {},
    );
  } catch (e) {
    if (e instanceof TimedCheckFailure) return e;
    throw e;
  }
  return undefined;
}
