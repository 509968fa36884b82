/**
 * When a case gets another launch beyond the policy's `launches` (pure): while some two of its
 * kept launches disagree beyond their intervals ({@link needsAnotherLaunch}), up to `maxLaunches`.
 */
import type { LaunchRecord } from '../results/types.js';
import { roundRatios } from '../analysers/analyser.js';
import { launchesDisagree, medianOf, medianRelativeError } from '../stats/estimate.js';

/**
 * A launch's estimate and its relative standard error: the median per-round ratio of a paired
 * case, else the median per-round median of the serializer's samples (stats/estimate.ts
 * medianRelativeError); null without rounds.
 */
export function launchEstimate(launch: LaunchRecord, paired: boolean): { value: number; se: number } | null {
  const xs = paired
    ? roundRatios(launch)
    : launch.rounds.filter((r) => r.serializerNs.length).map((r) => medianOf(r.serializerNs));
  return xs.length ? { value: medianOf(xs), se: medianRelativeError(xs) } : null;
}

/**
 * Whether a case needs another launch: some two of its kept launches disagree beyond their
 * intervals at `confidence` ({@link launchesDisagree}).
 */
export function needsAnotherLaunch(launches: readonly LaunchRecord[], paired: boolean, confidence: number): boolean {
  const est = launches
    .filter((l) => !l.discarded)
    .map((l) => launchEstimate(l, paired))
    .filter((e) => e !== null);
  for (let i = 0; i < est.length; i++)
    for (let j = i + 1; j < est.length; j++) {
      if (launchesDisagree(est[i].value, est[i].se, est[j].value, est[j].se, confidence)) return true;
    }
  return false;
}
