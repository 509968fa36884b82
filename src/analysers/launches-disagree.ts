import type { LaunchRecord } from '../results/types.js';
import { meanOf, medianOf, medianRelativeError, sampleStandardDeviation } from '../stats/estimate.js';
import { roundRatios } from './analyser.js';

/**
 * One launch's reading of a case, the unit its intervals, its launch states, the `noisy` analyser's
 * "launches disagree" and the stop rule's another-launch test are all made of (one definition:
 * run/assemble.ts, analysers/noisy.ts and run/stop-rule.ts read it here; the third statistical
 * review, sr4, found noisy.ts asking for 2 rounds a launch where the stop rule took 1, and the time
 * test comparing medians of round medians against a yardstick of log launch means):
 * - time: the launch's **mean** time per op (every sample of its rounds, ns/op), as the time
 *   interval's launch means are;
 * - ratio: the **median of its per-round ratios** (analysers/analyser.ts roundRatios), as the
 *   ratio interval's launch ratios are;
 * with `se`, its relative standard error: MAD-based over its rounds (stats/median.ts
 * medianRelativeError), or where that says nothing (fewer than 3 rounds; rounds that all read the
 * same), from the spread of its samples (SD/√n ÷ mean; for a ratio √(se_serializer² +
 * se_baseline²)); Infinity when neither says anything (then it agrees with any other launch).
 * A launch with at least one round (of both sides, for a ratio) has a reading.
 */
export interface LaunchReading {
  value: number;
  se: number;
  /** the launch it was read from */
  launch: LaunchRecord;
}

/** The relative standard error of the mean of `xs` (SD/√n ÷ mean): Infinity with fewer than 2 values or a mean that is not positive. */
function sampleRelativeError(xs: readonly number[]): number {
  if (xs.length < 2) return Infinity;
  const m = meanOf(xs);
  return m > 0 ? sampleStandardDeviation(xs) / Math.sqrt(xs.length) / m : Infinity;
}

/**
 * A launch's relative error from its rounds (MAD-based), or, where that says nothing (fewer than 3
 * rounds; every round read the same, as rounds of a coarse clock do), from the spread of its samples
 * (`fallback`): an error of 0 or Infinity there would leave an interval of launches that agree to
 * the digit with no floor.
 */
function launchError(rounds: readonly number[], fallback: () => number): number {
  const se = medianRelativeError(rounds);
  return se > 0 && Number.isFinite(se) ? se : fallback();
}

/** Each launch's mean time (ns/op, every sample of its rounds) with its relative error ({@link LaunchReading}); launches without a sample are left out. */
export function launchTimeReadings(launches: readonly LaunchRecord[]): LaunchReading[] {
  return launches
    .map((l) => ({ l, rounds: l.rounds.filter((r) => r.serializerNs.length) }))
    .filter((x) => x.rounds.length)
    .map(({ l, rounds }) => {
      const samples = rounds.flatMap((r) => r.serializerNs);
      return {
        value: meanOf(samples),
        se: launchError(
          rounds.map((r) => medianOf(r.serializerNs)),
          () => sampleRelativeError(samples),
        ),
        launch: l,
      };
    });
}

/** Each launch's ratio (the median of its per-round ratios) with its relative error ({@link LaunchReading}); launches without a round of both sides are left out. */
export function launchRatioReadings(launches: readonly LaunchRecord[]): LaunchReading[] {
  return launches
    .map((l) => ({ l, xs: roundRatios(l) }))
    .filter((x) => x.xs.length > 0)
    .map(({ l, xs }) => ({
      value: medianOf(xs),
      se: launchError(xs, () =>
        Math.hypot(
          sampleRelativeError(l.rounds.flatMap((r) => r.serializerNs)),
          sampleRelativeError(l.rounds.flatMap((r) => r.baselineNs)),
        ),
      ),
      launch: l,
    }));
}

/**
 * The readings "launches disagree" and the stop rule compare: of the kept launches (not discarded,
 * with a round), their ratios when `paired`, else their mean times ({@link LaunchReading}), with a
 * positive finite value.
 */
export function keptReadings(launches: readonly LaunchRecord[], paired: boolean): LaunchReading[] {
  const kept = launches.filter((l) => !l.discarded && l.rounds.length > 0);
  return (paired ? launchRatioReadings(kept) : launchTimeReadings(kept)).filter(
    (x) => x.value > 0 && Number.isFinite(x.value),
  );
}
