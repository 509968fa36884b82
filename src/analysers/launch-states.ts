import { isMeasured, type MeasuredCase } from '../results/types.js';
import { ratioIntervalOf } from '../results/ratio.js';
import { meanOf, medianOf, medianRelativeError } from '../stats/estimate.js';
import { launchStates, type LaunchState } from '../stats/intervals.js';
import { formatNs, keptLaunches, roundRatios, type Analyser } from './analyser.js';

/** A state as the message says it: its value and how many launches read it. */
function stateText(s: LaunchState, value: (v: number) => string): string {
  return `${value(s.value)} (${s.launches.length} launch${s.launches.length === 1 ? '' : 'es'})`;
}

/** The states of a paired case's launch ratios (each launch's median per-round ratio, its MAD-based error), or [] when unpaired. */
function ratioStates(c: MeasuredCase, confidence: number): LaunchState[] {
  if (c.ratio === null || c.serializer === c.baseline) return [];
  const launches = keptLaunches(c)
    .map(roundRatios)
    .filter((xs) => xs.length > 0);
  return launchStates(
    launches.map((xs) => medianOf(xs)),
    launches.map(medianRelativeError),
    confidence,
  );
}

/** The states of a case's launch means (each launch's mean time; error MAD-based, over its rounds' medians). */
function timeStates(c: MeasuredCase, confidence: number): LaunchState[] {
  const launches = keptLaunches(c)
    .map((l) => l.rounds.filter((r) => r.serializerNs.length))
    .filter((rs) => rs.length > 0);
  return launchStates(
    launches.map((rs) => meanOf(rs.flatMap((r) => r.serializerNs))),
    launches.map((rs) => medianRelativeError(rs.map((r) => medianOf(r.serializerNs)))),
    confidence,
  );
}

/**
 * `launch-states`: a case's launches fell into distinct states — sorted, neighbouring launches
 * disagree beyond their own within-launch errors at the run's confidence (stats/intervals.ts
 * launchStates) — so no single centre describes the case. Issue 23's worst case: a launch pair read
 * 3.49 and 4.44, a third 4.44, and the median picked 4.44 while five other runs read 3.41–3.43. The
 * run then reports the interval widened to cover every launch (run/assemble.ts), and this finding
 * names each state with its launches, the ratio's first (it is what ranks), else the time's. Fires
 * only with 2 or more launches in different states; a state of one launch counts (with 2 launches
 * that disagree, either may be the usual one).
 */
export const launchStatesAnalyser: Analyser = {
  id: 'launch-states',
  analyse(c, context) {
    if (!isMeasured(c)) return [];
    const confidence = context.policy.confidence;
    const ratio = ratioStates(c, confidence);
    if (ratio.length >= 2) {
      const iv = ratioIntervalOf(c);
      const shown = iv ? ` [${iv[0].toFixed(2)}–${iv[1].toFixed(2)}]` : '';
      return [
        {
          code: 'launch-states',
          message: `the launches fell into ${ratio.length} distinct states, each launch's own error far smaller than the gap between them: ratio ${ratio.map((s) => stateText(s, (v) => v.toFixed(3))).join(', ')}. The reported ratio ${c.ratio!.toFixed(2)}${shown} is widened to cover them all, and describes no single state; rerun before relying on it, and read each state as the process or machine state it was measured in`,
        },
      ];
    }
    const time = timeStates(c, confidence);
    if (time.length < 2) return [];
    return [
      {
        code: 'launch-states',
        message: `the launches fell into ${time.length} distinct states, each launch's own error far smaller than the gap between them: mean time ${time.map((s) => stateText(s, formatNs)).join(', ')}. The reported mean ${formatNs(c.time.mean)} ± ${formatNs(c.time.error)} is widened to cover them all, and describes no single state`,
      },
    ];
  },
};
